"""Reads of the leaderboards: the windows (this week, the current season), a board's page
(cached), and the ranked queries the season's rewards read too.

A board is (family, period, kind):

* period ``all``: by rating, the ratings' own rows (``Rating``: players with at least
  ``leaderboard_min_games()`` rated games, never a provisional one) by ``mu``; by tournament
  points, every point earned;
* period ``season`` / ``week``: by rating, the window's ``Standing`` rows (the rating change
  summed over the rated games in the window, at least ``window_min_games()`` of them, and the
  player not provisional); by tournament points, the points earned in the window.

Ties are broken by the player's id (the earlier account first), so a rank is stable.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from django.conf import settings as django_settings
from django.core.cache import cache
from django.core.paginator import EmptyPage, Paginator
from django.db.models import Count, Q, QuerySet, Sum
from django.utils import timezone

from accounts.friends.selectors import friends_query
from accounts.models import User
from tables.leaderboards.models import FAMILY_ALL, Season, Standing, TournamentPoints
from tables.ratings import skill
from tables.ratings.models import Family, Rating
from tables.ratings.selectors import provisional_games

# A row of the points boards: ``{"user_id", "total", "events"}``.
PointsRow = dict[str, Any]

PAGE_SIZE = 50
PERIODS = ("all", "season", "week")
KINDS = ("rating", "points")
# A page number of more digits than this is no page of any board (404), not a number to parse.
PAGE_DIGITS_MAX = 9
# The longest a season may be, for the lookups of the seasons holding a moment.
SEASON_SPAN_MAX = timedelta(days=366)


def leaderboard_min_games() -> int:
    """Rated games a player needs to appear on an all-time board by rating (never fewer than
    the games that end the provisional rating)."""
    wanted = int(getattr(django_settings, "LEADERBOARD_MIN_GAMES", 10))
    return max(wanted, provisional_games())


def window_min_games() -> int:
    """Rated games in the week or season a player needs to appear on its board by rating."""
    return int(getattr(django_settings, "LEADERBOARD_WINDOW_MIN_GAMES", 5))


def cache_seconds() -> int:
    """How long a public board's page is cached."""
    return int(getattr(django_settings, "LEADERBOARD_CACHE_S", 60))


def count_seconds() -> int:
    """How long a public board's count (shared by its pages) is cached; the sweep counts every
    board afresh each minute (``board_counts_refresh``), so a page seldom counts."""
    return int(getattr(django_settings, "LEADERBOARD_COUNT_CACHE_S", 150))


class BadPage(Exception):
    """``?page=`` is not a page number (400)."""


class NoSuchPage(Exception):
    """A page number past the board's last page (404)."""


@dataclass(frozen=True, slots=True)
class Window:
    """A board's window: ``key`` names it in the standings and the cache."""

    key: str
    start: datetime
    end: datetime


def week_of(at: datetime) -> Window:
    """The week holding ``at``: Monday 00:00 to the next Monday, in the site's time zone."""
    local = timezone.localtime(at)
    monday = (local - timedelta(days=local.weekday())).replace(
        hour=0, minute=0, second=0, microsecond=0
    )
    return Window(key=f"w{monday.date().isoformat()}", start=monday, end=monday + timedelta(days=7))


def season_window(season: Season) -> Window:
    return Window(key=season.period_key, start=season.starts_at, end=season.ends_at)


def seasons_at(*, at: datetime, family: str) -> list[Season]:
    """The seasons whose window holds ``at`` and that count ``family`` (its own or all)."""
    rows = Season.objects.filter(
        starts_at__lte=at, starts_at__gt=at - SEASON_SPAN_MAX, family__in=[family, FAMILY_ALL]
    )
    return [s for s in rows if s.ends_at > at]


def season_current(*, family: str, now: datetime | None = None) -> Season | None:
    """The season of ``family`` now: the family's own, else one of all families."""
    found = seasons_at(at=now or timezone.now(), family=family)
    found.sort(key=lambda s: (s.family == FAMILY_ALL, -s.starts_at.timestamp()))
    return found[0] if found else None


def window_of(*, period: str, family: str, now: datetime | None = None) -> Window | None:
    """The window of a period now (``None``: all time, or no season now)."""
    now = now or timezone.now()
    if period == "week":
        return week_of(now)
    if period == "season":
        season = season_current(family=family, now=now)
        return season_window(season) if season is not None else None
    return None


# --------------------------------------------------------------------------- ranked queries


