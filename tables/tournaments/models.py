"""Tournaments and what the director records of them.

* ``Tournament``: the staff's settings (kind, the Deals template giving the table rules, money,
  field size, seats and qualifiers per table, deals per round, the prize table, times) and where
  the director stands (``status``, ``next_step_at``, the settings frozen at the start).
* ``Registration``: a player registered (entry fee held in the pot ``tournament:<id>``), or no
  longer (refunded); the final rank and prize once it ends.
* ``Round``: one round, with the draw that seated it (registration ids in drawn order).
* ``RoundTable``: one table of a round (a bye has no table); ``RoundSeat``: a player at it, with
  the chips, place and whether they went through; ``RoundGame``: the games played at it (the
  round's game, then any tie-breaker at the cut), each an ordinary ``tables.Game``.

Writes go through ``tables.tournaments.services`` and the director; reads through the selectors.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings as django_settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone

from ledger.currencies import Currency
from tables.models import Game, Table, TableTemplate, Variant, name_in
from tables.rules import tournament as rules


class TournamentKind(models.TextChoices):
    SCHEDULED = "scheduled", "Scheduled"
    SIT_AND_GO = "sit_and_go", "Sit & go"


class TournamentStatus(models.TextChoices):
    ANNOUNCED = "announced", "Announced (registration not open yet)"
    REGISTERING = "registering", "Registration open"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"
    CANCELLED = "cancelled", "Cancelled"


OPEN_STATUSES = (TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING)
LIVE_STATUSES = (*OPEN_STATUSES, TournamentStatus.RUNNING)


def parse_prize_table(value: Any) -> list[tuple[int, int, list[int]]]:
    """Staff's prize table: a JSON list of ``{"players": [from, to], "shares": [70, 30]}``.
    Raises ``ValueError`` naming what is malformed."""
    if value in (None, "", []):
        return []
    if not isinstance(value, list):
        raise ValueError('A list of rows like {"players": [7, 12], "shares": [70, 30]}.')
    rows: list[tuple[int, int, list[int]]] = []
    for row in value:
        players = row.get("players") if isinstance(row, dict) else None
        shares = row.get("shares") if isinstance(row, dict) else None
        if (
            not isinstance(players, list)
            or len(players) != 2
            or not all(isinstance(n, int) and not isinstance(n, bool) for n in players)
            or not isinstance(shares, list)
            or not all(isinstance(s, int) and not isinstance(s, bool) for s in shares)
        ):
            raise ValueError(
                f'Row {row!r}: expected {{"players": [from, to], "shares": [whole percents]}}.'
            )
        rows.append((players[0], players[1], list(shares)))
    return rows


class Tournament(models.Model):
    name = models.CharField(max_length=80)
    name_hi = models.CharField(
        "Hindi name",
        max_length=80,
        blank=True,
        default="",
        help_text="The name players reading Hindi see (blank: the name above).",
    )
    kind = models.CharField(
        max_length=16, choices=TournamentKind.choices, default=TournamentKind.SIT_AND_GO
    )
    template = models.ForeignKey(
        TableTemplate,
        on_delete=models.PROTECT,
        related_name="tournaments",
        help_text="A Deals table template: the tables' rules (turn timer, extra time, meld "
        "window).",
    )
    currency = models.CharField(max_length=16, choices=Currency.choices, default=Currency.CASH)
    entry_fee = models.BigIntegerField(
        default=0, validators=[MinValueValidator(0)], help_text="Minor units; 0 = freeroll."
    )
    fee_bps = models.PositiveIntegerField(
        default=1000, help_text="Platform fee in basis points of the entries (1250 = 12.5 %)."
    )
    guarantee = models.BigIntegerField(
        default=0,
        validators=[MinValueValidator(0)],
        help_text="Guaranteed prize pool (minor units; 0 = none): the house tops the pool up.",
    )
    players_min = models.PositiveSmallIntegerField(default=2)
    players_max = models.PositiveSmallIntegerField(default=6)
    seats_per_table = models.PositiveSmallIntegerField(
        default=6, validators=[MinValueValidator(2), MaxValueValidator(6)]
    )
    qualifiers_per_table = models.PositiveSmallIntegerField(
        default=2, help_text="Q: 1 to half the seats (1 when a table seats 2 or 3)."
    )
    deals_per_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="Blank: as many deals as the table has players."
    )
    prize_table = models.JSONField(
        default=list,
        blank=True,
        help_text="Blank: the rule book's. Else rows like "
        '{"players": [7, 12], "shares": [70, 30]} covering every field size from the fewest '
        "to the most players.",
    )
    registration_opens_at = models.DateTimeField(null=True, blank=True)
    starts_at = models.DateTimeField(
        null=True, blank=True, help_text="Scheduled: registration closes and play starts."
    )
    break_s = models.FloatField(default=60.0, validators=[MinValueValidator(0.0)])
    bots_fill = models.BooleanField(
        default=False,
        help_text="Practice sit & go: computer players fill the empty places after the wait.",
    )
    repeat = models.BooleanField(
        default=False,
        help_text="Sit & go: when this one starts, an identical one opens for registration.",
    )
    human_wait_s = models.FloatField(
        default=20.0,
        validators=[MinValueValidator(0.0)],
        help_text="Practice sit & go: seconds people wait for other people after the first "
        "registers.",
    )

    status = models.CharField(
        max_length=16,
        choices=TournamentStatus.choices,
        default=TournamentStatus.ANNOUNCED,
        db_index=True,
    )
    next_step_at = models.DateTimeField(null=True, blank=True, db_index=True)
    frozen = models.JSONField(
        null=True, blank=True, help_text="Pool, fee, top-up and shares, fixed at the start."
    )
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    cancelled_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    cancel_reason = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(entry_fee__gte=0) & Q(guarantee__gte=0),
                name="tournaments_money_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(players_min__lte=models.F("players_max")),
                name="tournaments_players_range",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def display_name(self, language: str | None = None) -> str:
        return name_in(self.name, self.name_hi, language)

    @property
    def pot_ref(self) -> str:
        return f"tournament:{self.pk}"

    @property
    def practice(self) -> bool:
        return self.currency == Currency.PRACTICE

    def prize_rows(self) -> list[tuple[int, int, list[int]]]:
        return parse_prize_table(self.prize_table)

    def clean(self) -> None:
        super().clean()
        errors: dict[str, list[str]] = {}

        def add(field: str, message: str) -> None:
            errors.setdefault(field, []).append(message)

        for field, message in rules.settings_problems(
            seats=self.seats_per_table,
            qualifiers=self.qualifiers_per_table,
            players_min=self.players_min,
            players_max=self.players_max,
            deals_per_round=self.deals_per_round,
            fee_bps=self.fee_bps,
        ).items():
            add("fee_bps" if field == "fee_bps" else field, message)
        template = getattr(self, "template", None) if self.template_id else None
        if template is not None:
            if template.variant != Variant.DEALS:
                add("template", "Tournament tables play Deals rummy: choose a Deals template.")
            if template.currency != self.currency:
                add("template", "The template plays for the other currency.")
        if self.bots_fill and not (self.practice and self.kind == TournamentKind.SIT_AND_GO):
            add("bots_fill", "Computer players fill only a practice sit & go.")
        if self.repeat and self.kind != TournamentKind.SIT_AND_GO:
            add("repeat", "Only a sit & go opens again when it starts.")
        if self.kind == TournamentKind.SCHEDULED:
            if self.starts_at is None:
                add("starts_at", "A scheduled tournament needs its start time.")
            elif self.status in OPEN_STATUSES and self.starts_at <= timezone.now():
                add("starts_at", "The start time is in the past.")
            if (
                self.registration_opens_at is not None
                and self.starts_at is not None
                and self.registration_opens_at >= self.starts_at
            ):
                add("registration_opens_at", "Registration must open before the start.")
        try:
            rows = self.prize_rows()
        except ValueError as exc:
            add("prize_table", str(exc))
        else:
            if rows and "players_max" not in errors and "players_min" not in errors:
                for problem in rules.prize_table_problems(
                    rows, players_min=self.players_min, players_max=self.players_max
                ):
                    add("prize_table", problem)
        if errors:
            raise ValidationError(errors)


class RegistrationStatus(models.TextChoices):
    REGISTERED = "registered", "Registered"
    UNREGISTERED = "unregistered", "Unregistered (refunded)"
    REFUNDED = "refunded", "Refunded (tournament cancelled)"


class Registration(models.Model):
    tournament = models.ForeignKey(
        Tournament, on_delete=models.PROTECT, related_name="registrations"
    )
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    is_bot = models.BooleanField(default=False)
    status = models.CharField(
        max_length=16, choices=RegistrationStatus.choices, default=RegistrationStatus.REGISTERED
    )
    entry_paid = models.BigIntegerField(default=0)
    registered_at = models.DateTimeField(default=timezone.now)
    left_at = models.DateTimeField(null=True, blank=True)
    knocked_out_round = models.PositiveSmallIntegerField(null=True, blank=True)
    rank_first = models.PositiveSmallIntegerField(null=True, blank=True)
    rank_last = models.PositiveSmallIntegerField(null=True, blank=True)
    prize = models.BigIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["tournament_id", "registered_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"],
                condition=Q(status="registered"),
                name="tournaments_register_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.tournament}"


class RoundStatus(models.TextChoices):
    PLAYING = "playing", "Playing"
    DONE = "done", "Done"


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="rounds")
    number = models.PositiveSmallIntegerField()
    is_final = models.BooleanField(default=False)
    status = models.CharField(
        max_length=16, choices=RoundStatus.choices, default=RoundStatus.PLAYING
    )
    draw = models.JSONField(help_text="Registration ids in the drawn order (CSPRNG).")
    started_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)
    next_round_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="tournaments_round_once"),
        ]

    def __str__(self) -> str:
        return f"Round {self.number} of {self.tournament}"


class RoundTable(models.Model):
    round = models.ForeignKey(Round, on_delete=models.PROTECT, related_name="tables")
    number = models.PositiveSmallIntegerField()
    table = models.OneToOneField(
        Table, null=True, blank=True, on_delete=models.PROTECT, related_name="tournament_table"
    )
    is_bye = models.BooleanField(default=False)
    deals = models.PositiveSmallIntegerField(default=0)
    status = models.CharField(
        max_length=16, choices=RoundStatus.choices, default=RoundStatus.PLAYING
    )

    class Meta:
        ordering = ["round_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="tournaments_table_once"),
        ]

    def __str__(self) -> str:
        return f"Table {self.number} of {self.round}"


class RoundSeat(models.Model):
    table = models.ForeignKey(RoundTable, on_delete=models.PROTECT, related_name="seats")
    registration = models.ForeignKey(
        Registration, on_delete=models.PROTECT, related_name="round_seats"
    )
    seat_no = models.PositiveSmallIntegerField()
    chips = models.IntegerField(null=True, blank=True)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    went_through = models.BooleanField(null=True, blank=True)

    class Meta:
        ordering = ["table_id", "seat_no"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat_no"], name="tournaments_seat_once"),
            models.UniqueConstraint(
                fields=["table", "registration"], name="tournaments_player_once_a_table"
            ),
        ]

    def __str__(self) -> str:
        return f"Seat {self.seat_no} of {self.table}"


class RoundGameKind(models.TextChoices):
    ROUND = "round", "The round's game"
    TIEBREAK = "tiebreak", "Tie-breaker at the cut"


class RoundGame(models.Model):
    table = models.ForeignKey(RoundTable, on_delete=models.PROTECT, related_name="games")
    game = models.OneToOneField(Game, on_delete=models.PROTECT, related_name="tournament_game")
    kind = models.CharField(max_length=16, choices=RoundGameKind.choices)
    number = models.PositiveSmallIntegerField(default=1)
    players = models.JSONField(
        default=list, help_text="Registration ids in seat order (seat 1 first)."
    )

    class Meta:
        ordering = ["table_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="tournaments_game_once"),
        ]

    def __str__(self) -> str:
        return f"Game {self.number} ({self.kind}) of {self.table}"
