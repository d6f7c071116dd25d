"""Games whose players are chosen by someone else (a tournament's director): a table of the
product, never listed in the lobby, with the given players seated in the given order and the
game started at once. The table is an ordinary one: timers, computer players, pushes, support
pages, the export and ``verify_deal`` all work on it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from tables.engines import template_settings
from tables.models import Game, GameStatus, Seat, Table, TableTemplate
from tables.services._context import (
    in_transaction,
    lock_context,
    lock_table,
    now_or_clock,
    record_move,
)
from tables.services._pipeline import begin_game, save_game
from tables.services.errors import TableError, TableRefusal


def game_arranged(
    *,
    template: TableTemplate,
    players: Sequence[tuple[Any, bool]],
    overrides: Mapping[str, Any],
    table: Table | None = None,
    name: str = "",
    now: float | None = None,
) -> Game:
    """Open a game of ``template`` (its rules, then ``overrides``) with ``players`` — pairs of
    (user, is a computer player) — in seats 1, 2, ... and start it, in one transaction (joins
    the caller's transaction when there is one). A new private table is made unless ``table``
    (one that has no live game) is given. Nobody pays anything: the game's stake is 0."""
    now = now_or_clock(now)
    if not 2 <= len(players) <= 6:
        raise TableError(TableRefusal.ARRANGED_SEATS)
    if len({getattr(user, "pk", None) for user, _ in players}) != len(players):
        raise TableError(TableRefusal.ARRANGED_ONCE)
    base = template_settings(template)
    settings = dataclasses.replace(base, **dict(overrides))
    settings.validate()
    if settings.entry_fee or settings.point_value:
        raise TableError(TableRefusal.ARRANGED_NO_MONEY)

    def work() -> Game:
        nonlocal table
        if table is None:
            table = Table.objects.create(
                template=template, name=name or template.name, is_private=True
            )
        locked = lock_table(table.pk)
        game = Game.objects.create(
            table=locked,
            variant=template.variant,
            currency=template.currency,
            stake=0,
            settings=settings.to_json(),
            status=GameStatus.WAITING,
        )
        ctx = lock_context(table=locked, game_id=int(game.pk), now=now)
        for seat_no, (user, is_bot) in enumerate(players, start=1):
            seat = Seat.objects.create(
                table=locked, game=game, seat_no=seat_no, user=user, is_bot=bool(is_bot)
            )
            ctx.seats.append(seat)
            record_move(ctx, action="seat_join", payload={"seat": seat_no}, seat_no=seat_no)
        begin_game(ctx)
        save_game(ctx)
        return ctx.game

    return in_transaction(work)
