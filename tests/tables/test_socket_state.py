"""What a table socket reads when it opens (``selectors.table_socket_state``): two statements
compiled once, with the answer the ORM's three queries gave (the table's existence, its newest
game's version, the user's newest seat in the live game)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from tables_testkit import TableDriver

from tables import selectors, services
from tables.models import LIVE_GAME_STATUSES, Game, Seat, Table

pytestmark = pytest.mark.django_db


def _by_the_orm(table_id: int, user_id: int) -> selectors.SocketTable | None:
    """The reading the socket did before, query by query: the oracle."""
    if not Table.objects.filter(pk=table_id).exists():
        return None
    version = (
        Game.objects.filter(table_id=table_id)
        .order_by("-pk")
        .values_list("version", flat=True)
        .first()
    )
    seat = (
        Seat.objects.filter(
            table_id=table_id,
            user_id=user_id,
            left_at__isnull=True,
            game__status__in=LIVE_GAME_STATUSES,
        )
        .order_by("-pk")
        .first()
    )
    mine = selectors.SocketSeat(seat.seat_no, seat.connected) if seat is not None else None
    return selectors.SocketTable(version=int(version or 0), seat=mine)


def test_a_seated_player_and_a_spectator_read_what_the_orm_reads(
    seated: Callable[..., TableDriver], toss: Callable[[int], None], user_factory: Any
) -> None:
    toss(1)
    t = seated(3)
    t.act(t.turn() or 1, "pick_closed")
    table_id = t.table.pk
    spectator = user_factory()
    for user in [*t.users.values(), spectator]:
        found = selectors.table_socket_state(table_id=table_id, user_id=user.pk)
        assert found == _by_the_orm(table_id, user.pk)
    second = selectors.table_socket_state(table_id=table_id, user_id=t.users[2].pk)
    assert second is not None and second.version == t.game().version > 1
    assert second.seat == selectors.SocketSeat(seat_no=2, connected=True)
    watching = selectors.table_socket_state(table_id=table_id, user_id=spectator.pk)
    assert watching == selectors.SocketTable(version=t.game().version, seat=None)


def test_a_seat_marked_away_reads_as_away(
    seated: Callable[..., TableDriver], toss: Callable[[int], None]
) -> None:
    toss(1)
    t = seated(2)
    services.seat_set_connected(table=t.table, user=t.users[2], connected=False)
    found = selectors.table_socket_state(table_id=t.table.pk, user_id=t.users[2].pk)
    assert found is not None and found.seat == selectors.SocketSeat(seat_no=2, connected=False)
    assert found == _by_the_orm(t.table.pk, t.users[2].pk)


def test_a_player_who_left_a_waiting_table_is_no_longer_seated(
    table_factory: Callable[..., Table], players: list[Any]
) -> None:
    table = table_factory(seats_max=3)
    services.table_join(table=table, user=players[0], seat_no=1)
    services.table_join(table=table, user=players[1], seat_no=2)
    services.table_leave(table=table, user=players[0])
    gone = selectors.table_socket_state(table_id=table.pk, user_id=players[0].pk)
    staying = selectors.table_socket_state(table_id=table.pk, user_id=players[1].pk)
    assert gone is not None and gone.seat is None
    assert staying is not None and staying.seat == selectors.SocketSeat(2, True)
    for user in players[:2]:
        assert selectors.table_socket_state(table_id=table.pk, user_id=user.pk) == _by_the_orm(
            table.pk, user.pk
        )


def test_an_unknown_table_reads_none_a_new_one_version_0_and_a_known_one_two_statements(
    seated: Callable[..., TableDriver],
    toss: Callable[[int], None],
    table_factory: Callable[..., Table],
) -> None:
    toss(1)
    t = seated(2)
    assert selectors.table_socket_state(table_id=t.table.pk + 1000, user_id=1) is None
    empty = table_factory(seats_max=2)  # no game until someone sits down
    assert not Game.objects.filter(table=empty).exists()
    found = selectors.table_socket_state(table_id=empty.pk, user_id=t.users[1].pk)
    assert found == selectors.SocketTable(version=0, seat=None)
    assert found == _by_the_orm(empty.pk, t.users[1].pk)
    selectors.table_socket_state(table_id=t.table.pk, user_id=t.users[1].pk)  # compiled
    with CaptureQueriesContext(connection) as queries:
        found = selectors.table_socket_state(table_id=t.table.pk, user_id=t.users[1].pk)
    assert found is not None and found.seat is not None
    assert len(queries.captured_queries) == 2
