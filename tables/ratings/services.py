"""Writes of the ratings: rating a finished game (once, never twice), rating every finished
game left unrated (a lost task), and staff's reset of a player's rating.

``game_rate`` is one transaction: the game's ``GameRating`` row is inserted first (its
one-to-one key: a second run, at once or later, finds it and rates nothing), then the players'
``Rating`` rows are locked in the order of their user ids, every change is written and the
ratings saved. A worker that dies in between leaves nothing; the next run rates the game once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction

from ledger.db import retry_on_conflict
from tables.models import Game, GameStatus, Seat
from tables.ratings import skill
from tables.ratings.cache import ratings_forget
from tables.ratings.models import GameOutcome, GameRating, Rating, RatingChange, family_of
from tables.ratings.signals import rating_changed
from tables.selectors import game_places, game_points
from tables.services.errors import TableError, TableRefusal

if TYPE_CHECKING:
    from accounts.models import User

__all__ = [
    "REASON_MAX",
    "RatingError",
    "game_rate",
    "games_unrated_rate",
    "rating_reset",
]

REASON_MAX = 500


class RatingError(TableError):
    """A refused ratings write (a staff reset without its reason): a tables refusal."""


def _not_rated_why(game: Game, seats: list[Seat]) -> str:
    """Why ``game`` is not rated ('' when it is)."""
    if game.status == GameStatus.CANCELLED:
        return "cancelled"
    if game.table.casual:
        return "casual"
    if len(seats) < 2:
        return "too_few"
    if all(s.is_bot for s in seats):
        return "no_people"
    return ""


def _ratings_locked(user_ids: list[int], family: str) -> dict[int, Rating]:
    """The players' ratings in ``family`` (new ones at openskill's start), locked in the order
    of their user ids."""
    start = skill.initial()
    Rating.objects.bulk_create(
        [Rating(user_id=u, family=family, mu=start.mu, sigma=start.sigma) for u in user_ids],
        ignore_conflicts=True,
    )
    rows = Rating.objects.select_for_update().filter(user_id__in=user_ids, family=family)
    return {r.user_id: r for r in rows.order_by("user_id")}


def _change_write(change: RatingChange) -> None:
    """The one write of a game's change (the crash test's seam: it dies after the first),
    told to the listeners in the same transaction (``signals.rating_changed``)."""
    change.save()
    rating_changed.send(sender=RatingChange, change=change)


def _rate(game: Game, family: str, seats: list[Seat]) -> list[int]:
    seat_nos = [s.seat_no for s in seats]
    places = game_places(game, seat_nos, game_points(game, seat_nos))
    people = sorted(s.user_id for s in seats if not s.is_bot)
    ratings = _ratings_locked(people, family)
    level = game.table.bot_strength or game.table.template.bot_strength
    entrants = [
        skill.Entrant(skill.anchor_skill(family, level), places[s.seat_no], anchor=True)
        if s.is_bot
        else skill.Entrant(
            skill.Skill(ratings[s.user_id].mu, ratings[s.user_id].sigma), places[s.seat_no]
        )
        for s in seats
    ]
    for seat, entrant, after in zip(seats, entrants, skill.rate(entrants), strict=True):
        if seat.is_bot:
            continue
        rating = ratings[seat.user_id]
        _change_write(
            RatingChange(
                rating=rating,
                user_id=seat.user_id,
                family=family,
                game=game,
                place=entrant.place,
                mu_before=rating.mu,
                sigma_before=rating.sigma,
                mu_after=after.mu,
                sigma_after=after.sigma,
                games_after=rating.games + 1,
            )
        )
        rating.mu, rating.sigma, rating.games = after.mu, after.sigma, rating.games + 1
        rating.save(update_fields=["mu", "sigma", "games", "updated_at"])
    return people


def game_rate(*, game_id: int) -> str:
    """Rate the finished game ``game_id`` from its players' places, in one transaction.
    Returns what happened: ``"rated"``, ``"skipped"`` (cancelled, casual, fewer than two
    players, no person at it), ``"already"`` (rated before: nothing written), ``"not_over"``
    or ``"no_game"``."""

    @retry_on_conflict
    def work() -> tuple[str, list[int]]:
        game = Game.objects.select_related("table", "table__template").filter(pk=game_id).first()
        if game is None:
            return "no_game", []
        if game.status not in (GameStatus.FINISHED, GameStatus.CANCELLED):
            return "not_over", []
        family = family_of(game.variant)
        try:
            with transaction.atomic():
                marker = GameRating.objects.create(
                    game=game, family=family, outcome=GameOutcome.RATED
                )
        except IntegrityError:
            return "already", []
        seats = list(Seat.objects.filter(game=game, played=True).order_by("seat_no"))
        why = _not_rated_why(game, seats)
        if why:
            marker.outcome, marker.why = GameOutcome.SKIPPED, why
            marker.save(update_fields=["outcome", "why"])
            return "skipped", []
        people = _rate(game, family, seats)
        transaction.on_commit(lambda: ratings_forget(user_ids=people))
        return "rated", people

    outcome, _people = work()
    return outcome


def games_unrated_rate(*, limit: int = 1000) -> dict[str, int]:
    """Rate every game that ended (finished or cancelled) and has no ``GameRating`` yet: the
    games whose rating task was lost. Oldest first, at most ``limit``; counts by outcome."""
    ids = list(
        Game.objects.filter(status__in=(GameStatus.FINISHED, GameStatus.CANCELLED))
        .exclude(pk__in=GameRating.objects.values("game_id"))
        .order_by("ended_at", "pk")
        .values_list("pk", flat=True)[:limit]
    )
    counts: dict[str, int] = {}
    for game_id in ids:
        outcome = game_rate(game_id=game_id)
        counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def rating_reset(*, rating: Rating, staff_user: User, reason: str) -> RatingChange:
    """Staff: put a player's rating in one family back to a new player's (provisional again),
    with a reason kept in the append-only log of changes."""
    reason = (reason or "").strip()
    if not reason:
        raise RatingError(TableRefusal.RESET_REASON)
    if len(reason) > REASON_MAX:
        raise RatingError(TableRefusal.RESET_REASON_LONG, count=REASON_MAX)
    if not getattr(staff_user, "is_staff", False):
        raise RatingError(TableRefusal.STAFF_RESETS)

    @retry_on_conflict
    def work() -> RatingChange:
        locked = Rating.objects.select_for_update().get(pk=rating.pk)
        start = skill.initial()
        change = RatingChange(
            rating=locked,
            user_id=locked.user_id,
            family=locked.family,
            mu_before=locked.mu,
            sigma_before=locked.sigma,
            mu_after=start.mu,
            sigma_after=start.sigma,
            games_after=0,
            reason=reason,
            staff=staff_user,
        )
        change.save()
        locked.mu, locked.sigma, locked.games = start.mu, start.sigma, 0
        locked.save(update_fields=["mu", "sigma", "games", "updated_at"])
        user_id = locked.user_id
        transaction.on_commit(lambda: ratings_forget(user_ids=[user_id]))
        return change

    return work()
