"""The ledger's tables: accounts, transactions and their entries.

Double-entry: every ``Transaction`` has two or more ``Entry`` rows whose signed amounts sum to
zero, all in the transaction's currency. An entry's amount is added to its account's balance
(positive = money into the account). Transactions and entries are append-only; a correction is a
new reversing transaction. The database enforces all of this itself (constraints here, triggers
in migration 0002); the model methods below only give an early, readable error.

Sign convention: player wallets, pots, the platform fee account, the withdrawals account and the
pending-withdrawals account hold non-negative balances; the deposits account (demo funding,
practice chips) and the provider clearing account (verified payments) go negative by the money
that came in from outside, and the adjustments account carries the opposite of every staff
credit/debit, so every currency sums to exactly zero across all accounts.

Deposit and withdrawal *requests* (``ledger/payments/models.py``) are not money: they carry a
status and a history, and point at the transactions that moved the money.
"""

from __future__ import annotations

from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from .append_only import AppendOnlyModel
from .currencies import Currency, format_amount
from .errors import AppendOnlyViolation


class AccountKind(models.TextChoices):
    WALLET = "wallet", "Player wallet"
    POT = "pot", "Table pot"
    FEES = "fees", "House: platform fees"
    DEPOSITS = "deposits", "House: deposits (money in)"
    WITHDRAWALS = "withdrawals", "House: withdrawals (money out)"
    ADJUSTMENTS = "adjustments", "House: staff adjustments"
    # What payment providers owe the house: goes negative by every verified deposit.
    CLEARING = "clearing", "House: payment provider clearing"
    # Withdrawals requested and held, waiting for staff to approve (paid out) or reject.
    PENDING_PAYOUTS = "pending_payouts", "House: pending withdrawals"
    # What the house paid into tournament pots to reach their guaranteed prize pools: goes
    # negative by every top-up (and back up by a top-up returned when a tournament is cancelled).
    PROMOTIONS = "promotions", "House: tournament guarantees"


HOUSE_KINDS: tuple[str, ...] = (
    AccountKind.FEES,
    AccountKind.DEPOSITS,
    AccountKind.WITHDRAWALS,
    AccountKind.ADJUSTMENTS,
    AccountKind.CLEARING,
    AccountKind.PENDING_PAYOUTS,
    AccountKind.PROMOTIONS,
)
# Accounts whose balance may never go below zero (database CHECK on the cached balance).
NON_NEGATIVE_KINDS: tuple[str, ...] = (
    AccountKind.WALLET,
    AccountKind.POT,
    AccountKind.PENDING_PAYOUTS,
)


class TransactionKind(models.TextChoices):
    DEPOSIT = "deposit", _("Deposit")
    WITHDRAWAL = "withdrawal", _("Withdrawal")
    ENTRY_FEE = "entry_fee", _("Entry fee")
    REFUND = "refund", _("Refund")
    REJOIN_FEE = "rejoin_fee", _("Rejoin fee")
    PAYOUT = "payout", _("Payout")
    SETTLEMENT = "settlement", _("Settlement")
    ADJUSTMENT = "adjustment", _("Adjustment")
    REVERSAL = "reversal", _("Reversal")
    WITHDRAW_HOLD = "withdraw_hold", _("Withdrawal requested (held)")
    WITHDRAW_RETURN = "withdraw_return", _("Withdrawal rejected (returned)")
    GUARANTEE = "guarantee", _("Guarantee top-up")


STAFF_KINDS: tuple[str, ...] = (TransactionKind.ADJUSTMENT, TransactionKind.REVERSAL)


