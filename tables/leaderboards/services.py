"""Writes of the leaderboards.

* ``standings_add(change=...)``: a rated game's change of one player's rating counted in the
  windows holding it (its week, its seasons), in the rating's own transaction: rated once,
  counted once. ``window_standings_rebuild`` counts a window afresh from the ratings' changes
  (a season created with a start in the past, ``manage.py leaderboards_rebuild``).
* ``tournament_points_award(tournament_id=...)``: a finished tournament's places earn the
  active points table's points, once: the award's one-to-one row and the (tournament, player)
  unique key refuse a second; ``tournaments_unawarded_award`` catches any finish missed.
* ``season_close(season_id=...)``: at a season's end its rewards are decided (one
  ``SeasonPayout`` per player) and paid in practice chips through the ledger with the key
  ``season-reward:<season>:<player>`` (a rerun pays nothing more), and the next season opens
  when the season repeats; ``seasons_close_due`` closes every season that has ended.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, F, Sum
from django.utils import timezone

from accounts.models import User
from ledger.db import retry_on_conflict
from ledger.services import wallet_deposit
from tables.leaderboards import selectors
from tables.leaderboards.models import (
    FAMILY_ALL,
    RewardTable,
    Season,
    SeasonPayout,
    Standing,
    TournamentAward,
    TournamentPoints,
    TournamentPointsTable,
)
from tables.leaderboards.selectors import Window, season_window, week_of
from tables.ratings.models import Family, Rating, RatingChange, family_of
from tables.tournaments.models import (
    Registration,
    RegistrationStatus,
    Tournament,
    TournamentStatus,
)

logger = logging.getLogger(__name__)

REWARD_MEMO = "Season reward"
BATCH = 2000


def season_reward_key(*, season_id: int, user_id: int) -> str:
    return f"season-reward:{season_id}:{user_id}"


# --------------------------------------------------------------------------- standings


def standings_add(*, change: RatingChange) -> int:
    """Count a rated game's change in the windows holding it. Runs inside the rating's
    transaction, where the player's ``Rating`` row is locked: no two writes of the same
    player's standing race. Returns how many windows counted it."""
    if change.game_id is None:  # a staff reset is no game played
        return 0
    at = change.at or timezone.now()
    keys = [week_of(at).key] + [
        s.period_key for s in selectors.seasons_at(at=at, family=change.family)
    ]
    delta = change.mu_after - change.mu_before
    for key in keys:
        found = Standing.objects.filter(period=key, family=change.family, user_id=change.user_id)
        if not found.update(
            delta=F("delta") + delta,
            games=F("games") + 1,
            mu=change.mu_after,
            games_total=change.games_after,
        ):
            Standing.objects.create(
                period=key,
                family=change.family,
                user_id=change.user_id,
                delta=delta,
                games=1,
                mu=change.mu_after,
                games_total=change.games_after,
            )
    return len(keys)


@transaction.atomic
def window_standings_rebuild(*, window: Window, families: list[str]) -> int:
    """Count a window's standings afresh from the ratings' changes of its rated games (the
    players' rating and games in all from their ``Rating``). Returns the rows written."""
    Standing.objects.filter(period=window.key, family__in=families).delete()
    sums = (
        RatingChange.objects.filter(
            family__in=families,
            game__isnull=False,
            at__gte=window.start,
            at__lt=window.end,
        )
        .values("user_id", "family")
        .annotate(delta=Sum(F("mu_after") - F("mu_before")), games=Count("id"))
        .order_by()
    )
    rows = list(sums)
    if not rows:
        return 0
    ratings = {
        (r.user_id, r.family): r
        for r in Rating.objects.filter(
            family__in=families, user_id__in={int(row["user_id"]) for row in rows}
        )
    }
    fresh = []
    for row in rows:
        rating = ratings.get((int(row["user_id"]), str(row["family"])))
        if rating is None:
            continue
        fresh.append(
            Standing(
                period=window.key,
                family=row["family"],
                user_id=row["user_id"],
                delta=float(row["delta"] or 0.0),
                games=int(row["games"]),
                mu=rating.mu,
                games_total=rating.games,
            )
        )
    Standing.objects.bulk_create(fresh, batch_size=BATCH)
    return len(fresh)


def season_standings_rebuild(*, season: Season) -> int:
    return window_standings_rebuild(window=season_window(season), families=season.families())


