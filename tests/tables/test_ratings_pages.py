"""Ratings on the pages (issue 35): the rating and its change in a game's result, on My games
and the profile (with its chart), small beside each name at the table; Play now prefers the
table whose people are nearest the player's rating among tables as full, and still seats at
once; staff reset a rating only with a reason, which the log keeps."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from html import unescape
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from tables_testkit import TableDriver

from tables import services as table_services
from tables.live import realtime
from tables.models import Table, TableTemplate
from tables.ratings import selectors, skill
from tables.ratings.models import Rating, RatingChange
from tables.ratings.presenters import change_words

pytestmark = pytest.mark.django_db


def _login(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _page(client: Client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return unescape(response.content.decode())


@pytest.fixture
def rated_game(
    seated: Callable[..., TableDriver],
    toss: Callable[[int], None],
    django_capture_on_commit_callbacks: Any,
) -> TableDriver:
    """A two-player Points game, seat 1 dropped, seat 2 won; rated by the listener after the
    commit."""
    toss(1)
    t = seated(2, variant="points", point_value=10, platform_fee_bps=0)
    with django_capture_on_commit_callbacks(execute=True):
        t.act(1, "drop")
    assert RatingChange.objects.filter(game=t.game()).count() == 2
    return t


def _words(t: TableDriver, seat: int) -> str:
    change = selectors.change_of_game(user_id=t.users[seat].pk, game_id=t.game().pk)
    assert change is not None
    return change_words(change)


def test_the_games_result_shows_each_players_rating_and_change(rated_game: TableDriver) -> None:
    t = rated_game
    won, lost = _words(t, 2), _words(t, 1)
    assert re.fullmatch(r"Rating \d+\? \(\+\d+\)", won)
    assert re.fullmatch(r"Rating \d+\? \(\u2212\d+\)", lost)
    page = _page(_login(t.users[2]), reverse("table", args=[t.table.pk]))
    assert won in page and lost in page


def test_my_games_shows_the_change_of_each_game(rated_game: TableDriver) -> None:
    page = _page(_login(rated_game.users[1]), reverse("history_games"))
    assert _words(rated_game, 1) in page


def test_the_profile_shows_the_ratings_and_their_chart(
    rated_game: TableDriver, user_factory: Callable[..., Any]
) -> None:
    winner = rated_game.users[2]
    page = _page(_login(winner), reverse("profile"))
    figure = selectors.ratings_of_player(user_id=winner.pk)[0].figure
    assert "Your ratings" in page and f'Points: <span class="rating-figure">{figure}' in page
    assert '<svg class="chart rating-chart"' in page and "<polyline" in page
    newcomer = user_factory()
    assert "You have no rating yet" in _page(_login(newcomer), reverse("profile"))


def test_the_table_shows_each_persons_rating_beside_the_name(
    rated_game: TableDriver, players: list[Any]
) -> None:
    """Two players sit at a new table of the same kind: each name carries its rating, the
    same for every viewer (one cache read a render)."""
    t = rated_game
    table = table_services.table_create(template=t.table.template)
    table_services.table_join(table=table, user=t.users[2])
    winner_figure = selectors.seat_badges(user_ids=[t.users[2].pk], variant="points")
    page = _page(_login(players[4]), reverse("table", args=[table.pk]))
    assert (
        f'<small class="seat-rating" title="Rating">{winner_figure[t.users[2].pk]}</small>' in page
    )


def test_the_badges_cost_one_statement_then_none(rated_game: TableDriver) -> None:
    ids = [u.pk for u in rated_game.users.values()]
    with CaptureQueriesContext(connection) as first:
        badges = selectors.seat_badges(user_ids=ids, variant="points")
    with CaptureQueriesContext(connection) as second:
        again = selectors.seat_badges(user_ids=ids, variant="points")
    assert len(first.captured_queries) == 1 and len(second.captured_queries) == 0
    assert badges == again and len(badges) == 2


def test_a_push_reads_the_felts_badges_with_what_it_pushed(
    live_two: TableDriver, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    """A move's push renders the felt with each name's rating, read in the push's one cache
    read (with what was pushed before and who has a socket open): the badges' tag makes no
    read of its own."""
    t = live_two
    ids = [u.pk for u in t.users.values()]
    badges = selectors.seat_badges(user_ids=ids, variant=t.game().variant)  # now in the cache
    backend = caches["default"]
    get_many = backend.get_many
    reads: list[list[str]] = []

    def counted(keys: Any, *args: Any, **kwargs: Any) -> Any:
        reads.append([str(key) for key in keys])
        return get_many(keys, *args, **kwargs)

    monkeypatch.setattr(backend, "get_many", counted)
    with (
        realtime.pushes_collected() as collected,  # the push runs as the capture below ends
        django_capture_on_commit_callbacks(execute=True),
    ):
        t.act(1, "pick_closed")
    (felt,) = [e for e in collected.outbox if e["type"] == "table.felt"]
    html = json.loads(next(iter(felt["frames"].values())))["html"]
    for user_id, figure in badges.items():
        assert f'<small class="seat-rating" title="Rating">{figure}</small>' in html, user_id
    badge_reads = [keys for keys in reads if any(k.startswith("ratings:badge:") for k in keys)]
    assert len(badge_reads) == 1  # the push's own read, with what was pushed
    assert any(k.startswith("sent:") for k in badge_reads[0])


# --------------------------------------------------------------------------- Play now


@pytest.fixture
def kind(template_factory: Callable[..., TableTemplate]) -> TableTemplate:
    return template_factory(
        variant="points", point_value=10, seats_min=2, seats_max=3, min_open_tables=0
    )


def _rated(user: Any, mu: float) -> Any:
    Rating.objects.create(user=user, family="points", mu=mu, sigma=3.0, games=20)
    return user


@pytest.mark.parametrize(("mu", "table"), [(16.0, "newer"), (33.0, "older")])
def test_play_now_prefers_the_table_nearest_in_rating_among_tables_as_full(
    kind: TableTemplate, players: list[Any], mu: float, table: str
) -> None:
    tables = {
        "older": table_services.table_create(template=kind),
        "newer": table_services.table_create(template=kind),
    }
    table_services.table_join(table=tables["older"], user=_rated(players[0], 35.0))
    table_services.table_join(table=tables["newer"], user=_rated(players[1], 15.0))
    # Today's rule takes the older of two tables as full; the ratings choose between them.
    seat = table_services.template_play_now(template=kind, user=_rated(players[2], mu))
    assert seat.table_id == tables[table].pk


def test_play_now_never_trades_a_fuller_table_for_a_nearer_one(
    kind: TableTemplate, players: list[Any]
) -> None:
    older = table_services.table_create(template=kind)
    newer = table_services.table_create(template=kind)
    table_services.table_join(table=older, user=_rated(players[0], 35.0))
    table_services.table_join(table=older, user=_rated(players[1], 36.0))
    table_services.table_join(table=newer, user=_rated(players[2], 15.0))
    seat = table_services.template_play_now(template=kind, user=_rated(players[3], 15.0))
    assert seat.table_id == older.pk  # two people wait there: it starts sooner


def test_play_now_seats_at_once_at_the_only_table_however_far(
    kind: TableTemplate, players: list[Any]
) -> None:
    only = table_services.table_create(template=kind)
    table_services.table_join(table=only, user=_rated(players[0], 40.0))
    seat = table_services.template_play_now(template=kind, user=_rated(players[1], 10.0))
    assert seat.table_id == only.pk
    assert Table.objects.filter(template=kind).count() == 1


# --------------------------------------------------------------------------- the admin


def test_staff_reset_a_rating_only_with_a_reason_kept_in_the_log(
    rated_game: TableDriver, user_factory: Callable[..., Any]
) -> None:
    staff = user_factory(is_staff=True, is_superuser=True)
    client = _login(staff)
    rating = Rating.objects.get(user=rated_game.users[2], family="points")
    before = (rating.mu, rating.sigma, rating.games)
    url = reverse("admin:ratings_rating_changelist")
    asked = client.post(url, {"action": "reset_rating", "_selected_action": [rating.pk]})
    assert asked.status_code == 200 and "Reason" in asked.content.decode()
    blank = {"action": "reset_rating", "_selected_action": [rating.pk], "confirm": "yes"}
    client.post(url, {**blank, "reason": "  "})
    rating.refresh_from_db()
    assert (rating.mu, rating.sigma, rating.games) == before  # no reason: nothing changed
    client.post(url, {**blank, "reason": "Played from two accounts"})
    rating.refresh_from_db()
    assert (rating.mu, rating.sigma, rating.games) == (skill.MODEL.mu, skill.MODEL.sigma, 0)
    reset = RatingChange.objects.get(user=rated_game.users[2], game__isnull=True)
    assert reset.reason == "Played from two accounts" and reset.staff_id == staff.pk
    assert reset.mu_before == before[0]
    entry = LogEntry.objects.get(object_id=str(rating.pk))
    assert "Played from two accounts" in entry.get_change_message()
    page = client.get(reverse("admin:ratings_rating_change", args=[rating.pk])).content.decode()
    assert "Played from two accounts" in page  # the history inline
