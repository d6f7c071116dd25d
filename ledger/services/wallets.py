"""Money into and out of a player's wallet from outside the game: deposits and withdrawals
(against the house ``deposits`` and ``withdrawals`` accounts), and the wallet itself."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..currencies import CURRENCY_INFO
from ..db import retry_on_conflict
from ..errors import InvalidCurrency, LedgerRefusal
from ..models import Account, AccountKind, Transaction, TransactionKind
from ._checks import check_currency, check_user
from ._posting import wallet_house_post

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # the AUTH_USER_MODEL


def wallet_get_or_create(*, user: User, currency: str) -> Account:
    """The player's wallet in that currency, created empty on first use."""
    check_user(user)
    currency = check_currency(currency)
    account, _ = Account.objects.get_or_create(
        kind=AccountKind.WALLET, user=user, currency=currency
    )
    return account


@retry_on_conflict
def wallet_deposit(
    *,
    user: User,
    currency: str,
    amount: int,
    idempotency_key: str,
    memo: str = "",
    ref: str = "",
) -> Transaction:
    """Money in from outside (a payment, demo funding, a practice chip top-up): house deposits
    account -> the player's wallet."""
    return wallet_house_post(
        op="wallet_deposit",
        kind=TransactionKind.DEPOSIT,
        house=AccountKind.DEPOSITS,
        user=user,
        currency=currency,
        amount=amount,
        key=idempotency_key,
        ref=ref,
        memo=memo or "Deposit",
    )


@retry_on_conflict
def wallet_withdraw(
    *,
    user: User,
    currency: str,
    amount: int,
    idempotency_key: str,
    memo: str = "",
    ref: str = "",
) -> Transaction:
    """Money out: the player's wallet -> house withdrawals account. ``InsufficientFunds`` if the
    wallet would go below zero; practice chips cannot be withdrawn (``InvalidCurrency``)."""
    check_user(user)
    currency = check_currency(currency)
    if not CURRENCY_INFO[currency].withdrawable:
        raise InvalidCurrency(
            LedgerRefusal.NOT_WITHDRAWABLE, label=CURRENCY_INFO[currency].label, currency=currency
        )
    return wallet_house_post(
        op="wallet_withdraw",
        kind=TransactionKind.WITHDRAWAL,
        house=AccountKind.WITHDRAWALS,
        user=user,
        currency=currency,
        amount=amount,
        key=idempotency_key,
        ref=ref,
        memo=memo or "Withdrawal",
        out=True,
    )
