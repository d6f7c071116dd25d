"""Reads of the cashier: a player's deposits and withdrawals, deposit totals for the limits,
and the totals the reconciliation compares with the clearing and pending-withdrawals
accounts."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db.models import QuerySet, Sum

from .models import Deposit, DepositStatus, Withdrawal, WithdrawalStatus
from .policy import player_policy

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # the AUTH_USER_MODEL

# Deposits that count against a limit: paid, and pending ones (a checkout still open).
COUNTED = (DepositStatus.PENDING, DepositStatus.PAID)


# The deposit limits count over rolling windows ending now: the player cannot move them (a
# calendar day would follow the profile's time zone, which the player chooses).
DAILY_WINDOW = timedelta(hours=24)
MONTHLY_WINDOW = timedelta(days=30)


def _counted(*, user: User, since: datetime) -> QuerySet[Deposit]:
    return Deposit.objects.filter(user_id=user.pk, status__in=COUNTED, created_at__gt=since)


def deposit_total_since(*, user: User, since: datetime) -> int:
    """Paid and pending deposits of the player made after ``since``, in paise."""
    total = _counted(user=user, since=since).aggregate(total=Sum("amount"))["total"]
    return int(total or 0)


def deposit_limit_passed(*, user: User, now: datetime) -> tuple[str, int] | None:
    """The deposit limit the player is over now (``("daily" | "monthly", limit)``): the counted
    deposits of its window are more than it (a limit lowered after depositing), else None."""
    policy = player_policy(user=user, now=now)
    for period, limit, window in (
        ("daily", policy.daily_limit, DAILY_WINDOW),
        ("monthly", policy.monthly_limit, MONTHLY_WINDOW),
    ):
        if limit is not None and deposit_total_since(user=user, since=now - window) > limit:
            return period, limit
    return None


def deposit_room_from(
    *, user: User, now: datetime, window: timedelta, limit: int, amount: int
) -> datetime | None:
    """When a deposit of ``amount`` fits the ``limit`` over the rolling ``window`` again: the
    moment enough of the counted deposits have left the window. None when it never fits (the
    amount is over the limit itself)."""
    if amount > limit:
        return None
    rows = _counted(user=user, since=now - window).order_by("created_at", "pk")
    total = sum(amount for _when, amount in rows.values_list("created_at", "amount"))
    for created_at, counted in rows.values_list("created_at", "amount"):
        total -= counted
        if total + amount <= limit:
            return created_at + window
    return now


def deposits_for_player(*, user: User, limit: int = 20) -> QuerySet[Deposit]:
    return Deposit.objects.filter(user_id=user.pk).order_by("-id")[:limit]


def deposits_context(*, user: User) -> dict[str, Any]:
    """The wallet's deposits list: the latest deposits and whether one is still pending (the
    list then follows it live)."""
    deposits = list(deposits_for_player(user=user))
    return {
        "deposits": deposits,
        "deposits_pending": any(d.status == DepositStatus.PENDING for d in deposits),
    }


def withdrawals_for_player(*, user: User, limit: int = 20) -> QuerySet[Withdrawal]:
    return Withdrawal.objects.filter(user_id=user.pk).order_by("-id")[:limit]


def deposits_paid_total() -> int:
    total = Deposit.objects.filter(status=DepositStatus.PAID).aggregate(total=Sum("amount"))
    return int(total["total"] or 0)


def withdrawals_pending_total() -> int:
    total = Withdrawal.objects.filter(status=WithdrawalStatus.PENDING).aggregate(
        total=Sum("amount")
    )
    return int(total["total"] or 0)
