"""How tournaments hang on the tables (``tables.services.hooks``, ``tables.web.hooks``): a
tournament table's game ending wakes the director; a tournament's tables take nobody else and
let nobody leave; a tournament table's page links back to its tournament; the embedded timer
loop runs the director's sweep (``tables.timers.loop``)."""

from __future__ import annotations

from typing import Any

from tables.models import Table
from tables.services import TableRefusal, hooks
from tables.timers.loop import loop_sweep_register
from tables.tournaments.director import game_ended, tournaments_sweep
from tables.tournaments.models import RoundTable
from tables.tournaments.reconcile import register as reconcile_register
from tables.tournaments.reminders import reminders_loop_sweep
from tables.tournaments.selectors import tournament_of_table
from tables.web import hooks as web_hooks


def table_guard(table: Any, action: str) -> TableRefusal | None:
    if not RoundTable.objects.filter(table_id=table.pk).exists():
        return None
    if action == "leave":
        return TableRefusal.TOURNAMENT_NO_LEAVING
    return TableRefusal.TOURNAMENT_TABLE


def _table_page(table: Table) -> dict[str, Any]:
    return {"tournament": tournament_of_table(table=table)}


def register() -> None:
    reconcile_register()
    hooks.game_ended_listen(game_ended)
    hooks.table_guard_register(table_guard)
    web_hooks.table_page_register(_table_page)
    loop_sweep_register("tournament", tournaments_sweep)
    loop_sweep_register("tournament-reminders", reminders_loop_sweep)
