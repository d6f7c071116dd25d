"""Classic 10-card ring games on the same table machinery as the 13-card games.

Every game here is configured by a ``TableTemplate`` (variant "classic"), opened with
``table_create``, filled with ``table_join`` (entry fees held in the pot by the ledger) and
played through ``services.game_act`` and the timers (``timer_fire``/``timers_sweep``), with the
hands planted through ``_context.deal_shoe_new`` (``classic_helpers.ClassicPlanter``). Money is
read back from the ledger selectors and checked with ``manage.py reconcile_ledger``.
"""

from __future__ import annotations

import io
import json
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Any

import pytest
from classic_helpers import (
    SEED,
    ClassicPlanter,
    codes,
    events_of,
    hand_of,
    last_events,
    rule_points,
    snapshot,
    state_of,
)
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import ValidationError
from django.core.management import call_command
from tables_testkit import Clock, TableDriver, balance, with_welcome_chips

from ledger import selectors as ledger_selectors
from tables import selectors, services
from tables.models import Deal, Game, GameStatus, Move, TableTemplate
from tables.readmodel import TableRead
from tables.reconcile import register as register_game_checks
from tables.rules import classic
from tables.rules.cards import parse_cards
from tables.rules.errors import InvalidCard, InvalidMove
from tests.threads import race as _race

FUNDS = 100_000  # what the ``players`` fixture deposits for each player
ENTRY = 1000
FEE_BPS = 1000

# A winner's hand that goes rummy on its first turn: it picks the stock top (KD), lays down
# the three melds and discards KD.
RUMMY_HAND = "4H 5H 6H 7H 9S 9D 9C JC QC KC"
RUMMY_MELDS = [["4H", "5H", "6H", "7H"], ["9S", "9D", "9C"], ["JC", "QC", "KC"]]
RUMMY_STOCK_TOP = "KD"
RUMMY_OPEN = "8S"


# --------------------------------------------------------------------------- fixtures


@pytest.fixture
def user_factory(user_factory: Callable[..., Any]) -> Callable[..., Any]:
    """People here signed up: they hold the welcome practice chips."""
    return with_welcome_chips(user_factory)


@pytest.fixture
def classic_template(template_factory: Callable[..., TableTemplate]) -> Callable[..., Any]:
    """``classic_template(n, **fields)``: a staff-configured classic template for ``n`` players
    (validated with ``full_clean`` as the admin does)."""

    def make(n: int, **fields: Any) -> TableTemplate:
        fields.setdefault("variant", "classic")
        fields.setdefault("seats_min", n)
        fields.setdefault("seats_max", n)
        fields.setdefault("entry_fee", ENTRY)
        fields.setdefault("platform_fee_bps", FEE_BPS)
        fields.setdefault("hands_count", 2)
        fields.setdefault("turn_s", 20.0)
        fields.setdefault("extra_time_s", 10.0)
        fields.setdefault("break_s", 5.0)
        return template_factory(**fields)

    return make


@pytest.fixture
def classic_game(
    classic_template: Callable[..., TableTemplate],
    players: list[Any],
    clock: Clock,
    toss: Callable[[int], None],
    classic_planter: ClassicPlanter,
) -> Callable[..., TableDriver]:
    """``classic_game(n, first=1, **template_fields)``: a classic table made with
    ``table_create`` and joined by ``players[0..n-1]`` at seats 1..n, so its game has started
    and dealt the first planted hand; ``first`` wins the toss."""

    def make(n: int, *, first: int = 1, **fields: Any) -> TableDriver:
        toss(first)
        table = services.table_create(template=classic_template(n, **fields))
        users = {}
        for i in range(n):
            services.table_join(table=table, user=players[i], seat_no=i + 1)
            users[i + 1] = players[i]
        return TableDriver(table, users, clock)

    return make


def assert_reconcile_command_passes() -> None:
    """``manage.py reconcile_ledger`` with the game pot checks registered passes."""
    register_game_checks()
    out = io.StringIO()
    call_command("reconcile_ledger", stdout=out, stderr=io.StringIO())
    assert "ledger reconciled" in out.getvalue()


def play_rummy_turn(t: TableDriver, seat: int) -> None:
    """``seat`` (holding ``RUMMY_HAND``, ``RUMMY_STOCK_TOP`` on the stock) goes rummy."""
    assert t.turn() == seat
    t.act(seat, "pick_closed")
    assert t.view(seat)["hand"]["picked"] == RUMMY_STOCK_TOP
    t.act(seat, "lay_down", melds=RUMMY_MELDS)
    t.act(seat, "discard", card=RUMMY_STOCK_TOP)


# --------------------------------------------------------------------------- configuration


