"""Races for the concurrency tests: threads released together, each with its own connection."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connections


def race(n: int, work: Callable[[int], Any], *, timeout: float = 120) -> list[Any]:
    """Run ``work(i)`` for i in 0..n-1 in ``n`` threads started together; return each result or
    the exception it raised. Fails if a thread is still running after ``timeout`` seconds."""
    barrier = threading.Barrier(n)
    results: list[Any] = [None] * n

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            results[i] = work(i)
        except BaseException as error:
            results[i] = error
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    assert not any(thread.is_alive() for thread in threads), "a racing thread hung"
    return results
