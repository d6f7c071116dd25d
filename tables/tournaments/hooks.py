"""How tournaments hang on the tables (``tables.services.hooks``): a tournament table's game
ending wakes the director; a tournament's tables take nobody else and let nobody leave."""

from __future__ import annotations

from typing import Any

from tables.services import TableRefusal, hooks


def table_guard(table: Any, action: str) -> TableRefusal | None:
    from tables.tournaments.models import RoundTable

    if not RoundTable.objects.filter(table_id=table.pk).exists():
        return None
    if action == "leave":
        return TableRefusal.TOURNAMENT_NO_LEAVING
    return TableRefusal.TOURNAMENT_TABLE


def _game_ended(game: Any) -> None:
    from tables.tournaments.director import game_ended

    game_ended(game)


def register() -> None:
    from tables.tournaments.reconcile import register as reconcile_register

    reconcile_register()
    hooks.game_ended_listen(_game_ended)
    hooks.table_guard_register(table_guard)
