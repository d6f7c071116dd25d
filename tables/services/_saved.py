"""The end of a game write: the moves it recorded and the game row, written together.

A write records its moves in the move log as it goes (``_context.record_move``), but they are
written at its end, with the game row: on PostgreSQL one statement inserts them and updates the
game (a data-modifying ``WITH``, which runs to completion whatever the outer statement reads),
one round trip and no ORM save in place of an ``INSERT`` for each move and an ``UPDATE``; on
SQLite the ORM's ``bulk_create`` and ``save``. Every value goes through its field's own
``pre_save`` and ``get_db_prep_save``, as the ORM's insert and update do (``created_at`` is set
by its ``auto_now_add``; a JSON field is adapted as the ORM adapts it).

Nothing is lost when a write records a move and does not save the game: ``flushed`` (which
``in_transaction`` runs every write through) writes what is still pending before the commit,
and a write that reads the move log back (``moves_flush``) writes its pending moves first.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar

from django.db import DatabaseError, connections, router
from django.db.backends.base.base import BaseDatabaseWrapper
from django.db.models import Field, Model

from tables.models import Game, Move

if TYPE_CHECKING:
    from django.db.backends.utils import _SQLType

T = TypeVar("T")


class Ctx(Protocol):
    """What of a write's ``_context.Ctx`` this module reads and writes."""

    game: Game
    pending_moves: list[Move]


# The writes of this thread with moves still to write, innermost last (``flushed``).
_local = threading.local()


def _unsaved() -> list[Ctx]:
    found: list[Ctx] | None = getattr(_local, "ctxs", None)
    if found is None:
        found = _local.ctxs = []
    return found


def move_pending(ctx: Ctx, move: Move) -> None:
    """Keep ``move`` to be written with the game (or by ``moves_flush``)."""
    if not ctx.pending_moves:
        _unsaved().append(ctx)
    ctx.pending_moves.append(move)


def moves_flush(ctx: Ctx) -> None:
    """Write the moves ``ctx`` recorded and has not written yet, in the order recorded."""
    if ctx.pending_moves:
        pending, ctx.pending_moves = ctx.pending_moves, []
        Move.objects.bulk_create(pending)


def flushed(work: Callable[[], T]) -> Callable[[], T]:
    """``work`` with any move it recorded and did not write written at its end, before the
    commit; on an error the moves it kept are dropped with the transaction."""

    def run() -> T:
        unsaved = _unsaved()
        mark = len(unsaved)
        try:
            result = work()
            for ctx in unsaved[mark:]:
                moves_flush(ctx)
            return result
        finally:
            del unsaved[mark:]

    return run


# The move log's columns as an insert writes them (all but the key), the game's by field name.
_MOVE_FIELDS = [f for f in Move._meta.concrete_fields if not f.primary_key]
_GAME_FIELDS = {f.name: f for f in Game._meta.concrete_fields}


def _values(
    fields: Sequence[Field[object, object]],
    row: Model,
    *,
    add: bool,
    connection: BaseDatabaseWrapper,
) -> list[_SQLType]:
    """``row``'s values of ``fields`` as the ORM's insert (``add``) or update writes them."""
    values: list[_SQLType] = [
        field.get_db_prep_save(field.pre_save(row, add), connection) for field in fields
    ]
    return values


def game_save(ctx: Ctx, fields: Sequence[str]) -> None:
    """Write the moves ``ctx`` has pending and save ``fields`` of its game, in one statement on
    PostgreSQL."""
    game = ctx.game
    using = router.db_for_write(Game, instance=game)
    connection = connections[using]
    if not ctx.pending_moves or connection.vendor != "postgresql":
        moves_flush(ctx)
        game.save(update_fields=list(fields))
        return
    pending, ctx.pending_moves = ctx.pending_moves, []
    quote = connection.ops.quote_name
    move_fields = _MOVE_FIELDS
    game_fields = [_GAME_FIELDS[name] for name in fields]
    row = "(" + ", ".join(["%s"] * len(move_fields)) + ")"
    params: list[_SQLType] = []
    for move in pending:
        params += _values(move_fields, move, add=True, connection=connection)
    params += _values(game_fields, game, add=False, connection=connection)
    params.append(game.pk)
    sql = (
        f"WITH logged AS (INSERT INTO {quote(Move._meta.db_table)} "
        f"({', '.join(quote(f.column) for f in move_fields)}) "
        f"VALUES {', '.join([row] * len(pending))}) "
        f"UPDATE {quote(Game._meta.db_table)} "
        f"SET {', '.join(f'{quote(f.column)} = %s' for f in game_fields)} "
        f"WHERE {quote(Game._meta.pk.column)} = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        if cursor.rowcount != 1:
            raise DatabaseError("Save with update_fields did not affect any rows.")
