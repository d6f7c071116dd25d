"""Leaderboards and seasons (issue 35): boards by rating (the minimum games, no provisional
player), the week's and the season's windows, tournament points given once per tournament and
player, season rewards paid once through the ledger, the friends-only board, the pages (bad
page numbers, Hindi, htmx's part, the cache) and the staff's admin."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from html import unescape
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from tables_testkit import TableDriver
from tourney_kit import deals_template, drive, practice_sit_and_go

from accounts.friends import services as friend_services
from ledger import selectors as ledger_selectors
from ledger.models import Transaction
from ledger.reconcile import reconcile_run
from tables import services as table_services
from tables.leaderboards import selectors, services, tasks
from tables.leaderboards.models import (
    RewardRow,
    RewardTable,
    Season,
    SeasonPayout,
    Standing,
    TournamentAward,
    TournamentPoints,
    TournamentPointsRow,
    TournamentPointsTable,
)
from tables.models import Game, GameStatus, Table, TableTemplate
from tables.ratings import services as ratings_services
from tables.ratings.models import Rating, RatingChange
from tables.ratings.signals import rating_changed
from tables.tournaments import services as tourney
from tables.tournaments.models import Registration, Tournament, TournamentStatus
from tables.tournaments.signals import tournament_finished

pytestmark = pytest.mark.django_db

# A Wednesday: its week is Monday 23 November to Monday 30 November 2026 (UTC, the site's zone).
NOW = datetime(2026, 11, 25, 12, 0, tzinfo=UTC)
BOARD = reverse("leaderboards")


@pytest.fixture
def table(template_factory: Callable[..., TableTemplate]) -> Table:
    return table_services.table_create(template=template_factory(variant="points"))


@pytest.fixture
def rated(table: Table) -> Callable[..., Rating]:
    """``rated(user, games=n, step=d, at=when, family=...)``: ``n`` rated games at ``when``, each
    moving the player's ``mu`` by ``d`` (written as the ratings write them: one change a game,
    each heard by the leaderboards)."""

    def make(
        user: Any, *, games: int, step: float = 0.1, at: datetime = NOW, family: str = "points"
    ) -> Rating:
        rating, _ = Rating.objects.get_or_create(
            user=user, family=family, defaults={"mu": 25.0, "sigma": 8.0, "games": 0}
        )
        with pytest.MonkeyPatch.context() as clock_at:
            clock_at.setattr(timezone, "now", lambda: at)
            for _ in range(games):
                game = Game.objects.create(
                    table=table,
                    variant="points",
                    currency="cash",
                    stake=0,
                    settings={},
                    status=GameStatus.FINISHED,
                )
                change = RatingChange(
                    rating=rating,
                    user=user,
                    family=family,
                    game=game,
                    place=1,
                    mu_before=rating.mu,
                    sigma_before=rating.sigma,
                    mu_after=rating.mu + step,
                    sigma_after=rating.sigma,
                    games_after=rating.games + 1,
                )
                change.save()
                rating_changed.send(sender=RatingChange, change=change)
                rating.mu, rating.games = rating.mu + step, rating.games + 1
                rating.save(update_fields=["mu", "games"])
        return rating

    return make


def _ids(page: selectors.BoardPage) -> list[int]:
    return [row.user_id for row in page.rows]


def _board(**kwargs: Any) -> selectors.BoardPage:
    kwargs.setdefault("family", "points")
    kwargs.setdefault("period", "all")
    kwargs.setdefault("kind", "rating")
    kwargs.setdefault("number", 1)
    kwargs.setdefault("language", "en")
    return selectors.board_page(**kwargs)


def _text(response: Any) -> str:
    return unescape(response.content.decode())


# --------------------------------------------------------------------------- boards by rating


def test_all_time_by_rating_lists_players_with_the_minimum_games_best_first(
    user_factory: Callable[..., Any], settings: Any
) -> None:
    settings.LEADERBOARD_MIN_GAMES = 10
    settings.RATINGS_PROVISIONAL_GAMES = 10
    a, b, c, d = (user_factory() for _ in range(4))
    Rating.objects.create(user=a, family="points", mu=28.0, sigma=3.0, games=12)
    Rating.objects.create(user=b, family="points", mu=31.0, sigma=3.0, games=40)
    Rating.objects.create(user=c, family="points", mu=40.0, sigma=5.0, games=9)  # too few
    Rating.objects.create(user=d, family="pool", mu=35.0, sigma=3.0, games=50)  # other family
    page = _board()
    assert _ids(page) == [b.pk, a.pk]
    assert [(r.rank, r.rating, r.games) for r in page.rows] == [(1, 1860, 40), (2, 1680, 12)]
    assert page.rows[0].change_text == "+360"  # since a new player's 1500
    assert _ids(_board(family="pool")) == [d.pk]


def test_a_provisional_player_is_left_off_whatever_the_minimum(
    user_factory: Callable[..., Any], settings: Any
) -> None:
    settings.LEADERBOARD_MIN_GAMES = 5
    settings.RATINGS_PROVISIONAL_GAMES = 20
    steady, new = user_factory(), user_factory()
    Rating.objects.create(user=steady, family="points", mu=26.0, sigma=2.0, games=20)
    Rating.objects.create(user=new, family="points", mu=45.0, sigma=6.0, games=19)
    assert selectors.leaderboard_min_games() == 20
    assert _ids(_board()) == [steady.pk]


def test_the_week_and_the_season_rank_the_rating_change_in_their_window(
    user_factory: Callable[..., Any], rated: Callable[..., Rating], settings: Any
) -> None:
    settings.LEADERBOARD_WINDOW_MIN_GAMES = 5
    settings.RATINGS_PROVISIONAL_GAMES = 10
    season = Season.objects.create(
        name="Season 1", starts_at=datetime(2026, 11, 10, tzinfo=UTC), length_days=30
    )
    last_week, this_week = datetime(2026, 11, 20, tzinfo=UTC), datetime(2026, 11, 24, tzinfo=UTC)
    a, b, c, d, e = (user_factory() for _ in range(5))
    for user in (a, b, c, d, e):
        rated(user, games=10, step=0.0, at=datetime(2026, 10, 1, tzinfo=UTC))  # before: 10 games
    rated(a, games=5, step=1.0, at=last_week)  # +5 mu in the season, none this week
    rated(b, games=5, step=0.5, at=this_week)  # +2.5 in the week and in the season
    rated(c, games=4, step=3.0, at=this_week)  # too few games in either window
    rated(d, games=6, step=-0.5, at=this_week)  # -3: last
    rated(e, games=5, step=2.0, at=datetime(2026, 11, 5, tzinfo=UTC))  # before the season
    week = _board(period="week", now=NOW)
    assert week.window is not None and week.window.key == "w2026-11-23"
    assert _ids(week) == [b.pk, d.pk]
    assert [(r.change_text, r.games) for r in week.rows] == [("+150", 5), ("\u2212180", 6)]
    assert _ids(_board(period="season", now=NOW)) == [a.pk, b.pk, d.pk]
    assert _board(period="season", now=NOW).rows[0].change_text == "+300"
    # No season holds a moment after its end: an empty board.
    assert _board(period="season", now=season.ends_at + timedelta(hours=1)).rows == []
    # Counting the season afresh from the ratings' changes gives the same board.
    before = set(
        Standing.objects.filter(period=season.period_key).values_list("user_id", "delta", "games")
    )
    services.season_standings_rebuild(season=season)
    after = set(
        Standing.objects.filter(period=season.period_key).values_list("user_id", "delta", "games")
    )
    assert {(u, round(x, 6), g) for u, x, g in after} == {(u, round(x, 6), g) for u, x, g in before}
    assert _ids(
        selectors.board_page(
            family="points", period="season", kind="rating", number=1, language="xx", now=NOW
        )
    ) == [a.pk, b.pk, d.pk]


def test_a_game_rated_by_the_ratings_is_counted_once_in_its_week_and_season(
    seated: Callable[..., TableDriver],
    toss: Callable[[int], None],
    django_capture_on_commit_callbacks: Any,
) -> None:
    season = Season.objects.create(name="Now", starts_at=timezone.now() - timedelta(days=1))
    toss(1)
    t = seated(2, variant="points", point_value=10, platform_fee_bps=0)
    with django_capture_on_commit_callbacks(execute=True):
        t.act(1, "drop")  # the game ends; the ratings rate it after the commit
    changes = {c.user_id: c for c in RatingChange.objects.filter(game=t.game())}
    assert len(changes) == 2
    week = selectors.week_of(timezone.now()).key
    for period in (week, season.period_key):
        standings = {s.user_id: s for s in Standing.objects.filter(period=period)}
        assert set(standings) == set(changes)
        for user_id, change in changes.items():
            assert standings[user_id].games == 1
            assert standings[user_id].delta == pytest.approx(change.mu_after - change.mu_before)
    # Heard again (a repeated end, the sweep): the ratings rate it once, so it counts once.
    ratings_services.game_rate(game_id=t.game().pk)
    assert set(Standing.objects.values_list("games", flat=True)) == {1}


def test_the_rebuild_command_counts_this_week_and_the_running_season_afresh(
    user_factory: Callable[..., Any], rated: Callable[..., Rating]
) -> None:
    now = timezone.now()
    season = Season.objects.create(name="Now", starts_at=now - timedelta(days=2))
    player = user_factory()
    rated(player, games=3, step=0.25, at=now - timedelta(seconds=5))
    counted = set(Standing.objects.values_list("period", "user_id", "games"))
    week = selectors.week_of(now).key
    assert counted == {(week, player.pk, 3), (season.period_key, player.pk, 3)}
    Standing.objects.all().delete()  # as if the leaderboards came after the games
    out = StringIO()
    call_command("leaderboards_rebuild", stdout=out)
    assert set(Standing.objects.values_list("period", "user_id", "games")) == counted
    assert f"{season.period_key}: 1 standings" in out.getvalue()
    assert Standing.objects.get(period=week).delta == pytest.approx(0.75)


# --------------------------------------------------------------------------- tournament points


@pytest.fixture
def points_table() -> TournamentPointsTable:
    table = TournamentPointsTable.objects.create(name="Standard", active=True)
    for place, points in ((1, 100), (2, 60), (3, 30)):
        TournamentPointsRow.objects.create(table=table, place=place, points=points)
    return table


def _finished_tournament(
    user_factory: Callable[..., Any], ranks: list[tuple[int, int]], *, bot: bool = False
) -> tuple[Tournament, list[Any]]:
    t = Tournament.objects.create(
        name="Friday cup", template=deals_template(), status=TournamentStatus.RUNNING
    )
    users = []
    for first, last in ranks:
        user = user_factory()
        Registration.objects.create(tournament=t, user=user, rank_first=first, rank_last=last)
        users.append(user)
    if bot:
        Registration.objects.create(
            tournament=t,
            user=user_factory(username="bot-9"),
            is_bot=True,
            rank_first=5,
            rank_last=5,
        )
    return t, users


def test_a_finished_tournament_earns_its_places_points_once(
    user_factory: Callable[..., Any],
    points_table: TournamentPointsTable,
    django_capture_on_commit_callbacks: Any,
) -> None:
    t, (first, tied_a, tied_b) = _finished_tournament(
        user_factory, [(1, 1), (2, 3), (2, 3)], bot=True
    )
    t.status = TournamentStatus.FINISHED
    t.ended_at = NOW
    t.save()
    tournament_finished.send_robust(sender=Tournament, tournament_id=t.pk)
    got = dict(TournamentPoints.objects.values_list("user_id", "points"))
    assert got == {first.pk: 100, tied_a.pk: 45, tied_b.pk: 45}  # the tie shares 60 + 30
    # Heard again, swept, called again: nothing more.
    tournament_finished.send_robust(sender=Tournament, tournament_id=t.pk)
    assert services.tournament_points_award(tournament_id=t.pk) == 0
    assert services.tournaments_unawarded_award() == 0
    assert TournamentPoints.objects.count() == 3 and TournamentAward.objects.count() == 1
    board = _board(family="deals", kind="points")
    assert [(r.user_id, r.points, r.games) for r in board.rows] == [
        (first.pk, 100, 1),
        (tied_a.pk, 45, 1),
        (tied_b.pk, 45, 1),
    ]


def test_a_tournament_finish_missed_is_awarded_by_the_sweep_once(
    user_factory: Callable[..., Any], points_table: TournamentPointsTable
) -> None:
    t, (winner,) = _finished_tournament(user_factory, [(1, 1)])
    Tournament.objects.filter(pk=t.pk).update(status=TournamentStatus.FINISHED)  # nobody heard
    tasks.leaderboards_sweep.apply()
    tasks.leaderboards_sweep.apply()
    assert list(TournamentPoints.objects.values_list("user_id", "points")) == [(winner.pk, 100)]


def test_a_tournament_played_to_its_end_gives_the_person_their_points(
    player: Any,
    clock: Any,
    points_table: TournamentPointsTable,
    django_capture_on_commit_callbacks: Any,
) -> None:
    t = practice_sit_and_go(players=2, seats=2, qualifiers=1)
    tourney.tournament_register(tournament=t, user=player)
    with django_capture_on_commit_callbacks(execute=True):
        clock.advance(21)
        drive(t, clock)
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    reg = Registration.objects.get(tournament=t, user=player)
    row = TournamentPoints.objects.get()
    assert (row.user_id, row.place, row.points) == (
        player.pk,
        reg.rank_first,
        {1: 100, 2: 60}[int(reg.rank_first or 0)],
    )


# --------------------------------------------------------------------------- season rewards


def test_a_seasons_rewards_are_paid_once_through_the_ledger(
    user_factory: Callable[..., Any],
    rated: Callable[..., Rating],
    points_table: TournamentPointsTable,
    settings: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    settings.LEADERBOARD_WINDOW_MIN_GAMES = 2
    settings.RATINGS_PROVISIONAL_GAMES = 2
    by_rating = RewardTable.objects.create(name="Top 2")
    RewardRow.objects.create(table=by_rating, rank=1, chips=5_000)
    RewardRow.objects.create(table=by_rating, rank=2, chips=2_000)
    by_points = RewardTable.objects.create(name="Winner")
    RewardRow.objects.create(table=by_points, rank=1, chips=700)
    start = timezone.now() - timedelta(days=40)
    season = Season.objects.create(
        name="Season 4",
        family="points",
        starts_at=start,
        length_days=30,
        rating_rewards=by_rating,
        points_rewards=by_points,
    )
    inside = start + timedelta(days=3)
    top, second, third = user_factory(), user_factory(), user_factory()
    rated(top, games=3, step=1.0, at=inside)
    rated(second, games=3, step=0.5, at=inside)
    rated(third, games=3, step=0.1, at=inside)
    t, _ = _finished_tournament(user_factory, [(1, 1)])
    TournamentPoints.objects.create(
        tournament=t, user=top, family="points", place=1, points=100, at=inside
    )
    tasks.leaderboards_sweep.apply()
    tasks.leaderboards_sweep.apply()  # a second beat: nothing more
    services.season_close(season_id=season.pk)  # and called by hand: nothing more
    wallet = {
        u: ledger_selectors.wallet_balance(user=u, currency="practice")
        for u in (top, second, third)
    }
    assert wallet == {top: 5_700, second: 2_000, third: 0}
    payouts = {p.user_id: p for p in SeasonPayout.objects.all()}
    assert set(payouts) == {top.pk, second.pk}
    assert payouts[top.pk].chips == 5_700 and len(payouts[top.pk].detail) == 2
    keys = list(
        Transaction.objects.filter(ref=f"season:{season.pk}").values_list(
            "idempotency_key", flat=True
        )
    )
    assert sorted(keys) == sorted(
        services.season_reward_key(season_id=season.pk, user_id=u.pk) for u in (top, second)
    )
    assert not reconcile_run().discrepancies
    season.refresh_from_db()
    assert season.closed_at is not None
    following = Season.objects.exclude(pk=season.pk).get()
    assert (following.name, following.starts_at, following.length_days, following.family) == (
        "Season 5",
        season.ends_at,
        30,
        "points",
    )
    assert following.rating_rewards_id == by_rating.pk and following.closed_at is None


def test_a_season_not_ended_pays_nothing(user_factory: Callable[..., Any]) -> None:
    rewards = RewardTable.objects.create(name="Top 1")
    RewardRow.objects.create(table=rewards, rank=1, chips=100)
    season = Season.objects.create(
        name="Now", starts_at=timezone.now() - timedelta(days=1), rating_rewards=rewards
    )
    assert services.season_close(season_id=season.pk).closed is False
    assert services.seasons_close_due() == 0
    assert not SeasonPayout.objects.exists()


# --------------------------------------------------------------------------- the page


@pytest.fixture
def ranked_players(user_factory: Callable[..., Any], settings: Any) -> list[Any]:
    """Three players on the all-time Points board by rating (best first)."""
    settings.LEADERBOARD_MIN_GAMES = 10
    settings.RATINGS_PROVISIONAL_GAMES = 10
    users = [user_factory() for _ in range(3)]
    for i, user in enumerate(users):
        Rating.objects.create(user=user, family="points", mu=30.0 - i, sigma=3.0, games=20)
    return users


def _names_shown(html: str) -> list[str]:
    table = html.split('id="board-table"', 1)[1].split("</table>", 1)[0]
    return re.findall(r'data-player="(\d+)"', table)


def test_friends_only_shows_the_viewer_and_their_friends(ranked_players: list[Any]) -> None:
    me, friend, stranger = ranked_players[2], ranked_players[0], ranked_players[1]
    request = friend_services.friend_request_send(sender=me, receiver=friend)
    friend_services.friend_request_accept(user=friend, request_id=request.pk)
    client = Client()
    client.force_login(me)
    everyone = _text(client.get(BOARD, {"family": "points"}))
    assert _names_shown(everyone) == [str(u.pk) for u in ranked_players]
    friends = _text(client.get(BOARD, {"family": "points", "friends": "1"}))
    assert _names_shown(friends) == [str(friend.pk), str(me.pk)]
    assert str(stranger.pk) not in _names_shown(friends)
    assert 'aria-pressed="true"' in friends
    # Logged out, the toggle is not offered and the board is everyone's.
    anonymous = _text(Client().get(BOARD, {"family": "points", "friends": "1"}))
    assert _names_shown(anonymous) == [str(u.pk) for u in ranked_players]
    assert 'id="friends-only"' not in anonymous


def test_pages_of_fifty_and_bad_page_numbers_are_refused_in_words(
    user_factory: Callable[..., Any], settings: Any
) -> None:
    settings.LEADERBOARD_MIN_GAMES = 10
    settings.RATINGS_PROVISIONAL_GAMES = 10
    users = [user_factory() for _ in range(51)]
    Rating.objects.bulk_create(
        Rating(user=u, family="points", mu=40.0 - i * 0.1, sigma=3.0, games=10)
        for i, u in enumerate(users)
    )
    client = Client()
    first = _text(client.get(BOARD, {"family": "points"}))
    assert len(_names_shown(first)) == 50 and "Page 1 of 2" in first
    second = client.get(BOARD, {"family": "points", "page": "2"})
    assert second.status_code == 200
    assert _names_shown(_text(second)) == [str(users[50].pk)]
    assert "<td>51</td>" in _text(second)
    for bad in ("abc", "0", "-1", "1.5", "\u0663"):
        response = client.get(BOARD, {"family": "points", "page": bad})
        assert response.status_code == 400, bad
        assert "The page must be a whole number from 1." in _text(response)
    for missing in ("3", "99999999999999999999", "9" * 5000):
        assert client.get(BOARD, {"family": "points", "page": missing}).status_code == 404
    for query in ({"family": "rummy"}, {"period": "month"}, {"kind": "wins"}):
        response = client.get(BOARD, query)
        assert response.status_code == 400
        assert "There is no such leaderboard." in _text(response)


def test_the_page_in_hindi_and_its_htmx_part(ranked_players: list[Any]) -> None:
    hindi = Client(HTTP_ACCEPT_LANGUAGE="hi")
    response = hindi.get(BOARD, {"family": "points"})
    html = _text(response)
    assert response.status_code == 200 and 'lang="hi"' in html
    assert "लीडरबोर्ड" in html and "Leaderboards" not in html.split("<main", 1)[1]
    assert _names_shown(html) == [str(u.pk) for u in ranked_players]
    assert "क्लासिक 10 पत्ते" in html and "पॉइंट्स" in html  # the families' tabs
    part = _text(
        Client().get(BOARD, {"family": "points", "period": "week"}, HTTP_HX_REQUEST="true")
    )
    assert part.lstrip().startswith('<div id="board"') and "<html" not in part
    assert "Nobody on this leaderboard yet." in part
    restored = Client().get(
        BOARD, {"period": "week"}, HTTP_HX_REQUEST="true", HTTP_HX_HISTORY_RESTORE_REQUEST="true"
    )
    assert "<html" in _text(restored)  # htmx's back button: the whole page


def test_a_board_is_read_once_then_from_the_cache(ranked_players: list[Any]) -> None:
    client = Client()
    client.force_login(ranked_players[0])
    url = f"{BOARD}?family=points&period=all&kind=rating"
    with CaptureQueriesContext(connection) as cold:
        assert client.get(url).status_code == 200
    with CaptureQueriesContext(connection) as warm:
        assert client.get(url).status_code == 200
    assert len(warm) < len(cold)
    assert not any("ratings_rating" in q["sql"] for q in warm.captured_queries)
    assert any("ratings_rating" in q["sql"] for q in cold.captured_queries)
    # Another language is its own entry: read afresh.
    with CaptureQueriesContext(connection) as other:
        Client(HTTP_ACCEPT_LANGUAGE="hi").get(url)
    assert any("ratings_rating" in q["sql"] for q in other.captured_queries)


def test_the_nav_links_the_leaderboards(client: Client) -> None:
    assert f'href="{BOARD}"' in _text(client.get(reverse("lobby")))


# --------------------------------------------------------------------------- staff


def test_staff_see_seasons_tables_and_read_only_payouts(user_factory: Callable[..., Any]) -> None:
    staff = user_factory(is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(staff)
    for name in ("season", "tournamentpointstable", "rewardtable", "seasonpayout"):
        assert client.get(reverse(f"admin:leaderboards_{name}_changelist")).status_code == 200
    assert client.get(reverse("admin:leaderboards_seasonpayout_add")).status_code == 403
    response = client.post(
        reverse("admin:leaderboards_season_add"),
        {
            "name": "Winter",
            "family": "",
            "starts_at_0": "2026-12-01",
            "starts_at_1": "00:00:00",
            "length_days": "30",
            "repeats": "on",
        },
    )
    assert response.status_code == 302
    winter = Season.objects.get()  # entered in the staff member's zone (Asia/Kolkata)
    assert winter.starts_at == datetime(2026, 11, 30, 18, 30, tzinfo=UTC)
    assert winter.ends_at - winter.starts_at == timedelta(days=30)
    overlap = client.post(
        reverse("admin:leaderboards_season_add"),
        {
            "name": "Clash",
            "family": "points",
            "starts_at_0": "2026-12-10",
            "starts_at_1": "00:00:00",
            "length_days": "30",
        },
    )
    assert overlap.status_code == 200 and "Overlaps the season" in _text(overlap)
