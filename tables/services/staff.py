"""Staff actions on tables: cancelling a game (every paid entry refunded) and closing a table."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ledger import services as ledger_services
from tables.models import LIVE_GAME_STATUSES, Game, GameStatus, Table, TableStatus
from tables.services._context import (
    Ctx,
    in_transaction,
    live_game_id,
    lock_table,
    now_or_clock,
    record_move,
)
from tables.services._pipeline import game_write
from tables.services.errors import TableError, TableRefusal
from tables.services.settlement import cancel_key, finish

if TYPE_CHECKING:
    from accounts.models import User


def game_cancel(*, game: Game, staff_user: User, reason: str, now: float | None = None) -> Game:
    """Cancel a waiting or running game (staff): every paid entry, rejoins included, is refunded
    by reversing entries; no fee is kept. The table is free for a new game."""
    now = now_or_clock(now)
    reason = (reason or "").strip()
    if not reason:
        raise TableError(TableRefusal.CANCEL_REASON)
    if not getattr(staff_user, "is_staff", False):
        raise TableError(TableRefusal.STAFF_CANCELS)

    def body(ctx: Ctx) -> Game:
        if ctx.game.status not in LIVE_GAME_STATUSES:
            raise TableError(TableRefusal.CANCEL_NOT_LIVE)
        ledger_services.pot_cancel_refund(
            pot_ref=ctx.game.pot_ref,
            currency=ctx.game.currency,
            idempotency_key=cancel_key(game=ctx.game),
        )
        ctx.game.cancelled_by = staff_user
        ctx.game.cancel_reason = reason
        ctx.game.result = {"type": "cancelled", "reason": reason}
        record_move(ctx, action="game_cancel", payload={"reason": reason}, actor=staff_user)
        finish(ctx, status=GameStatus.CANCELLED)
        return ctx.game

    return game_write(game_id=getattr(game, "pk", None), now=now, body=body)


def table_close(*, table: Table, staff_user: User, reason: str = "") -> Table:
    """Close a table (staff): a waiting game is cancelled (entries refunded); a running game
    plays on to its end, after which the table takes nobody."""
    if not getattr(staff_user, "is_staff", False):
        raise TableError(TableRefusal.STAFF_CLOSES)

    def work() -> int | None:
        locked = lock_table(getattr(table, "pk", None))
        locked.status = TableStatus.CLOSED
        locked.save(update_fields=["status"])
        return live_game_id(locked)

    game_id = in_transaction(work)
    if game_id is not None:
        game = Game.objects.get(pk=game_id)
        if game.status == GameStatus.WAITING:
            game_cancel(game=game, staff_user=staff_user, reason=reason or "Table closed")
    return Table.objects.get(pk=table.pk)