def test_template_settings_map_to_the_classic_engine(
    classic_template: Callable[..., TableTemplate],
) -> None:
    template = classic_template(
        4,
        hands_count=3,
        entry_fee=2500,
        platform_fee_bps=750,
        turn_s=25.0,
        extra_time_s=40.0,
        break_s=8.0,
        missed_turns_limit=2,
        packs=2,
        largest_set=4,
        extra_settings={"rummy_bonus": 30, "go_out_by_melding": True},
    )
    settings = services.template_settings(template)
    assert isinstance(settings, classic.ClassicSettings)
    got = settings.to_json()
    expected = {
        "hands": 3,
        "entry_fee": 2500,
        "platform_fee_bps": 750,
        "turn_s": 25.0,
        "extra_time_s": 40.0,
        "break_s": 8.0,
        "missed_turns_limit": 2,
        "packs": 2,
        "largest_set": 4,
        "rummy_bonus": 30,
        "go_out_by_melding": True,
        "seats_min": 4,
        "seats_max": 4,
    }
    assert {k: got[k] for k in expected} == expected
    # Untouched settings keep the rule book's defaults.
    defaults = classic.ClassicSettings()
    for name in ("hand_size", "ace_points", "court_points", "payout_gap_limit"):
        assert got[name] == getattr(defaults, name)


@pytest.mark.parametrize(
    ("field", "value"),
    [("pool_limit", 101), ("meld_window_s", 20.0), ("first_drop", 20), ("deals_count", 2)],
)
def test_thirteen_card_settings_are_refused_on_a_classic_template(
    classic_template: Callable[..., TableTemplate], field: str, value: Any
) -> None:
    with pytest.raises(ValidationError, match=field):
        classic_template(2, **{field: value})


def test_a_classic_template_needs_an_entry_fee(
    classic_template: Callable[..., TableTemplate],
) -> None:
    with pytest.raises(ValidationError, match="entry fee"):
        classic_template(2, entry_fee=0)


def test_join_holds_entry_fees_and_the_first_hand_is_dealt(
    classic_template: Callable[..., TableTemplate],
    players: list[Any],
    clock: Clock,
    toss: Callable[[int], None],
    classic_planter: ClassicPlanter,
) -> None:
    toss(2)
    template = classic_template(3, hands_count=2)
    table = services.table_create(template=template)
    hands = {1: "2S 3S 4S 5S 6S 7S 8S 9S 10S JS", 2: "2H 3H 4H 5H 6H 7H 8H 9H 10H JH"}
    classic_planter.add(hands=hands, open_card="QD", stock_top="KD")

    for i in range(2):
        services.table_join(table=table, user=players[i], seat_no=i + 1)
    game = Game.objects.get(table=table)
    assert game.status == GameStatus.WAITING
    # Below the minimum (3 seats) no start countdown runs.
    assert game.deadline is None and game.deadline_kind == ""
    # Joining twice is idempotent: one seat, one entry fee.
    again = services.table_join(table=table, user=players[0], seat_no=1)
    assert again.seat_no == 1
    assert balance(players[0]) == FUNDS - ENTRY
    services.table_join(table=table, user=players[2], seat_no=3)

    game.refresh_from_db()
    assert game.status == GameStatus.RUNNING
    assert game.variant == "classic"
    assert game.stake == ENTRY
    assert ledger_selectors.pot_balance(pot_ref=game.pot_ref, currency="cash") == 3 * ENTRY
    assert [balance(u) for u in players[:3]] == [FUNDS - ENTRY] * 3
    assert ledger_selectors.entry_fee_counts(ref=game.pot_ref) == {
        players[i].pk: 1 for i in range(3)
    }
    # The settings were frozen in the game when it opened: a later template change does not
    # reach it (RULES.md section 9).
    template.hands_count = 7
    template.full_clean()
    template.save()
    game.refresh_from_db()
    assert game.settings["hands"] == 2
    assert state_of(game).settings.hands == 2

    actions = list(Move.objects.filter(game=game).values_list("action", flat=True))
    assert actions == ["seat_join", "seat_join", "seat_join", "game_start", "start_deal"]
    # The deal's shoe and reshuffle seed are stored before the hand is dealt.
    deal = Deal.objects.get(game=game)
    assert deal.number == 1 and deal.starter == 2
    assert deal.shoe["type"] == "start_deal" and deal.shoe["seed"] == SEED
    assert len(deal.shoe["shoe"]["cards"]) == 104
    state = state_of(game)
    assert state.phase == "turn" and state.turn == 2 and state.hand_no == 1
    for seat, hand in hands.items():
        assert Counter(hand_of(game, seat)) == Counter(codes(hand))
    assert [c.code for c in state.discard] == ["QD"]
    assert state.stock[0].code == "KD"
    # The stored deadline is the engine's turn deadline: turn_s + the extra-time bank.
    assert game.deadline_kind == "turn" and game.deadline is not None
    assert game.deadline.timestamp() == pytest.approx(clock.t + 20.0 + 10.0, abs=1e-5)


# --------------------------------------------------------------------------- a hand, move by move


