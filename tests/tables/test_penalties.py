"""Every drop and penalty path of RULES.md section 4, played through the services."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tables_testkit import (
    WINNER_GROUPS,
    Planter,
    TableDriver,
    assert_reconciled,
    balance,
    flatten,
    loser_groups,
    reserved_cards,
)

from tables import services
from tables.models import GameStatus, Move, Seat
from tables.rules.errors import InvalidMove


def plant_hands(planter: Planter, *, winner: int, losers: dict[int, int]) -> dict[int, Any]:
    """Plant one deal: ``winner`` holds a valid show, each loser an arrangement counting the
    given points. Returns every seat's groups."""
    used = reserved_cards()
    groups: dict[int, Any] = {winner: WINNER_GROUPS}
    for which, (seat, points) in enumerate(losers.items()):
        groups[seat] = loser_groups(points, which, used)
    planter.add(
        hands={seat: flatten(g) for seat, g in groups.items()}, open_card="JC", cut_card="QC"
    )
    return groups


def scores(t: TableDriver) -> dict[int, int]:
    last = t.view()["last_deal"]
    return {r["seat"]: r["points"] for r in last["results"]}


def outcomes(t: TableDriver) -> dict[int, str]:
    last = t.view()["last_deal"]
    return {r["seat"]: r["outcome"] for r in last["results"]}


def pick_and_throw(t: TableDriver, seat: int) -> None:
    assert t.turn() == seat
    t.act(seat, "pick_closed")
    t.act(seat, "discard", card=t.view(seat)["hand"]["picked"])


@pytest.fixture
def three(
    seated: Callable[..., TableDriver], planter: Planter, toss: Callable[[int], None]
) -> Callable[..., tuple[TableDriver, dict[int, Any]]]:
    """A 101-pool game of 3 players, seat 1 to start, the first deal planted (seat 1 can show,
    seats 2 and 3 count 34 and 48)."""

    def make(**fields: Any) -> tuple[TableDriver, dict[int, Any]]:
        toss(1)
        groups = plant_hands(planter, winner=1, losers={2: 34, 3: 48})
        fields.setdefault("variant", "pool101")
        return seated(3, **fields), groups

    return make


def test_first_drops_and_last_player_wins(three: Callable[..., Any]) -> None:
    t, _ = three()
    t.act(1, "drop")
    pick_and_throw(t, 2)
    t.act(3, "drop")
    assert scores(t) == {1: 20, 2: 0, 3: 20}
    assert outcomes(t) == {1: "dropped", 2: "won", 3: "dropped"}
    assert t.totals() == {1: 20, 2: 0, 3: 20}


def test_201_drop_scores(three: Callable[..., Any]) -> None:
    t, _ = three(variant="pool201")
    pick_and_throw(t, 1)
    t.act(2, "drop")
    t.act(3, "drop")
    assert scores(t) == {1: 0, 2: 25, 3: 25}
    t.settle_break()
    pick_and_throw(t, 2)  # deal 2 is started by seat 2
    pick_and_throw(t, 3)
    pick_and_throw(t, 1)
    t.act(2, "drop")  # a later turn: middle drop
    t.act(3, "drop")
    assert scores(t) == {1: 0, 2: 50, 3: 50}
    assert t.totals() == {1: 0, 2: 75, 3: 75}


def test_middle_drop_and_wrong_show(three: Callable[..., Any]) -> None:
    t, groups = three()
    for seat in (1, 2, 3):
        pick_and_throw(t, seat)
    t.act(1, "drop")  # not the first turn any more: middle drop
    t.act(2, "pick_closed")
    picked = t.view(2)["hand"]["picked"]
    # Seat 2 shows its loose arrangement: not a valid declaration.
    t.act(2, "declare", finish_card=picked, groups=groups[2])
    assert scores(t) == {1: 40, 2: 80, 3: 0}
    assert outcomes(t) == {1: "dropped", 2: "wrong_show", 3: "won"}
    declared = Move.objects.filter(game=t.game(), action="declare").get()
    assert declared.events[0]["type"] == "declared" and declared.events[0]["valid"] is False


def test_drop_is_only_before_picking(three: Callable[..., Any]) -> None:
    t, _ = three()
    t.act(1, "pick_closed")
    version = t.game().version
    with pytest.raises(InvalidMove, match="before you pick"):
        t.act(1, "drop")
    assert t.game().version == version


