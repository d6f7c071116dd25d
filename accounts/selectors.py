"""Reads for accounts: the player's own money rules (deposit limits, self-exclusion, identity).

``player_money_policy`` is what the cashier (``ledger.payments``) asks through the setting
``PAYMENTS_PLAYER_POLICY``: accounts and the ledger do not import each other."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.utils import timezone

from .models import DepositLimit, LimitPeriod, SelfExclusion

if TYPE_CHECKING:
    from .models import User


def self_exclusion_active(*, user: User, now: datetime | None = None) -> SelfExclusion | None:
    """The self-exclusion in force for ``user`` now (the one ending last), or None."""
    if user is None or getattr(user, "pk", None) is None:
        return None
    now = now or timezone.now()
    return (
        SelfExclusion.objects.filter(user_id=user.pk, started_at__lte=now, ends_at__gt=now)
        .order_by("-ends_at")
        .first()
    )


def deposit_limit_current(*, user: User, period: str, now: datetime | None = None) -> int | None:
    """The limit in force (paise) for the period, or None for no limit."""
    now = now or timezone.now()
    row = (
        DepositLimit.objects.filter(user_id=user.pk, period=period, effective_at__lte=now)
        .order_by("-set_at", "-id")
        .first()
    )
    return None if row is None else row.amount


def deposit_limit_pending(*, user: User, period: str, now: datetime | None = None) -> Any:
    """A raise still cooling off (the latest row set, not effective yet), or None."""
    now = now or timezone.now()
    row = DepositLimit.objects.filter(user_id=user.pk, period=period).order_by("-set_at", "-id")
    latest = row.first()
    if latest is not None and latest.effective_at > now:
        return latest
    return None


def deposit_limits_overview(*, user: User, now: datetime | None = None) -> list[dict[str, Any]]:
    """For the responsible-play page: each period's current limit and any pending raise."""
    now = now or timezone.now()
    return [
        {
            "period": period,
            "label": label,
            "current": deposit_limit_current(user=user, period=period, now=now),
            "pending": deposit_limit_pending(user=user, period=period, now=now),
        }
        for period, label in LimitPeriod.choices
    ]


def player_money_policy(*, user: User, now: datetime) -> dict[str, Any]:
    """What the player's own rules allow now, for the cashier: ``daily_limit`` and
    ``monthly_limit`` (paise or None), ``self_excluded_until`` (datetime or None) and
    ``identity_verified``."""
    exclusion = self_exclusion_active(user=user, now=now)
    return {
        "daily_limit": deposit_limit_current(user=user, period=LimitPeriod.DAILY, now=now),
        "monthly_limit": deposit_limit_current(user=user, period=LimitPeriod.MONTHLY, now=now),
        "self_excluded_until": exclusion.ends_at if exclusion is not None else None,
        "identity_verified": bool(getattr(user, "identity_verified", False)),
    }