def test_a_hand_draw_lay_down_lay_off_discard_and_go_out(
    classic_game: Callable[..., TableDriver], classic_planter: ClassicPlanter
) -> None:
    seat2_cards = "JH 2S 4S 6D 8D 10C QS AH 3H 9S"
    seat3_cards = "2D 3D 5S 7S 8C 9C JD QH AS 4H"
    classic_planter.add(
        hands={1: "7H 8H 9H KS KD KC 2C 3C 4C 5D", 2: seat2_cards, 3: seat3_cards},
        open_card="10H",
        stock_top=["6S", "5C"],
    )
    t = classic_game(3, hands_count=2)
    game = t.game()

    # Seat 1 takes the open card and lays down a run and a set.
    t.act(1, "pick_open")
    assert t.view(1)["deal"]["picked_open_card"] == "10H"
    t.act(1, "lay_down", melds=[["7H", "8H", "9H", "10H"], ["KS", "KD", "KC"]])
    melds = t.view()["deal"]["melds"]
    assert melds == [
        {"id": 1, "kind": "run", "cards": ["7H", "8H", "9H", "10H"], "owner": 1},
        {"id": 2, "kind": "set", "cards": ["KS", "KD", "KC"], "owner": 1},
    ]
    t.act(1, "discard", card="5D")
    assert sorted(hand_of(game, 1)) == sorted(["2C", "3C", "4C"])
    assert t.turn() == 2

    # Seat 2 draws from the stock and lays JH off on seat 1's run.
    t.act(2, "pick_closed")
    assert t.view(2)["hand"]["picked"] == "6S"
    t.act(2, "lay_off", cards=["JH"], meld_id=1, end="high")
    assert t.view()["deal"]["melds"][0] == {
        "id": 1,
        "kind": "run",
        "cards": ["7H", "8H", "9H", "10H", "JH"],
        "owner": 1,
    }
    [laid_off] = last_events(game, "cards_laid_off")
    assert laid_off["seat"] == 2 and laid_off["cards"] == ["JH"]
    t.act(2, "discard", card="6S")

    # Seat 3 takes seat 2's discard and throws another card.
    t.act(3, "pick_open")
    assert t.view(3)["hand"]["picked"] == "6S"
    t.act(3, "discard", card="9C")

    # Seat 1 draws 5C. Melding every card is refused (a card must be kept to discard) and
    # changes nothing; melding three and discarding the last goes out.
    t.act(1, "pick_closed")
    before = snapshot(game, t.users.values())
    with pytest.raises(InvalidMove, match="keep a card"):
        t.act(1, "lay_down", melds=[["2C", "3C", "4C", "5C"]])
    assert snapshot(game, t.users.values()) == before
    t.act(1, "lay_down", melds=[["2C", "3C", "4C"]])
    t.act(1, "discard", card="5C")

    [went_out] = events_of(game, "went_out")
    assert went_out == {"type": "went_out", "seat": 1, "rummy": False, "by": "discard"}
    [ended] = events_of(game, "deal_ended")
    seat2_left = [c for c in codes(seat2_cards) if c != "JH"]
    seat3_left = [c for c in codes(seat3_cards) if c != "9C"] + ["6S"]
    expected_scores = {1: 0, 2: rule_points(seat2_left), 3: rule_points(seat3_left)}
    assert expected_scores == {1: 0, 2: 63, 3: 66}
    assert ended["winner"] == 1 and ended["reason"] == "went_out"
    assert {int(k): v for k, v in ended["scores"].items()} == expected_scores
    assert t.totals() == expected_scores
    deal = Deal.objects.get(game=game, number=1)
    assert deal.ended_at is not None and deal.result["reason"] == "went_out"
    seen = t.view(2)["last_deal"]
    assert {r["seat"]: Counter(r["cards"]) for r in seen["results"]} == {
        1: Counter(),
        2: Counter(seat2_left),
        3: Counter(seat3_left),
    }

    # Every action is one move of the log, with its actor and seat, versions without gaps.
    moves = list(Move.objects.filter(game=game, deal=deal).order_by("version"))
    assert [(m.action, m.seat_no) for m in moves] == [
        ("start_deal", None),
        ("pick_open", 1),
        ("lay_down", 1),
        ("discard", 1),
        ("pick_closed", 2),
        ("lay_off", 2),
        ("discard", 2),
        ("pick_open", 3),
        ("discard", 3),
        ("pick_closed", 1),
        ("lay_down", 1),
        ("discard", 1),
    ]
    assert all(m.actor == t.users[m.seat_no] for m in moves if m.seat_no is not None)
    game.refresh_from_db()
    versions = list(Move.objects.filter(game=game).values_list("version", flat=True))
    assert versions == list(range(1, game.version + 1))
    # The support replay rebuilds the hand from the stored shoe and the log exactly.
    steps = selectors.deal_replay(deal=deal)
    assert all(step.matches_log for step in steps)

    # The break between hands is the stored deadline; the sweep deals hand 2 when it is over,
    # started by the next player clockwise.
    game.refresh_from_db()
    assert game.deadline_kind == "break"
    assert services.timers_sweep(now=t.clock.t + 1.0) == 0
    assert state_of(game).phase == "break"
    t.fire()
    state = state_of(game)
    assert state.phase == "turn" and state.hand_no == 2 and state.turn == 2
    assert t.totals() == expected_scores


