"""How tournaments hang on the tables (``tables.services.hooks``): a tournament table's game
ending wakes the director; a tournament's tables take nobody else and let nobody leave."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from tables.services import hooks


def table_guard(table: Any, action: str) -> str | None:
    from tables.tournaments.models import RoundTable

    if not RoundTable.objects.filter(table_id=table.pk).exists():
        return None
    if action == "leave":
        return _(
            "There is no leaving a running tournament: while you are away your turns run out "
            "and the server plays them."
        )
    return _("This is a tournament table: the tournament seats its players.")


def _game_ended(game: Any) -> None:
    from tables.tournaments.director import game_ended

    game_ended(game)


def register() -> None:
    from tables.tournaments.reconcile import register as reconcile_register

    reconcile_register()
    hooks.game_ended_listen(_game_ended)
    hooks.table_guard_register(table_guard)
