"""The reads compiled once (``tables/compiled.py``), the locks of a game write and the reads of a
table's page: they must read the very rows the ORM reads, with the same related rows, and refuse
to lock outside a transaction as the ORM does."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, transaction
from django.db.models import Model
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext
from tables_testkit import TableDriver
from tourney_kit import advance, deals_template, table_game

from tables import selectors
from tables.models import TABLE_NAME_RELATED, Deal, Game, Seat
from tables.services import _context
from tables.tournaments import services as tourney

pytestmark = pytest.mark.django_db


def _values(row: Model) -> dict[str, object]:
    return {f.attname: getattr(row, f.attname) for f in row._meta.concrete_fields}


def _same_game(compiled: Game, orm: Game) -> None:
    assert _values(compiled) == _values(orm)
    assert _values(compiled.table) == _values(orm.table)
    assert _values(compiled.table.template) == _values(orm.table.template)
    with CaptureQueriesContext(connection) as queries:
        names = (compiled.table.display_name(), compiled.table.template.name)
    assert not queries.captured_queries  # the related rows came with the game
    assert names == (orm.table.display_name(), orm.table.template.name)
    assert compiled._state.adding is False and compiled._state.db == "default"


def test_the_game_and_its_table_are_the_rows_the_orm_reads(
    seated: Callable[..., TableDriver], toss: Callable[[int], None]
) -> None:
    toss(1)
    t = seated(3)
    game = t.game()
    with transaction.atomic():
        (compiled,) = _context._GAME_LOCKED.rows(game.pk)
        orm = _context._games_for_update().get(pk=game.pk)
        _same_game(compiled, orm)
        assert _context._GAME_LOCKED.rows(game.pk + 1000) == []
        (live,) = _context._LIVE_GAME_LOCKED.rows(t.table.pk)
        assert live.pk == game.pk
        seats = _context._SEATS_LOCKED.rows(game.pk)
        orm_seats = list(Seat.objects.filter(game=game).select_related("user").order_by("pk"))
        assert [_values(s) for s in seats] == [_values(s) for s in orm_seats]
        assert [_values(s.user) for s in seats] == [_values(s.user) for s in orm_seats]


def _sit_and_go_game(players: list[Any], clock: Any) -> tuple[Any, Game]:
    """A sit & go of two started: the tournament and its first table's game."""
    t = tourney.tournament_create_sit_and_go(
        name="Sit & go of 2",
        template=deals_template(),
        players_min=2,
        players_max=2,
        fee_bps=0,
        entry_fee=500,
        seats_per_table=2,
        qualifiers_per_table=1,
        deals_per_round=1,
    )
    for user in players[:2]:
        tourney.tournament_register(tournament=t, user=user)
    advance(t, clock)
    return t, table_game(t, 1, 1)


def test_a_tournament_tables_round_and_tournament_come_with_it(
    players: list[Any], clock: Any, planter: Any
) -> None:
    t, game = _sit_and_go_game(players, clock)
    with transaction.atomic():
        (compiled,) = _context._GAME_LOCKED.rows(game.pk)
        orm = _context._games_for_update().get(pk=game.pk)
        _same_game(compiled, orm)
        place = compiled.table.tournament_table
        assert place.round.tournament.pk == t.pk


@pytest.mark.django_db(transaction=True)
def test_a_lock_outside_a_transaction_is_refused_where_the_orm_refuses_it(
    seated: Callable[..., TableDriver], toss: Callable[[int], None]
) -> None:
    toss(1)
    game = seated(2).game()

    def refused(read: Callable[[], object]) -> bool:
        try:
            read()
        except TransactionManagementError:
            return True
        return False

    orm = refused(lambda: list(_context._games_for_update().filter(pk=game.pk)))
    assert orm == connection.features.has_select_for_update  # PostgreSQL refuses, SQLite not
    assert refused(lambda: _context._GAME_LOCKED.rows(game.pk)) == orm


def _same_deal(compiled: Deal, orm: Deal) -> None:
    # Only the shoe's commitment is shown: the shoe before the deal and its result stay unread.
    assert compiled.get_deferred_fields() == orm.get_deferred_fields() == {"state_before", "result"}
    assert _values(compiled) == _values(orm)  # (reading the deferred fields)
    _same_game(compiled.game, orm.game)


def test_a_table_pages_newest_deal_and_seats_are_the_rows_the_orm_reads(
    seated: Callable[..., TableDriver], toss: Callable[[int], None]
) -> None:
    toss(1)
    t = seated(3)
    t.act(t.turn() or 1, "pick_closed")
    table_id = t.table.pk
    orm = selectors._newest_deal(table_id, *(f"game__table__{n}" for n in TABLE_NAME_RELATED)).get()
    (compiled,) = selectors._NEWEST_DEAL.rows(table_id)
    _same_deal(compiled, orm)
    (of_game,) = selectors._NEWEST_DEAL_WITH_GAME.rows(table_id)
    assert _values(of_game) == _values(orm) and _values(of_game.game) == _values(orm.game)
    game = t.game()
    seats = selectors._SEATS_WITH_USERS.rows(game.pk)
    orm_seats = list(Seat.objects.filter(game=game).select_related("user"))
    assert [_values(s) for s in seats] == [_values(s) for s in orm_seats]
    assert [_values(s.user) for s in seats] == [_values(s.user) for s in orm_seats]
    assert selectors._NEWEST_DEAL.rows(table_id + 1000) == []
    assert selectors._SEATS_WITH_USERS.rows(game.pk + 1000) == []


def test_a_tournament_tables_page_reads_its_place_with_the_deal(
    players: list[Any], clock: Any, planter: Any
) -> None:
    t, game = _sit_and_go_game(players, clock)
    (compiled,) = selectors._NEWEST_DEAL.rows(game.table_id)
    with CaptureQueriesContext(connection) as queries:
        place = compiled.game.table.tournament_table
        assert place.round.tournament.pk == t.pk
    assert not queries.captured_queries