def test_views_show_table_melds_to_all_and_hands_only_to_their_owners(
    classic_game: Callable[..., TableDriver], classic_planter: ClassicPlanter
) -> None:
    classic_planter.add(
        hands={
            1: "7H 8H 9H KS KD KC 2C 3C 4C 5D",
            2: "JH 2S 4S 6H 8D 10C QS AH 3H 9S",
            3: "2D 3D 5S 7S 8C 9C JD QH AS 4H",
        },
        open_card="10H",
        stock_top=["6S"],
    )
    t = classic_game(3)
    game = t.game()
    t.act(1, "pick_closed")
    t.act(1, "lay_down", melds=[["7H", "8H", "9H"], ["KS", "KD", "KC"]])
    t.act(1, "discard", card="6S")
    t.act(2, "pick_closed")
    t.act(2, "lay_off", cards=["6H"], meld_id=1)

    state = state_of(game)
    table_melds = [m.to_json() for m in state.melds]
    assert table_melds == [
        {"id": 1, "kind": "run", "cards": ["6H", "7H", "8H", "9H"], "owner": 1},
        {"id": 2, "kind": "set", "cards": ["KS", "KD", "KC"], "owner": 1},
    ]
    seen: dict[int | None, TableRead] = {}
    for seat, user in [*t.users.items(), (None, AnonymousUser())]:
        page = selectors.table_for_viewer(table=t.table, user=user)
        assert page.game_id == game.pk and page.version == game.version
        assert page.my_seat == seat
        assert page.view is not None and page.view.deal is not None
        view: Mapping[str, Any] = page.view.raw  # the engine's whole view for this viewer
        seen[seat] = page
        # Table melds are public: every viewer, the spectator too, sees the same melds.
        assert view["deal"]["melds"] == table_melds
        assert [
            {"id": m.id, "kind": m.kind, "cards": list(m.cards), "owner": m.owner}
            for m in page.view.deal.melds
        ] == table_melds
        text = json.dumps(view)
        assert SEED not in text and "stock" not in view["deal"]
        for player in view["players"]:
            assert "hand" not in player and "cards" not in player
            assert player["card_count"] == len(state.player(player["seat"]).hand)
        if seat is None:
            assert view["hand"] is None and page.view.hand is None
            assert page.allowed == ()
            continue
        own = [c.code for c in state.player(seat).hand]
        assert Counter(view["hand"]["cards"]) == Counter(own)
        assert page.view.hand is not None and Counter(page.view.hand.cards) == Counter(own)
        # No card that only another player holds appears anywhere in this viewer's page.
        public = set(own) | {c for m in table_melds for c in m["cards"]}
        public.add(state.discard[-1].code)
        for other in t.users:
            if other == seat:
                continue
            for code in {c.code for c in state.player(other).hand} - public:
                assert f'"{code}"' not in text, f"seat {seat} sees {code} of seat {other}"
    assert seen[2].allowed == ("lay_down", "lay_off", "discard", "leave")
    assert seen[1].allowed == ("leave",) and seen[3].allowed == ("leave",)


# --------------------------------------------------------------------------- full ring games


def test_ring_game_rummy_bonus_and_payout_with_qualifying_runners_up(
    classic_game: Callable[..., TableDriver],
    classic_planter: ClassicPlanter,
    players: list[Any],
) -> None:
    # Hand 1: seat 1 goes rummy; seats 2 and 3 hold 30 points each (+25 each).
    hand1 = {1: RUMMY_HAND, 2: "2S 2H 2C 3S 3H 3D 3C 4S 4D 4C", 3: "2S 2H 2D 3S 3H 3D 3C 4H 4S 4D"}
    # Hand 2 (started by seat 2): seat 2 goes rummy; seat 1 holds 40, seat 3 holds 36 (+25 each).
    hand2 = {2: RUMMY_HAND, 1: "2S 2H 2C 2D 3S 3H 4S 4D 9H 9D", 3: "2S 2H 2C 3S 3H 3D 3C 4C 5C 9C"}
    assert [rule_points(hand1[s]) for s in (2, 3)] == [30, 30]
    assert [rule_points(hand2[s]) for s in (1, 3)] == [40, 36]
    for hands in (hand1, hand2):
        classic_planter.add(hands=hands, open_card=RUMMY_OPEN, stock_top=RUMMY_STOCK_TOP)
    t = classic_game(3, hands_count=2)
    game = t.game()

    play_rummy_turn(t, 1)
    went_out = events_of(game, "went_out")
    assert went_out == [{"type": "went_out", "seat": 1, "rummy": True, "by": "discard"}]
    assert t.totals() == {1: 0, 2: 30 + 25, 3: 30 + 25}
    game.refresh_from_db()
    assert game.status == GameStatus.RUNNING and game.deadline_kind == "break"
    t.fire()
    play_rummy_turn(t, 2)

    ended = events_of(game, "deal_ended")
    assert [e["reason"] for e in ended] == ["rummy", "rummy"]
    # Totals: seat 1 = 65, seat 2 = 55 (1st), seat 3 = 116.
    assert t.totals() == {1: 40 + 25, 2: 30 + 25, 3: 30 + 25 + 36 + 25}
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and game.deadline is None
    # RULES.md section 8: P = 3 x 1000 - 10 % = 2700; gaps 10 (seat 1) and 61 (seat 3) are
    # under 80, weights 70 and 19 (S = 89) share 25 % of P; 1st takes the rest.
    prize = 3 * ENTRY - 3 * ENTRY * FEE_BPS // 10_000
    seat1 = prize * 2500 * 70 // (10_000 * 89)
    seat3 = prize * 2500 * 19 // (10_000 * 89)
    expected = {1: seat1, 2: prize - seat1 - seat3, 3: seat3}
    assert expected == {1: 530, 2: 2026, 3: 144}
    assert game.result["settlement"] == {
        "payouts": {str(s): a for s, a in expected.items()},
        "fee": 300,
    }
    assert game.result["reason"] == "ring"
    for seat, amount in expected.items():
        assert balance(players[seat - 1]) == FUNDS - ENTRY + amount
    assert ledger_selectors.pot_balance(pot_ref=game.pot_ref, currency="cash") == 0
    assert sum(expected.values()) + 300 == 3 * ENTRY
    view = t.view(None)
    assert view["result"]["payouts"] == [{"seat": s, "amount": a} for s, a in expected.items()]
    assert Deal.objects.filter(game=game).count() == 2
    for deal in Deal.objects.filter(game=game):
        assert all(step.matches_log for step in selectors.deal_replay(deal=deal))
    assert_reconcile_command_passes()


