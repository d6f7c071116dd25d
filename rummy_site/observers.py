"""The observers of the write path: metrics (``rummy_site/metrics.py``) and one structured log
event a line (logger ``rummy.events``; JSON with ``LOG_FORMAT=json``) per committed change, with
the table, the game, the version and the moves.

Connected once, in ``RummySiteConfig.ready``. The write path only sends signals
(``tables.signals.game_committed``, ``ledger.signals.transaction_posted``): nothing here is
imported by it.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.http import HttpRequest, HttpResponse

from ledger.signals import transaction_posted
from tables.signals import game_committed

from . import metrics

events = logging.getLogger("rummy.events")

_ACT_PATH = re.compile(r"^/tables/(\d+)/act$")
TIMEOUT_TASK = "tables.tasks.game_timeout"


def on_game_committed(sender: Any, *, moved: Any, push_s: float, **kwargs: Any) -> None:
    actions = [str(m.get("action", "")) for m in moved.moves]
    for action in actions:
        metrics.MOVES.labels(action=action).inc()
    metrics.PUSH_FANOUT.observe(push_s)
    metrics.pool_sample()
    events.info(
        "game_committed",
        extra={
            "event": "game_committed",
            "table": moved.table.pk,
            "game": moved.game.pk,
            "version": moved.game.version,
            "from_version": moved.from_version,
            "status": str(moved.game.status),
            "actions": actions,
            "seats": [m.get("seat_no") for m in moved.moves],
            "push_ms": round(push_s * 1000, 1),
        },
    )


def on_transaction_posted(
    sender: Any, *, kind: str, currency: str, entries: int, **kwargs: Any
) -> None:
    metrics.POSTINGS.labels(kind=kind, currency=currency).inc()
    metrics.ENTRIES.inc(entries)


class MoveLatencyMiddleware:
    """Times ``POST /tables/<id>/act`` (a player's move) and logs a refused one."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        match = _ACT_PATH.match(request.path_info) if request.method == "POST" else None
        if match is None:
            return self.get_response(request)
        started = time.perf_counter()
        response = self.get_response(request)
        elapsed = time.perf_counter() - started
        action = str(request.POST.get("action", ""))[:24] or "none"
        outcome = "ok" if response.status_code < 400 else "refused"
        metrics.MOVE_LATENCY.labels(action=action, outcome=outcome).observe(elapsed)
        if outcome != "ok":
            events.info(
                "move_refused",
                extra={
                    "event": "move_refused",
                    "table": int(match.group(1)),
                    "action": action,
                    "version": str(request.POST.get("version", ""))[:12],
                    "status_code": response.status_code,
                    "ms": round(elapsed * 1000, 1),
                },
            )
        return response


def on_task_prerun(sender: Any = None, task: Any = None, **kwargs: Any) -> None:
    """A timer task starting: how late after its deadline (the task's ETA)."""
    if task is None or task.name != TIMEOUT_TASK:
        return
    eta = getattr(task.request, "eta", None)
    if not eta:
        return
    deadline = eta if isinstance(eta, datetime) else datetime.fromisoformat(str(eta))
    task.request.rummy_late_s = max(0.0, time.time() - deadline.timestamp())


def on_task_postrun(sender: Any = None, task: Any = None, retval: Any = None, **kw: Any) -> None:
    late = getattr(getattr(task, "request", None), "rummy_late_s", None)
    if late is None:
        return
    metrics.TIMER_LATE.labels(result=str(retval or "none")).observe(late)
    events.info(
        "timer_fired",
        extra={
            "event": "timer_fired",
            "game": (kw.get("args") or [None])[0],
            "version": (kw.get("args") or [None, None])[1],
            "result": str(retval),
            "late_ms": round(late * 1000, 1),
        },
    )


def on_worker_process_shutdown(**kwargs: Any) -> None:
    """A Celery child leaving: drop its live gauges from the multiprocess files."""
    if metrics.MULTIPROCESS:
        import os

        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(os.getpid())


def connect() -> None:
    from celery import signals as celery_signals

    game_committed.connect(on_game_committed, dispatch_uid="rummy-observe-game")
    transaction_posted.connect(on_transaction_posted, dispatch_uid="rummy-observe-ledger")
    celery_signals.task_prerun.connect(on_task_prerun, weak=False)
    celery_signals.task_postrun.connect(on_task_postrun, weak=False)
    celery_signals.worker_process_shutdown.connect(on_worker_process_shutdown, weak=False)
