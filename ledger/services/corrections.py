"""Staff corrections, each recorded with the staff member and a required reason: an adjustment
of a wallet against the house ``adjustments`` account, and the reversal of a transaction."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..db import retry_on_conflict
from ..errors import AlreadyReversed, LedgerRefusal, NotReversible
from ..models import Account, AccountKind, Entry, Transaction, TransactionKind
from ._checks import check_key, check_reason, check_staff, request_fingerprint
from ._posting import Plan, accounts_lock, post_plan, wallet_house_post

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # the AUTH_USER_MODEL


@retry_on_conflict
def wallet_adjust(
    *,
    user: User,
    currency: str,
    amount: int,
    reason: str,
    staff_user: User,
    idempotency_key: str,
    ref: str = "",
) -> Transaction:
    """A staff credit (``amount > 0``) or debit (``amount < 0``) of a player's wallet against
    the house adjustments account, recorded with the staff member and the reason."""
    return wallet_house_post(
        op="wallet_adjust",
        kind=TransactionKind.ADJUSTMENT,
        house=AccountKind.ADJUSTMENTS,
        user=user,
        currency=currency,
        amount=amount,
        key=idempotency_key,
        ref=ref,
        memo=check_reason(reason),
        staff=check_staff(staff_user),
        signed=True,
    )


@retry_on_conflict
def transaction_reverse(
    *,
    transaction: Transaction,
    reason: str,
    staff_user: User,
    idempotency_key: str,
) -> Transaction:
    """Post the exact opposite of ``transaction`` (a ``reversal`` referencing it, same ``ref``).
    A transaction can be reversed once (``AlreadyReversed``, also a unique constraint); a
    reversal cannot itself be reversed (``NotReversible``: post an adjustment instead); a wallet
    that has spent the money cannot be taken below zero (``InsufficientFunds``). A pot that
    receives money back is reopened. Key: ``reverse:tx:<id>``."""
    reason = check_reason(reason)
    staff = check_staff(staff_user)
    key = check_key(idempotency_key)
    if not isinstance(transaction, Transaction) or transaction.pk is None:
        raise NotReversible(LedgerRefusal.NO_SUCH_TRANSACTION)
    fp = request_fingerprint("transaction_reverse", transaction=transaction.pk)
    original = Transaction.objects.get(pk=transaction.pk)
    entries = list(Entry.objects.filter(transaction=original).select_related("account"))
    locked = {a.pk: a for a in accounts_lock(accounts=[e.account for e in entries])}

    def plan() -> Plan:
        if original.kind == TransactionKind.REVERSAL:
            raise NotReversible(LedgerRefusal.REVERSAL_NOT_REVERSIBLE, transaction=original.pk)
        if Transaction.objects.filter(reverses=original).exists():
            raise AlreadyReversed(transaction=original.pk)
        return Plan(
            kind=TransactionKind.REVERSAL,
            currency=original.currency,
            legs=[(locked[e.account_id], -e.amount) for e in entries],
            ref=original.ref,
            memo=reason,
            staff_user=staff,
            reverses=original,
        )

    tx, new = post_plan(key=key, fingerprint=fp, plan=plan)
    if not new:
        return tx
    for account in locked.values():
        if account.kind == AccountKind.POT and account.closed_at and account.balance > 0:
            Account.objects.filter(pk=account.pk).update(closed_at=None)
            account.closed_at = None
    return tx