def test_ring_game_payout_without_a_qualifying_runner_up(
    classic_game: Callable[..., TableDriver],
    classic_planter: ClassicPlanter,
    players: list[Any],
) -> None:
    # Totals: seat 1 = 102 + 25 = 127, seat 2 = 22 + 25 = 47 (1st), seat 3 = 2 x (60 + 25).
    # Seat 1 is exactly 80 behind: that does not qualify; nobody else does either.
    hand1 = {
        1: RUMMY_HAND,
        2: "2S 2S 2H 2H 2D 2D 2C 2C 3S 3H",
        3: "10S 10H 10D 5S 5D 5C 5H 3S 3D 4C",
    }
    hand2 = {
        2: RUMMY_HAND,
        1: "AS AH AD AC KS KH KD QS QH 8H",
        3: "10S 10H 10D 5S 5D 5C 5H 3S 3D 4C",
    }
    assert [rule_points(hand1[2]), rule_points(hand1[3])] == [22, 60]
    assert [rule_points(hand2[1]), rule_points(hand2[3])] == [102, 60]
    for hands in (hand1, hand2):
        classic_planter.add(hands=hands, open_card=RUMMY_OPEN, stock_top=RUMMY_STOCK_TOP)
    t = classic_game(3, hands_count=2)
    game = t.game()
    play_rummy_turn(t, 1)
    t.fire()
    play_rummy_turn(t, 2)

    assert t.totals() == {1: 127, 2: 47, 3: 170}
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    prize = 3 * ENTRY - 300
    assert game.result["settlement"] == {"payouts": {"2": prize}, "fee": 300}
    assert [balance(p) for p in players[:3]] == [
        FUNDS - ENTRY,
        FUNDS - ENTRY + prize,
        FUNDS - ENTRY,
    ]
    assert ledger_selectors.pot_balance(pot_ref=game.pot_ref, currency="cash") == 0
    assert_reconcile_command_passes()
    # The table is free for the next game, which freezes the template's settings again.
    assert t.table.seats.filter(left_at__isnull=True).count() == 0
    services.table_join(table=t.table, user=players[3], seat_no=1)
    assert Game.objects.filter(table=t.table, status=GameStatus.WAITING).count() == 1


def test_a_player_who_leaves_is_not_placed_and_gets_nothing(
    classic_game: Callable[..., TableDriver],
    classic_planter: ClassicPlanter,
    players: list[Any],
) -> None:
    hands = {1: RUMMY_HAND, 2: "2S 2S 2H 2H 2D 2D 2C 2C 3S 3H", 3: "3S 3H 3D 3D 3C 3C 4S 4D 4C 4H"}
    assert [rule_points(hands[2]), rule_points(hands[3])] == [22, 34]
    classic_planter.add(hands=hands, open_card=RUMMY_OPEN, stock_top=RUMMY_STOCK_TOP)
    t = classic_game(3, hands_count=1)
    game = t.game()
    services.table_leave(table=t.table, user=t.users[2])
    [left] = events_of(game, "player_left")
    assert left["seat"] == 2
    with pytest.raises(services.NotSeated):
        t.act(2, "pick_closed")
    play_rummy_turn(t, 1)

    # Seat 2's cards still count in the hand it left, but it is not placed: only seat 3
    # (gap 59 < 80) shares 25 % of P = 2700, so it takes all of that 25 %.
    [ended] = events_of(game, "deal_ended")
    assert {int(k): v for k, v in ended["scores"].items()} == {1: 0, 2: 22 + 25, 3: 34 + 25}
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert game.result["settlement"] == {"payouts": {"1": 2025, "3": 675}, "fee": 300}
    assert [balance(p) for p in players[:3]] == [
        FUNDS - ENTRY + 2025,
        FUNDS - ENTRY,
        FUNDS - ENTRY + 675,
    ]
    assert ledger_selectors.pot_balance(pot_ref=game.pot_ref, currency="cash") == 0
    assert_reconcile_command_passes()


# --------------------------------------------------------------------------- stock and timers


