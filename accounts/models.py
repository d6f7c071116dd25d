from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

# The time zones a player may choose on the profile (most players are in India).
TIME_ZONE_CHOICES = [
    ("Asia/Kolkata", _("India (IST)")),
    ("Asia/Dubai", _("Gulf (Dubai)")),
    ("Asia/Singapore", _("Singapore")),
    ("Europe/London", _("London")),
    ("America/New_York", _("New York")),
    ("America/Los_Angeles", _("Los Angeles")),
    ("Australia/Sydney", _("Sydney")),
    ("UTC", _("UTC")),
]


class User(AbstractUser):
    """A player, staff member or support agent. ``display_name`` is shown at the tables.

    Responsible play: ``age_confirmed_at`` is when the player confirmed being 18 or older (at
    sign-up while money games are on); ``identity_verified`` (and its date) is set by staff and
    is required to withdraw cash. Deposit limits and self-exclusions are kept as histories
    (``DepositLimit``, ``SelfExclusion``)."""

    display_name = models.CharField(
        _("display name"),
        max_length=40,
        blank=True,
        help_text=_("The name other players see at the table. Defaults to the username."),
    )
    age_confirmed_at = models.DateTimeField(
        null=True, blank=True, help_text="When the player confirmed being 18 or older."
    )
    identity_verified = models.BooleanField(
        default=False, help_text="Staff checked the player's identity: cash may be withdrawn."
    )
    identity_verified_at = models.DateTimeField(null=True, blank=True)
    language = models.CharField(
        _("language"),
        max_length=8,
        choices=settings.LANGUAGES,
        blank=True,
        help_text=_("The language of every page. Empty: the browser's language."),
    )
    time_zone = models.CharField(
        _("time zone"),
        max_length=40,
        choices=TIME_ZONE_CHOICES,
        blank=True,
        help_text=_("Times are shown in this zone. Empty: India (IST)."),
    )

    class Meta:
        permissions = [
            ("review_deals", "Can find and replay any deal"),
        ]

    @property
    def public_name(self) -> str:
        """The name other players see, in the viewer's language for a computer player's
        ("Bot 2" is the tables app's name for its second computer player, ``bot-2``)."""
        name = self.display_name or self.username
        number = name.removeprefix("Bot ")
        if self.username.startswith("bot-") and number != name and number.isdigit():
            return gettext("Bot %(n)s") % {"n": number}
        return name

    def __str__(self) -> str:
        return self.public_name


class LimitPeriod(models.TextChoices):
    DAILY = "daily", _("Daily")
    MONTHLY = "monthly", _("Monthly")


class DepositLimit(models.Model):
    """One limit the player set (``amount`` in paise; empty = no limit). Rows are never changed:
    the limit in force for a period is the most recently set row whose ``effective_at`` has
    come. A lower limit (or a first one) is effective at once, a higher one (or removing it)
    after the cooling-off (24 hours)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="deposit_limits"
    )
    period = models.CharField(max_length=8, choices=LimitPeriod.choices)
    amount = models.BigIntegerField(null=True, blank=True, help_text="Paise; empty: no limit.")
    set_at = models.DateTimeField(default=timezone.now)
    effective_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering: ClassVar[list[str]] = ["-set_at", "-id"]
        constraints: ClassVar[list[Any]] = [
            models.CheckConstraint(
                condition=Q(amount__isnull=True) | Q(amount__gte=0),
                name="accounts_deposit_limit_not_negative",
            ),
            models.CheckConstraint(
                condition=Q(period__in=LimitPeriod.values), name="accounts_deposit_limit_period"
            ),
        ]

    def __str__(self) -> str:
        shown = "no limit" if self.amount is None else f"{self.amount / 100:.2f} rupees"
        return f"{self.user} {self.period}: {shown} from {self.effective_at:%Y-%m-%d %H:%M}"


class SelfExclusionPeriod(models.TextChoices):
    DAY = "1d", _("1 day")
    WEEK = "7d", _("7 days")
    MONTH = "30d", _("30 days")
    HALF_YEAR = "6m", _("6 months")


class SelfExclusion(models.Model):
    """A player's self-exclusion from money games (no cash tables, no deposits; withdrawals
    stay possible) from ``started_at`` to ``ends_at``. It cannot be shortened or undone."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="self_exclusions"
    )
    period = models.CharField(max_length=4, choices=SelfExclusionPeriod.choices)
    started_at = models.DateTimeField(default=timezone.now)
    ends_at = models.DateTimeField()

    class Meta:
        ordering: ClassVar[list[str]] = ["-ends_at", "-id"]
        constraints: ClassVar[list[Any]] = [
            models.CheckConstraint(
                condition=Q(ends_at__gt=models.F("started_at")),
                name="accounts_self_exclusion_ends_after_start",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} excluded until {self.ends_at:%Y-%m-%d %H:%M}"