def test_auto_drop_takes_effect_at_the_next_turn(three: Callable[..., Any]) -> None:
    t, _ = three()
    t.act(2, "set_auto_drop", on=True)  # set during seat 1's turn
    t.act(3, "set_auto_drop", on=True)
    t.act(3, "set_auto_drop", on=False)  # cancelled before it took effect
    pick_and_throw(t, 1)
    # Seat 2 was dropped at the start of its turn (first drop); seat 3 plays on.
    assert t.turn() == 3
    players = {p["seat"]: p for p in t.view()["players"]}
    assert players[2]["deal_status"] == "dropped"
    pick_and_throw(t, 3)
    t.act(1, "set_auto_drop", on=True)  # on its own turn before picking: at once
    assert scores(t) == {1: 40, 2: 20, 3: 0}


def test_three_missed_turns_score_the_middle_drop(three: Callable[..., Any]) -> None:
    t, _ = three(extra_time_s=0)
    for _ in range(3):
        assert t.turn() == 1
        t.fire()  # seat 1's turn runs out: the server picks and throws for it
        pick_and_throw(t, 2)
        if t.view()["deal"] is None:
            break
        pick_and_throw(t, 3)
    server_moves = Move.objects.filter(game=t.game(), action="timeout", actor__isnull=True)
    assert server_moves.count() == 3
    players = {p["seat"]: p for p in t.view()["players"]}
    assert players[1]["deal_status"] == "timed_out"
    t.act(2, "drop")
    assert scores(t) == {1: 40, 2: 40, 3: 0}


def test_extra_time_then_missed_turn(three: Callable[..., Any]) -> None:
    t, _ = three(turn_s=30, extra_time_s=20)
    start = t.clock.t
    game = t.game()
    assert game.deadline_kind == "turn"
    assert game.deadline.timestamp() == pytest.approx(start + 30, abs=1e-3)
    t.fire()  # the turn timer ran out: the extra-time bank starts
    game = t.game()
    assert t.turn() == 1
    assert game.deadline.timestamp() == pytest.approx(start + 50, abs=1e-3)
    t.fire()  # the bank ran out too: a missed turn
    assert t.turn() == 2
    missed = {p["seat"]: p["missed_turns"] for p in t.view()["players"]}
    assert missed[1] == 1


def test_deal_show_halves_the_count_of_players_without_a_turn(
    three: Callable[..., Any],
) -> None:
    t, groups = three()
    t.act(1, "pick_closed")
    picked = t.view(1)["hand"]["picked"]
    t.act(1, "declare", finish_card=picked, groups=WINNER_GROUPS)
    assert t.phase() == "meld"
    t.act(2, "submit_meld", groups=groups[2])
    t.act(3, "submit_meld", groups=groups[3])
    assert scores(t) == {1: 0, 2: 17, 3: 24}
    assert outcomes(t) == {1: "won", 2: "deal_show", 3: "deal_show"}


def test_unsubmitted_hand_is_counted_as_held_after_the_meld_window(
    three: Callable[..., Any],
) -> None:
    t, groups = three()
    for seat in (1, 2, 3):
        pick_and_throw(t, seat)
    t.act(1, "pick_closed")
    t.act(1, "declare", finish_card=t.view(1)["hand"]["picked"], groups=WINNER_GROUPS)
    t.act(2, "submit_meld", groups=groups[2])
    # Seat 3 never submits: the meld window runs out and its held arrangement is counted.
    t.act(3, "arrange", groups=groups[3])
    assert t.game().deadline_kind == "meld"
    t.fire()
    assert scores(t) == {1: 0, 2: 34, 3: 48}


def test_full_count_caps_a_loser_at_80(
    seated: Callable[..., TableDriver], planter: Planter, toss: Callable[[int], None]
) -> None:
    toss(1)
    heavy = ["AH", "AD", "KS", "KS", "JH", "JH", "10C", "10C", "9H", "9C", "8D", "8D", "7S"]
    planter.add(hands={1: flatten(WINNER_GROUPS), 2: heavy}, open_card="JC", cut_card="QC")
    t = seated(2)
    pick_and_throw(t, 1)
    pick_and_throw(t, 2)
    t.act(1, "pick_closed")
    t.act(1, "declare", finish_card=t.view(1)["hand"]["picked"], groups=WINNER_GROUPS)
    t.act(2, "submit_meld", groups=[[c] for c in heavy])
    assert scores(t) == {1: 0, 2: 80}