def test_the_pile_is_reshuffled_into_a_new_stock_when_the_stock_runs_out(
    classic_game: Callable[..., TableDriver], classic_planter: ClassicPlanter
) -> None:
    # One pack, four players: 40 cards dealt, one turned up, a stock of 11.
    classic_planter.add(hands={}, open_card="KH")
    t = classic_game(4, packs=1, hands_count=1)
    game = t.game()
    assert len(state_of(game).stock) == 11
    discards = []
    for turn in range(11):
        seat = turn % 4 + 1
        assert t.turn() == seat
        t.act(seat, "pick_closed")
        picked = t.view(seat)["hand"]["picked"]
        t.act(seat, "discard", card=picked)
        discards.append(picked)
    # Seat 3 drew the last stock card; its discard starts the new pile and the rest of the
    # pile (bottom first) is shuffled with the hand's seed into the new stock.
    [reshuffled] = last_events(game, "deck_reshuffled")
    assert reshuffled == {"type": "deck_reshuffled", "number": 1, "closed_count": 11}
    state = state_of(game)
    pile = parse_cards(["KH", *discards[:-1]])
    expected = classic.seeded_shuffle(pile, SEED, "reshuffle:1")
    assert [c.code for c in state.stock] == [c.code for c in expected]
    assert [c.code for c in state.discard] == [discards[-1]]
    assert state.reshuffles == 1 and t.turn() == 4
    t.act(4, "pick_closed")
    assert t.view(4)["hand"]["picked"] == expected[0].code
    deal = Deal.objects.get(game=game)
    steps = selectors.deal_replay(deal=deal)
    assert all(step.matches_log for step in steps)
    assert steps[-1].state == Game.objects.get(pk=game.pk).state


def test_missed_turns_by_the_timer_put_a_player_out_and_end_the_ring_game(
    classic_game: Callable[..., TableDriver],
    classic_planter: ClassicPlanter,
    players: list[Any],
) -> None:
    seat1_hand = "2S 3H 4D 5C 6S 7H 8D 9C 2H 4S"
    classic_planter.add(
        hands={1: seat1_hand, 2: "AS AH KS KH QS QH JS JH 10S 9H"},
        open_card="3C",
        stock_top=["KD", "QD", "JD", "10D", "9D", "8D"],
    )
    t = classic_game(2, hands_count=1, turn_s=10.0, extra_time_s=5.0)
    game = t.game()
    start = t.clock.t
    assert game.deadline.timestamp() == pytest.approx(start + 15.0, abs=1e-5)

    # Before the deadline the timer does nothing.
    before = snapshot(game, t.users.values())
    result = services.timer_fire(game_id=game.pk, version=game.version, now=start + 14.0)
    assert result == services.TimerResult.EARLY
    assert snapshot(game, t.users.values()) == before

    missed_version = game.version
    for missed in (1, 2, 3):
        assert t.turn() == 1
        assert t.fire() == 1
        move = Move.objects.filter(game=game).order_by("-version").first()
        assert move.action == "timeout" and move.actor is None
        kinds = [e["type"] for e in move.events]
        assert kinds[:3] == ["card_picked", "turn_missed", "card_discarded"]
        assert next(e for e in move.events if e["type"] == "turn_missed")["missed"] == missed
        # The server drew from the stock and threw that card: the hand is unchanged.
        assert Counter(hand_of(game, 1)) == Counter(codes(seat1_hand))
        if missed == 1:
            # A timer that lost the race with the timeout is a no-op.
            stale = services.timer_fire(game_id=game.pk, version=missed_version, now=t.clock.t)
            assert stale == services.TimerResult.STALE
            # The whole extra-time bank went on the first missed turn.
            assert t.view(None)["players"][0]["extra_time"] == 0.0
        if missed < 3:
            assert t.turn() == 2
            t.act(2, "pick_closed")
            t.act(2, "discard", card=t.view(2)["hand"]["picked"])
            game.refresh_from_db()
            # Seat 1's next turn has no extra time left: turn_s only.
            assert game.deadline.timestamp() == pytest.approx(t.clock.t + 10.0, abs=1e-5)

    [dropped] = events_of(game, "dropped")
    assert dropped["seat"] == 1 and dropped["reason"] == "missed_turns"
    [ended] = events_of(game, "deal_ended")
    assert ended["reason"] == "last_player" and ended["winner"] == 2
    assert {int(k): v for k, v in ended["scores"].items()} == {1: rule_points(seat1_hand), 2: 0}
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    # P = 2 x 1000 - 10 % = 1800; seat 1 is 50 behind (< 80): the only runner-up takes 25 %.
    assert rule_points(seat1_hand) == 50
    assert game.result["settlement"] == {"payouts": {"1": 450, "2": 1350}, "fee": 200}
    assert balance(players[0]) == FUNDS - ENTRY + 450
    assert balance(players[1]) == FUNDS - ENTRY + 1350
    assert ledger_selectors.pot_balance(pot_ref=game.pot_ref, currency="cash") == 0
    assert_reconcile_command_passes()


# --------------------------------------------------------------------------- refusals


