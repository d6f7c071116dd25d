"""What the leaderboards keep beside the ratings and the tournaments.

* ``TournamentPointsTable`` / ``TournamentPointsRow``: staff's points per tournament place (one
  table active at a time: a finished tournament earns its places the active table's points).
* ``TournamentAward``: a finished tournament whose points were given (one row a tournament: its
  one-to-one key is what makes the points given once); ``TournamentPoints``: a player's points
  from one tournament (unique per tournament and player).
* ``Season``: a window of play (one family or all), ``length_days`` from ``starts_at``; its
  rewards in practice chips (``RewardTable`` / ``RewardRow``: rank -> chips) for the season's
  boards by rating and by tournament points, paid once at its end (``SeasonPayout``, one row per
  season and player, with the ledger transaction that paid it).
* ``Standing``: the read model of the boards of a window (a season or a week): per period,
  family and player, the rating change summed over the rated games in the window and their
  number, kept up to date as each rating change is written (same transaction).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings as django_settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from tables.ratings.models import Family
from tables.tournaments.models import Tournament

# A season's family: one of the ratings' families, or blank for all of them.
FAMILY_ALL = ""
SEASON_DAYS_MAX = 366
PLACE_MAX = 10_000
CHIPS_MAX = 10**12


class TournamentPointsTable(models.Model):
    name = models.CharField(max_length=80)
    active = models.BooleanField(
        default=False,
        help_text="The table finished tournaments earn their points from (one at a time).",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["active"], condition=Q(active=True), name="leaderboards_one_active_table"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class TournamentPointsRow(models.Model):
    table = models.ForeignKey(TournamentPointsTable, on_delete=models.CASCADE, related_name="rows")
    place = models.PositiveIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(PLACE_MAX)]
    )
    points = models.PositiveIntegerField(validators=[MaxValueValidator(1_000_000)])

    class Meta:
        ordering = ["place"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "place"], name="leaderboards_points_place_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.place}: {self.points}"


class TournamentAward(models.Model):
    """A finished tournament whose places were given their points (even none)."""

    tournament = models.OneToOneField(Tournament, on_delete=models.PROTECT, related_name="+")
    table = models.ForeignKey(
        TournamentPointsTable, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    family = models.CharField(max_length=16, choices=Family.choices)
    at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"tournament {self.tournament_id}"


class TournamentPoints(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="+")
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    family = models.CharField(max_length=16, choices=Family.choices)
    place = models.PositiveIntegerField()
    points = models.PositiveIntegerField()
    at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"], name="leaderboards_points_once_per_player"
            ),
        ]
        indexes = [models.Index(fields=["family", "at"], name="leaderboards_points_family_at")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.points} (tournament {self.tournament_id})"


class RewardTable(models.Model):
    name = models.CharField(max_length=80)

    def __str__(self) -> str:
        return self.name


class RewardRow(models.Model):
    table = models.ForeignKey(RewardTable, on_delete=models.CASCADE, related_name="rows")
    rank = models.PositiveIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(PLACE_MAX)]
    )
    chips = models.BigIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(CHIPS_MAX)],
        help_text="Practice chips, minor units (as the wallet counts them).",
    )

    class Meta:
        ordering = ["rank"]
        constraints = [
            models.UniqueConstraint(fields=["table", "rank"], name="leaderboards_reward_rank_once"),
            models.CheckConstraint(condition=Q(chips__gt=0), name="leaderboards_reward_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.rank}: {self.chips}"


class Season(models.Model):
    name = models.CharField(max_length=80)
    family = models.CharField(
        max_length=16,
        choices=Family.choices,
        blank=True,
        default=FAMILY_ALL,
        help_text="Blank: every family (each has its own board in the season).",
    )
    starts_at = models.DateTimeField()
    length_days = models.PositiveSmallIntegerField(
        default=30, validators=[MinValueValidator(1), MaxValueValidator(SEASON_DAYS_MAX)]
    )
    rating_rewards = models.ForeignKey(
        RewardTable,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Practice chips by rank on the season's boards by rating (blank: none).",
    )
    points_rewards = models.ForeignKey(
        RewardTable,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Practice chips by rank on the season's boards by tournament points.",
    )
    repeats = models.BooleanField(
        default=True,
        help_text="At its end the next season opens on its own: same family, length and "
        "rewards, starting when this one ends.",
    )
    closed_at = models.DateTimeField(
        null=True, blank=True, help_text="When its rewards were paid (set by the server)."
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_at"]
        indexes = [models.Index(fields=["starts_at"], name="leaderboards_season_start")]

    def __str__(self) -> str:
        return self.name

    @property
    def ends_at(self) -> datetime:
        return self.starts_at + timedelta(days=self.length_days)

    @property
    def period_key(self) -> str:
        return f"s{self.pk}"

    def families(self) -> list[str]:
        return [self.family] if self.family else list(Family.values)

    def clean(self) -> None:
        super().clean()
        if self.starts_at is None or not self.length_days:
            return
        if self.length_days > SEASON_DAYS_MAX:
            return
        ends = self.ends_at
        others = Season.objects.exclude(pk=self.pk).filter(starts_at__lt=ends)
        if self.family:
            others = others.filter(family__in=[self.family, FAMILY_ALL])
        for other in others:
            if other.ends_at > self.starts_at:
                raise ValidationError(
                    {"starts_at": f"Overlaps the season {other.name!r} of the same family."}
                )


class SeasonPayout(models.Model):
    """A player's reward of a season (one row per season and player): what it was for, and the
    ledger transaction that paid it."""

    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="payouts")
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    chips = models.BigIntegerField()
    detail = models.JSONField(
        default=list, help_text="What it was for: {family, kind, rank, chips} lines."
    )
    transaction_id = models.BigIntegerField(null=True, blank=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["season", "user"], name="leaderboards_paid_once"),
        ]

    def __str__(self) -> str:
        return f"{self.season} · {self.user_id}: {self.chips}"


class Standing(models.Model):
    """A player's rated games of one family in one window: ``period`` is ``s<season id>`` or
    ``w<Monday's date>``."""

    period = models.CharField(max_length=16)
    family = models.CharField(max_length=16, choices=Family.choices)
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    delta = models.FloatField(default=0.0, help_text="The sum of mu after - mu before.")
    games = models.PositiveIntegerField(default=0)
    mu = models.FloatField(help_text="The rating after the player's latest game in the window.")
    games_total = models.PositiveIntegerField(help_text="Rated games of the family in all.")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["period", "family", "user"], name="leaderboards_standing_once"
            ),
        ]
        # A board's page in its order (PostgreSQL also gets a covering index, migration 0002).
        indexes = [
            models.Index(
                fields=["period", "family", "-delta", "user"], name="leaderboards_standing_rank"
            )
        ]

    def __str__(self) -> str:
        return f"{self.period} {self.family} {self.user_id}"
