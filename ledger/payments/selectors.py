"""Reads of the cashier: a player's deposits and withdrawals, deposit totals for the limits,
and the totals the reconciliation compares with the clearing and pending-withdrawals
accounts."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db.models import QuerySet, Sum
from django.utils import timezone

from .models import Deposit, DepositStatus, Withdrawal, WithdrawalStatus

# Deposits that count against a limit: paid, and pending ones (a checkout still open).
COUNTED = (DepositStatus.PENDING, DepositStatus.PAID)


def local_day_start(now: datetime) -> datetime:
    local = timezone.localtime(now)
    return local.replace(hour=0, minute=0, second=0, microsecond=0)


def local_month_start(now: datetime) -> datetime:
    return local_day_start(now).replace(day=1)


def deposit_total_since(*, user: Any, since: datetime) -> int:
    """Paid and pending deposits of the player since ``since``, in paise."""
    total = Deposit.objects.filter(
        user_id=user.pk, status__in=COUNTED, created_at__gte=since
    ).aggregate(total=Sum("amount"))["total"]
    return int(total or 0)


def deposits_for_player(*, user: Any, limit: int = 20) -> QuerySet[Deposit]:
    return Deposit.objects.filter(user_id=user.pk).order_by("-id")[:limit]


def deposits_context(*, user: Any) -> dict[str, Any]:
    """The wallet's deposits list: the latest deposits and whether one is still pending (the
    list then follows it live)."""
    deposits = list(deposits_for_player(user=user))
    return {
        "deposits": deposits,
        "deposits_pending": any(d.status == DepositStatus.PENDING for d in deposits),
    }


def withdrawals_for_player(*, user: Any, limit: int = 20) -> QuerySet[Withdrawal]:
    return Withdrawal.objects.filter(user_id=user.pk).order_by("-id")[:limit]


def deposits_paid_total() -> int:
    total = Deposit.objects.filter(status=DepositStatus.PAID).aggregate(total=Sum("amount"))
    return int(total["total"] or 0)


def withdrawals_pending_total() -> int:
    total = Withdrawal.objects.filter(status=WithdrawalStatus.PENDING).aggregate(
        total=Sum("amount")
    )
    return int(total["total"] or 0)
