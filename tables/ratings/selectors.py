"""Reads of the ratings: a player's ratings (profile), the change a game made (its result, My
games), the history for the chart, the badges beside the names at a table and the mean rating
of a table's seated people (Play now)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings as django_settings
from django.core.cache import cache

from tables.models import Seat
from tables.ratings import skill
from tables.ratings.cache import BADGE_CACHE_S, badge_key
from tables.ratings.models import Family, Rating, RatingChange, family_of

__all__ = [
    "ChangeRead",
    "RatingRead",
    "change_of_game",
    "changes_of_games",
    "game_changes",
    "provisional_games",
    "rating_history",
    "ratings_of_player",
    "seat_badges",
    "seated_people",
    "table_means",
]


def provisional_games() -> int:
    """Rated games before a rating stops being provisional (``RATINGS_PROVISIONAL_GAMES``)."""
    return int(getattr(django_settings, "RATINGS_PROVISIONAL_GAMES", 10))


def _figure(mu: float, games: int) -> str:
    """The rating as shown: ``1520``, or ``1500?`` while provisional."""
    mark = "?" if games < provisional_games() else ""
    return f"{skill.display(mu)}{mark}"


@dataclass(frozen=True, slots=True)
class RatingRead:
    family: str
    mu: float
    sigma: float
    games: int

    @property
    def display(self) -> int:
        return skill.display(self.mu)

    @property
    def provisional(self) -> bool:
        return self.games < provisional_games()

    @property
    def figure(self) -> str:
        return _figure(self.mu, self.games)


@dataclass(frozen=True, slots=True)
class ChangeRead:
    """A game's (or a reset's) change of one player's rating."""

    user_id: int
    game_id: int | None
    family: str
    place: int | None
    before: int
    after: int
    games_after: int
    at: datetime

    @property
    def delta(self) -> int:
        return self.after - self.before

    @property
    def delta_text(self) -> str:
        """``+14``, ``\u22129`` (a minus sign), ``\u00b10``."""
        if self.delta > 0:
            return f"+{self.delta}"
        if self.delta < 0:
            return f"\u2212{-self.delta}"
        return "\u00b10"

    @property
    def figure(self) -> str:
        return f"{self.after}{'?' if self.games_after < provisional_games() else ''}"


def _change(row: RatingChange) -> ChangeRead:
    return ChangeRead(
        user_id=row.user_id,
        game_id=row.game_id,
        family=row.family,
        place=row.place,
        before=skill.display(row.mu_before),
        after=skill.display(row.mu_after),
        games_after=row.games_after,
        at=row.at,
    )


def ratings_of_player(*, user_id: int) -> list[RatingRead]:
    """The player's ratings, one per family played, in the families' order."""
    rows = {r.family: r for r in Rating.objects.filter(user_id=user_id)}
    return [
        RatingRead(f, rows[f].mu, rows[f].sigma, rows[f].games) for f in Family.values if f in rows
    ]


def changes_of_games(*, user_id: int, game_ids: Iterable[int]) -> dict[int, ChangeRead]:
    """The player's change per game of ``game_ids`` that was rated (one statement)."""
    ids = list(game_ids)
    if not ids:
        return {}
    rows = RatingChange.objects.filter(user_id=user_id, game_id__in=ids)
    return {int(r.game_id): _change(r) for r in rows if r.game_id is not None}


def change_of_game(*, user_id: int, game_id: int) -> ChangeRead | None:
    return changes_of_games(user_id=user_id, game_ids=[game_id]).get(game_id)


def game_changes(*, game_id: int) -> dict[int, ChangeRead]:
    """Every player's change in a game, by user id (the game's result)."""
    return {r.user_id: _change(r) for r in RatingChange.objects.filter(game_id=game_id)}


def rating_history(*, user_id: int, family: str, limit: int = 200) -> list[ChangeRead]:
    """The player's changes in one family, oldest first (the newest ``limit``)."""
    rows = RatingChange.objects.filter(user_id=user_id, family=family).order_by("-at", "-id")
    return [_change(r) for r in reversed(list(rows[:limit]))]


def seat_badges(
    *, user_ids: Sequence[int], variant: str, read: Mapping[str, object] | None = None
) -> dict[int, str]:
    """The rating shown beside each player's name at a table of ``variant`` (``1500?`` for a
    player without a rating yet): one cache read, none for the badges found in ``read`` (cache
    values read already, by a push: ``felt_badge_keys``); the players missing from the cache in
    one statement."""
    keys = dict(zip(felt_badge_keys(variant, user_ids), user_ids, strict=True))
    family = family_of(variant)
    read = read or {}
    found = {key: read[key] for key in keys if key in read}
    rest = [key for key in keys if key not in found]
    if rest:
        found.update(cache.get_many(rest))
    badges = {keys[k]: str(v) for k, v in found.items()}
    missing = [u for u in user_ids if u not in badges]
    if missing:
        rows = {r.user_id: r for r in Rating.objects.filter(user_id__in=missing, family=family)}
        start = skill.initial()
        fresh = {
            u: _figure(rows[u].mu, rows[u].games) if u in rows else _figure(start.mu, 0)
            for u in missing
        }
        cache.set_many({badge_key(u, family): v for u, v in fresh.items()}, BADGE_CACHE_S)
        badges.update(fresh)
    return badges


def felt_badge_keys(variant: str, user_ids: Sequence[int]) -> list[str]:
    """The cache keys of the badges ``seat_badges`` reads for these people at a table of
    ``variant``: a push reads them with what it pushed (``tables.live.realtime``)."""
    family = family_of(variant)
    return [badge_key(u, family) for u in user_ids]


def table_means(*, people_by_table: Mapping[int, Sequence[int]], family: str) -> dict[int, float]:
    """The mean rating (``mu``) of each table's seated people (a new player counts at the
    start's ``mu``), by table id; tables with nobody seated are left out. One statement."""
    everyone = {u for users in people_by_table.values() for u in users}
    mus = dict(
        Rating.objects.filter(user_id__in=everyone, family=family).values_list("user_id", "mu")
    )
    start = skill.initial().mu
    return {
        table_id: sum(mus.get(u, start) for u in users) / len(users)
        for table_id, users in people_by_table.items()
        if users
    }


def seated_people(*, game_ids: Iterable[int]) -> dict[int, list[int]]:
    """The people (not computer players) seated in each live game, by game id."""
    out: dict[int, list[int]] = {}
    rows = Seat.objects.filter(game_id__in=list(game_ids), left_at__isnull=True, is_bot=False)
    for game_id, user_id in rows.values_list("game_id", "user_id"):
        out.setdefault(game_id, []).append(user_id)
    return out
