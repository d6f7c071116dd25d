"""Hooks other parts of the product hang on the tables without the tables importing them:

* ``game_ended_listen(fn)``: ``fn(game)`` runs after the commit of the transaction in which a
  game finished or was cancelled (the tournament director wakes up when a table is done);
* ``table_guard_register(fn)``: ``fn(table, action)`` returns a refusal (a ``TableRefusal``) or
  ``None`` before a player joins (``"join"``) or leaves (``"leave"``) a table; a tournament's
  tables take nobody else and let nobody leave;
* ``play_now_rank_register(fn)``: ``fn(user, template, games)`` (``games``: ``{table id: live
  game id}`` of the waiting tables) returns how far each table is from the player (smaller is
  nearer); Play now tries the nearer first among tables its rule ranks equally (the ratings).

Both are Django signals (the project's one observer mechanism); the functions above connect a
plain function to them. Listeners are registered once at start-up (``AppConfig.ready()``);
registering the same function twice is a no-op.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, cast

from django.db import transaction
from django.dispatch import Signal

from tables.models import Game, Table, TableTemplate
from tables.services.errors import ActionNotAllowed, TableRefusal

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)

GameEndedListener = Callable[[Game], None]
TableGuard = Callable[[Table, str], "TableRefusal | None"]
PlayNowRanker = Callable[["User", TableTemplate, Mapping[int, int]], Mapping[int, float]]

# Django signals, the project's one observer mechanism: ``game_ended_signal`` is sent (after
# the commit) with ``game``; ``table_guard_signal`` is sent with ``table`` and ``action`` and
# each receiver answers a refusal or ``None``.
game_ended_signal = Signal()
table_guard_signal = Signal()
# Sent with ``user``, ``template`` and ``games``; each receiver answers ``{table id: distance}``.
play_now_rank_signal = Signal()


def _uid(fn: Callable[..., object]) -> str:
    return f"{fn.__module__}.{fn.__qualname__}"


def game_ended_listen(listener: GameEndedListener) -> None:
    def receiver(sender: object, *, game: Game, **kwargs: object) -> None:
        listener(game)

    game_ended_signal.connect(receiver, weak=False, dispatch_uid=_uid(listener))


def table_guard_register(guard: TableGuard) -> None:
    def receiver(
        sender: object, *, table: Table, action: str, **kwargs: object
    ) -> TableRefusal | None:
        return guard(table, action)

    table_guard_signal.connect(receiver, weak=False, dispatch_uid=_uid(guard))


def game_ended(game: Game) -> None:
    """Tell the listeners, after the commit, that ``game`` finished or was cancelled."""
    if not game_ended_signal.has_listeners():
        return

    def notify() -> None:
        for receiver, result in game_ended_signal.send_robust(sender=type(game), game=game):
            if isinstance(result, Exception):  # a listener must never undo or fail the game
                logger.error(
                    "game-ended listener %r failed for game %s", receiver, game.pk, exc_info=result
                )

    transaction.on_commit(notify)


def table_guard_check(table: Table, action: str) -> None:
    """Raise ``ActionNotAllowed`` with the first guard's refusal."""
    for _receiver, refusal in table_guard_signal.send(
        sender=type(table), table=table, action=action
    ):
        if refusal:
            raise ActionNotAllowed(cast(TableRefusal, refusal))


def play_now_rank_register(ranker: PlayNowRanker) -> None:
    def receiver(
        sender: object,
        *,
        user: User,
        template: TableTemplate,
        games: Mapping[int, int],
        **kwargs: object,
    ) -> Mapping[int, float]:
        return ranker(user, template, games)

    play_now_rank_signal.connect(receiver, weak=False, dispatch_uid=_uid(ranker))


def play_now_distances(
    user: User, template: TableTemplate, games: Mapping[int, int]
) -> dict[int, float]:
    """How far each waiting table (``games``: table id -> live game id) is from ``user``, the
    sum of the receivers' answers; a table no receiver answers for is left out. A failing
    receiver is logged and left out: Play now seats the player anyway."""
    distances: dict[int, float] = {}
    if not games or not play_now_rank_signal.has_listeners():
        return distances
    for receiver, answer in play_now_rank_signal.send_robust(
        sender=None, user=user, template=template, games=games
    ):
        if isinstance(answer, Exception):
            logger.error("play-now ranker %r failed", receiver, exc_info=answer)
            continue
        for table_id, distance in cast("Mapping[int, float]", answer).items():
            distances[table_id] = distances.get(table_id, 0.0) + float(distance)
    return distances
