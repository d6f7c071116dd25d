"""Play now under load on PostgreSQL: 200 players press Play now on one 6-seat template at once."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from django.db.models import Count, Q
from tables_testkit import Clock, assert_reconciled, balance, fund

from ledger.selectors import pot_balance
from tables import services
from tables.models import Game, Move, Seat, Table, TableTemplate
from tests.threads import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PLAYERS = 200
SEATS = 6
FEE = 1000


def test_200_players_press_play_now_at_once_and_each_is_seated_once(
    template_factory: Callable[..., TableTemplate],
    user_factory: Callable[..., Any],
    clock: Clock,
) -> None:
    template = template_factory(
        name="Rush hour 101",
        seats_min=2,
        seats_max=SEATS,
        entry_fee=FEE,
        min_open_tables=1,
        max_tables=100,
    )
    users = [user_factory() for _ in range(PLAYERS)]
    for user in users:
        fund(user, 5 * FEE)

    results = race(
        PLAYERS, lambda i: services.template_play_now(template=template, user=users[i]), timeout=300
    )

    errors = [r for r in results if not isinstance(r, Seat)]
    assert errors == []
    # Every player seated exactly once.
    active = Seat.objects.filter(table__template=template, left_at__isnull=True)
    assert sorted(active.values_list("user_id", flat=True)) == sorted(u.pk for u in users)
    assert Counter(r.user_id for r in results) == Counter(u.pk for u in users)
    # No table over its seats, no seat number twice.
    per_table = active.values("table_id").annotate(n=Count("pk"))
    assert max(row["n"] for row in per_table) <= SEATS
    # Only the tables needed were opened: ceil(200 / 6) = 34, the last one (2 players) is the
    # one kept open by the minimum of 1.
    assert Table.objects.filter(template=template).count() == math.ceil(PLAYERS / SEATS)
    full = Game.objects.filter(table__template=template).annotate(
        n=Count("seats", filter=Q(seats__left_at__isnull=True))
    )
    assert sorted(g.n for g in full) == [PLAYERS % SEATS] + [SEATS] * (PLAYERS // SEATS)
    assert Game.objects.filter(table__template=template, status="running").count() == 33
    # Every entry fee charged once.
    assert all(balance(u) == 4 * FEE for u in users)
    pots = sum(pot_balance(pot_ref=g.pot_ref, currency="cash") for g in full)
    assert pots == PLAYERS * FEE
    assert Move.objects.filter(game__table__template=template, action="seat_join").count() == (
        PLAYERS
    )
    assert_reconciled()


def test_one_player_pressing_play_now_many_times_at_once_pays_once(
    template_factory: Callable[..., TableTemplate], players: list[Any], clock: Clock
) -> None:
    template = template_factory(seats_max=SEATS, entry_fee=FEE)
    results = race(8, lambda i: services.template_play_now(template=template, user=players[0]))
    assert all(isinstance(r, Seat) for r in results), results
    assert len({r.pk for r in results}) == 1
    assert balance(players[0]) == 100_000 - FEE
    assert_reconciled()
