"""Pushes to the browsers watching a table.

A push carries only the table id and the new state version: each client then re-fetches its
own view over HTTP (render per viewer), so nothing hidden ever travels in a broadcast.
Call ``table_broadcast`` from ``transaction.on_commit``.
"""

from __future__ import annotations

import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

logger = logging.getLogger(__name__)


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def lobby_group() -> str:
    return "lobby"


def table_broadcast(*, table_id: int, version: int) -> None:
    """Tell every socket watching ``table_id`` that the state moved to ``version``."""
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        async_to_sync(layer.group_send)(
            table_group(table_id),
            {"type": "table.update", "table_id": table_id, "version": version},
        )
        async_to_sync(layer.group_send)(lobby_group(), {"type": "lobby.update"})
    except Exception:  # a push is best effort: clients re-fetch on reconnect
        logger.exception("broadcast failed for table %s v%s", table_id, version)