def standings_rebuild_now(*, now: datetime) -> dict[str, int]:
    """Count afresh the week holding ``now`` and every season not closed that has started.
    Returns the rows written per window."""
    done = {}
    week = week_of(now)
    done[week.key] = window_standings_rebuild(window=week, families=list(Family.values))
    for season in Season.objects.filter(closed_at__isnull=True, starts_at__lte=now):
        done[season.period_key] = season_standings_rebuild(season=season)
    return done


# --------------------------------------------------------------------------- tournament points


def points_for_places(table: TournamentPointsTable | None, first: int, last: int) -> int:
    """The points of places ``first`` to ``last`` (a tie shares them: their mean, rounded
    down); a place the table has no row for earns 0."""
    if table is None:
        return 0
    points = dict(table.rows.values_list("place", "points"))
    places = range(first, max(first, last) + 1)
    return sum(points.get(p, 0) for p in places) // len(places)


def tournament_points_award(*, tournament_id: int, now: datetime | None = None) -> int:
    """Give a finished tournament's people their places' points from the active points table,
    once: a second call (a repeated finish, the sweep) gives nothing. Returns the rows
    written."""
    try:
        return retry_on_conflict(lambda: _award(tournament_id, now))()
    except IntegrityError:  # a concurrent award of the same tournament committed first
        return 0


def _award(tournament_id: int, now: datetime | None) -> int:
    tournament = (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("template")
        .filter(pk=tournament_id)
        .first()
    )
    if tournament is None or tournament.status != TournamentStatus.FINISHED:
        return 0
    if TournamentAward.objects.filter(tournament_id=tournament_id).exists():
        return 0
    table = TournamentPointsTable.objects.filter(active=True).first()
    family = family_of(tournament.template.variant)
    TournamentAward.objects.create(tournament=tournament, table=table, family=family)
    at = tournament.ended_at or now or timezone.now()
    regs = Registration.objects.filter(
        tournament_id=tournament_id,
        status=RegistrationStatus.REGISTERED,
        is_bot=False,
        rank_first__isnull=False,
    )
    rows = [
        TournamentPoints(
            tournament_id=tournament_id,
            user_id=reg.user_id,
            family=family,
            place=int(reg.rank_first or 0),
            points=points_for_places(
                table, int(reg.rank_first or 0), int(reg.rank_last or reg.rank_first or 0)
            ),
            at=at,
        )
        for reg in regs
    ]
    TournamentPoints.objects.bulk_create(rows)
    return len(rows)


def tournaments_unawarded_award(*, limit: int = 100) -> int:
    """Award every finished tournament not awarded yet (a finish heard by no one)."""
    awarded = TournamentAward.objects.values("tournament_id")
    due = list(
        Tournament.objects.filter(status=TournamentStatus.FINISHED)
        .exclude(pk__in=awarded)
        .order_by("pk")
        .values_list("pk", flat=True)[:limit]
    )
    return sum(tournament_points_award(tournament_id=pk) for pk in due)


# --------------------------------------------------------------------------- seasons


@dataclass(frozen=True, slots=True)
class SeasonClosed:
    season_id: int
    closed: bool  # False: not ended yet, or closed before (nothing paid now)
    paid: dict[int, int]  # chips by player id (empty when it was closed before)
    next_season_id: int | None


def _rewards(table: RewardTable | None) -> dict[int, int]:
    if table is None:
        return {}
    return dict(table.rows.values_list("rank", "chips"))


RewardLine = dict[str, str | int]


def season_rewards(*, season: Season) -> dict[int, list[RewardLine]]:
    """Who earns what at the season's end: per player, ``{family, kind, rank, chips}`` lines
    (the top of each family's board by rating and by tournament points, as the reward tables
    say)."""
    window = season_window(season)
    out: dict[int, list[RewardLine]] = defaultdict(list)
    for kind, table in (("rating", season.rating_rewards), ("points", season.points_rewards)):
        chips_by_rank = _rewards(table)
        if not chips_by_rank:
            continue
        for family in season.families():
            ranked = selectors.ranked_user_ids(
                family=family, kind=kind, window=window, limit=max(chips_by_rank)
            )
            for rank, user_id in enumerate(ranked, start=1):
                if rank in chips_by_rank:
                    out[user_id].append(
                        {"family": family, "kind": kind, "rank": rank, "chips": chips_by_rank[rank]}
                    )
    return dict(out)


