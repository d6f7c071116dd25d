"""Tables, games, deals and the append-only move log.

* ``TableTemplate``: a staff configuration (variant, seats, money, every rule setting). Blank
  rule fields take the rule book's default for the variant; ``template_settings`` turns a
  template into the engine's frozen ``GameSettings``.
* ``Table``: a place to play, made from a template. At most one live game (waiting or running)
  per table.
* ``Seat``: a user sitting at a table for one game (the entry fee paid into that game's pot).
* ``Game``: the engine state as JSON, its ``version`` (bumped by every change) and the stored
  ``deadline`` that the timers fire.
* ``Deal``: one deal of a game, with the whole shoe order stored before the first card is dealt.
* ``Move``: the append-only log of every action applied to a game.
* ``DealNote``, ``DealAccess``: support's notes on a deal and the log of every opening of a hand
  review or export (both append-only).
* ``BotProfile``: marks a user as a computer player (practice tables).
* ``DealShare``: a player's public link to the review of one deal they played.

Writes go through ``tables.services``; reads through ``tables.selectors``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings as django_settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext

from ledger.append_only import AppendOnlyModel
from ledger.currencies import Currency
from rummy_site.json_field import OrjsonField
from tables.engines import template_settings
from tables.template_rules import SEATS_WORDS, template_problems

SEATS_MIN = 2
SEATS_MAX = 6


class Variant(models.TextChoices):
    POOL101 = "pool101", "101 pool"
    POOL201 = "pool201", "201 pool"
    DEALS = "deals", "Deals"
    POINTS = "points", "Points"
    CLASSIC = "classic", "Classic 10-card"


class SplitWeighting(models.TextChoices):
    DROPS_PLUS_ONE = "drops_plus_one", "Drops available + 1"
    DROPS = "drops", "Drops available"
    EQUAL = "equal", "Equal"


class DealShowRule(models.TextChoices):
    HALF = "half", "Half the count, within min..max"
    FLAT = "flat", "Flat score"


class DisconnectPolicy(models.TextChoices):
    MISSED_TURNS = "missed_turns", "Turns run out (missed turns)"
    DROP = "drop", "Dropped at once (middle drop)"


def _rule(field: models.Field[Any, Any]) -> models.Field[Any, Any]:
    """A rule setting: blank means the rule book's default for the variant."""
    field.null = True
    field.blank = True
    return field


_DEFAULT_HINT = "Blank: the rule book's default for the variant."


class BotStrength(models.TextChoices):
    EASY = "easy", "Easy"
    MEDIUM = "medium", "Medium"
    HARD = "hard", "Hard"


def name_in(name: str, name_hi: str, language: str | None = None) -> str:
    """A name staff gave in English and (``name_hi``) in Hindi, in the viewer's language
    (``language``, else the active one): the Hindi one for Hindi when given, else the name."""
    language = language or translation.get_language() or ""
    if language.startswith("hi") and name_hi:
        return name_hi
    return name


