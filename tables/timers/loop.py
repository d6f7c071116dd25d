"""The embedded default's timers: a sweep every half second inside the web server's own event
loop, so pushes from fired timers (turn timeouts, computer players) reach the sockets of the
in-memory channel layer; the tournament director's sweep runs on the same tick. With Redis
configured, Celery fires the timers instead.

``TimerLoopMiddleware`` wraps the ASGI application and starts the loop on the first
connection (daphne has no lifespan events)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels.db import database_sync_to_async

logger = logging.getLogger(__name__)


# How often (in ticks) the loop also expires abandoned deposit checkouts (Celery beat does it
# when Celery runs the timers): about once a minute.
EXPIRE_EVERY = 120


async def timer_loop(*, interval: float = 0.5) -> None:
    from ledger.payments.services import deposits_expire
    from tables import services
    from tables.tournaments.director import tournaments_sweep

    sweep = database_sync_to_async(services.timers_sweep)
    expire = database_sync_to_async(deposits_expire)
    tick = 0
    director = database_sync_to_async(tournaments_sweep)
    while True:
        try:
            await sweep()
            if tick % EXPIRE_EVERY == 0:
                await expire()
        except Exception:  # a failed sweep is retried on the next tick
            logger.exception("timer sweep failed")
        tick += 1
        try:
            await director()
        except Exception:  # the tournaments due are advanced on the next tick
            logger.exception("tournament sweep failed")
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
