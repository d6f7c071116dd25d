"""What the write path tells observers that live above it (metrics, structured logs).

``game_committed`` is sent once per committed change of a game, after its push went out, with
``moved`` (the ``events.TableMoved`` the change left: table, game, version and the moves it
recorded) and ``push_s`` (the seconds the push fan-out took). Receivers must be quick and must
not raise into the write path: ``send_robust`` keeps a failing receiver's error to itself.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from django.dispatch import Signal

logger = logging.getLogger(__name__)

game_committed = Signal()


def push_observed(push: Callable[[Any], None], moved: Any) -> None:
    """Run the push of a committed change, then tell the observers (``game_committed``)."""
    started = time.perf_counter()
    push(moved)
    elapsed = time.perf_counter() - started
    for receiver, result in game_committed.send_robust(sender=None, moved=moved, push_s=elapsed):
        if isinstance(result, Exception):
            logger.warning("observer %r failed: %r", receiver, result)