class TableTemplate(models.Model):
    """What staff configure: a kind of table. Changes apply to games that open later."""

    name = models.CharField(max_length=80, unique=True)
    name_hi = models.CharField(
        "Hindi name",
        max_length=80,
        blank=True,
        default="",
        help_text="The name players reading Hindi see (blank: the name above).",
    )
    variant = models.CharField(max_length=16, choices=Variant.choices, default=Variant.POOL101)
    is_active = models.BooleanField(default=True, help_text="Inactive templates make no tables.")
    seats_min = models.PositiveSmallIntegerField(
        default=2,
        validators=[
            MinValueValidator(SEATS_MIN, message=SEATS_WORDS),
            MaxValueValidator(SEATS_MAX, message=SEATS_WORDS),
        ],
        help_text="A game starts at this many players after the start countdown.",
    )
    seats_max = models.PositiveSmallIntegerField(
        default=6,
        validators=[
            MinValueValidator(SEATS_MIN, message=SEATS_WORDS),
            MaxValueValidator(SEATS_MAX, message=SEATS_WORDS),
        ],
        help_text="A game starts at once when this many players sit.",
    )

    # Money (integer minor units).
    currency = models.CharField(
        max_length=16,
        choices=Currency.choices,
        default=Currency.CASH,
        help_text="Practice tables play for practice chips.",
    )
    entry_fee = models.BigIntegerField(
        default=0, validators=[MinValueValidator(0)], help_text="Pool, deals and classic."
    )
    point_value = models.BigIntegerField(
        default=0,
        validators=[MinValueValidator(0)],
        help_text="Points rummy: value of one point; a seat holds buy-in multiple x this.",
    )
    platform_fee_bps = models.PositiveIntegerField(
        default=1000,
        help_text="Platform fee in basis points (1000 = 10 %), 0 to 50 %.",
    )
    points_buy_in_multiple = _rule(models.PositiveIntegerField(help_text=_DEFAULT_HINT))

    # Shoe.
    packs = _rule(models.PositiveSmallIntegerField(help_text=_DEFAULT_HINT))
    printed_jokers_per_pack = _rule(models.PositiveSmallIntegerField(help_text=_DEFAULT_HINT))

    # Scores.
    first_drop = _rule(models.PositiveIntegerField(help_text=_DEFAULT_HINT))
    middle_drop = _rule(models.PositiveIntegerField(help_text=_DEFAULT_HINT))
    full_count = _rule(models.PositiveIntegerField(help_text=_DEFAULT_HINT))
    wrong_show = _rule(models.PositiveIntegerField(help_text=_DEFAULT_HINT))
    deal_show_rule = _rule(
        models.CharField(max_length=8, choices=DealShowRule.choices, help_text=_DEFAULT_HINT)
    )
    deal_show_min = _rule(models.PositiveIntegerField(help_text=_DEFAULT_HINT))
    deal_show_max = _rule(models.PositiveIntegerField(help_text=_DEFAULT_HINT))
    deal_show_flat = _rule(models.PositiveIntegerField(help_text=_DEFAULT_HINT))
    drops_with_two_players = _rule(models.BooleanField(help_text=_DEFAULT_HINT))
    missed_turns_limit = _rule(models.PositiveSmallIntegerField(help_text=_DEFAULT_HINT))

    # Pool.
    pool_limit = _rule(models.PositiveIntegerField(help_text=_DEFAULT_HINT))
    rejoin_max_total = _rule(
        models.PositiveIntegerField(
            help_text="Rejoin allowed while the highest total still in is at most this. "
            + _DEFAULT_HINT
        )
    )
    rejoin_window_s = _rule(models.FloatField(help_text="Seconds. " + _DEFAULT_HINT))
    rejoins_per_player = _rule(models.PositiveSmallIntegerField(help_text=_DEFAULT_HINT))
    auto_split_min_total = _rule(
        models.PositiveIntegerField(
            help_text="Auto split when everyone left is at least this. " + _DEFAULT_HINT
        )
    )
    split_weighting = _rule(
        models.CharField(max_length=16, choices=SplitWeighting.choices, help_text=_DEFAULT_HINT)
    )
    split_window_s = _rule(models.FloatField(help_text="Seconds. " + _DEFAULT_HINT))

    # Deals and classic.
    deals_count = _rule(
        models.PositiveSmallIntegerField(help_text="Deals rummy: 2, 3 or 6. " + _DEFAULT_HINT)
    )
    chips_per_deal = _rule(models.PositiveIntegerField(help_text=_DEFAULT_HINT))
    hands_count = _rule(
        models.PositiveSmallIntegerField(
            help_text="Classic: hands in a ring game. " + _DEFAULT_HINT
        )
    )

    # Timers (seconds).
    turn_s = _rule(models.FloatField(help_text="Seconds. " + _DEFAULT_HINT))
    extra_time_s = _rule(
        models.FloatField(help_text="Seconds per player per game. " + _DEFAULT_HINT)
    )
    meld_window_s = _rule(models.FloatField(help_text="Seconds. " + _DEFAULT_HINT))
    break_s = _rule(models.FloatField(help_text="Seconds between deals. " + _DEFAULT_HINT))
    start_countdown_s = models.FloatField(
        default=15.0,
        validators=[MinValueValidator(0.0)],
        help_text="Seconds a game waits for more players once the minimum has joined.",
    )

    # Rule options.
    largest_set = _rule(models.PositiveSmallIntegerField(help_text=_DEFAULT_HINT))
    allow_joker_only_groups = _rule(models.BooleanField(help_text=_DEFAULT_HINT))
    first_open_joker_pickable = _rule(models.BooleanField(help_text=_DEFAULT_HINT))
    disconnect_policy = _rule(
        models.CharField(max_length=16, choices=DisconnectPolicy.choices, help_text=_DEFAULT_HINT)
    )
    max_reshuffles = _rule(models.PositiveSmallIntegerField(help_text=_DEFAULT_HINT))
    extra_settings = models.JSONField(
        default=dict,
        blank=True,
        help_text='Advanced: any other engine setting by name, e.g. {"deal_show_min": 2}.',
    )

    # Practice.
    practice = models.BooleanField(
        default=False, help_text="Practice table: computer players fill the empty seats."
    )
    bot_count = models.PositiveSmallIntegerField(
        default=0, validators=[MaxValueValidator(SEATS_MAX - 1)]
    )
    bot_strength = models.CharField(
        max_length=8,
        choices=BotStrength.choices,
        default=BotStrength.MEDIUM,
        help_text="How well the computer players play: easy makes mistakes, hard also counts "
        "the open discards and the opponents' open picks (13-card games) or takes the open "
        "card when it makes a meld and keeps half-melds (classic). A private table's host may "
        "choose another when starting it.",
    )
    bot_delay_s = models.FloatField(
        default=1.5,
        validators=[MinValueValidator(0.0)],
        help_text="Seconds a computer player waits before it acts.",
    )
    human_wait_s = models.FloatField(
        default=20.0,
        validators=[MinValueValidator(0.0)],
        help_text="Practice: seconds a person waits for other people before computer players "
        "fill the empty seats (0: they fill at once).",
    )

    # Seat matching (Play now).
    min_open_tables = models.PositiveSmallIntegerField(
        default=1,
        validators=[MaxValueValidator(500)],
        help_text="Tables of this template kept open and waiting for players.",
    )
    max_tables = models.PositiveSmallIntegerField(
        default=100,
        validators=[MinValueValidator(1), MaxValueValidator(1000)],
        help_text="At most this many tables of this template at once (Play now opens no more).",
    )

    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["variant", "entry_fee", "point_value", "name"]
        constraints = [
            models.CheckConstraint(
                condition=Q(seats_min__gte=SEATS_MIN)
                & Q(seats_max__lte=SEATS_MAX)
                & Q(seats_min__lte=models.F("seats_max")),
                name="tables_template_seats_range",
                violation_error_message="A table seats 2 to 6 players, the minimum at most the "
                "maximum.",
            ),
            models.CheckConstraint(
                condition=Q(entry_fee__gte=0) & Q(point_value__gte=0),
                name="tables_template_money_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def display_name(self, language: str | None = None) -> str:
        return name_in(self.name, self.name_hi, language)

    def clean(self) -> None:
        super().clean()
        if self.practice and self.currency != Currency.PRACTICE:
            raise ValidationError({"currency": "Practice tables play for practice chips."})
        if not self.practice and self.bot_count:
            raise ValidationError({"bot_count": "Computer players sit only at practice tables."})
        if self.practice and self.bot_count >= self.seats_max:
            raise ValidationError({"bot_count": "Leave at least one seat for a person."})
        if self.practice and self.bot_count + 1 < self.seats_min:
            raise ValidationError({"bot_count": "Bots and one person must reach the minimum."})
        if not isinstance(self.extra_settings, dict):
            raise ValidationError({"extra_settings": "Must be a JSON object."})
        staff_errors = template_problems(self)
        if staff_errors:
            raise ValidationError(staff_errors)
        try:
            template_settings(self)
        except ValueError as exc:
            raise ValidationError(f"These settings are not playable: {exc}") from exc


# What a table's name reads with it (``Table.display_name``): a tournament's table is named
# after its tournament, round and place (the reverse link ``tournaments.RoundTable`` gives).
TABLE_NAME_RELATED = ("template", "tournament_table__round__tournament")


class TableStatus(models.TextChoices):
    WAITING = "waiting", "Waiting for players"
    PLAYING = "playing", "Playing"
    CLOSED = "closed", "Closed"


class Table(models.Model):
    template = models.ForeignKey(TableTemplate, on_delete=models.PROTECT, related_name="tables")
    name = models.CharField(max_length=80)
    status = models.CharField(
        max_length=16, choices=TableStatus.choices, default=TableStatus.WAITING, db_index=True
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # A private table: made by a player from a practice template, joined by its invite link or
    # code, never listed in the lobby; its host starts it (computer players in the empty seats).
    is_private = models.BooleanField(default=False)
    invite_code = models.CharField(max_length=12, null=True, blank=True, unique=True)
    # The invite link's token (secrets.token_urlsafe: unguessable); the short code stays for
    # typing in the lobby (throttled). Joining a private table needs one of them.
    invite_token = models.CharField(max_length=64, null=True, blank=True, unique=True)
    # A private table's computer players, as its host chose when starting it (blank: the
    # template's level).
    bot_strength = models.CharField(
        max_length=8, choices=BotStrength.choices, blank=True, default=""
    )
    # A casual private table: its host chose, when opening it, that its games are not rated
    # (``tables.ratings``). Every other table is rated.
    casual = models.BooleanField(default=False, help_text="Casual: its games are not rated.")
    host = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.name or f"Table {self.pk}"

    def display_name(self, language: str | None = None) -> str:
        """The table's name in the viewer's language: a table named after its template (every
        lobby table) reads the template's name in that language; a private table keeps its own
        name."""
        if self.name == self.template.name:
            return self.template.display_name(language)
        if self.is_private and self.host_id is None:
            # A tournament's table (a private table no player hosts; ``tournaments.RoundTable``,
            # the reverse of its one-to-one link): the tournament's name in the language, its
            # round and table in words.
            place = getattr(self, "tournament_table", None)
            if place is not None:
                with translation.override(language or translation.get_language() or "en"):
                    words = gettext("%(name)s · round %(round)s, table %(table)s")
                return words % {
                    "name": place.round.tournament.display_name(language),
                    "round": place.round.number,
                    "table": place.number,
                }
        return self.name


class GameStatus(models.TextChoices):
    WAITING = "waiting", "Waiting for players"
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"
    CANCELLED = "cancelled", "Cancelled"


LIVE_GAME_STATUSES = (GameStatus.WAITING, GameStatus.RUNNING)


class DeadlineKind(models.TextChoices):
    """What ``Game.deadline`` waits for. The engine's own timers (``state.deadline_kind``:
    turn, meld, break, rejoin, split) carry the same words; the server adds its own."""

    NONE = "", "No deadline"
    START = "start", "Start countdown"
    FILL = "fill", "Waiting for people"
    DEAL = "deal", "Next deal due"
    BOT = "bot", "Computer player thinking"
    TURN = "turn", "Turn"
    MELD = "meld", "Meld window"
    BREAK = "break", "Break between deals"
    REJOIN = "rejoin", "Rejoin offer"
    SPLIT = "split", "Split offer"


class Game(models.Model):
    """One game at a table. ``settings`` is frozen when the game opens for entries, before any
    money moves; ``state`` is the engine's JSON state once it starts."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="games")
    variant = models.CharField(max_length=16, choices=Variant.choices)
    currency = models.CharField(max_length=16)
    stake = models.BigIntegerField(
        help_text="What each seat pays into the pot: the entry fee, or the points buy-in."
    )
    settings = OrjsonField()
    state = OrjsonField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(
        max_length=16, choices=GameStatus.choices, default=GameStatus.WAITING, db_index=True
    )
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    deadline_kind = models.CharField(
        max_length=16, choices=DeadlineKind.choices, blank=True, default=DeadlineKind.NONE
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    cancelled_by = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )
    cancel_reason = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(status__in=["waiting", "running"]),
                name="tables_one_live_game_per_table",
            ),
            models.CheckConstraint(
                condition=Q(stake__gte=0), name="tables_game_stake_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"Game {self.pk} ({self.get_variant_display()}, {self.status})"

    @property
    def pot_ref(self) -> str:
        return f"game:{self.pk}"


class Seat(models.Model):
    """A user at a table for one game. ``left_at`` is set when the user leaves (before the start:
    refunded; during the game: counted as a leave) and when the game ends (seats reset)."""

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="seats")
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="seats")
    seat_no = models.PositiveSmallIntegerField(
        validators=[MinValueValidator(1), MaxValueValidator(SEATS_MAX)]
    )
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    is_bot = models.BooleanField(default=False)
    played = models.BooleanField(
        default=False, help_text="Seated when the game started (part of the game's state)."
    )
    connected = models.BooleanField(default=True)
    entry_paid = models.BigIntegerField(default=0)
    refunded = models.BooleanField(
        default=False, help_text="Left before the start and got the entry back."
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    left_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table_id", "seat_no", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "seat_no"],
                condition=Q(left_at__isnull=True),
                name="tables_seat_number_taken_once",
            ),
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=Q(left_at__isnull=True),
                name="tables_user_sits_once_per_table",
            ),
            models.UniqueConstraint(
                fields=["game", "seat_no"],
                condition=Q(played=True),
                name="tables_game_seat_played_once",
            ),
            models.CheckConstraint(
                condition=Q(seat_no__gte=1) & Q(seat_no__lte=SEATS_MAX),
                name="tables_seat_number_range",
            ),
        ]

    def __str__(self) -> str:
        return f"Seat {self.seat_no} of {self.table}"


class Deal(models.Model):
    """One deal. The shoe (every card in dealing order) and the cut joker are stored in the same
    transaction as, and before, the action that deals it."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="deals")
    number = models.PositiveSmallIntegerField()
    shoe = models.JSONField(help_text="The whole shoe order, as card codes.")
    cut_joker = models.CharField(max_length=4, blank=True, default="")
    starter = models.PositiveSmallIntegerField(null=True, blank=True)
    state_before = models.JSONField(
        help_text="The game state just before this deal was dealt (replay starts here)."
    )
    version_before = models.PositiveIntegerField()
    result = models.JSONField(null=True, blank=True)
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    shoe_secret = models.CharField(
        max_length=64,
        blank=True,
        default="",
        help_text="The server secret of the shoe commitment; revealed once the deal has ended.",
    )
    shoe_commitment = models.CharField(
        max_length=64,
        blank=True,
        default="",
        help_text="SHA-256 of the shoe and the secret (docs/fairness.md), stored before dealing.",
    )

    class Meta:
        ordering = ["game_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="tables_deal_number_once"),
        ]

    def __str__(self) -> str:
        return f"Deal {self.number} of game {self.game_id}"


class Move(AppendOnlyModel):
    """One entry of the append-only move log. ``version`` is the game version it produced."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="moves")
    deal = models.ForeignKey(
        Deal, null=True, blank=True, on_delete=models.PROTECT, related_name="moves"
    )
    version = models.PositiveIntegerField()
    actor = models.ForeignKey(
        django_settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        help_text="Blank: the server (timers, dealing).",
    )
    seat_no = models.PositiveSmallIntegerField(null=True, blank=True)
    action = models.CharField(max_length=32)
    payload = OrjsonField(default=dict, blank=True)
    events = OrjsonField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    clock = models.FloatField(help_text="The engine clock (epoch seconds) the action ran at.")

    class Meta:
        ordering = ["game_id", "version"]
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="tables_move_version_once"),
        ]

    def __str__(self) -> str:
        return f"v{self.version} {self.action}"


class DealNote(AppendOnlyModel):
    """A support agent's note on a deal (append-only: a correction is another note)."""

    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="notes")
    author = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    text = models.TextField(max_length=4000)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["deal_id", "created_at", "id"]

    def __str__(self) -> str:
        return f"Note {self.pk} on deal {self.deal_id}"


class DealAccessKind(models.TextChoices):
    REVIEW = "review", "Opened the hand review"
    EXPORT = "export", "Downloaded the export"


class DealAccess(AppendOnlyModel):
    """One opening of a deal's hand review or export by a support user (append-only)."""

    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="accesses")
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    kind = models.CharField(max_length=16, choices=DealAccessKind.choices)
    at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = "deal access record"
        verbose_name_plural = "deal access records"

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} deal {self.deal_id} at {self.at:%Y-%m-%d %H:%M:%S}"


class BotProfile(models.Model):
    """Marks a user as a computer player. Bots sit only at practice tables."""

    user = models.OneToOneField(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="bot_profile"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"bot {self.user}"


class DealShare(models.Model):
    """A player's public link to the review of one deal they played (off until they share it;
    unsharing keeps the row, so a shared link can be turned off and on)."""

    deal = models.ForeignKey(Deal, on_delete=models.PROTECT, related_name="shares")
    user = models.ForeignKey(
        django_settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    token = models.CharField(max_length=64, unique=True)
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["deal", "user"], name="tables_deal_share_once"),
        ]

    def __str__(self) -> str:
        return f"share of deal {self.deal_id} by {self.user_id}"
