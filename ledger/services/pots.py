"""A game's pot: entry fees and rejoins held from the wallets, refunds before the start, and the
closing movements (payout, points settlement, cancellation refund). A pot is closed once paid
out, settled or cancelled."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from django.db.models import Sum
from django.utils import timezone, translation

from ..db import retry_on_conflict
from ..errors import (
    InvalidAmount,
    LedgerRefusal,
    PotClosed,
    PotNotEmpty,
    RefundExceedsStake,
    UnbalancedTransaction,
    UnknownUser,
)
from ..models import Account, AccountKind, Entry, Transaction, TransactionKind
from ._checks import (
    check_amount,
    check_currency,
    check_key,
    check_ref,
    check_user,
    request_fingerprint,
)
from ._posting import Ident, Plan, lock_idents, post_plan, replayed

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # the AUTH_USER_MODEL


def _kind_memo(kind: str) -> str:
    """The stored memo of a pot movement: the kind's label in English whatever the language of
    the request (the statement translates it when shown: ``money.memo_words``)."""
    with translation.override(None):
        return str(TransactionKind(kind).label)


def _pot_wallet_move(
    *,
    op: str,
    kind: str,
    user: User,
    currency: str,
    pot_ref: str,
    amount: int,
    key: str,
    refund: bool = False,
) -> Transaction:
    """``amount`` from the player's wallet into a pot that is still open, or with ``refund``
    from the pot back to the wallet (``RefundExceedsStake`` beyond what the player paid in)."""
    check_user(user)
    currency = check_currency(currency)
    pot_ref = check_ref(pot_ref, required=True)
    amount = check_amount(amount)
    key = check_key(key)
    fp = request_fingerprint(op, user=user.pk, currency=currency, pot=pot_ref, amount=amount)
    wallet_id = Ident.wallet(user.pk, currency)
    pot_id = Ident.pot(pot_ref, currency)
    accounts = lock_idents([wallet_id, pot_id])
    wallet, pot = accounts[wallet_id], accounts[pot_id]

    def plan() -> Plan:
        if pot.closed_at is not None:
            raise PotClosed(pot_ref=pot_ref)
        if not refund:
            legs = [(wallet, -amount), (pot, amount)]
            return Plan(kind=kind, currency=currency, legs=legs, ref=pot_ref, memo=_kind_memo(kind))
        stake = _contributions(pot).get(user.pk, 0)
        if amount > stake:
            raise RefundExceedsStake(
                LedgerRefusal.REFUND_MORE_THAN_PAID,
                pot_ref=pot_ref,
                currency=currency,
                paid=max(stake, 0),
                stake=stake,
                amount=amount,
            )
        legs = [(pot, -amount), (wallet, amount)]
        return Plan(kind=kind, currency=currency, legs=legs, ref=pot_ref, memo="Entry refunded")

    tx, _ = post_plan(key=key, fingerprint=fp, plan=plan)
    return tx


@retry_on_conflict
def pot_hold_entry(
    *, user: User, currency: str, pot_ref: str, amount: int, idempotency_key: str
) -> Transaction:
    """Entry fee or points buy-in: the player's wallet -> the game's pot (created on first use,
    in that currency). ``InsufficientFunds`` if the wallet would go below zero, ``PotClosed``
    once the pot was paid out, settled or cancelled, ``CurrencyMismatch`` if the pot exists in
    the other currency. Key: ``entry:game:<id>:seat:<n>``."""
    return _pot_wallet_move(
        op="pot_hold_entry",
        kind=TransactionKind.ENTRY_FEE,
        user=user,
        currency=currency,
        pot_ref=pot_ref,
        amount=amount,
        key=idempotency_key,
    )


@retry_on_conflict
def pot_hold_rejoin(
    *, user: User, currency: str, pot_ref: str, amount: int, idempotency_key: str
) -> Transaction:
    """A pool rejoin: the entry fee again, wallet -> pot, recorded as ``rejoin_fee``. Same
    checks as ``pot_hold_entry``. Key: ``rejoin:game:<id>:seat:<n>:<count>``."""
    return _pot_wallet_move(
        op="pot_hold_rejoin",
        kind=TransactionKind.REJOIN_FEE,
        user=user,
        currency=currency,
        pot_ref=pot_ref,
        amount=amount,
        key=idempotency_key,
    )


def _contributions(pot: Account) -> dict[int, int]:
    """Net amount each user has paid into the pot (holds minus refunds and pot payouts)."""
    rows = (
        Entry.objects.filter(transaction__entries__account=pot, account__kind=AccountKind.WALLET)
        .values_list("account__user_id")
        .annotate(total=Sum("amount"))
    )
    return {user_id: -total for user_id, total in rows}


@retry_on_conflict
def pot_refund_entry(
    *, user: User, currency: str, pot_ref: str, amount: int, idempotency_key: str
) -> Transaction:
    """Give a player back (part of) what they paid into a pot that is still open: the pot -> the
    wallet, recorded as ``refund`` (leaving before the start). ``RefundExceedsStake`` if the
    player paid in less than ``amount``. Key: ``refund:game:<id>:seat:<n>``."""
    return _pot_wallet_move(
        op="pot_refund_entry",
        kind=TransactionKind.REFUND,
        user=user,
        currency=currency,
        pot_ref=pot_ref,
        amount=amount,
        key=idempotency_key,
        refund=True,
    )


def _close_pot(pot: Account) -> None:
    now = timezone.now()
    Account.objects.filter(pk=pot.pk).update(closed_at=now)
    pot.closed_at = now


def _pot_pay(
    *,
    op: str,
    kind: str,
    pot_ref: str,
    currency: str,
    amounts: Mapping[int, int],
    fee: int,
    key: str,
) -> Transaction:
    currency = check_currency(currency)
    pot_ref = check_ref(pot_ref, required=True)
    key = check_key(key)
    fee = check_amount(fee, allow_zero=True)
    if not isinstance(amounts, Mapping):
        raise InvalidAmount(LedgerRefusal.PAYOUTS_NOT_MAPPING)
    clean: dict[int, int] = {}
    for user_id, amount in amounts.items():
        if isinstance(user_id, bool) or not isinstance(user_id, int):
            raise UnknownUser(LedgerRefusal.PAYOUT_KEY, key=repr(user_id))
        clean[user_id] = check_amount(amount, allow_zero=True)
    fp = request_fingerprint(
        op,
        pot=pot_ref,
        currency=currency,
        amounts=sorted(clean.items()),
        fee=fee,
    )
    pot_id = Ident.pot(pot_ref, currency)
    wallet_ids = {uid: Ident.wallet(uid, currency) for uid, amt in clean.items() if amt > 0}
    fee_id = Ident.house(AccountKind.FEES, currency)
    idents = [pot_id, *wallet_ids.values()] + ([fee_id] if fee > 0 else [])
    accounts = lock_idents(idents)
    pot = accounts[pot_id]
    tx, new = post_plan(
        key=key,
        fingerprint=fp,
        plan=lambda: _pay_plan(
            kind=kind,
            pot=pot,
            currency=currency,
            pays=[(accounts[ident], clean[uid]) for uid, ident in wallet_ids.items()],
            fee_account=accounts[fee_id] if fee > 0 else None,
            fee=fee,
        ),
    )
    if new:
        _close_pot(pot)
    return tx


def _pay_plan(
    *,
    kind: str,
    pot: Account,
    currency: str,
    pays: list[tuple[Account, int]],
    fee_account: Account | None,
    fee: int,
) -> Plan:
    pot_ref = pot.ref
    total = sum(amount for _, amount in pays) + fee
    if total < pot.balance:
        raise PotNotEmpty(
            LedgerRefusal.POT_LEFT_BEHIND,
            pot_ref=pot_ref,
            currency=currency,
            rest=pot.balance - total,
            pot_balance=pot.balance,
            total=total,
        )
    if total > pot.balance:
        raise UnbalancedTransaction(
            LedgerRefusal.POT_SHORT_OF_PAYOUT,
            pot_ref=pot_ref,
            currency=currency,
            pot_balance=pot.balance,
            total=total,
        )
    legs = [(pot, -total), *pays]
    if fee_account is not None:
        legs.append((fee_account, fee))
    return Plan(kind=kind, currency=currency, legs=legs, ref=pot_ref, memo=_kind_memo(kind))


@retry_on_conflict
def pot_payout(
    *,
    pot_ref: str,
    currency: str,
    payouts: Mapping[int, int],
    fee: int,
    idempotency_key: str,
) -> Transaction:
    """Pay out a finished game: ``payouts`` maps user id -> prize (one winner, or split shares)
    and ``fee`` goes to the house fee account. ``sum(payouts) + fee`` must equal the pot's
    balance exactly: less raises ``PotNotEmpty``, more ``UnbalancedTransaction``. The pot ends at
    0 and is closed. Key: ``settle:game:<id>``."""
    return _pot_pay(
        op="pot_payout",
        kind=TransactionKind.PAYOUT,
        pot_ref=pot_ref,
        currency=currency,
        amounts=payouts,
        fee=fee,
        key=idempotency_key,
    )


@retry_on_conflict
def pot_settle(
    *,
    pot_ref: str,
    currency: str,
    returns: Mapping[int, int],
    fee: int,
    idempotency_key: str,
) -> Transaction:
    """Settle a points game: ``returns`` maps user id -> what that player gets back from the pot
    (buy-in minus losses, or buy-in plus winnings minus the fee; 0 may be left out) and ``fee``
    goes to the house. Same exactness rule as ``pot_payout``; recorded as ``settlement``."""
    return _pot_pay(
        op="pot_settle",
        kind=TransactionKind.SETTLEMENT,
        pot_ref=pot_ref,
        currency=currency,
        amounts=returns,
        fee=fee,
        key=idempotency_key,
    )


@retry_on_conflict
def pot_cancel_refund(*, pot_ref: str, currency: str, idempotency_key: str) -> Transaction | None:
    """Cancel a game: give every player back exactly what they paid in (entries and rejoins,
    less any refund already made), no fee kept, in one ``refund`` transaction; the pot ends at 0
    and is closed. Returns ``None`` when nothing was paid in. ``PotClosed`` if the game was
    already paid out or settled. Key: ``cancel:game:<id>``."""
    currency = check_currency(currency)
    pot_ref = check_ref(pot_ref, required=True)
    key = check_key(idempotency_key)
    fp = request_fingerprint("pot_cancel_refund", pot=pot_ref, currency=currency)
    pot_id = Ident.pot(pot_ref, currency)
    existing_pot = Account.objects.filter(**pot_id.lookup).first()
    if existing_pot is None:
        if (replay := replayed(key, fp)) is not None:
            return replay
        return None
    contributions = _contributions(existing_pot)
    for _ in range(10):
        idents = [pot_id] + [Ident.wallet(uid, currency) for uid, c in contributions.items() if c]
        accounts = lock_idents(idents)
        if (replay := replayed(key, fp)) is not None:
            return replay
        pot = accounts[pot_id]
        # The pot is locked now: no posting can change what was paid into it.
        contributions = _contributions(pot)
        locked_users = {ident.user_id for ident in accounts if ident.kind == AccountKind.WALLET}
        if {uid for uid, c in contributions.items() if c} <= locked_users:
            break
    else:  # pragma: no cover - needs ten interleaved new entries
        raise UnbalancedTransaction(LedgerRefusal.POT_KEPT_CHANGING, pot_ref=pot_ref)
    if pot.balance == 0:
        closing = Transaction.objects.filter(
            ref=pot_ref,
            kind__in=[TransactionKind.PAYOUT, TransactionKind.SETTLEMENT],
            reversed_by__isnull=True,
        )
        if closing.exists():
            raise PotClosed(LedgerRefusal.POT_PAID_OUT, pot_ref=pot_ref)
        if pot.closed_at is None:
            _close_pot(pot)
        return None
    if pot.closed_at is not None:
        raise PotClosed(pot_ref=pot_ref)
    refunds = {uid: c for uid, c in contributions.items() if c}
    if any(c < 0 for c in refunds.values()) or sum(refunds.values()) != pot.balance:
        raise UnbalancedTransaction(
            LedgerRefusal.POT_MISMATCH,
            pot_ref=pot_ref,
            currency=currency,
            pot_balance=pot.balance,
        )
    legs = [(pot, -pot.balance)]
    legs += [(accounts[Ident.wallet(uid, currency)], c) for uid, c in refunds.items()]
    tx, new = post_plan(
        key=key,
        fingerprint=fp,
        plan=lambda: Plan(
            kind=TransactionKind.REFUND,
            currency=currency,
            legs=legs,
            ref=pot_ref,
            memo="Game cancelled: every entry refunded",
        ),
    )
    if new:
        _close_pot(pot)
    return tx


@retry_on_conflict
def pot_guarantee_top_up(
    *, pot_ref: str, currency: str, amount: int, idempotency_key: str, returned: bool = False
) -> Transaction:
    """A tournament's guaranteed prize pool: the house (its ``promotions`` account) pays
    ``amount`` into the pot, recorded as ``guarantee``. With ``returned=True`` the pot gives a
    top-up back to the house (a tournament cancelled after its start, before every entry is
    refunded). ``PotClosed`` once the pot was paid out or cancelled. Key:
    ``guarantee:tournament:<id>`` (``guarantee-return:tournament:<id>``)."""
    currency = check_currency(currency)
    pot_ref = check_ref(pot_ref, required=True)
    amount = check_amount(amount)
    key = check_key(idempotency_key)
    fp = request_fingerprint(
        "pot_guarantee_top_up", pot=pot_ref, currency=currency, amount=amount, returned=returned
    )
    pot_id = Ident.pot(pot_ref, currency)
    house_id = Ident.house(AccountKind.PROMOTIONS, currency)
    accounts = lock_idents([pot_id, house_id])
    pot = accounts[pot_id]
    signed = -amount if returned else amount

    def plan() -> Plan:
        if pot.closed_at is not None:
            raise PotClosed(pot_ref=pot_ref)
        return Plan(
            kind=TransactionKind.GUARANTEE,
            currency=currency,
            legs=[(pot, signed), (accounts[house_id], -signed)],
            ref=pot_ref,
            memo="Guarantee returned" if returned else "Guarantee top-up",
        )

    tx, _ = post_plan(key=key, fingerprint=fp, plan=plan)
    return tx