class Account(models.Model):
    """A ledger account: a player's wallet (one per user and currency), a table pot (one per
    game reference such as ``"game:12"``) or a house account (one per kind and currency).

    ``balance`` is a cache of the sum of the account's entries. Only the database changes it:
    the entry insert trigger adds each entry's amount in the same transaction, under the row lock
    the posting service holds, and refuses any other change. ``closed_at`` marks a pot that was
    paid out, settled or cancelled: it takes no further entry or rejoin fees."""

    kind = models.CharField(max_length=16, choices=AccountKind.choices)
    currency = models.CharField(max_length=16, choices=Currency.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ledger_accounts",
    )
    ref = models.CharField(max_length=64, blank=True, default="")
    balance = models.BigIntegerField(default=0, editable=False)
    closed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering: ClassVar[list[str]] = ["id"]
        permissions: ClassVar[list[tuple[str, str]]] = [
            ("adjust_wallet", "Can credit or debit a player wallet (staff adjustment)"),
        ]
        constraints: ClassVar[list[Any]] = [
            models.CheckConstraint(
                condition=Q(kind__in=AccountKind.values), name="ledger_account_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(currency__in=Currency.values), name="ledger_account_currency_valid"
            ),
            models.CheckConstraint(
                condition=(
                    (Q(kind=AccountKind.WALLET) & Q(user__isnull=False) & Q(ref=""))
                    | (Q(kind=AccountKind.POT) & Q(user__isnull=True) & ~Q(ref=""))
                    | (Q(kind__in=HOUSE_KINDS) & Q(user__isnull=True) & Q(ref=""))
                ),
                name="ledger_account_owner_matches_kind",
            ),
            models.CheckConstraint(
                condition=Q(balance__gte=0) | ~Q(kind__in=NON_NEGATIVE_KINDS),
                name="ledger_account_wallet_pot_not_negative",
            ),
            models.UniqueConstraint(
                fields=["user", "currency"],
                condition=Q(kind=AccountKind.WALLET),
                name="ledger_account_one_wallet_per_user_currency",
            ),
            models.UniqueConstraint(
                fields=["ref"],
                condition=Q(kind=AccountKind.POT),
                name="ledger_account_one_pot_per_ref",
            ),
            models.UniqueConstraint(
                fields=["kind", "currency"],
                condition=Q(kind__in=HOUSE_KINDS),
                name="ledger_account_one_house_account_per_kind_currency",
            ),
        ]

    def __str__(self) -> str:
        if self.kind == AccountKind.WALLET:
            return f"Wallet of {self.user} ({self.currency})"
        if self.kind == AccountKind.POT:
            return f"Pot {self.ref} ({self.currency})"
        return f"{self.get_kind_display()} ({self.currency})"

    @property
    def balance_display(self) -> str:
        return format_amount(self.balance, self.currency)


class LedgerRecord(AppendOnlyModel):
    """A transaction or an entry: append-only here and in the database (migration 0002's
    triggers); a correction is a reversal."""

    class Meta:
        abstract = True

    @classmethod
    def append_only_refusal(cls) -> Exception:
        return AppendOnlyViolation()


class Transaction(LedgerRecord):
    """One balanced movement of money in one currency. ``idempotency_key`` names the domain
    event that caused it (``entry:game:12:seat:3``); ``fingerprint`` is a digest of the request
    that posted it, so a replay with the same key is recognised (same content) or refused
    (different content). ``ref`` groups everything one game caused (``game:12``)."""

    kind = models.CharField(max_length=16, choices=TransactionKind.choices)
    currency = models.CharField(max_length=16, choices=Currency.choices)
    idempotency_key = models.CharField(max_length=200)
    fingerprint = models.CharField(max_length=64)
    ref = models.CharField(max_length=64, blank=True, default="", db_index=True)
    memo = models.TextField(blank=True, default="")
    staff_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="ledger_staff_transactions",
    )
    reverses = models.OneToOneField(
        "self",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="reversed_by",
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering: ClassVar[list[str]] = ["-id"]
        permissions: ClassVar[list[tuple[str, str]]] = [
            ("reverse_transaction", "Can reverse a ledger transaction"),
        ]
        constraints: ClassVar[list[Any]] = [
            models.UniqueConstraint(
                fields=["idempotency_key"], name="ledger_transaction_unique_idempotency_key"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=TransactionKind.values), name="ledger_transaction_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(currency__in=Currency.values),
                name="ledger_transaction_currency_valid",
            ),
            models.CheckConstraint(
                condition=~Q(idempotency_key=""), name="ledger_transaction_key_not_empty"
            ),
            models.CheckConstraint(
                condition=(~Q(kind__in=STAFF_KINDS) | (Q(staff_user__isnull=False) & ~Q(memo=""))),
                name="ledger_transaction_staff_kinds_have_staff_and_reason",
            ),
            models.CheckConstraint(
                condition=(
                    (Q(kind=TransactionKind.REVERSAL) & Q(reverses__isnull=False))
                    | (~Q(kind=TransactionKind.REVERSAL) & Q(reverses__isnull=True))
                ),
                name="ledger_transaction_reversal_has_original",
            ),
        ]
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["ref", "kind"], name="ledger_tx_ref_kind_idx"),
        ]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_kind_display()} {self.ref or ''} [{self.idempotency_key}]"