BAD_INPUTS = [
    # (seat, action, payload, error, message)
    (1, "discard", {"card": "ZZ"}, InvalidCard, "ZZ"),
    (1, "lay_down", {"melds": [["2C", "3C", "1X"]]}, InvalidCard, "1X"),
    (1, "lay_off", {"cards": ["JH"], "meld_id": 99}, InvalidMove, "no meld 99"),
    (1, "lay_off", {"cards": ["2C"], "meld_id": 1, "end": "middle"}, InvalidMove, "middle"),
    (1, "lay_off", {"cards": ["QS"], "meld_id": 1}, InvalidMove, "not in your hand"),
    (1, "lay_down", {"melds": [["2C", "3C", "5D"]]}, InvalidMove, "not a set or a run"),
    (1, "discard", {"card": "KS"}, InvalidMove, "not in your hand"),
    (2, "pick_closed", {}, InvalidMove, "not your turn"),
    (2, "discard", {"card": "2S"}, InvalidMove, "not your turn"),
    (1, "pick_closed", {}, InvalidMove, "already picked"),
    (1, "declare", {"finish_card": "2C", "groups": [["2C"]]}, InvalidMove, "declare"),
    (1, "discard", {"card": "2C", "seat": 2}, services.ActionNotAllowed, "seat"),
    (1, "lay_off", {"cards": ["2C"]}, services.ActionNotAllowed, "meld_id"),
    (1, "teleport", {}, services.ActionNotAllowed, "teleport"),
]


@pytest.mark.parametrize(("seat", "action", "payload", "error", "message"), BAD_INPUTS)
def test_bad_input_is_refused_clearly_and_changes_nothing(
    classic_game: Callable[..., TableDriver],
    classic_planter: ClassicPlanter,
    seat: int,
    action: str,
    payload: dict[str, Any],
    error: type[Exception],
    message: str,
) -> None:
    classic_planter.add(
        hands={1: "7H 8H 9H KS KD KC 2C 3C 4C 5D", 2: "JH 2S 4S 6D 8D 10C QS AH 3H 9S"},
        open_card="10H",
    )
    t = classic_game(2)
    game = t.game()
    t.act(1, "pick_open")
    t.act(1, "lay_down", melds=[["7H", "8H", "9H", "10H"], ["KS", "KD", "KC"]])
    before = snapshot(game, t.users.values())
    with pytest.raises(error, match=message):
        services.game_act(
            game_id=game.pk,
            user=t.users[seat],
            action=action,
            payload=payload,
            expected_version=before["version"],
        )
    assert snapshot(game, t.users.values()) == before


def test_a_stale_version_or_a_stranger_changes_nothing(
    classic_game: Callable[..., TableDriver],
    classic_planter: ClassicPlanter,
    players: list[Any],
) -> None:
    t = classic_game(2)
    game = t.game()
    users = [*t.users.values(), players[5]]
    before = snapshot(game, users)
    with pytest.raises(services.StaleAction) as stale:
        services.game_act(
            game_id=game.pk,
            user=t.users[1],
            action="pick_closed",
            expected_version=game.version - 1,
        )
    assert stale.value.current == game.version
    assert stale.value.expected == game.version - 1
    assert "nothing was done" in str(stale.value) and "version" not in str(stale.value)
    assert snapshot(game, users) == before
    with pytest.raises(services.NotSeated):
        services.game_act(
            game_id=game.pk, user=players[5], action="pick_closed", expected_version=game.version
        )
    with pytest.raises(services.NotFound):
        services.game_act(game_id=10**9, user=t.users[1], action="pick_closed", expected_version=1)
    assert snapshot(game, users) == before


# --------------------------------------------------------------------------- one machinery


@pytest.mark.parametrize("variant", ["pool101", "classic"])
def test_the_same_service_calls_play_a_13_card_and_a_classic_table(
    template_factory: Callable[..., TableTemplate],
    players: list[Any],
    clock: Clock,
    toss: Callable[[int], None],
    variant: str,
) -> None:
    toss(1)
    template = template_factory(
        variant=variant, seats_min=2, seats_max=2, entry_fee=500, turn_s=20.0, extra_time_s=0.0
    )
    table = services.table_create(template=template)
    for i in range(2):
        services.table_join(table=table, user=players[i], seat_no=i + 1)
    t = TableDriver(table, {1: players[0], 2: players[1]}, clock)
    game = t.game()
    assert game.status == GameStatus.RUNNING and t.turn() == 1
    services.deal_pick(
        game_id=game.pk, user=players[0], source="closed", expected_version=game.version
    )
    game.refresh_from_db()
    picked = t.view(1)["hand"]["picked"]
    services.deal_discard(
        game_id=game.pk, user=players[0], card=picked, expected_version=game.version
    )
    assert t.turn() == 2
    page = selectors.table_for_viewer(table=table, user=players[1])
    assert "pick_closed" in page.allowed and "discard" not in page.allowed
    # Seat 2's turn runs out: the timer plays it the same way for both families.
    assert t.fire() == 1
    assert t.turn() == 1
    actions = list(Move.objects.filter(game=game).values_list("action", flat=True))
    assert actions == [
        "seat_join",
        "seat_join",
        "game_start",
        "start_deal",
        "pick_closed",
        "discard",
        "timeout",
    ]
    assert ledger_selectors.pot_balance(pot_ref=game.pot_ref, currency="cash") == 1000


# --------------------------------------------------------------------------- practice and ops