def test_leaving_a_game_counts_as_a_drop_and_refunds_nothing(
    three: Callable[..., Any], players: list[Any]
) -> None:
    t, _ = three()
    pick_and_throw(t, 1)
    services.table_leave(table=t.table, user=players[1])  # seat 2, before its first turn
    seat = Seat.objects.get(game=t.game(), seat_no=2)
    assert seat.left_at is not None
    assert {p["seat"]: p["status"] for p in t.view()["players"]}[2] == "left"
    assert balance(players[1]) == 100_000 - 1000
    assert t.turn() == 3
    t.act(3, "drop")
    assert scores(t) == {1: 0, 2: 20, 3: 20}
    assert outcomes(t)[2] == "left"
    # The leaver takes no part in the next deal; its seat number is not free during the game.
    t.settle_break()
    assert set(t.view()["deal"]["seats"]) == {1, 3}
    with pytest.raises(services.NotSeated):
        t.act(2, "pick_closed")
    with pytest.raises(services.TableClosed):
        services.table_join(table=t.table, user=players[5])


def test_the_last_player_left_wins_the_game(three: Callable[..., Any], players: list[Any]) -> None:
    t, _ = three()
    services.table_leave(table=t.table, user=players[1])
    services.table_leave(table=t.table, user=players[2])
    game = t.game()
    assert game.status == GameStatus.FINISHED
    assert game.result["winners"] == [1]
    assert balance(players[0]) == 100_000 - 1000 + 2700
    assert_reconciled()


def test_disconnection_with_the_drop_policy(three: Callable[..., Any], players: list[Any]) -> None:
    t, _ = three(disconnect_policy="drop")
    assert services.seat_set_connected(table=t.table, user=players[1], connected=False)
    assert not services.seat_set_connected(table=t.table, user=players[1], connected=False)
    pick_and_throw(t, 1)
    # Seat 2's turn came while it was away: dropped at once with the middle drop.
    assert t.turn() == 3
    assert {p["seat"]: p["deal_status"] for p in t.view()["players"]}[2] == "dropped"
    assert services.seat_set_connected(table=t.table, user=players[1], connected=True)
    assert {p["seat"]: p["connected"] for p in t.view()["players"]}[2] is True
    t.act(3, "drop")
    assert scores(t) == {1: 0, 2: 40, 3: 20}


def test_disconnection_by_default_lets_turns_run_out(
    three: Callable[..., Any], players: list[Any]
) -> None:
    t, _ = three(extra_time_s=0)
    services.seat_set_connected(table=t.table, user=players[0], connected=False)
    assert t.turn() == 1
    t.fire()
    assert t.turn() == 2
    assert {p["seat"]: p["missed_turns"] for p in t.view()["players"]}[1] == 1


def test_deals_with_two_players_allow_no_drop_and_score_deal_show_flat(
    seated: Callable[..., TableDriver], planter: Planter, toss: Callable[[int], None]
) -> None:
    toss(1)
    groups = plant_hands(planter, winner=1, losers={2: 48})
    t = seated(2, variant="deals", deals_count=2)
    with pytest.raises(InvalidMove, match="not allowed"):
        t.act(1, "drop")
    t.act(1, "pick_closed")
    t.act(1, "declare", finish_card=t.view(1)["hand"]["picked"], groups=WINNER_GROUPS)
    t.act(2, "submit_meld", groups=groups[2])
    assert scores(t) == {1: 0, 2: 20}  # deal show in deals: 20 flat
    assert t.chips() == {1: 180, 2: 140}


def _seat_words(client: Any, t: TableDriver, viewer: int, seat: int) -> str:
    """What the felt's seat ``seat`` says to the player at seat ``viewer``, tags dropped."""
    import html
    import re

    client.force_login(t.users[viewer])
    page = client.get(f"/tables/{t.table.pk}/").content.decode()
    found = re.search(
        rf'<div class="seat [^"]*"[^>]*data-seat="{seat}">(.*?)<div class="seat-state">', page, re.S
    )
    assert found, f"no seat {seat} on the felt"
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", found.group(1)))).strip()


def test_a_seat_says_its_score_and_drops_left_and_after_a_drop_that_it_dropped(
    three: Callable[..., Any], client: Any
) -> None:
    t, _ = three()
    before = _seat_words(client, t, 2, 1)
    assert "score 0 pts" in before
    assert "5 drops left" in before
    t.act(1, "drop")
    after = _seat_words(client, t, 2, 1)
    assert "dropped" in after
    assert "drops left" not in after
    assert "score 0 pts" in after  # the drop's 20 points count when the deal is over
