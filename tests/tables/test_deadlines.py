"""The server's clock decides: a move is judged at the time it arrives. A deadline that has
passed (by more than the grace) is fired first, in the same transaction, and stands, whether or
not the timer worker ran; the move is then judged against what it left. No test here runs the
timer sweep before the late move: the worker is, in effect, stopped."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest
from tables_testkit import (
    WINNER_GROUPS,
    Planter,
    TableDriver,
    balance,
    flatten,
    loser_groups,
    plant,
    plant_and_play,
    play,
    reserved_cards,
)

from tables import services
from tables.models import Game, GameStatus, Move

GRACE = 0.5


@pytest.fixture(autouse=True)
def _grace(settings: Any) -> None:
    settings.DEADLINE_GRACE_S = GRACE


def test_the_grace_defaults_to_half_a_second_and_is_configurable() -> None:
    def grace(**env: str) -> float:
        environ = {k: v for k, v in os.environ.items() if k != "DEADLINE_GRACE_S"}
        code = "from django.conf import settings; print(settings.DEADLINE_GRACE_S)"
        result = subprocess.run(
            [sys.executable, "-c", f"import django; django.setup(); {code}"],
            env={**environ, "DJANGO_SETTINGS_MODULE": "rummy_site.settings", **env},
            capture_output=True,
            text=True,
            check=True,
        )
        return float(result.stdout.strip())

    assert grace() == 0.5
    assert grace(DEADLINE_GRACE_S="1.25") == 1.25


@pytest.fixture
def three(
    seated: Callable[..., TableDriver], planter: Planter, toss: Callable[[int], None]
) -> Callable[..., tuple[TableDriver, dict[int, Any]]]:
    """A 101-pool game of 3, seat 1 to start; seat 1 holds a valid show, seats 2 and 3 count
    34 and 48."""

    def make(**fields: Any) -> tuple[TableDriver, dict[int, Any]]:
        toss(1)
        used = reserved_cards()
        groups: dict[int, Any] = {1: WINNER_GROUPS}
        for which, (seat, points) in enumerate({2: 34, 3: 48}.items()):
            groups[seat] = loser_groups(points, which, used)
        planter.add(
            hands={seat: flatten(g) for seat, g in groups.items()}, open_card="JC", cut_card="QC"
        )
        return seated(3, variant="pool101", **fields), groups

    return make


def _timeouts(game: Game) -> int:
    return Move.objects.filter(game=game, action="timeout").count()


def test_a_pick_after_the_turn_and_its_extra_time_is_refused(three: Callable[..., Any]) -> None:
    t, _ = three(turn_s=30, extra_time_s=30)
    game = t.game()
    t.clock.advance(61)  # 30 s turn + 30 s extra time are over
    with pytest.raises(services.TimeRanOut, match="Time ran out"):
        t.act(1, "pick_closed")
    # Both timeouts were applied and stand: extra time began, then the turn was missed.
    assert _timeouts(game) == 2
    assert t.turn() == 2
    assert len(t.view(1)["hand"]["cards"]) == 13
    assert not Move.objects.filter(game=game, action="pick_closed").exists()
    missed = {p["seat"]: p["missed_turns"] for p in t.view()["players"]}
    assert missed[1] == 1


def test_a_pick_in_extra_time_is_the_players_own_move(three: Callable[..., Any]) -> None:
    t, _ = three(turn_s=30, extra_time_s=30)
    t.clock.advance(45)  # the turn ran out, the extra-time bank is running
    t.act(1, "pick_closed")  # the server first opens the extra time, then takes the pick
    assert len(t.view(1)["hand"]["cards"]) == 14
    assert _timeouts(t.game()) == 1


def test_a_late_discard_is_refused_and_the_server_played_the_turn(
    three: Callable[..., Any],
) -> None:
    t, _ = three(turn_s=30, extra_time_s=0)
    t.clock.advance(5)
    t.act(1, "pick_closed")
    picked = t.view(1)["hand"]["picked"]
    t.clock.advance(26)  # 31 s into a 30 s turn
    with pytest.raises(services.TimeRanOut):
        t.act(1, "discard", card=picked)
    assert len(t.view(1)["hand"]["cards"]) == 13  # the server played the turn
    assert t.turn() == 2
    assert not Move.objects.filter(game=t.game(), action="discard").exists()


def test_a_late_declare_is_refused(three: Callable[..., Any]) -> None:
    t, _ = three(turn_s=30, extra_time_s=0)
    t.act(1, "pick_closed")
    picked = t.view(1)["hand"]["picked"]
    t.clock.advance(30 + GRACE + 0.01)
    with pytest.raises(services.TimeRanOut):
        t.act(1, "declare", finish_card=picked, groups=WINNER_GROUPS)
    assert t.phase() == "turn" and t.turn() == 2
    assert not Move.objects.filter(game=t.game(), action="declare").exists()


@pytest.mark.parametrize(
    ("after", "accepted"),
    [(30 + GRACE - 0.01, True), (30 + GRACE + 0.01, False)],
    ids=["inside-the-grace", "past-the-grace"],
)
def test_a_move_at_the_deadline_and_the_grace(
    three: Callable[..., Any], after: float, accepted: bool
) -> None:
    t, _ = three(turn_s=30, extra_time_s=0)
    t.clock.advance(after)
    if accepted:
        t.act(1, "pick_closed")
        assert len(t.view(1)["hand"]["cards"]) == 14
        assert _timeouts(t.game()) == 0
    else:
        with pytest.raises(services.TimeRanOut):
            t.act(1, "pick_closed")
        assert _timeouts(t.game()) == 1


def test_the_timer_fires_only_after_the_grace(three: Callable[..., Any]) -> None:
    t, _ = three(turn_s=30, extra_time_s=0)
    game = t.game()
    # The stored deadline is when the timer fires: the turn's end plus the grace.
    state_deadline = t.view()["deadline"]
    assert game.deadline.timestamp() == pytest.approx(state_deadline + GRACE, abs=1e-3)
    t.clock.advance(30 + GRACE - 0.01)
    assert services.timers_sweep() == 0
    t.clock.advance(0.02)
    assert services.timers_sweep() == 1
    assert t.turn() == 2


def test_a_late_meld_submission_is_judged_after_the_window_closed(
    three: Callable[..., Any],
) -> None:
    t, groups = three(meld_window_s=30)
    t.act(1, "pick_closed")
    picked = t.view(1)["hand"]["picked"]
    t.act(1, "declare", finish_card=picked, groups=WINNER_GROUPS)
    t.act(2, "submit_meld", groups=groups[2])
    t.clock.advance(31)
    with pytest.raises(ValueError):  # the window closed: nothing to submit to any more
        t.act(3, "submit_meld", groups=groups[3])
    assert t.phase() != "meld"
    last = t.view()["last_deal"]
    assert last is not None  # the deal ended by the clock, counting seat 3's hand as held
    assert _timeouts(t.game()) == 1


@pytest.fixture
def pool_start(
    seated: Callable[..., TableDriver], planter: Planter, toss: Callable[[int], None]
) -> Callable[..., TableDriver]:
    def make(first: dict[int, int | None], **fields: Any) -> TableDriver:
        toss(1)
        planned = plant(planter, first)
        t = seated(3, variant="pool101", **fields)
        play(t, *planned, first)
        return t

    return make


def test_a_late_rejoin_is_refused_and_not_charged(
    pool_start: Callable[..., TableDriver], planter: Planter, players: list[Any]
) -> None:
    t = pool_start({1: 0, 2: 34, 3: 61}, rejoin_window_s=20)
    plant_and_play(t, planter, {1: 0, 2: 20, 3: 40})
    assert t.phase() == "rejoin"
    before = balance(players[2])
    t.clock.advance(25)  # 25 s after a 20 s offer
    with pytest.raises(services.TimeRanOut, match="rejoin offer ran out"):
        services.game_rejoin(
            game_id=t.game().pk, user=players[2], expected_version=t.game().version
        )
    assert balance(players[2]) == before
    assert t.phase() != "rejoin"
    status = {p["seat"]: p["status"] for p in t.view()["players"]}
    assert status[3] != "in"


def test_a_late_split_answer_is_refused(
    pool_start: Callable[..., TableDriver], planter: Planter
) -> None:
    t = pool_start({1: 0, 2: 45, 3: 61}, split_window_s=20)
    plant_and_play(t, planter, {1: 0, 2: 40, 3: 40})
    plant_and_play(t, planter, {1: 60, 2: 0})
    assert t.phase() == "split"
    t.act(1, "split_accept")
    t.clock.advance(21)
    with pytest.raises(services.TimeRanOut, match="split offer ran out"):
        t.act(2, "split_accept")
    game = t.game()
    assert t.phase() != "split"
    assert game.result is None or game.result.get("reason") != "manual_split"
    assert game.status in (GameStatus.RUNNING, GameStatus.FINISHED)
