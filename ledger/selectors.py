"""Reads of the ledger. Balances come from the ledger itself: the cached ``Account.balance``
is maintained by the database from the entries in the same transaction, and
``manage.py reconcile_ledger`` checks that it equals the sum of the entries."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from django.db.models import Count, QuerySet, Sum

from .currencies import CURRENCY_INFO, currencies_shown, format_amount
from .models import Account, AccountKind, Entry, Transaction, TransactionKind

if TYPE_CHECKING:
    # Users are ``settings.AUTH_USER_MODEL``; the ledger does not import the accounts app.
    from django.contrib.auth.models import _User as User  # the AUTH_USER_MODEL

__all__ = [
    "closing_counts",
    "entry_fee_counts",
    "format_amount",
    "pot_balance",
    "pot_balances",
    "pot_contributions",
    "transactions_for_ref",
    "wallet_balance",
    "wallet_balances_for_header",
    "wallet_flows_by_ref",
    "wallet_statement",
]


def wallet_balance(*, user: User, currency: str) -> int:
    """The player's balance in minor units (0 when the wallet does not exist yet)."""
    balance = (
        Account.objects.filter(kind=AccountKind.WALLET, user=user, currency=currency)
        .values_list("balance", flat=True)
        .first()
    )
    return int(balance or 0)


def pot_balance(*, pot_ref: str, currency: str) -> int:
    """What the game's pot holds now (0 when nothing was ever paid in)."""
    balance = (
        Account.objects.filter(kind=AccountKind.POT, ref=pot_ref, currency=currency)
        .values_list("balance", flat=True)
        .first()
    )
    return int(balance or 0)


def pot_balances(*, refs: Iterable[str]) -> dict[str, int]:
    """Balances of many pots at once: ``{ref: balance}`` for the pots that exist."""
    rows = Account.objects.filter(kind=AccountKind.POT, ref__in=list(refs)).values_list(
        "ref", "balance"
    )
    return {ref: int(balance) for ref, balance in rows}


def pot_contributions(*, pot_ref: str) -> dict[int, int]:
    """Net amount each user has paid into the pot (entries and rejoins, minus refunds and what
    the pot paid them): ``{user_id: amount}``, zero rows left out."""
    rows = (
        Entry.objects.filter(
            transaction__entries__account__kind=AccountKind.POT,
            transaction__entries__account__ref=pot_ref,
            account__kind=AccountKind.WALLET,
        )
        .values_list("account__user_id")
        .annotate(total=Sum("amount"))
    )
    return {user_id: -int(total) for user_id, total in rows if total}


def wallet_statement(*, user: User, currency: str) -> QuerySet[Entry]:
    """The wallet's entries, newest first, with their transactions (for a paginated page)."""
    return (
        Entry.objects.filter(
            account__kind=AccountKind.WALLET, account__user=user, account__currency=currency
        )
        .select_related("transaction")
        .order_by("-id")
    )


def transactions_for_ref(*, ref: str) -> QuerySet[Transaction]:
    """Everything the ledger did for one reference (``"game:12"``): entry fees, rejoins,
    refunds, payouts, settlements and their reversals, oldest first, with entries and accounts
    prefetched. For support."""
    return (
        Transaction.objects.filter(ref=ref)
        .select_related("staff_user", "reverses")
        .prefetch_related("entries__account__user")
        .order_by("id")
    )


def entry_fee_counts(*, ref: str) -> dict[int, int]:
    """How many (unreversed) entry fees each user paid for the reference: ``{user_id: n}``."""
    rows = (
        Entry.objects.filter(
            transaction__ref=ref,
            transaction__kind=TransactionKind.ENTRY_FEE,
            transaction__reversed_by__isnull=True,
            account__kind=AccountKind.WALLET,
        )
        .values_list("account__user_id")
        .annotate(n=Count("transaction", distinct=True))
    )
    return {user_id: int(n) for user_id, n in rows}


def wallet_flows_by_ref(*, user: User, refs: Iterable[str]) -> dict[str, tuple[int, int]]:
    """What ``user``'s wallets paid into and got back from each reference (``"game:12"``), in
    minor units, reversals included: ``{ref: (paid_in, paid_out)}`` (both positive)."""
    rows = (
        Entry.objects.filter(
            transaction__ref__in=list(refs), account__kind=AccountKind.WALLET, account__user=user
        )
        .values_list("transaction__ref", "amount")
        .order_by()
    )
    flows: dict[str, tuple[int, int]] = {}
    for ref, amount in rows:
        paid_in, paid_out = flows.get(ref, (0, 0))
        if amount < 0:
            paid_in -= int(amount)
        else:
            paid_out += int(amount)
        flows[ref] = (paid_in, paid_out)
    return flows


def closing_counts(*, refs: Iterable[str]) -> dict[str, int]:
    """Number of unreversed payouts and settlements per reference: ``{ref: n}``."""
    rows = (
        Transaction.objects.filter(
            ref__in=list(refs),
            kind__in=[TransactionKind.PAYOUT, TransactionKind.SETTLEMENT],
            reversed_by__isnull=True,
        )
        .values_list("ref")
        .annotate(n=Count("id"))
    )
    return {ref: int(n) for ref, n in rows}


def wallet_balances_for_header(*, user: User) -> list[dict[str, Any]]:
    """Every currency with the player's balance, for the page header:
    ``[{"currency": "cash", "amount": 1250, "display": "₹12.50"}, ...]``. With money games
    off (``settings.MONEY_GAMES``) only practice chips; nothing for staff without a wallet."""
    if user is None or not getattr(user, "is_authenticated", False):
        return []
    balances = dict(
        Account.objects.filter(kind=AccountKind.WALLET, user=user).values_list(
            "currency", "balance"
        )
    )
    if not balances and getattr(user, "is_staff", False):
        return []  # staff who never played hold no wallet: no "₹0.00 0 chips" in their header
    return [
        {
            "currency": code,
            "label": CURRENCY_INFO[code].label,
            "amount": int(balances.get(code, 0)),
            "display": format_amount(int(balances.get(code, 0)), code),
        }
        for code in currencies_shown()
    ]


def transaction_is_reversible(*, transaction: Transaction) -> bool:
    """Not a reversal and not reversed yet (the reversal may still be refused for funds)."""
    if transaction.kind == TransactionKind.REVERSAL:
        return False
    return not Transaction.objects.filter(reverses=transaction).exists()


def practice_chips_summary(*, user: User) -> dict[str, Any]:
    """The player's practice chips in words for the lobby and the wallet: the balance, the
    welcome chips got at sign-up (``welcome``: None if none) and the daily top-up rule."""
    from .services import practice_policy, practice_welcome_key

    policy = practice_policy()
    balance = wallet_balance(user=user, currency="practice")
    welcome = (
        Entry.objects.filter(
            transaction__idempotency_key=practice_welcome_key(user=user),
            account__user=user,
        )
        .values_list("amount", flat=True)
        .first()
    )
    return {
        "balance": format_amount(balance, "practice"),
        "welcome": format_amount(int(welcome), "practice") if welcome else None,
        "daily": format_amount(policy.daily_amount, "practice"),
        "cap": format_amount(policy.balance_cap, "practice"),
        "can_top_up": balance < policy.balance_cap,
    }