class Entry(LedgerRecord):
    """One leg of a transaction: ``amount`` (signed, never zero) added to ``account``.
    ``balance_after`` is the account's balance right after this entry (a running statement);
    the database checks it against the cached balance it maintains."""

    transaction = models.ForeignKey(
        Transaction, on_delete=models.PROTECT, related_name="entries", db_index=False
    )
    account = models.ForeignKey(
        Account, on_delete=models.PROTECT, related_name="entries", db_index=False
    )
    amount = models.BigIntegerField()
    currency = models.CharField(max_length=16, choices=Currency.choices)
    balance_after = models.BigIntegerField()

    class Meta:
        ordering: ClassVar[list[str]] = ["-id"]
        verbose_name_plural = "entries"
        constraints: ClassVar[list[Any]] = [
            models.CheckConstraint(condition=~Q(amount=0), name="ledger_entry_amount_not_zero"),
            models.CheckConstraint(
                condition=Q(currency__in=Currency.values), name="ledger_entry_currency_valid"
            ),
            models.UniqueConstraint(
                fields=["transaction", "account"], name="ledger_entry_one_leg_per_account"
            ),
        ]
        indexes: ClassVar[list[models.Index]] = [
            models.Index(fields=["account", "id"], name="ledger_entry_account_id_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.account}: {format_amount(self.amount, self.currency)}"

    @property
    def amount_display(self) -> str:
        return format_amount(self.amount, self.currency)

    @property
    def balance_after_display(self) -> str:
        return format_amount(self.balance_after, self.currency)


def _welcome_default() -> int:
    return int(getattr(settings, "LEDGER_PRACTICE_WELCOME_AMOUNT", 10_000))


class PracticeChipsPolicy(models.Model):
    """The free practice chips, set by staff in the admin (one row; defaults from the settings
    ``LEDGER_PRACTICE_TOPUP_AMOUNT`` / ``LEDGER_PRACTICE_TOPUP_BELOW`` /
    ``LEDGER_PRACTICE_WELCOME_AMOUNT`` until saved): ``welcome_amount`` chips once at sign-up,
    and once per calendar day a player whose practice balance is below ``balance_cap`` may take
    ``daily_amount`` chips."""

    daily_amount = models.PositiveIntegerField(help_text="Chips given by one daily top-up.")
    balance_cap = models.PositiveIntegerField(
        help_text="A top-up is given only while the practice balance is below this."
    )
    welcome_amount = models.PositiveIntegerField(
        default=_welcome_default,
        help_text="Chips every new player gets once, at sign-up (0: none).",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = "practice chips policy"
        verbose_name_plural = "practice chips policy"

    def __str__(self) -> str:
        return (
            f"{format_amount(self.welcome_amount, 'practice')} at sign-up, "
            f"{format_amount(self.daily_amount, 'practice')} a day below "
            f"{format_amount(self.balance_cap, 'practice')}"
        )


from .payments.models import (  # noqa: E402  (the payments requests belong to this app)
    Deposit,
    DepositEvent,
    SandboxPayment,
    Withdrawal,
    WithdrawalEvent,
)

__all__ = [
    "Account",
    "AccountKind",
    "Deposit",
    "DepositEvent",
    "Entry",
    "PracticeChipsPolicy",
    "SandboxPayment",
    "Transaction",
    "TransactionKind",
    "Withdrawal",
    "WithdrawalEvent",
]
