"""The lobby's live counts: pushed only when a table's seating or status changed, at most once a
``LOBBY_PUSH_INTERVAL_S`` (default 1 s) per process however many tables change meanwhile,
rendered once per language and sent with the push: a lobby page swaps the counts in out of band
and fetches nothing (``templates/tables/lobby.html#lobby-counts``).

The first change after a quiet second is pushed at once; changes within the second after a
push are gathered into one push at its end (a timer thread)."""

from __future__ import annotations

import logging
import threading
import time
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import close_old_connections
from django.template.loader import render_to_string
from django.utils import translation

logger = logging.getLogger(__name__)

LOBBY_COUNTS = "tables/lobby.html#lobby-counts"

_lock = threading.Lock()
_last_push = -1e9
_timer: threading.Timer | None = None
# Lobby renders since the process started (one per language per push), for tests and benchmarks.
renders = {"lobby": 0}


def _interval() -> float:
    return float(getattr(settings, "LOBBY_PUSH_INTERVAL_S", 1.0))


def lobby_changed() -> None:
    """A table's seating or status changed: push the lobby's counts now or within the second."""
    global _timer
    with _lock:
        if _timer is not None:
            return  # a push is already due: it will read the counts as they are then
        wait = _last_push + _interval() - time.monotonic()
        if wait > 0:
            _timer = threading.Timer(wait, _deferred)
            _timer.daemon = True
            _timer.start()
            return
    lobby_push()


def _deferred() -> None:
    global _timer
    with _lock:
        _timer = None
    try:
        lobby_push()
    finally:
        close_old_connections()


def lobby_html() -> dict[str, str]:
    """The lobby's counts, once per language."""
    from ledger.currencies import money_games_on

    from . import selectors

    rows = selectors.lobby_templates(money_games=money_games_on())
    out: dict[str, str] = {}
    for language, _name in settings.LANGUAGES:
        with translation.override(language):
            out[language] = render_to_string(LOBBY_COUNTS, {"templates": rows})
            renders["lobby"] += 1
    return out


def lobby_push() -> None:
    global _last_push
    layer = get_channel_layer()
    if layer is None:
        return
    with _lock:
        _last_push = time.monotonic()
    try:
        event: dict[str, Any] = {"type": "lobby.update", "html": lobby_html()}
        async_to_sync(layer.group_send)("lobby", event)
    except Exception:  # best effort: a lobby page shows the counts again when reloaded
        logger.exception("lobby push failed")