def rating_all_time(*, family: str) -> QuerySet[Rating]:
    return Rating.objects.filter(family=family, games__gte=leaderboard_min_games()).order_by(
        "-mu", "user_id"
    )


def rating_in_window(*, family: str, window: Window) -> QuerySet[Standing]:
    return Standing.objects.filter(
        period=window.key,
        family=family,
        games__gte=window_min_games(),
        games_total__gte=provisional_games(),
    ).order_by("-delta", "user_id")


def points_ranked(*, family: str, window: Window | None) -> QuerySet[TournamentPoints, PointsRow]:
    """Each player's points (``total``) and tournaments (``events``), most points first."""
    rows = TournamentPoints.objects.filter(family=family)
    if window is not None:
        rows = rows.filter(at__gte=window.start, at__lt=window.end)
    return (
        rows.values("user_id")
        .annotate(total=Sum("points"), events=Count("id"))
        .order_by("-total", "user_id")
    )


def ranked_user_ids(*, family: str, kind: str, window: Window, limit: int) -> list[int]:
    """The first ``limit`` players of a window's board (the season's rewards)."""
    if limit <= 0:
        return []
    if kind == "rating":
        return list(
            rating_in_window(family=family, window=window).values_list("user_id", flat=True)[:limit]
        )
    return [int(r["user_id"]) for r in points_ranked(family=family, window=window)[:limit]]


# --------------------------------------------------------------------------- a board's page


@dataclass(frozen=True, slots=True)
class BoardRow:
    rank: int
    user_id: int
    name: str
    rating: int | None
    games: int
    change: int | None
    points: int | None

    @property
    def change_text(self) -> str:
        """``+14``, ``\u22129`` (a minus sign), ``\u00b10``."""
        if self.change is None:
            return ""
        if self.change > 0:
            return f"+{self.change}"
        if self.change < 0:
            return f"\u2212{-self.change}"
        return "\u00b10"


@dataclass(frozen=True, slots=True)
class BoardPage:
    rows: list[BoardRow]
    number: int
    num_pages: int
    count: int
    window: Window | None

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def has_next(self) -> bool:
        return self.number < self.num_pages


def page_number(raw: object) -> int:
    """``?page=``: blank is 1; not a positive whole number is ``BadPage``; a number too long
    to be any page is ``NoSuchPage``."""
    text = str(raw or "").strip() or "1"
    if not text.isascii() or not text.isdigit():
        raise BadPage(text)
    if len(text) > PAGE_DIGITS_MAX:
        raise NoSuchPage(text)
    number = int(text)
    if number < 1:
        raise BadPage(text)
    return number


def _names(user_ids: list[int]) -> dict[int, str]:
    users = User.objects.filter(pk__in=user_ids).only("username", "display_name")
    return {u.pk: u.public_name for u in users}


_Row = TypeVar("_Row")


class _Paginator(Paginator[Any]):
    """Django's paginator with the board's count given (read once for every page of it)."""

    def __init__(self, object_list: Any, per_page: int, *, count: int | None) -> None:
        super().__init__(object_list, per_page)
        if count is not None:
            self.__dict__["count"] = count  # the cached_property's slot


def _page_of(
    query: QuerySet[Any, _Row], number: int, viewer: User | None, count_key: str
) -> tuple[list[_Row], int, int, int]:
    """The page's items, the rank before its first, the pages and the players counted. The
    count of a public board is cached (``count_key``) for every page of it; a friends-only
    board is counted afresh."""
    count: int | None = None
    if viewer is not None:
        query = query.filter(
            Q(user_id__in=friends_query(viewer).values("pk")) | Q(user_id=viewer.pk)
        )
    else:
        hit = cache.get(count_key)
        count = hit if isinstance(hit, int) else None
    paginator = _Paginator(query, PAGE_SIZE, count=count)
    try:
        page = paginator.page(number)
    except EmptyPage as exc:
        raise NoSuchPage(str(number)) from exc
    if viewer is None and count is None:
        cache.set(count_key, paginator.count, count_seconds())
    offset = (page.number - 1) * PAGE_SIZE
    return list(page.object_list), offset, paginator.num_pages, paginator.count


def count_cache_key(*, family: str, kind: str, window: Window | None) -> str:
    return f"leaderboards:v1:count:{family}:{window.key if window else 'all'}:{kind}"


