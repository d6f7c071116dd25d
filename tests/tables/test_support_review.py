"""Support's hand review settles a dispute from one page: the outcome with every player's final
groups (as cards, with their kind), the engine's best arrangement, valid or wrong show and why,
points, totals and the money of the deal; the step-through with times, think times, timeouts,
server-played turns and one line per player's connection; notes; the access log; and the pair
signals report. Only finished deals are reviewed."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from tables_testkit import (
    WINNER_GROUPS,
    Planter,
    TableDriver,
    flatten,
    loser_groups,
    plant,
    play,
    reserved_cards,
)

from accounts.services import user_add_to_support
from tables import presenters, services
from tables.models import Deal, DealAccess, DealNote
from tables.rules.evaluate import evaluate_hand
from tables.support import pair_signals, review
from tables.support.presenters import signal_flags


@pytest.fixture
def agent(user_factory: Callable[..., Any]) -> Any:
    user = user_factory(username="agent")
    user_add_to_support(user=user)
    return user


@pytest.fixture
def support(agent: Any) -> Client:
    client = Client()
    client.force_login(agent)
    return client


def pick_and_throw(t: TableDriver, seat: int) -> None:
    assert t.turn() == seat
    t.act(seat, "pick_closed")
    t.act(seat, "discard", card=t.view(seat)["hand"]["picked"])


@pytest.fixture
def disputed(
    seated: Callable[..., TableDriver],
    planter: Planter,
    toss: Callable[[int], None],
    players: list[Any],
) -> tuple[TableDriver, dict[int, Any]]:
    """A 101-pool deal: seat 1 goes offline, its turn runs out (the server plays it), it comes
    back and middle-drops; seat 2 shows a wrong show; seat 3 wins."""
    toss(1)
    used = reserved_cards()
    groups = {1: WINNER_GROUPS, 2: loser_groups(34, 0, used), 3: loser_groups(48, 1, used)}
    groups[3], groups[1] = groups[1], groups[3]  # seat 3 holds the valid show
    planter.add(
        hands={seat: flatten(g) for seat, g in groups.items()}, open_card="JC", cut_card="QC"
    )
    t = seated(3, extra_time_s=0)
    services.seat_set_connected(table=t.table, user=players[0], connected=False)
    t.clock.advance(5)
    t.fire()  # seat 1's turn runs out: the server picks and throws for it
    t.clock.advance(3)
    services.seat_set_connected(table=t.table, user=players[0], connected=True)
    t.clock.advance(4)
    pick_and_throw(t, 2)
    t.clock.advance(7)
    pick_and_throw(t, 3)
    t.act(1, "drop")  # middle drop
    t.act(2, "pick_closed")
    t.clock.advance(2)
    t.act(2, "declare", finish_card=t.view(2)["hand"]["picked"], groups=groups[2])
    return t, groups


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_outcome_answers_was_i_counted_right_and_who_won(
    disputed: tuple[TableDriver, dict[int, Any]], support: Client, agent: Any
) -> None:
    t, groups = disputed
    deal = Deal.objects.get(game=t.game())
    names = {seat: user.public_name for seat, user in t.users.items()}
    html = support.get(reverse("support_deal", args=[deal.pk])).content.decode()
    outcome = html[html.index('id="outcome"') : html.index('id="fairness"')]
    text = _text(outcome)
    assert f"Winner: {names[3]}" in text
    assert f"declared by {names[2]}" in text and "wrong show" in text
    rows = {
        int(m.group(1)): m.group(0)
        for m in re.finditer(r'<tr class="(?:winner)?" data-seat="(\d)".*?</tr>', outcome, re.S)
    }
    assert set(rows) == {1, 2, 3}
    # The winner highlight is on the winner's row only.
    assert rows[3].startswith('<tr class="winner"') and 'class="winner"' not in rows[1] + rows[2]
    assert "wrong show" in _text(rows[2]) and "<strong>80</strong>" in rows[2]
    assert "dropped" in _text(rows[1]) and "<strong>40</strong>" in rows[1]
    # Final groups as cards with their kind, never as Python lists.
    for code in flatten(groups[2]):
        assert f'data-code="{code}"' in rows[2]
    assert "pure sequence" in rows[2] and "not a meld" in rows[2]
    # The wrong show's finish card is labelled as such, not as a group that is no meld; the
    # last player in won without a show of their own.
    assert "finish card" in _text(rows[2])
    assert "won" in _text(rows[3]) and "valid show" not in _text(rows[3])
    assert "[[" not in html and "['" not in html
    # The engine's best arrangement of the same cards, and whether it could declare.
    best = evaluate_hand(flatten(groups[2]), "QC").points
    assert best <= 34 and f"Best count <strong>{best}</strong>" in rows[2]
    assert "could have declared" in rows[3]
    # Totals after the deal; money: a pool's first deal takes the entry fee.
    assert "total 80" in _text(rows[2]) and "total 0" in _text(rows[3])
    assert presenters.money(1000, "cash") in _text(rows[1])
    assert DealAccess.objects.filter(deal=deal, user=agent, kind="review").count() == 1


def test_the_step_through_marks_timeouts_server_turns_connections_and_times(
    disputed: tuple[TableDriver, dict[int, Any]], support: Client
) -> None:
    t, _ = disputed
    deal = Deal.objects.get(game=t.game())
    html = support.get(reverse("support_deal", args=[deal.pk])).content.decode()
    replay = html[html.index('id="replay"') : html.index('id="notes"')]
    text = _text(replay)
    assert "timer ran out" in text and 'class="tag timeout"' in replay
    assert "played by the server" in text
    assert "set connected" not in text and "set_connected" not in replay
    connections = re.findall(r"<li>(.*?)</li>", replay[: replay.index("<table")])
    name = t.users[1].public_name
    assert len(connections) == 1 and connections[0].startswith(f"{name}: offline ")
    assert re.search(r"offline \d\d:\d\d:\d\d\u2013\d\d:\d\d:\d\d$", connections[0])
    assert "7.0 s" in text  # seat 3 took 7 seconds
    assert re.search(r"<td>\d\d:\d\d:\d\d</td>", replay)
    assert "wrong show:" in text  # the declare step says why


def test_notes_are_added_listed_and_never_changed(
    disputed: tuple[TableDriver, dict[int, Any]], support: Client, agent: Any
) -> None:
    t, _ = disputed
    deal = Deal.objects.get(game=t.game())
    url = reverse("support_deal_note", args=[deal.pk])
    response = support.post(url, {"text": "Player 2 says the 4H was grouped; it was not."})
    assert response.status_code == 302
    assert support.post(url, {"text": "   "}).status_code == 302  # refused, nothing added
    note = DealNote.objects.get(deal=deal)
    assert note.author == agent
    html = support.get(reverse("support_deal", args=[deal.pk])).content.decode()
    assert "the 4H was grouped" in html and "<strong>agent</strong>" in html
    with pytest.raises(TypeError):
        note.save()
    with pytest.raises(TypeError):
        DealNote.objects.all().delete()
    with pytest.raises(TypeError):
        DealAccess.objects.all().update(kind="export")


def test_a_live_deal_shows_its_public_state_only(
    seated: Callable[..., TableDriver], support: Client
) -> None:
    t = seated(2)
    deal = Deal.objects.get(game=t.game())
    html = support.get(reverse("support_deal", args=[deal.pk])).content.decode()
    assert "still being played" in html
    for seat in (1, 2):
        for code in t.view(seat)["hand"]["cards"]:
            assert f'data-code="{code}"' not in html
    assert deal.shoe_secret not in html
    assert not DealAccess.objects.exists()


def test_money_per_deal_and_the_prizes_on_the_last_deal(
    seated: Callable[..., TableDriver],
    planter: Planter,
    toss: Callable[[int], None],
    support: Client,
) -> None:
    toss(1)
    first = {1: 0, 2: 34, 3: 48}
    planned = plant(planter, first)
    t = seated(3, variant="points", point_value=10)
    play(t, *planned, first)
    deal = Deal.objects.get(game=t.game())
    money = review.deal_money(deal=deal)
    assert {s: m["net"] for s, m in money["by_seat"].items()} == {1: 738, 2: -340, 3: -480}
    assert money["prizes"]["fee"] == 82
    html = support.get(reverse("support_deal", args=[deal.pk])).content.decode()
    text = _text(html[html.index('id="outcome"') : html.index('id="fairness"')])
    assert "+" + presenters.money(738, "cash") in text
    assert presenters.MINUS + presenters.money(340, "cash") in text
    assert "The game's prizes" in text and presenters.money(82, "cash") in text


def test_players_cannot_open_the_review_notes_or_signals(
    disputed: tuple[TableDriver, dict[int, Any]], client: Client
) -> None:
    t, _ = disputed
    deal = Deal.objects.get(game=t.game())
    client.force_login(t.users[1])
    assert client.get(reverse("support_deal", args=[deal.pk])).status_code == 403
    assert client.post(reverse("support_deal_note", args=[deal.pk]), {"text": "x"}).status_code
    assert not DealNote.objects.exists()
    assert client.get(reverse("support_signals")).status_code == 403
    assert not DealAccess.objects.exists()


def test_pair_signals_flag_pairs_and_link_their_deals(
    seated: Callable[..., TableDriver],
    planter: Planter,
    toss: Callable[[int], None],
    support: Client,
) -> None:
    toss(1)
    for _ in range(2):  # the same two players, two points games: seat 1 wins both
        first = {1: 0, 2: 70}
        planned = plant(planter, first)
        t = seated(2, variant="points", point_value=10)
        play(t, *planned, first)
    rows = pair_signals.pair_signals()
    assert len(rows) == 1
    row = rows[0]
    a, b = t.users[1], t.users[2]
    assert (row["a"], row["b"]) == (a.pk, b.pk) and row["games"] == 2 and row["deals"] == 2
    # Seat 2 lost 700 a game; seat 1 won 630 after the 10 % fee: 630 flowed each game.
    assert row["b_big_losses_to_a"] == 2 and row["flow_b_to_a"] == 2 * 630
    assert row["flags"] == [("big_losses", "b"), ("one_way", "")]
    flags = signal_flags(row)
    assert f"{b.username} lost big to {a.username} repeatedly" in flags
    assert "money flows one way" in flags
    html = support.get(reverse("support_signals"), {"sort": "flow"}).content.decode()
    for deal in Deal.objects.all():
        assert reverse("support_deal", args=[deal.pk]) in html
    assert "judges nothing" in html


def test_staff_list_the_access_log_in_the_admin_read_only(
    disputed: tuple[TableDriver, dict[int, Any]],
    support: Client,
    agent: Any,
    admin_client: Client,
) -> None:
    t, _ = disputed
    deal = Deal.objects.get(game=t.game())
    support.get(reverse("support_deal", args=[deal.pk]))
    access = DealAccess.objects.get()
    listing = admin_client.get("/admin/tables/dealaccess/").content.decode()
    assert str(agent) in listing and f"Deal {deal.number} of game" in listing
    assert admin_client.get(f"/admin/tables/dealaccess/{access.pk}/change/").status_code == 200
    assert admin_client.get("/admin/tables/dealaccess/add/").status_code == 403
    assert admin_client.get(f"/admin/tables/dealaccess/{access.pk}/delete/").status_code == 403