def season_close(*, season_id: int, now: datetime | None = None) -> SeasonClosed:
    """Close a season that has ended: decide its rewards, pay them through the ledger (one
    deposit of practice chips per player, key ``season-reward:<season>:<player>``), open the
    next season when it repeats. One transaction; a season closed before pays nothing more."""
    at = now or timezone.now()
    return retry_on_conflict(lambda: _season_close(season_id, at))()


def _season_close(season_id: int, now: datetime) -> SeasonClosed:
    season = (
        Season.objects.select_for_update(of=("self",))
        .select_related("rating_rewards", "points_rewards")
        .get(pk=season_id)
    )
    if season.closed_at is not None or season.ends_at > now:
        return SeasonClosed(season_id=season_id, closed=False, paid={}, next_season_id=None)
    rewards = season_rewards(season=season)
    users = {u.pk: u for u in User.objects.filter(pk__in=list(rewards)).order_by("pk")}
    paid: dict[int, int] = {}
    for user_id in sorted(rewards):
        detail = rewards[user_id]
        chips = sum(int(line["chips"]) for line in detail)
        payout = SeasonPayout.objects.create(
            season=season, user_id=user_id, chips=chips, detail=detail
        )
        tx = wallet_deposit(
            user=users[user_id],
            currency="practice",
            amount=chips,
            idempotency_key=season_reward_key(season_id=season.pk, user_id=user_id),
            memo=f"{REWARD_MEMO}: {season.name}"[:200],
            ref=f"season:{season.pk}",
        )
        payout.transaction_id = tx.pk
        payout.save(update_fields=["transaction_id"])
        paid[user_id] = chips
    season.closed_at = now
    season.save(update_fields=["closed_at"])
    next_id = _next_season_open(season) if season.repeats else None
    return SeasonClosed(season_id=season_id, closed=True, paid=paid, next_season_id=next_id)


def _next_season_open(season: Season) -> int | None:
    """The season after ``season`` (same family, length and rewards, from its end), unless
    staff already made one that starts by then or later."""
    ends = season.ends_at
    later = Season.objects.filter(starts_at__gte=ends - timedelta(seconds=1))
    if season.family:
        later = later.filter(family__in=[season.family, FAMILY_ALL])
    if later.exists():
        return None
    fresh = Season(
        name=_next_name(season.name),
        family=season.family,
        starts_at=ends,
        length_days=season.length_days,
        rating_rewards=season.rating_rewards,
        points_rewards=season.points_rewards,
        repeats=True,
    )
    try:
        fresh.full_clean()
    except ValidationError:  # staff's own season overlaps it: theirs stands
        logger.warning("season after %s not opened: it would overlap another", season.pk)
        return None
    fresh.save()
    season_standings_rebuild(season=fresh)
    return fresh.pk


def _next_name(name: str) -> str:
    """``Season 4`` -> ``Season 5``; any other name gets `` (next)``."""
    head, _, tail = name.rpartition(" ")
    if head and tail.isdigit():
        return f"{head} {int(tail) + 1}"[:80]
    return f"{name} (next)"[:80]


def seasons_close_due(*, now: datetime | None = None) -> int:
    """Close every season that has ended and is not closed yet. Returns how many closed."""
    now = now or timezone.now()
    open_ = Season.objects.filter(closed_at__isnull=True, starts_at__lte=now).order_by("starts_at")
    closed = 0
    for season in open_:
        if season.ends_at > now:
            continue
        try:
            if season_close(season_id=season.pk, now=now).closed:
                closed += 1
        except Exception:  # one broken season must not stop the others
            logger.exception("closing season %s failed", season.pk)
    return closed


def leaderboards_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """The periodic work: finished tournaments' points, ended seasons' rewards, and every
    public board counted afresh (the count its pages share)."""
    return {
        "tournaments": tournaments_unawarded_award(),
        "seasons": seasons_close_due(now=now),
        "boards": selectors.board_counts_refresh(now=now),
    }


__all__ = [
    "SeasonClosed",
    "leaderboards_sweep",
    "points_for_places",
    "season_close",
    "season_reward_key",
    "season_rewards",
    "season_standings_rebuild",
    "seasons_close_due",
    "standings_add",
    "standings_rebuild_now",
    "tournament_points_award",
    "tournaments_unawarded_award",
    "window_standings_rebuild",
]
