"""What a committed change of a table leaves behind, and who hears of it.

The write pipeline (``services._pipeline``) builds one ``TableMoved`` per committed change and
hands it, after the commit, to every subscriber (``table_moved_publish``). The live pushes
(``tables.live.realtime``) subscribe when the app is ready; the services import no presentation
code. A subscriber that fails is logged and the others still hear the change: a push is best
effort (a page that misses one re-fetches its view).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.dispatch import Signal

logger = logging.getLogger(__name__)

__all__ = [
    "UNKNOWN_DEAL",
    "TableMoved",
    "table_moved",
    "table_moved_publish",
    "table_moved_subscribe",
]


class _Unknown:
    """The change did not load the game's newest deal (a subscriber reads it if it needs it)."""

    def __repr__(self) -> str:
        return "UNKNOWN_DEAL"


UNKNOWN_DEAL: Any = _Unknown()


@dataclass(frozen=True)
class TableMoved:
    """One committed change: the rows and the decoded states as the change held them.

    ``state_before``: the engine state at ``from_version`` (``None`` before the game began), so
    a subscriber can tell what changed for each seat without a query. ``lobby_changed``: the
    seating or the status of the table changed (the lobby shows those, nothing else)."""

    table: Any
    game: Any
    seats: tuple[Any, ...]
    state: Any
    from_version: int
    state_before: Any = None
    money_moved: bool = False
    lobby_changed: bool = False
    deal: Any = None  # the game's newest deal (``UNKNOWN_DEAL``: the change did not load it)
    moves: tuple[dict[str, Any], ...] = ()  # the moves the change recorded, oldest first


Subscriber = Callable[[TableMoved], None]

# The one observer mechanism of the project: a Django signal (``tables.signals`` has the write
# path's others). Sent with ``moved``; ``send_robust`` keeps a failing receiver to itself.
table_moved = Signal()


def table_moved_subscribe(subscriber: Subscriber) -> None:
    """Hear every committed change from now on (once per subscriber, however often called)."""

    def receiver(sender: object, *, moved: TableMoved, **kwargs: object) -> None:
        subscriber(moved)

    uid = f"{subscriber.__module__}.{subscriber.__qualname__}"
    table_moved.connect(receiver, weak=False, dispatch_uid=uid)


def table_moved_publish(moved: TableMoved) -> None:
    """Hand ``moved`` to every subscriber. Call from ``transaction.on_commit``."""
    for receiver, result in table_moved.send_robust(sender=TableMoved, moved=moved):
        if isinstance(result, Exception):  # one subscriber's failure must not stop the others
            logger.error(
                "subscriber %r failed for table %s v%s",
                receiver,
                getattr(moved.table, "pk", None),
                getattr(moved.game, "version", None),
                exc_info=result,
            )
