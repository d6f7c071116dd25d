"""Hooks other parts of the product hang on the tables without the tables importing them:

* ``game_ended_listen(fn)``: ``fn(game)`` runs after the commit of the transaction in which a
  game finished or was cancelled (the tournament director wakes up when a table is done);
* ``table_guard_register(fn)``: ``fn(table, action)`` returns a refusal (a ``TableRefusal``) or
  ``None`` before a player joins (``"join"``) or leaves (``"leave"``) a table; a tournament's
  tables take nobody else and let nobody leave.

Listeners are registered once at start-up (``AppConfig.ready()``); registering twice is a no-op.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.db import transaction

from tables.services.errors import ActionNotAllowed, TableRefusal

logger = logging.getLogger(__name__)

GameEndedListener = Callable[[Any], None]
TableGuard = Callable[[Any, str], "TableRefusal | None"]

_ENDED: list[GameEndedListener] = []
_GUARDS: list[TableGuard] = []


def game_ended_listen(listener: GameEndedListener) -> None:
    if listener not in _ENDED:
        _ENDED.append(listener)


def table_guard_register(guard: TableGuard) -> None:
    if guard not in _GUARDS:
        _GUARDS.append(guard)


def game_ended(game: Any) -> None:
    """Tell the listeners, after the commit, that ``game`` finished or was cancelled."""
    if not _ENDED:
        return

    def notify() -> None:
        for listener in list(_ENDED):
            try:
                listener(game)
            except Exception:  # a listener must never undo or fail a finished game
                logger.exception("game-ended listener failed for game %s", game.pk)

    transaction.on_commit(notify)


def table_guard_check(table: Any, action: str) -> None:
    """Raise ``ActionNotAllowed`` with the first guard's refusal."""
    for guard in list(_GUARDS):
        refusal = guard(table, action)
        if refusal:
            raise ActionNotAllowed(refusal)
