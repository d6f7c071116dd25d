"""Deposit and withdrawal requests. They are not money: each has a status that changes, with
every change kept in an event history, and points at the ledger transactions that moved the
money (credited exactly once per provider reference, held, paid out or returned).

``SandboxPayment`` is the sandbox provider's own record of a checkout (what a real gateway keeps
on its side); the site never trusts it directly: a deposit is credited only from a signed
callback."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from ..currencies import format_amount


class DepositStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    PAID = "paid", _("Paid")
    FAILED = "failed", _("Failed")
    CANCELLED = "cancelled", _("Cancelled")
    EXPIRED = "expired", _("Expired")


class CashAmountShown:
    """A request's cash ``amount`` (paise) shown as money: ``amount_display``."""

    amount: int

    @property
    def amount_display(self) -> str:
        return format_amount(self.amount, "cash")

    # the admin's column heading ("amount", not "AMOUNT DISPLAY")
    amount_display.fget.short_description = "amount"  # type: ignore[attr-defined]


class Deposit(CashAmountShown, models.Model):
    """A player's deposit through a provider. Credited to the cash wallet (ledger key
    ``deposit:<provider>:<reference>``) only when a verified callback says it is paid."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="deposits"
    )
    provider = models.CharField(max_length=32)
    reference = models.CharField(max_length=48, unique=True)
    amount = models.BigIntegerField(help_text="Cash, in paise.")
    status = models.CharField(
        max_length=16, choices=DepositStatus.choices, default=DepositStatus.PENDING
    )
    checkout_url = models.CharField(max_length=500, blank=True, default="")
    # The provider's ids: its checkout (Stripe: the Checkout Session cs_...) and the payment
    # behind it (Stripe: the PaymentIntent pi_..., which refunds name).
    provider_payment_id = models.CharField(max_length=100, blank=True, default="")
    provider_intent_id = models.CharField(max_length=100, blank=True, default="", db_index=True)
    # Refunded at the provider after it was paid (paise, in all): flagged for staff, who
    # reverse the credit in the admin; the wallet is not debited by itself.
    refunded_amount = models.BigIntegerField(default=0)
    transaction = models.OneToOneField(
        "ledger.Transaction",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="deposit_request",
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        app_label = "ledger"
        ordering: ClassVar[list[str]] = ["-id"]
        constraints: ClassVar[list[Any]] = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="ledger_deposit_amount_pos"),
            models.CheckConstraint(
                condition=Q(status__in=DepositStatus.values), name="ledger_deposit_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(status=DepositStatus.PAID, transaction__isnull=False)
                | (~Q(status=DepositStatus.PAID) & Q(transaction__isnull=True)),
                name="ledger_deposit_paid_has_transaction",
            ),
        ]
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["user", "created_at"], name="ledger_deposit_user_time_idx"),
        ]

    def __str__(self) -> str:
        return f"Deposit {self.reference} {self.amount_display} ({self.status})"

    @property
    def expires_at(self) -> datetime:
        """When a checkout still pending expires (``PAYMENTS_CHECKOUT_EXPIRY_S``)."""
        return self.created_at + timedelta(seconds=checkout_expiry_s())

    @property
    def is_open(self) -> bool:
        """Pending and not past its expiry: the player may still pay (resume) or cancel it."""
        return self.status == DepositStatus.PENDING and timezone.now() < self.expires_at


def checkout_expiry_s() -> int:
    return int(getattr(settings, "PAYMENTS_CHECKOUT_EXPIRY_S", 1800))


class DepositEvent(models.Model):
    """One thing that happened to a deposit: started, a callback (applied, duplicate, late or
    ignored), a refusal. Append-only history for support."""

    deposit = models.ForeignKey(Deposit, on_delete=models.PROTECT, related_name="events")
    status = models.CharField(max_length=16, choices=DepositStatus.choices)
    detail = models.CharField(max_length=300)
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        app_label = "ledger"
        ordering: ClassVar[list[str]] = ["id"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.status}: {self.detail}"


class WithdrawalStatus(models.TextChoices):
    PENDING = "pending", _("Pending approval")
    APPROVED = "approved", _("Paid out")
    REJECTED = "rejected", _("Rejected (returned to the wallet)")


class Withdrawal(CashAmountShown, models.Model):
    """A player's withdrawal request. The amount is held at once (wallet -> pending
    withdrawals, key ``withdrawal:<id>:hold``); staff approve it (pending -> withdrawals, paid
    out, ``withdrawal:<id>:approve``) or reject it (pending -> wallet, ``...:reject``)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="withdrawals"
    )
    amount = models.BigIntegerField(help_text="Cash, in paise.")
    status = models.CharField(
        max_length=16, choices=WithdrawalStatus.choices, default=WithdrawalStatus.PENDING
    )
    reason = models.TextField(blank=True, default="", help_text="Staff's reason for the decision.")
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="withdrawals_decided",
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        app_label = "ledger"
        ordering: ClassVar[list[str]] = ["-id"]
        permissions: ClassVar[list[tuple[str, StrOrPromise]]] = [
            ("decide_withdrawal", "Can approve or reject a withdrawal"),
        ]
        constraints: ClassVar[list[Any]] = [
            models.CheckConstraint(condition=Q(amount__gt=0), name="ledger_withdrawal_amount_pos"),
            models.CheckConstraint(
                condition=Q(status__in=WithdrawalStatus.values),
                name="ledger_withdrawal_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(status=WithdrawalStatus.PENDING)
                | (Q(decided_by__isnull=False) & Q(decided_at__isnull=False) & ~Q(reason="")),
                name="ledger_withdrawal_decision_has_staff_and_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"Withdrawal #{self.pk} {self.amount_display} ({self.get_status_display()})"

    @property
    def ref(self) -> str:
        return f"withdrawal:{self.pk}"


class WithdrawalEvent(models.Model):
    withdrawal = models.ForeignKey(Withdrawal, on_delete=models.PROTECT, related_name="events")
    status = models.CharField(max_length=16, choices=WithdrawalStatus.choices)
    detail = models.CharField(max_length=300)
    staff_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    at = models.DateTimeField(default=timezone.now)

    class Meta:
        app_label = "ledger"
        ordering: ClassVar[list[str]] = ["id"]

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.status}: {self.detail}"


class SandboxPayment(models.Model):
    """The sandbox provider's side of a checkout (a real gateway keeps this on its servers)."""

    reference = models.CharField(max_length=48, unique=True)
    amount = models.BigIntegerField()
    status = models.CharField(
        max_length=16, choices=DepositStatus.choices, default=DepositStatus.PENDING
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        app_label = "ledger"

    def __str__(self) -> str:
        return f"Sandbox {self.reference} ({self.status})"