def _points_rows(
    *, family: str, window: Window | None, number: int, viewer: User | None
) -> tuple[list[BoardRow], int, int]:
    items, offset, pages, count = _page_of(
        points_ranked(family=family, window=window),
        number,
        viewer,
        count_cache_key(family=family, kind="points", window=window),
    )
    names = _names([int(r["user_id"]) for r in items])
    rows = [
        BoardRow(
            rank=offset + i + 1,
            user_id=int(r["user_id"]),
            name=names.get(int(r["user_id"]), ""),
            rating=None,
            games=int(r["events"]),
            change=None,
            points=int(r["total"]),
        )
        for i, r in enumerate(items)
    ]
    return rows, pages, count


def _rating_rows(
    *, family: str, window: Window | None, number: int, viewer: User | None
) -> tuple[list[BoardRow], int, int]:
    # Only the indexed columns (an index-only scan on PostgreSQL: docs/leaderboards.md).
    key = count_cache_key(family=family, kind="rating", window=window)
    entries: list[tuple[int, float, int, int]] = []  # user, mu, games, change shown
    if window is None:
        ratings, offset, pages, count = _page_of(
            rating_all_time(family=family).values_list("user_id", "mu", "games"),
            number,
            viewer,
            key,
        )
        start = skill.display(skill.initial().mu)
        entries = [(u, mu, games, skill.display(mu) - start) for u, mu, games in ratings]
    else:
        standings, offset, pages, count = _page_of(
            rating_in_window(family=family, window=window).values_list(
                "user_id", "mu", "games", "delta"
            ),
            number,
            viewer,
            key,
        )
        entries = [
            (u, mu, games, round(delta * skill.DISPLAY_SCALE)) for u, mu, games, delta in standings
        ]
    names = _names([e[0] for e in entries])
    rows = [
        BoardRow(
            rank=offset + i + 1,
            user_id=user_id,
            name=names.get(user_id, ""),
            rating=skill.display(mu),
            games=games,
            change=change,
            points=None,
        )
        for i, (user_id, mu, games, change) in enumerate(entries)
    ]
    return rows, pages, count


def _rows(
    *, family: str, kind: str, window: Window | None, number: int, viewer: User | None
) -> tuple[list[BoardRow], int, int]:
    read = _points_rows if kind == "points" else _rating_rows
    return read(family=family, window=window, number=number, viewer=viewer)


def board_counts_refresh(*, now: datetime | None = None) -> int:
    """Count every public board now (each family, period and kind) into the cache its pages
    read the count from. Returns how many boards were counted."""
    counted = 0
    for family in Family.values:
        for period in PERIODS:
            window = window_of(period=period, family=family, now=now)
            if period == "season" and window is None:
                continue
            queries: dict[str, QuerySet[Any, Any]] = {
                "points": points_ranked(family=family, window=window),
                "rating": rating_all_time(family=family)
                if window is None
                else rating_in_window(family=family, window=window),
            }
            for kind, query in queries.items():
                key = count_cache_key(family=family, kind=kind, window=window)
                cache.set(key, query.count(), count_seconds())
                counted += 1
    return counted


def board_cache_key(
    *, family: str, kind: str, window: Window | None, number: int, language: str
) -> str:
    return f"leaderboards:v1:{family}:{window.key if window else 'all'}:{kind}:{number}:{language}"


def board_page(
    *,
    family: str,
    period: str,
    kind: str,
    number: int,
    language: str,
    friends_of: User | None = None,
    now: datetime | None = None,
) -> BoardPage:
    """One page of a board. The public boards are cached for ``cache_seconds()`` per family,
    window, kind, page and language; a friends-only board (``friends_of``: the viewer, whose
    friends and self are shown) is read afresh. ``NoSuchPage`` past the last page."""
    if family not in Family.values or period not in PERIODS or kind not in KINDS:
        raise ValueError(f"no board {family}/{period}/{kind}")
    window = window_of(period=period, family=family, now=now)
    if period == "season" and window is None:  # no season now: an empty board
        if number > 1:
            raise NoSuchPage(str(number))
        return BoardPage(rows=[], number=1, num_pages=1, count=0, window=None)
    if friends_of is not None:
        rows, pages, count = _rows(
            family=family, kind=kind, window=window, number=number, viewer=friends_of
        )
        return BoardPage(rows=rows, number=number, num_pages=pages, count=count, window=window)
    key = board_cache_key(family=family, kind=kind, window=window, number=number, language=language)
    hit = cache.get(key)
    if isinstance(hit, BoardPage):
        return hit
    rows, pages, count = _rows(family=family, kind=kind, window=window, number=number, viewer=None)
    page = BoardPage(rows=rows, number=number, num_pages=pages, count=count, window=window)
    cache.set(key, page, cache_seconds())
    return page
