"""Telling a tournament's open pages that it moved on (best effort: the pages also re-fetch
their live part every few seconds)."""

from __future__ import annotations

import itertools
import logging

from channels.layers import get_channel_layer

from accounts.live import call_async

logger = logging.getLogger(__name__)
_counter = itertools.count(1)


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def tournament_push(tournament_id: int) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        call_async(
            layer.group_send,
            tournament_group(tournament_id),
            {"type": "tournament.moved", "n": next(_counter)},
        )
    except Exception:  # a push is best effort
        logger.exception("push failed for tournament %s", tournament_id)