@pytest.fixture
def bot_game(
    classic_template: Callable[..., TableTemplate],
    classic_planter: ClassicPlanter,
    player: Any,
    clock: Clock,
    toss: Callable[[int], None],
) -> Callable[..., tuple[TableDriver, Any]]:
    """``bot_game(hands, open_card, stock_top)``: a classic practice table where the computer
    player (seat 2) starts with planted cards; returns the driver and the bot's seat."""

    def make(hands: dict[int, str], open_card: str, stock_top: list[str]) -> Any:
        toss(2)
        template = classic_template(
            2,
            practice=True,
            currency="practice",
            bot_count=1,
            entry_fee=100,
            hands_count=1,
            human_wait_s=0,
        )
        table = services.table_create(template=template)
        classic_planter.add(hands=hands, open_card=open_card, stock_top=stock_top)
        services.table_join(table=table, user=player, seat_no=1)
        game = Game.objects.get(table=table)
        bot_seat = game.seats.get(seat_no=2)
        return TableDriver(table, {1: player, 2: bot_seat.user}, clock), bot_seat

    return make


def _bot_moves(t: TableDriver, bot_seat: Any) -> list[Move]:
    return [
        m
        for m in Move.objects.filter(game=t.game(), actor=bot_seat.user).order_by("version")
        if m.action != "seat_join"
    ]


def test_a_computer_player_takes_its_turns_at_a_classic_practice_table(
    bot_game: Callable[..., Any],
) -> None:
    t, bot_seat = bot_game(
        {2: "AS 2H 3D 4C 5S 6H 7D 8C 9S 10H", 1: "2S 3S 4S 5S 6S 7S 8S 9S 10S JS"},
        "KD",
        ["3H"],
    )
    game = t.game()
    assert game.status == GameStatus.RUNNING
    assert bot_seat.is_bot
    assert game.deadline_kind == "bot"
    t.fire()
    moves = _bot_moves(t, bot_seat)
    assert [m.action for m in moves] == ["pick_closed", "discard"]
    # It drew 3H and threw its highest card, the Ace.
    assert moves[-1].payload["card"] == "AS"
    assert t.turn() == 1
    game.refresh_from_db()
    assert game.deadline_kind == "turn"


def test_a_computer_player_lays_down_and_lays_off_before_it_throws(
    bot_game: Callable[..., Any],
) -> None:
    t, bot_seat = bot_game(
        {2: "KS KH KD 5C 6C 7C 2D 9H 4S JD", 1: "2S 3S 4H 5S 6D 7S 8D 9S 10S JS"},
        "QD",
        ["8C"],
    )
    t.fire()
    actions = [m.action for m in _bot_moves(t, bot_seat)]
    # It drew 8C, laid down its kings and its clubs run, and threw a card: one whole turn.
    assert actions[:2] == ["pick_closed", "lay_down"]
    assert actions.count("lay_down") == 2
    assert actions[-1] == "discard"
    melds = t.view(1)["deal"]["melds"]
    assert sorted(sorted(m["cards"]) for m in melds) == [
        ["5C", "6C", "7C", "8C"],
        ["KD", "KH", "KS"],
    ]
    assert t.turn() == 1


def test_reconcile_ledger_checks_game_pots_from_start_up(db: Any) -> None:
    from django.apps import apps

    from ledger.reconcile import pot_facts_provider_unregister, reconcile_run

    pot_facts_provider_unregister(name="tables")
    try:
        apps.get_app_config("tables").ready()
        assert "pot_facts:tables" in reconcile_run().checks
    finally:
        register_game_checks()


# --------------------------------------------------------------------------- races (PostgreSQL)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_racing_requests_apply_once(
    classic_game: Callable[..., TableDriver], classic_planter: ClassicPlanter
) -> None:
    t = classic_game(2)
    game = t.game()
    version = game.version

    # A quadruple click: one pick is applied, the others find the game moved on.
    def pick(i: int) -> Any:
        return services.game_act(
            game_id=game.pk, user=t.users[1], action="pick_closed", expected_version=version
        )

    results = _race(4, pick)
    assert sum(isinstance(r, Game) for r in results) == 1
    assert sum(isinstance(r, services.StaleAction) for r in results) == 3
    game.refresh_from_db()
    assert game.version == version + 1
    assert Move.objects.filter(game=game).count() == version + 1
    assert len(hand_of(game, 1)) == 11

    # The turn timer and a late discard race for the same version: the timeout applies exactly
    # once, whoever locks first (the server's clock decides), and the late discard is refused.
    picked = t.view(1)["hand"]["picked"]
    version = game.version
    t.clock.t = game.deadline.timestamp() + 1.0

    def discard_or_timeout(i: int) -> Any:
        if i == 0:
            return services.timer_fire(game_id=game.pk, version=version)
        return services.game_act(
            game_id=game.pk,
            user=t.users[1],
            action="discard",
            payload={"card": picked},
            expected_version=version,
        )

    timer, move = _race(2, discard_or_timeout)
    assert timer in (services.TimerResult.FIRED, services.TimerResult.STALE)
    assert isinstance(move, services.StaleAction | services.TimeRanOut)
    game.refresh_from_db()
    assert game.version == version + 1
    last = Move.objects.filter(game=game).order_by("-version").first()
    assert last.action == "timeout"
    assert Move.objects.filter(game=game, action="timeout").count() == 1
    # Either way the picked card was thrown (the timer throws the card picked this turn).
    assert state_of(game).discard[-1].code == picked
    assert len(hand_of(game, 1)) == 10 and t.turn() == 2
