"""The embedded default's timers: a sweep every half second inside the web server's own event
loop, so pushes from fired timers (turn timeouts, computer players) reach the sockets of the
in-memory channel layer; the sweeps other parts register (``loop_sweep_register``: the
tournament director's) run on the same tick. With Redis configured, Celery fires the timers
instead.

``TimerLoopMiddleware`` wraps the ASGI application and starts the loop on the first
connection (daphne has no lifespan events)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from channels.db import database_sync_to_async
from django.dispatch import Signal

from ledger.payments.services import deposits_expire
from tables import services

logger = logging.getLogger(__name__)

# Sweeps other parts of the product run on the loop's tick, after the timers, without the
# tables importing them (the tournament director: ``tables.tournaments.hooks``): the receivers
# of a Django signal (the project's one observer mechanism), connected by name.
Sweep = Callable[[], object]
loop_tick_signal = Signal()


def loop_sweep_register(name: str, sweep: Sweep) -> None:
    """Run ``sweep()`` on every tick of the embedded loop (Celery beat runs its own task when
    Celery fires the timers). Registered once at start-up; registering a name twice keeps the
    first."""

    def receiver(sender: object, **kwargs: object) -> None:
        sweep()

    loop_tick_signal.connect(receiver, weak=False, dispatch_uid=name)


def _other_sweeps() -> None:
    """The registered sweeps, each on its own: one that fails is logged and the others run
    (what was due is done on the next tick: the tournaments advanced)."""
    for receiver, result in loop_tick_signal.send_robust(sender=None):
        if isinstance(result, Exception):
            logger.error("loop sweep %r failed", receiver, exc_info=result)


# How often (in ticks) the loop also expires abandoned deposit checkouts (Celery beat does it
# when Celery runs the timers): about once a minute.
EXPIRE_EVERY = 120


async def timer_loop(*, interval: float = 0.5) -> None:
    sweep = database_sync_to_async(services.timers_sweep)
    expire = database_sync_to_async(deposits_expire)
    tick = 0
    others = database_sync_to_async(_other_sweeps)
    while True:
        try:
            await sweep()
            if tick % EXPIRE_EVERY == 0:
                await expire()
        except Exception:  # a failed sweep is retried on the next tick
            logger.exception("timer sweep failed")
        tick += 1
        if loop_tick_signal.has_listeners():
            try:
                await others()
            except Exception:  # the database went away: the next tick tries again
                logger.exception("loop sweeps failed")
        await asyncio.sleep(interval)


class TimerLoopMiddleware:
    def __init__(self, app: Any, *, interval: float = 0.5) -> None:
        self.app = app
        self.interval = interval
        self.task: asyncio.Task[None] | None = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if self.task is None and scope.get("type") in ("http", "websocket"):
            self.task = asyncio.get_running_loop().create_task(timer_loop(interval=self.interval))
        return await self.app(scope, receive, send)
