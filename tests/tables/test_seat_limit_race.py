"""Issue 21, point 2: "at most 3 tables at once" holds under parallel Play now presses.

Eight Play now presses of one player at once, over HTTP, on eight cash templates that each
have to open a new table: the player is seated at most ``SEATS_PER_PLAYER_MAX`` times and pays
at most that many entry fees (the join locks the player's row first)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.test import Client
from tables_testkit import balance, fund

from tables.models import Seat, TableTemplate
from tests.threads import race

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

FEE = 1000


@pytest.mark.parametrize("limit", [3, 1])
def test_eight_parallel_play_now_presses_seat_the_player_at_most_the_limit(
    template_factory: Callable[..., TableTemplate],
    user_factory: Callable[..., Any],
    settings: Any,
    limit: int,
) -> None:
    settings.SEATS_PER_PLAYER_MAX = limit
    templates = [
        template_factory(name=f"Race {i}", entry_fee=FEE, min_open_tables=0, max_tables=5)
        for i in range(8)
    ]
    user = user_factory()
    fund(user, 100 * FEE)
    clients = []
    for _ in templates:
        client = Client()
        client.force_login(user)
        clients.append(client)

    results = race(8, lambda i: clients[i].post(f"/play/{templates[i].pk}/"))

    assert all(getattr(r, "status_code", None) == 302 for r in results), results
    seats = Seat.objects.filter(user=user, left_at__isnull=True)
    assert seats.count() == limit
    assert balance(user) == 100 * FEE - limit * FEE
