"""What one action costs the database: every player action is at most 5 SQL statements (the
game locked with its table, the seats, the newest deal when this process did not commit the
version the game is at, the move log, the game saved; a deal's end writes the deal too; the
per-seat pushes after the commit need none), and the table view at most 3 of its own beyond
the session and the user."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from tables_testkit import WINNER_GROUPS, Planter, TableDriver, plant

from tables import services

MAX_ACTION = 5
MAX_VIEW = 3


def _statements(queries: list[dict[str, Any]]) -> list[str]:
    """The statements that did work (the test's own transaction wraps each action in a
    savepoint, which a request's transaction does not have)."""
    return [q["sql"] for q in queries if "SAVEPOINT" not in q["sql"]]


@pytest.fixture
def t(seated: Callable[..., TableDriver], planter: Planter, toss: Callable[[int], None]) -> Any:
    toss(1)
    _, losers = plant(planter, {1: 0, 2: 20, 3: 30})
    driver = seated(3, turn_s=30, extra_time_s=0)
    driver.losers = losers
    return driver


def _act(t: TableDriver, capture: Any, seat: int, action: str, **payload: Any) -> int:
    game = t.game()
    with CaptureQueriesContext(connection) as queries, capture(execute=True):
        services.game_act(
            game_id=game.pk,
            user=t.users[seat],
            action=action,
            payload=payload,
            expected_version=game.version,
        )
    return len(_statements(queries.captured_queries))


def test_every_action_kind_is_at_most_five_statements(
    t: Any, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    counts: dict[str, int] = {}
    counts["set_auto_drop"] = _act(t, capture, 2, "set_auto_drop", on=True)
    counts["set_auto_drop_off"] = _act(t, capture, 2, "set_auto_drop", on=False)
    hand = t.view(1)["hand"]
    counts["arrange"] = _act(t, capture, 1, "arrange", groups=[list(g) for g in hand["groups"]])
    counts["pick_closed"] = _act(t, capture, 1, "pick_closed")
    counts["discard"] = _act(t, capture, 1, "discard", card=t.view(1)["hand"]["picked"])
    counts["pick_open"] = _act(t, capture, 2, "pick_open")
    counts["discard_2"] = _act(t, capture, 2, "discard", card=t.view(2)["hand"]["picked"])
    counts["drop"] = _act(t, capture, 3, "drop")
    counts["pick_closed_2"] = _act(t, capture, 1, "pick_closed")
    picked = t.view(1)["hand"]["picked"]
    counts["declare"] = _act(t, capture, 1, "declare", finish_card=picked, groups=WINNER_GROUPS)
    counts["submit_meld"] = _act(t, capture, 2, "submit_meld", groups=t.losers[2])
    assert max(counts.values()) <= MAX_ACTION, counts


def test_the_table_view_is_at_most_three_statements_of_its_own(t: Any, client: Any) -> None:
    client.force_login(t.users[1])
    url = reverse("table_view", args=[t.table.pk])
    client.get(url)  # the session is read from the cache from now on
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    own = [
        sql
        for sql in _statements(queries.captured_queries)
        if "django_session" not in sql and '"accounts_user"' not in sql.split("WHERE")[0]
    ]
    assert len(own) <= MAX_VIEW, own


def test_the_table_view_reads_the_newest_moves_in_one_plain_statement(t: Any, client: Any) -> None:
    """No statement of the table view holds more than one subquery (the table's current game):
    the newest moves are one ordered, limited statement with their own versions, not a
    subquery per move."""
    from tables import selectors
    from tables.models import Move

    client.force_login(t.users[1])
    url = reverse("table_view", args=[t.table.pk])
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    for sql in _statements(queries.captured_queries):
        assert sql.count("SELECT") <= 2, sql
    game = t.game()
    logged = list(
        Move.objects.filter(game=game).order_by("version").values_list("version", "events")
    )
    assert len(logged) > 1
    recent = [(m["version"], m["events"]) for m in selectors.recent_moves_of(game)]
    assert recent == logged[-selectors.RECENT_MOVES :]


MAX_MOVE_REQUEST = 7  # the session, the user, the locks (game with table, seats), deal, move, game
MAX_MOVE_ANSWERED = 11  # with no socket open to push to: the fragment read again (four)


@pytest.mark.parametrize("socket", [True, False], ids=["socket-open", "no-socket"])
def test_a_move_and_its_answer_over_http(
    t: Any, client: Any, django_capture_on_commit_callbacks: Any, socket: bool
) -> None:
    """A POST /act with everything it causes (the session, the user, the locks, the move log,
    the version bump, the pushes after the commit)."""
    from django.core.cache import cache

    from tables.live import presence

    user = t.users[1]
    cache.delete(presence.presence_key(t.table.pk, user.pk))
    if socket:
        presence.socket_opened(table_id=t.table.pk, user_id=user.pk)
    client.force_login(user)
    client.get(reverse("table_view", args=[t.table.pk]))  # the session is cached from now on
    game = t.game()
    url = reverse("table_act", args=[t.table.pk])
    data = {"action": "pick_closed", "version": game.version, "game": game.pk}
    with (
        CaptureQueriesContext(connection) as queries,
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == (204 if socket else 200)
    statements = _statements(queries.captured_queries)
    most = MAX_MOVE_REQUEST if socket else MAX_MOVE_ANSWERED
    assert len(statements) <= most, "\n".join(statements)
