"""A player's rating per variant family and the append-only log of its changes.

* ``Rating``: one row per (player, family): openskill's ``mu`` and ``sigma`` and the rated
  games counted. Computer players have none: they take part as fixed anchors
  (``tables.ratings.skill.ANCHOR_MU``).
* ``GameRating``: one row per finished game the ratings have handled (rated, or passed over as
  not rateable); its one-to-one key is what makes a game rated once, never twice.
* ``RatingChange``: append-only, one row per (game, player) rated, and one per staff reset
  (no game, with the reason).
"""

from __future__ import annotations

from django.conf import settings as django_settings
from django.db import models
from django.db.models import Q

from ledger.append_only import AppendOnlyModel
from tables.models import Game


class Family(models.TextChoices):
    """The variant families rated apart: both pools share one rating."""

    POOL = "pool", "Pool"
    DEALS = "deals", "Deals"
    POINTS = "points", "Points"
    CLASSIC = "classic", "Classic 10-card"


FAMILY_OF_VARIANT = {
    "pool101": Family.POOL,
    "pool201": Family.POOL,
    "deals": Family.DEALS,
    "points": Family.POINTS,
    "classic": Family.CLASSIC,
}


def family_of(variant: str) -> Family:
    """The family a game's variant is rated in."""
    return FAMILY_OF_VARIANT.get(variant, Family.POINTS)


class Rating(models.Model):
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    family = models.CharField(max_length=16, choices=Family.choices)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "family"], name="ratings_one_per_family"),
        ]
        indexes = [models.Index(fields=["family", "-mu"], name="ratings_family_mu")]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_family_display()}"


class GameOutcome(models.TextChoices):
    RATED = "rated", "Rated"
    SKIPPED = "skipped", "Not rated"


class GameRating(models.Model):
    """A finished game the ratings handled: written in the same transaction as its changes."""

    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="+")
    family = models.CharField(max_length=16, choices=Family.choices)
    outcome = models.CharField(max_length=8, choices=GameOutcome.choices)
    why = models.CharField(max_length=32, blank=True, default="")
    at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"game {self.game_id} {self.outcome}"


class RatingChange(AppendOnlyModel):
    """One player's rating before and after a game (or a staff reset: no game, a reason)."""

    rating = models.ForeignKey(Rating, on_delete=models.PROTECT, related_name="changes")
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    family = models.CharField(max_length=16, choices=Family.choices)
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    games_after = models.PositiveIntegerField()
    reason = models.TextField(blank=True, default="")
    staff = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "user"],
                condition=Q(game__isnull=False),
                name="ratings_game_rated_once_per_player",
            ),
        ]
        indexes = [models.Index(fields=["user", "family", "at"], name="ratings_change_user")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.family} game {self.game_id}"
