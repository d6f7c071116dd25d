"""The lobby's live counts: pushed only when a table's seating or status changed, at most once a
``LOBBY_PUSH_INTERVAL_S`` (default 1 s) per process however many tables change meanwhile,
rendered once per language and sent with the push: a lobby page swaps the counts in out of band
and fetches nothing (``templates/tables/lobby.html#lobby-counts``).

The first change after a quiet second is pushed at once; changes within the second after a
push are gathered into one push at its end: scheduled on the server's event loop when the
change was made inside daphne (the in-memory channel layer wakes only sockets on its own
loop), else on a timer thread (a Celery worker, whose layer is Redis)."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from typing import Any

from asgiref.sync import SyncToAsync, sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import close_old_connections
from django.template.loader import render_to_string
from django.utils import translation

from accounts.live import call_async
from ledger.currencies import money_games_on
from tables import selectors

logger = logging.getLogger(__name__)

LOBBY_COUNTS = "tables/lobby.html#lobby-counts"

_lock = threading.Lock()
_last_push = -1e9
_due_at: float | None = None  # when the gathered push is due (``None``: none is)
# Lobby renders since the process started (one per language per push), for tests and benchmarks.
renders = {"lobby": 0}


def _interval() -> float:
    return float(getattr(settings, "LOBBY_PUSH_INTERVAL_S", 1.0))


def lobby_changed() -> None:
    """A table's seating or status changed: push the lobby's counts now or within the second."""
    global _due_at
    now = time.monotonic()
    with _lock:
        if _due_at is not None and now < _due_at + 2 * _interval():
            return  # a push is already due: it will read the counts as they are then
        wait = _last_push + _interval() - now
        if wait > 0:
            _due_at = now + wait  # (a loop that closed before it fired: due again later)
            loop = _server_loop()
            if loop is not None:
                loop.call_soon_threadsafe(loop.call_later, wait, _deferred_on_loop)
            else:
                timer = threading.Timer(wait, _deferred)
                timer.daemon = True
                timer.start()
            return
    lobby_push()


def _server_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop of the ASGI server this sync code runs for (``None``: not in one)."""
    loop: asyncio.AbstractEventLoop | None = getattr(
        SyncToAsync.threadlocal, "main_event_loop", None
    )
    if loop is None or loop.is_closed() or not loop.is_running():
        return None
    return loop


def _deferred_on_loop() -> None:
    async def push() -> None:
        global _due_at
        with _lock:
            _due_at = None
        try:
            event = await sync_to_async(lobby_push, thread_sensitive=False)(send_async=True)
            layer = get_channel_layer()
            if event is not None and layer is not None:
                await layer.group_send("lobby", event)
        except Exception:
            logger.exception("lobby push failed")
        finally:
            _pending.discard(asyncio.current_task())

    _pending.add(asyncio.ensure_future(push()))


_pending: set[Any] = set()


def _deferred() -> None:
    global _due_at
    with _lock:
        _due_at = None
    try:
        lobby_push()
    finally:
        close_old_connections()


def lobby_html() -> dict[str, str]:
    """The lobby's counts, once per language."""
    rows = selectors.lobby_templates(money_games=money_games_on())
    out: dict[str, str] = {}
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            out[language] = render_to_string(LOBBY_COUNTS, {"templates": rows})
            renders["lobby"] += 1
    return out


def lobby_push(*, send_async: bool = False) -> Any:
    """Render the counts and send them to the lobby group (with ``send_async``: return the
    coroutine that sends them, for a caller on the event loop)."""
    global _last_push
    layer = get_channel_layer()
    if layer is None:
        return None
    with _lock:
        _last_push = time.monotonic()
    try:
        event: dict[str, Any] = {"type": "lobby.update", "html": lobby_html()}
        if send_async:
            return event
        call_async(layer.group_send, "lobby", event)
    except Exception:  # best effort: a lobby page shows the counts again when reloaded
        logger.exception("lobby push failed")
    finally:
        close_old_connections() if send_async else None
    return None
