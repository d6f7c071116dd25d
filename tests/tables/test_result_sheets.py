"""Results a player can check: every result sheet, game-over block, drop cost and refusal, as
the table page shows them to each viewer (Django test client), after playing the deals through
the services with planted hands."""

from __future__ import annotations

import html as html_lib
import re
from collections.abc import Callable
from typing import Any

import pytest
from classic_helpers import ClassicPlanter
from django.urls import reverse
from tables_testkit import Planter, TableDriver, plant, plant_and_play, play

from tables import presenters, services
from tables.models import GameStatus

HTMX = {"HTTP_HX_REQUEST": "true"}
MINUS = "\N{MINUS SIGN}"


# --------------------------------------------------------------------------- reading pages


def _page(client: Any, t: TableDriver, seat: int) -> str:
    client.force_login(t.users[seat])
    response = client.get(reverse("table", args=[t.table.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _text(fragment: str) -> str:
    """The words a player reads: tags dropped, entities decoded, spaces collapsed."""
    text = re.sub(r"<[^>]+>", " ", fragment)
    return re.sub(r"\s+", " ", html_lib.unescape(text)).strip()


def _section(page: str, section_id: str) -> str:
    assert f'id="{section_id}"' in page, f"no #{section_id} on the page"
    return page.split(f'id="{section_id}"', 1)[1].split("</section>", 1)[0]


def _sheet_rows(page: str) -> dict[str, str]:
    """The result sheet's rows, by player name: the row's HTML."""
    sheet = _section(page, "scoreboard")
    rows = {}
    for row in sheet.split('<tr class="sheet-row')[1:]:
        row = row.split("</tr>", 1)[0]
        name = _text(row.split("<strong>", 1)[1].split("</strong>", 1)[0])
        rows[name] = row
    return rows


def _groups(row: str) -> list[tuple[list[str], str]]:
    """(card codes, kind label) of each group shown in a sheet row."""
    found = []
    for part in row.split('<span class="mini-group')[1:]:
        codes = re.findall(r'data-code="([^"]+)"', part.split('<small class="mini-kind">')[0])
        kind = re.search(r'<small class="mini-kind">([^<]*)</small>', part)
        found.append((codes, kind.group(1) if kind else ""))
    return found


def _cells(row: str) -> list[str]:
    return [_text(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)]


def _name(t: TableDriver, seat: int) -> str:
    return str(t.users[seat].public_name)


# --------------------------------------------------------------------------- a pool deal


def test_a_pool_deal_result_sheet_shows_groups_kinds_finish_card_points_and_totals(
    client: Any, seated: Any, planter: Planter, toss: Any
) -> None:
    toss(1)
    first = {1: 0, 2: 34, 3: 48}
    planned = plant(planter, first)
    t = seated(3, variant="pool101")
    play(t, *planned, first)
    last = t.view()["last_deal"]
    finish = last["finish_card"]
    assert finish
    page = _page(client, t, 2)
    sheet = _section(page, "scoreboard")
    assert "Deal 1 result" in sheet
    assert f"{_name(t, 1)} made a valid show and wins the deal." in _text(sheet)
    rows = _sheet_rows(page)
    assert set(rows) == {_name(t, s) for s in (1, 2, 3)}

    winner = rows[_name(t, 1)]
    assert _groups(winner) == [
        (["AS", "2S", "3S", "4S"], "pure sequence"),
        (["5H", "6H", "7H"], "pure sequence"),
        (["9D", "10D", "JD"], "pure sequence"),
        (["KC", "KD", "KH"], "set"),
        ([finish], "finish card"),
    ]
    assert "valid show" in _text(winner) and "winner" in _text(winner)
    # Points this deal, then the running total.
    assert _cells(winner)[2:4] == ["0", "0"]

    loser = rows[_name(t, 3)]
    kinds = [kind for _, kind in _groups(loser)]
    assert kinds[:2] == ["pure sequence", "pure sequence"]
    assert set(kinds[2:]) == {"invalid"}  # the loose cards
    assert _cells(loser)[2:4] == ["48", "48"]
    assert "counted" in _text(loser)
    assert _cells(rows[_name(t, 2)])[2:4] == ["34", "34"]
    # No money column while the game goes on: nothing was won or lost yet.
    assert "Won / lost" not in sheet

    # The next deal adds to the running totals.
    plant_and_play(t, planter, {1: 20, 2: 0, 3: 13})
    rows = _sheet_rows(_page(client, t, 1))
    assert "Deal 2 result" in _page(client, t, 1)
    assert _cells(rows[_name(t, 1)])[2:4] == ["20", "20"]
    assert _cells(rows[_name(t, 2)])[2:4] == ["0", "34"]
    assert _cells(rows[_name(t, 3)])[2:4] == ["13", "61"]
    history = _text(_section(_page(client, t, 1), "score-history"))
    assert "Total 20 34 61" in history


# --------------------------------------------------------------------------- a wrong show

# Seat 1 picks FINISH from the closed deck and declares with it in the finish slot.
FINISH = "8C"
WRONG_SHOWS = {
    "no pure sequence": (
        [["5H", "6H", "QS"], ["9D", "10D", "QH"], ["KC", "KD", "KH"], ["2C", "2D", "2S"], ["7S"]],
        "No pure sequence: a show needs at least one sequence with no joker standing in.",
    ),
    "only one sequence": (
        [["AS", "2S", "3S", "4S"], ["KC", "KD", "KH"], ["2C", "2D", "2H"], ["5H", "5S", "5C"]],
        "Only one sequence: a show needs two sequences, at least one of them pure.",
    ),
    "an invalid group": (
        [["AS", "2S", "3S", "4S"], ["5H", "6H", "7H"], ["9D", "10D", "JD"], ["KC", "KD", "5C"]],
        "K♣ K♦ 5♣ is not a valid set or sequence.",
    ),
}


def _wrong_show(t: TableDriver, groups: list[list[str]]) -> None:
    assert t.turn() == 1
    t.act(1, "pick_closed")
    assert t.view(1)["hand"]["picked"] == FINISH
    t.act(1, "declare", finish_card=FINISH, groups=groups)


@pytest.mark.parametrize("case", sorted(WRONG_SHOWS))
def test_a_wrong_show_names_its_reason_on_the_result_sheet(
    client: Any, seated: Any, planter: Planter, toss: Any, case: str
) -> None:
    groups, reason = WRONG_SHOWS[case]
    toss(1)
    planter.add(
        hands={1: [c for g in groups for c in g]}, open_card="JC", cut_card="QC", closed_top=FINISH
    )
    t = seated(2, variant="pool101")
    _wrong_show(t, groups)
    last = t.view()["last_deal"]
    assert {r["seat"]: r["outcome"] for r in last["results"]} == {1: "wrong_show", 2: "won"}
    for seat in (1, 2):  # both players read the same reason once the deal is over
        page = _page(client, t, seat)
        row = _sheet_rows(page)[_name(t, 1)]
        assert f'<p class="wrong-reason">{html_lib.escape(reason)}</p>' in row
        assert "wrong show" in _text(row)
        assert _cells(row)[2] == "80"
        shown = _groups(row)
        assert [codes for codes, _ in shown[:-1]] == groups
        assert shown[-1] == ([FINISH], "finish card")
        assert (
            f"{_name(t, 1)} made a wrong show: {_name(t, 2)}, the last player in, wins the deal."
        ) in _text(page)
        assert 'id="table-notice"' not in page  # the deal is over: the sheet says why


def test_a_wrong_show_in_a_deal_that_goes_on_is_explained_to_the_declarer_only(
    client: Any, seated: Any, planter: Planter, toss: Any
) -> None:
    groups, reason = WRONG_SHOWS["an invalid group"]
    toss(1)
    planter.add(
        hands={1: [c for g in groups for c in g]}, open_card="JC", cut_card="QC", closed_top=FINISH
    )
    t = seated(3, variant="pool101")
    _wrong_show(t, groups)
    assert t.phase() == "turn"  # two players are left: the deal goes on
    mine = _text(_section(_page(client, t, 1), "table-root").split("</header>", 1)[1])
    assert f"Your show was wrong: {reason} You score 80 points for this deal" in mine
    other = _page(client, t, 2)
    notice = other.split('id="table-notice"', 1)[1].split("</div>", 1)[0]
    assert f"{_name(t, 1)} made a wrong show and scores 80 points." in _text(notice)
    # The others do not see the declarer's cards before the deal ends.
    assert "K♣ K♦ 5♣" not in other


def test_wrong_show_reasons_in_words() -> None:
    assert presenters.wrong_show_reason([["AS", "2S", "3S"]], "QC") == (
        "Wrong card count: a show groups 13 cards besides the finish card; these groups hold 3."
    )
    valid = [["AS", "2S", "3S", "4S"], ["5H", "6H", "7H"], ["9D", "10D", "JD"], ["KC", "QD", "KH"]]
    assert presenters.wrong_show_reason(valid, "QC") == ""


@pytest.mark.parametrize(
    ("groups", "words"),
    [
        (
            [["AS", "2S", "3S", "4S"], ["5H", "7H", "9H"], ["9D", "10D", "JD"], ["KC", "QD", "KH"]],
            "5♥ 7♥ 9♥ is not a valid set or sequence.",
        ),
        (
            [["AS", "QC", "3S", "4S"], ["5H", "5D", "5C"], ["9D", "9H", "9S"], ["KC", "KD", "KH"]],
            "No pure sequence: a show needs at least one sequence with no joker standing in.",
        ),
        (
            [["AS", "2S", "3S", "4S"], ["5H", "5D", "5C"], ["9D", "9H", "9S"], ["KC", "KD", "KH"]],
            "Only one sequence: a show needs two sequences, at least one of them pure.",
        ),
    ],
    ids=["invalid_group", "no_pure_sequence", "one_sequence"],
)
def test_every_wrong_show_is_worded_by_its_code(groups: list[list[str]], words: str) -> None:
    assert presenters.wrong_show_reason(groups, "QC") == words


# --------------------------------------------------------------------------- the drop cost


def _drop_form(page: str) -> tuple[str, str]:
    """(button label, confirm question) of the Drop form."""
    form = page.split('class="inline act act-drop"', 1)[1].split("</form>", 1)[0]
    confirm = re.search(r'hx-confirm="([^"]*)"', form)
    label = re.search(r"<button[^>]*>([^<]*)</button>", form)
    assert confirm and label
    return html_lib.unescape(label.group(1)), html_lib.unescape(confirm.group(1))


def _auto_drop_label(page: str) -> str:
    form = page.split('class="inline act act-set_auto_drop"', 1)[1].split("</form>", 1)[0]
    label = re.search(r"<button[^>]*>([^<]*)</button>", form)
    assert label
    return html_lib.unescape(label.group(1))


@pytest.mark.parametrize(
    ("variant", "fields", "first", "middle", "first_after", "middle_after"),
    [
        ("pool101", {}, 20, 40, "Your total becomes 20 of 101.", "Your total becomes 40 of 101."),
        ("pool201", {}, 25, 50, "Your total becomes 25 of 201.", "Your total becomes 50 of 201."),
        (
            "points",
            {"point_value": 10},
            20,
            40,
            "You pay ₹2.00 (₹0.10 a point).",
            "You pay ₹4.00 (₹0.10 a point).",
        ),
    ],
)
def test_the_drop_says_what_it_costs_now(
    client: Any,
    seated: Any,
    toss: Any,
    variant: str,
    fields: dict[str, Any],
    first: int,
    middle: int,
    first_after: str,
    middle_after: str,
) -> None:
    toss(1)
    t = seated(3, variant=variant, **fields)
    # First turn, before picking: a first drop.
    label, confirm = _drop_form(_page(client, t, 1))
    assert label == f"Drop ({first} points)"
    assert (
        confirm
        == f"Drop now: {first} points. {first_after} You sit out the rest of this deal. Drop?"
    )
    # After picking, drop is no longer offered now; auto drop would be a middle drop next turn.
    t.act(1, "pick_closed")
    page = _page(client, t, 1)
    assert "act-drop" not in page
    assert _auto_drop_label(page) == f"Auto drop ({middle} points)"
    t.act(1, "discard", card=t.view(1)["hand"]["picked"])
    # Another player, still before their first turn: auto drop would be a first drop.
    assert _auto_drop_label(_page(client, t, 3)) == f"Auto drop ({first} points)"
    for seat in (2, 3):
        t.act(seat, "pick_closed")
        t.act(seat, "discard", card=t.view(seat)["hand"]["picked"])
    # Seat 1's second turn: a middle drop.
    label, confirm = _drop_form(_page(client, t, 1))
    assert label == f"Drop ({middle} points)"
    assert confirm.startswith(f"Middle drop: {middle} points. {middle_after}")


def test_a_drop_that_reaches_the_pool_limit_says_so(
    client: Any, seated: Any, planter: Planter, toss: Any
) -> None:
    toss(1)
    first = {1: 0, 2: 61}
    planned = plant(planter, first)
    t = seated(2, variant="pool101")
    play(t, *planned, first)
    plant_and_play(t, planter, {1: 0, 2: 20})
    assert t.totals() == {1: 0, 2: 81}
    t.settle_break()
    if t.turn() != 2:
        t.act(1, "pick_closed")
        t.act(1, "discard", card=t.view(1)["hand"]["picked"])
    _label, confirm = _drop_form(_page(client, t, 2))
    assert confirm.startswith(
        "Drop now: 20 points. Your total becomes 101: at 101 you are out of the game."
    )


def test_deals_with_two_players_offer_no_drop(client: Any, seated: Any, toss: Any) -> None:
    toss(1)
    t = seated(2, variant="deals", deals_count=2)
    page = _page(client, t, 1)
    assert "act-drop" not in page and "act-set_auto_drop" not in page


# --------------------------------------------------------------------------- game over: pool


def test_pool_game_over_names_the_prize_the_winner_and_each_players_money(
    client: Any, seated: Any, planter: Planter, toss: Any
) -> None:
    toss(1)
    first = {1: 0, 2: 61}
    planned = plant(planter, first)
    t = seated(2, variant="pool101", entry_fee=1000, platform_fee_bps=1000)
    play(t, *planned, first)
    plant_and_play(t, planter, {1: 0, 2: 40})
    game = t.game()
    assert game.status == GameStatus.FINISHED
    assert game.result["settlement"] == {"payouts": {"1": 1800}, "fee": 200}
    for seat in (1, 2):
        page = _page(client, t, seat)
        result = _text(_section(page, "game-result"))
        assert f"{_name(t, 1)} wins the prize of ₹18.00." in result
        assert f"{_name(t, 1)} wins ₹18.00 (the prize)" in result
        assert "Platform fee ₹2.00." in result
        settlement = _section(page, "game-result").split('id="settlement"', 1)[1]
        rows = {
            cells[0]: cells[1:]
            for cells in (_cells(r) for r in settlement.split("<tr>")[2:])
            if cells
        }
        assert rows == {
            _name(t, 1): ["₹10.00", "₹18.00", "+₹8.00"],
            _name(t, 2): ["₹10.00", "₹0.00", f"{MINUS}₹10.00"],
        }
        # The last deal's sheet now shows the money too.
        sheet_rows = _sheet_rows(page)
        assert _cells(sheet_rows[_name(t, 1)])[-1] == "+₹8.00"
        assert _cells(sheet_rows[_name(t, 2)])[-1] == f"{MINUS}₹10.00"
        assert _cells(sheet_rows[_name(t, 2)])[2:4] == ["40", "101"]
        assert "minor" not in result and "1800" not in result


def test_a_split_prize_names_every_share_and_each_net(
    client: Any, seated: Any, planter: Planter, toss: Any
) -> None:
    toss(1)
    first = {1: 0, 2: 45, 3: 61}
    planned = plant(planter, first)
    t = seated(3, variant="pool101")
    play(t, *planned, first)
    plant_and_play(t, planter, {1: 0, 2: 40, 3: 40})
    plant_and_play(t, planter, {1: 60, 2: 0})
    for seat in (1, 2):
        t.act(seat, "split_accept")
    page = _page(client, t, 3)
    result = _text(_section(page, "game-result"))
    assert "The prize of ₹27.00 was split by agreement." in result
    assert f"{_name(t, 1)} wins ₹20.25 (share of the split prize)" in result
    assert f"{_name(t, 2)} wins ₹6.75 (share of the split prize)" in result
    assert f"{_name(t, 1)} ₹10.00 ₹20.25 +₹10.25" in result
    assert f"{_name(t, 2)} ₹10.00 ₹6.75 {MINUS}₹3.25" in result
    assert f"{_name(t, 3)} ₹10.00 ₹0.00 {MINUS}₹10.00" in result


# --------------------------------------------------------------------------- points


def test_a_points_deal_shows_points_and_each_players_settlement_in_rupees(
    client: Any, seated: Any, planter: Planter, toss: Any
) -> None:
    toss(1)
    first = {1: 0, 2: 34, 3: 48}
    planned = plant(planter, first)
    t = seated(3, variant="points", point_value=10, platform_fee_bps=1000)
    play(t, *planned, first)
    assert t.game().result["settlement"] == {"payouts": {"1": 1538, "2": 460, "3": 320}, "fee": 82}
    page = _page(client, t, 2)
    rows = _sheet_rows(page)
    # Points this deal, the running total (the points, not 0), the money of this deal.
    assert _cells(rows[_name(t, 1)])[2:] == ["0", "0", "+₹7.38"]
    assert _cells(rows[_name(t, 2)])[2:] == ["34", "34", f"{MINUS}₹3.40"]
    assert _cells(rows[_name(t, 3)])[2:] == ["48", "48", f"{MINUS}₹4.80"]
    assert "Won / lost this deal" in _section(page, "scoreboard")
    history = _text(_section(page, "score-history"))
    assert "Total 0 34 48" in history and "Total 0 0 0" not in history
    result = _text(_section(page, "game-result"))
    assert f"{_name(t, 1)} won the deal. Each loser pays ₹0.10 a point" in result
    assert f"{_name(t, 1)} wins ₹7.38 (after the platform fee)" in result
    assert f"{_name(t, 2)} 34 ₹8.00 ₹4.60 {MINUS}₹3.40" in result
    assert f"{_name(t, 3)} 48 ₹8.00 ₹3.20 {MINUS}₹4.80" in result
    assert f"{_name(t, 1)} 0 ₹8.00 ₹15.38 +₹7.38" in result
    assert "Platform fee ₹0.82." in result


# --------------------------------------------------------------------------- deals


def test_a_deals_game_shows_chips_per_deal_and_the_prize(
    client: Any, seated: Any, planter: Planter, toss: Any
) -> None:
    toss(1)
    first = {1: 0, 2: 30}
    planned = plant(planter, first)
    t = seated(2, variant="deals", deals_count=2)
    play(t, *planned, first)
    page = _page(client, t, 2)
    assert "Chips" in _section(page, "scoreboard")
    rows = _sheet_rows(page)
    assert _cells(rows[_name(t, 1)])[2:] == ["0", "190"]
    assert _cells(rows[_name(t, 2)])[2:] == ["30", "130"]
    plant_and_play(t, planter, {1: 0, 2: 20})
    game = t.game()
    assert game.status == GameStatus.FINISHED
    payout = game.result["settlement"]["payouts"]["1"]
    page = _page(client, t, 2)
    rows = _sheet_rows(page)
    assert _cells(rows[_name(t, 1)])[2:] == [
        "0",
        "210",
        presenters.signed_money(payout - 1000, "cash"),
    ]
    assert _cells(rows[_name(t, 2)])[2:] == ["20", "110", f"{MINUS}₹10.00"]
    result = _text(_section(page, "game-result"))
    prize = presenters.money(payout, "cash")
    assert f"{_name(t, 1)} wins the prize of {prize}." in result
    assert f"{_name(t, 2)} ₹10.00 ₹0.00 {MINUS}₹10.00" in result


# --------------------------------------------------------------------------- classic

RUMMY_HAND = "4H 5H 6H 7H 9S 9D 9C JC QC KC"
RUMMY_MELDS = [["4H", "5H", "6H", "7H"], ["9S", "9D", "9C"], ["JC", "QC", "KC"]]
LOSER_HAND = "2S 2H 2C 3S 3H 3D 3C 4S 4D 4C"  # 30 points


@pytest.fixture
def classic_table(
    template_factory: Callable[..., Any],
    players: list[Any],
    clock: Any,
    toss: Callable[[int], None],
    classic_planter: ClassicPlanter,
) -> Callable[..., TableDriver]:
    def make(n: int, **fields: Any) -> TableDriver:
        toss(1)
        fields.setdefault("hands_count", 1)
        template = template_factory(
            variant="classic",
            seats_min=n,
            seats_max=n,
            entry_fee=1000,
            platform_fee_bps=1000,
            **fields,
        )
        table = services.table_create(template=template)
        for i in range(n):
            services.table_join(table=table, user=players[i], seat_no=i + 1)
        return TableDriver(table, {i + 1: players[i] for i in range(n)}, clock)

    return make


def _go_rummy(t: TableDriver, seat: int) -> None:
    assert t.turn() == seat
    t.act(seat, "pick_closed")
    t.act(seat, "lay_down", melds=RUMMY_MELDS)
    t.act(seat, "discard", card="KD")


def test_classic_says_hand_and_offers_a_sort_button(
    client: Any, classic_table: Any, classic_planter: ClassicPlanter
) -> None:
    t = classic_table(2, hands_count=3)
    page = _page(client, t, 1)
    root = _text(_section(page, "table-root").split("</header>", 1)[0])
    assert "hand 1 of 3" in root
    visible = _text(page.split('id="table-root"', 1)[1])
    assert not re.search(r"\bdeals?\b", visible, flags=re.I), visible
    assert 'id="sort-hand"' in page and "Sort by rank" in page
    assert "Leaving takes you out of this hand" in page


def test_classic_hand_result_shows_going_rummy_and_the_payouts(
    client: Any, classic_table: Any, classic_planter: ClassicPlanter
) -> None:
    classic_planter.add(
        hands={1: RUMMY_HAND, 2: LOSER_HAND, 3: "2S 2H 2D 3S 3H 3D 3C 4H 4S 4D"},
        open_card="8S",
        stock_top="KD",
    )
    t = classic_table(3, hands_count=1)
    _go_rummy(t, 1)
    game = t.game()
    assert game.status == GameStatus.FINISHED
    payouts = {int(s): a for s, a in game.result["settlement"]["payouts"].items()}
    page = _page(client, t, 2)
    sheet = _section(page, "scoreboard")
    assert "Hand 1 result" in sheet and "Deal" not in _text(sheet)
    assert "going rummy +25" in _text(sheet)
    assert f"{_name(t, 1)} went out going rummy" in _text(sheet)
    rows = _sheet_rows(page)
    assert "went out going rummy" in _text(rows[_name(t, 1)])
    for seat in (2, 3):
        cells = _cells(rows[_name(t, seat)])
        assert cells[2] == "55 30 in hand + 25 going rummy"
        assert cells[3] == "55"
        assert cells[4] == presenters.signed_money(payouts.get(seat, 0) - 1000, "cash")
    assert _cells(rows[_name(t, 1)])[2:5] == [
        "0",
        "0",
        presenters.signed_money(payouts[1] - 1000, "cash"),
    ]
    result = _text(_section(page, "game-result"))
    assert "Ring game over: the prize pool of ₹27.00 is paid by places" in result
    assert f"1st: {_name(t, 1)} wins {presenters.money(payouts[1], 'cash')}" in result
    # A runner-up paid back part of the entry is not called a winner: the net says it lost.
    for seat in (2, 3):
        share = payouts.get(seat, 0)
        net = presenters.signed_money(share - 1000, "cash")
        assert f"{_name(t, seat)} ₹10.00 {presenters.money(share, 'cash')} {net}" in result
        assert f"{_name(t, seat)} wins" not in result
        assert net.startswith(MINUS)
        if share:
            assert (
                f"2nd: {_name(t, seat)} gets {presenters.money(share, 'cash')} ({net} overall)"
                in (result)
            )


# --------------------------------------------------------------------------- refusals


def test_not_enough_balance_is_said_in_rupees(
    client: Any, table_factory: Any, user_factory: Any
) -> None:
    table = table_factory(entry_fee=2500)
    poor = user_factory()
    client.force_login(poor)
    response = client.post(reverse("table_join", args=[table.pk]), follow=True)
    text = _text(response.content.decode())
    assert "Not enough balance: the entry fee is ₹25.00 and your balance is ₹0.00." in text
    assert "2500" not in text


def test_a_move_out_of_turn_is_refused_without_seat_numbers(client: Any, seated: Any, toss: Any):
    toss(1)
    t = seated(2)
    client.force_login(t.users[2])
    response = client.post(
        reverse("table_act", args=[t.table.pk]),
        {"action": "pick_closed", "version": t.game().version},
        **HTMX,
    )
    assert response.status_code == 400
    error = _text(response.content.decode().split('id="action-error">', 1)[1].split("</div>")[0])
    assert error == "It is not your turn."


def test_a_stale_action_is_refused_in_words(seated: Any, toss: Any) -> None:
    toss(1)
    t = seated(2)
    game = t.game()
    t.act(1, "pick_closed")
    with pytest.raises(services.StaleAction) as refused:
        services.game_act(
            game_id=game.pk,
            user=t.users[1],
            action="pick_closed",
            payload={},
            expected_version=game.version,
        )
    assert str(refused.value) == (
        "The table moved on since your last view: nothing was done. Check the table and try again."
    )


@pytest.mark.parametrize(
    ("message", "words"),
    [
        ("you do not hold QH", "You do not hold Q♥."),
        ("10S 10H 5C is not a set or a run", "10♠ 10♥ 5♣ is not a set or a run."),
        ("not a card code: 'ZZ'", "Not a card code: 'ZZ'."),
        ("Time ran out before your move arrived.", "Time ran out before your move arrived."),
    ],
)
def test_refusals_in_a_players_words(message: str, words: str) -> None:
    assert presenters.player_words(message) == words


def test_the_last_player_in_after_everyone_dropped_is_shown_without_a_verdict(
    client: Any, seated: Any, planter: Planter, toss: Any
) -> None:
    # Seats 1 and 2 drop: seat 3 wins as the last player in. It did not declare, so its hand is
    # shown as it was, with no "invalid" (or any other) label on its groups.
    toss(1)
    planter.add(hands={3: "2S 7S 9H KH 4D 8D JC 3C 6C QS 5H 10D AC"}, open_card="5C", cut_card="QC")
    t = seated(3)
    t.act(1, "drop")
    t.act(2, "drop")
    page = _page(client, t, 3)
    row = _sheet_rows(page)[_name(t, 3)]
    groups = _groups(row)
    assert sorted(code for codes, _kind in groups for code in codes) == sorted(
        ["2S", "7S", "9H", "KH", "4D", "8D", "JC", "3C", "6C", "QS", "5H", "10D", "AC"]
    )
    assert [kind for _codes, kind in groups] == [""] * len(groups)
    assert "invalid" not in _text(row) and "last player in" in _text(row)
