"""Timers: deadlines in the database, races with moves, restarts, the sweep, the Celery task."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest
from django.core.management import call_command
from tables_testkit import Planter, TableDriver, plant, play

from tables import selectors, services
from tables.models import Deal, Game, GameStatus, Move
from tables.rules import variants
from tables.services import _pipeline, timers
from tables.timers import tasks


@pytest.fixture
def t(timed_three: TableDriver) -> TableDriver:
    return timed_three


def test_the_turn_deadline_is_stored(t: TableDriver) -> None:
    game = t.game()
    assert game.deadline_kind == "turn"
    assert game.deadline.timestamp() == pytest.approx(t.clock.t + 30, abs=1e-3)
    assert services.game_state(game).deadline == pytest.approx(t.clock.t + 30)


def test_timer_before_the_deadline_does_nothing(t: TableDriver) -> None:
    game = t.game()
    t.clock.advance(29)
    assert services.timer_fire(game_id=game.pk, version=game.version) == "early"
    assert services.timers_sweep() == 0
    assert t.game().version == game.version


def test_timeout_first_then_the_late_move_is_stale(t: TableDriver) -> None:
    game = t.game()
    t.clock.advance(30.5)
    # Both were sent for the same version; the timer commits first.
    assert services.timer_fire(game_id=game.pk, version=game.version) == "fired"
    with pytest.raises(services.StaleAction):
        services.game_act(
            game_id=game.pk, user=t.users[1], action="pick_closed", expected_version=game.version
        )
    assert t.turn() == 2
    assert Move.objects.filter(game=game, action="timeout").count() == 1
    # The same timer delivered twice is a no-op.
    assert services.timer_fire(game_id=game.pk, version=game.version) == "stale"
    assert Move.objects.filter(game=game, action="timeout").count() == 1


def test_move_first_then_the_late_timer_is_a_no_op(t: TableDriver) -> None:
    game = t.game()
    t.clock.advance(29.5)  # the move beats the deadline
    services.game_act(
        game_id=game.pk, user=t.users[1], action="pick_closed", expected_version=game.version
    )
    t.clock.advance(1)  # the timer of the old version runs late, after the deadline
    assert services.timer_fire(game_id=game.pk, version=game.version) == "stale"
    assert not Move.objects.filter(game=game, action="timeout").exists()
    assert len(t.view(1)["hand"]["cards"]) == 14


def test_a_move_after_the_deadline_finds_the_timeout_applied(t: TableDriver) -> None:
    game = t.game()
    t.clock.advance(30.5)  # the deadline has passed but the sweep has not run yet
    with pytest.raises(services.TimeRanOut):
        services.game_act(
            game_id=game.pk, user=t.users[1], action="pick_closed", expected_version=game.version
        )
    # The server's clock decided: the timeout was applied (and kept), the pick refused.
    assert Move.objects.filter(game=game, action="timeout").count() == 1
    assert len(t.view(1)["hand"]["cards"]) == 13
    assert services.timer_fire(game_id=game.pk, version=game.version) == "stale"


def test_the_break_ends_by_its_deadline(
    seated: Callable[..., TableDriver], planter: Planter, toss: Callable[[int], None]
) -> None:
    toss(1)
    first = {1: 0, 2: 34, 3: 48}
    planned = plant(planter, first)
    t = seated(3, break_s=10)
    play(t, *planned, first)
    game = t.game()
    assert t.phase() == "break" and game.deadline_kind == "break"
    assert Deal.objects.filter(game=game).count() == 1
    t.clock.advance(9.9)
    assert services.timers_sweep() == 0
    with pytest.raises(services.TableError, match="No deal is due"):
        services.deal_start(game=game)
    t.clock.advance(0.2)
    assert services.timers_sweep() == 1
    assert t.phase() == "turn"
    assert Deal.objects.filter(game=game).count() == 2
    deal = Deal.objects.get(game=game, number=2)
    assert deal.starter == 2
    assert deal.state_before["phase"] == "break"  # dealt straight from the break
    assert len(deal.shoe["shoe"]["cards"]) == 106


def test_a_restart_in_the_middle_of_a_deal(t: TableDriver) -> None:
    t.act(1, "pick_closed")
    t.act(1, "discard", card=t.view(1)["hand"]["picked"])
    t.act(2, "pick_closed")
    before = t.game()
    # A new process: nothing in memory, everything comes back from the database.
    variants._ENGINES.clear()
    game = Game.objects.get(pk=before.pk)
    assert game.state == before.state
    state = services.game_state(game)
    assert state.deal.turn == 2 and state.deal.picked is not None
    # The server was down past seat 2's deadline: the first sweep fires it.
    t.clock.t = game.deadline.timestamp() + 120
    out = io.StringIO()
    call_command("run_timers", "--once", stdout=out)
    assert "fired 1 timer(s)" in out.getvalue()
    game.refresh_from_db()
    timeout = Move.objects.get(game=game, action="timeout")
    assert timeout.actor is None and timeout.version == before.version + 1
    assert [e["type"] for e in timeout.events][:2] == ["turn_missed", "card_discarded"]
    assert t.turn() == 3
    assert game.deadline.timestamp() == pytest.approx(t.clock.t + 30, abs=1e-3)
    # The replay of the stored shoe and moves rebuilds exactly the stored state.
    steps = selectors.deal_replay(deal=Deal.objects.get(game=game))
    assert all(step.matches_log for step in steps)
    assert steps[-1].state == game.state


def test_the_sweep_fires_only_overdue_games(
    seated: Callable[..., TableDriver], players: list[Any], clock: Any, toss: Any
) -> None:
    toss(1)
    a = seated(2, turn_s=10, extra_time_s=0)
    clock.advance(5)
    from tables.models import Table

    b_table = Table.objects.get(pk=services.table_create(template=a.table.template).pk)
    services.table_join(table=b_table, user=players[2])
    services.table_join(table=b_table, user=players[3])
    clock.advance(5.5)  # a's turn is over, b's is not
    assert services.timers_sweep() == 1
    assert a.turn() == 2
    assert Move.objects.filter(game__table=b_table, action="timeout").count() == 0


def test_celery_backend_schedules_the_timer_on_commit(
    t: TableDriver,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    settings.TIMERS_BACKEND = "celery"
    settings.TIMERS_SCHEDULE = "eta"
    sent: list[tuple[Any, ...]] = []
    pushed: list[tuple[int, int]] = []
    monkeypatch.setattr(
        tasks.game_timeout,
        "apply_async",
        lambda args, eta: sent.append((*args, eta)),
    )
    monkeypatch.setattr(
        _pipeline,
        "table_moved_publish",
        lambda moved: pushed.append((moved.table.pk, moved.game.version)),
    )
    with django_capture_on_commit_callbacks(execute=True):
        game = t.act(1, "pick_closed")
    # The deadline did not move, but the version did: a timer for the new version is queued
    # (the one queued for the old version will find the game moved on and do nothing).
    assert sent == [(game.pk, game.version, game.deadline)]
    assert pushed == [(t.table.pk, game.version)]
    t.clock.advance(5)
    with django_capture_on_commit_callbacks(execute=True):
        game = t.act(1, "discard", card=t.view(1)["hand"]["picked"])
    assert pushed[-1] == (t.table.pk, game.version)
    assert sent[-1] == (game.pk, game.version, game.deadline)
    assert sent[-1][2] > sent[0][2]  # seat 2's turn ends later


def test_the_task_fires_and_reschedules_an_early_run(
    t: TableDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = t.game()
    scheduled: list[tuple[int, int]] = []
    monkeypatch.setattr(
        timers,
        "timer_schedule",
        lambda *, game_id, version, deadline: scheduled.append((game_id, version)),
    )
    assert tasks.game_timeout.run(game.pk, game.version) == "early"
    assert scheduled == [(game.pk, game.version)]
    t.clock.advance(31)
    assert tasks.game_timeout.run(game.pk, game.version) == "fired"
    assert tasks.timers_sweep.run() == 0
    assert t.game().version > game.version


def test_a_finished_game_has_no_deadline(t: TableDriver, players: list[Any]) -> None:
    services.table_leave(table=t.table, user=players[1])
    services.table_leave(table=t.table, user=players[2])
    game = t.game()
    assert game.status == GameStatus.FINISHED
    assert game.deadline is None and game.deadline_kind == ""
    assert services.timer_fire(game_id=game.pk, version=game.version) == "stale"


def test_the_sweep_schedule_queues_no_task_per_move(
    t: TableDriver,
    settings: Any,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """With ``TIMERS_SCHEDULE = "sweep"`` (the default) a move queues nothing: beat's sweep of
    the indexed deadline column, every ``TIMER_SWEEP_S``, fires the deadlines."""
    settings.TIMERS_BACKEND = "celery"
    settings.TIMERS_SCHEDULE = "sweep"
    sent: list[Any] = []
    monkeypatch.setattr(tasks.game_timeout, "apply_async", lambda *a, **k: sent.append(a))
    with django_capture_on_commit_callbacks(execute=True):
        t.act(1, "pick_closed")
    assert sent == []
