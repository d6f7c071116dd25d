"""A real Celery worker on Redis fires a scheduled turn timeout (TIMERS_BACKEND "celery")."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from celery.contrib.testing.worker import start_worker

from rummy_site.celery import app
from tables import services
from tables.models import Game, Move, Table

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker(settings: Any) -> Iterator[Any]:
    settings.TIMERS_BACKEND = "celery"
    settings.TIMERS_SCHEDULE = "eta"
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10) as w:
        yield w


@pytest.fixture
def sweeping_worker(settings: Any) -> Iterator[Any]:
    """A real worker, and beat's sweep every ``TIMER_SWEEP_S`` (sent from a thread here: the
    test worker runs no beat)."""
    import threading

    from tables.timers.tasks import timers_sweep

    settings.TIMERS_BACKEND = "celery"
    settings.TIMERS_SCHEDULE = "sweep"
    stop = threading.Event()

    def beat() -> None:
        while not stop.wait(settings.TIMER_SWEEP_S):
            timers_sweep.apply_async(expires=1.0)

    ticker = threading.Thread(target=beat, daemon=True)
    with start_worker(app, pool="solo", perform_ping_check=False, shutdown_timeout=10) as w:
        ticker.start()
        yield w
        stop.set()
        ticker.join()


def test_the_sweep_fires_a_turn_timeout_within_the_sweep_period(
    sweeping_worker: Any, table_factory: Callable[..., Table], players: list[Any], settings: Any
) -> None:
    table = table_factory(seats_max=2, turn_s=1.0, extra_time_s=0)
    services.table_join(table=table, user=players[0])
    services.table_join(table=table, user=players[1])
    game = Game.objects.get(table=table)
    assert game.deadline_kind == "turn"
    fired = wait_for(lambda: Move.objects.filter(game=game, action="timeout").exists(), 15)
    assert fired, "the sweep did not fire the turn timeout"
    timeout = Move.objects.get(game=game, action="timeout")
    late = timeout.created_at.timestamp() - game.deadline.timestamp()
    # Within a sweep period and the task's trip through Redis (generous on a busy machine).
    assert -0.05 <= late <= settings.TIMER_SWEEP_S + 1.0, late


def wait_for(check: Callable[[], bool], seconds: float) -> bool:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if check():
            return True
        time.sleep(0.1)
    return False


def test_a_scheduled_timeout_fires_in_the_worker(
    worker: Any, table_factory: Callable[..., Table], players: list[Any]
) -> None:
    # Real time here: the task waits for the stored deadline, 1 s after the deal.
    table = table_factory(seats_max=2, turn_s=1.0, extra_time_s=0)
    services.table_join(table=table, user=players[0])
    services.table_join(table=table, user=players[1])
    game = Game.objects.get(table=table)
    assert game.status == "running" and game.deadline_kind == "turn"
    version = game.version
    assert not Move.objects.filter(game=game, action="timeout").exists()
    fired = wait_for(lambda: Move.objects.filter(game=game, action="timeout").exists(), 15)
    assert fired, "the worker did not fire the turn timeout"
    timeout = Move.objects.get(game=game, action="timeout", version=version + 1)
    assert timeout.actor is None
    assert timeout.created_at.timestamp() >= game.deadline.timestamp() - 0.05
    # The next turn's timer was queued by the worker's own commit and fires too.
    assert wait_for(lambda: Move.objects.filter(game=game, action="timeout").count() >= 2, 15)
