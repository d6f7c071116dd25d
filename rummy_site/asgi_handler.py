"""Django's ASGI handler with long-lived threads for its sync work.

Django runs each HTTP request's sync code (the middleware, a sync view) in the request's own
``ThreadSensitiveContext``, which by default starts a new thread for every request and stops it
after (about an eighth of a move's CPU under load, docs/benchmarks.md). Here each request takes
a single-thread executor from a pool and gives it back when done: the threads live on, and a
request still has one thread of its own for all its sync code, as Django expects (one database
connection a request, thread-local state kept within the request)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext
from django.core.handlers.asgi import ASGIHandler

# Executors kept idle for the next requests; more run at once under load and are stopped when
# given back beyond this number.
IDLE_MAX = 64


class _ExecutorPool:
    def __init__(self, idle_max: int = IDLE_MAX) -> None:
        self._idle: list[ThreadPoolExecutor] = []
        self._lock = threading.Lock()
        self._idle_max = idle_max
        self.created = 0

    def take(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._idle:
                return self._idle.pop()
            self.created += 1
        return ThreadPoolExecutor(max_workers=1, thread_name_prefix="request")

    def give_back(self, executor: ThreadPoolExecutor) -> None:
        with self._lock:
            if len(self._idle) < self._idle_max:
                self._idle.append(executor)
                return
        executor.shutdown(wait=False)


class PooledASGIHandler(ASGIHandler):
    """``get_asgi_application()`` with a pool of request threads (see the module)."""

    def __init__(self) -> None:
        super().__init__()
        self.executors = _ExecutorPool()

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        executor = self.executors.take()
        try:
            async with ThreadSensitiveContext(executor=executor):
                await self.handle(scope, receive, send)
        finally:
            self.executors.give_back(executor)


def get_pooled_asgi_application() -> PooledASGIHandler:
    """As ``django.core.asgi.get_asgi_application``, with the pooled handler."""
    import django

    django.setup(set_prefix=False)
    return PooledASGIHandler()
