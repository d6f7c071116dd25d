"""The lobby's counts are pushed when a table's seating or status changes, at most once a
second per process however many tables change, and never because of a move."""

from __future__ import annotations

import time
from typing import Any

import pytest
from tables_testkit import fund

from tables import services
from tables.live import lobby

pytestmark = pytest.mark.django_db(transaction=True)


def test_many_seat_changes_within_one_interval_make_one_push_at_its_end(
    settings: Any, table_factory: Any, user_factory: Any
) -> None:
    # An interval long enough for nine joins on a busy machine (each join is a transaction
    # with its push).
    settings.LOBBY_PUSH_INTERVAL_S = 3.0
    lobby._last_push = -1e9
    lobby._due_at = None
    tables = [table_factory(seats_max=6) for _ in range(3)]
    players = [user_factory() for _ in range(9)]
    for user in players:
        fund(user, 100_000)
    before = lobby.renders["lobby"]
    started = time.monotonic()
    for i, user in enumerate(players):
        services.table_join(table=tables[i % 3], user=user)
    assert time.monotonic() - started < 3.0, "the joins must fit in one interval"
    languages = len(settings.LANGUAGES)
    # The first change is pushed at once; the other eight wait for the one push after it.
    assert lobby.renders["lobby"] - before == languages
    time.sleep(3.5)
    assert lobby.renders["lobby"] - before == 2 * languages


def test_a_move_causes_no_lobby_push(seated: Any, toss: Any) -> None:
    toss(1)
    t = seated(2)
    before = lobby.renders["lobby"]
    t.act(1, "pick_closed")
    t.act(1, "discard", card=t.view(1)["hand"]["picked"])
    assert lobby.renders["lobby"] == before
