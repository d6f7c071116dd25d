"""The cashier's postings: verified deposits (provider clearing -> wallet), withdrawals (held
in the pending-withdrawals account, then paid out or returned) and the daily free practice
chips. The requests behind them (status, history) live in ``ledger.payments``.

Keys: ``deposit:<provider>:<reference>``, ``withdrawal:<id>:hold`` / ``:approve`` /
``:reject``, ``practice-topup:<user id>:<date>``, ``practice-welcome:<user id>`` (the welcome
chips at sign-up)."""

from __future__ import annotations

from datetime import date, datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils import timezone

from ..db import retry_on_conflict
from ..errors import LedgerError, LedgerRefusal
from ..models import Account, AccountKind, PracticeChipsPolicy, Transaction, TransactionKind
from ._checks import (
    check_amount,
    check_key,
    check_reason,
    check_ref,
    check_staff,
    check_user,
    request_fingerprint,
)
from ._posting import Ident, Plan, lock_idents, post_plan, wallet_house_post

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # the AUTH_USER_MODEL

CASH = "cash"


class PracticeTopUpRefused(LedgerError):
    default_code = LedgerRefusal.PRACTICE_NOT_NOW


@retry_on_conflict
def wallet_deposit_cleared(
    *, user: User, amount: int, idempotency_key: str, ref: str = "", memo: str = ""
) -> Transaction:
    """A deposit a payment provider confirmed: provider clearing -> the player's cash wallet.
    The key names the provider's payment (``deposit:sandbox:dep_x``), so it is credited once."""
    return wallet_house_post(
        op="wallet_deposit_cleared",
        kind=TransactionKind.DEPOSIT,
        house=AccountKind.CLEARING,
        user=user,
        currency=CASH,
        amount=amount,
        key=idempotency_key,
        ref=ref,
        memo=memo or "Deposit",
    )


@retry_on_conflict
def withdrawal_hold(*, user: User, amount: int, idempotency_key: str, ref: str) -> Transaction:
    """Hold a requested withdrawal: cash wallet -> pending withdrawals (``InsufficientFunds``
    when the wallet holds less)."""
    return wallet_house_post(
        op="withdrawal_hold",
        kind=TransactionKind.WITHDRAW_HOLD,
        house=AccountKind.PENDING_PAYOUTS,
        user=user,
        currency=CASH,
        amount=amount,
        key=idempotency_key,
        ref=ref,
        ref_required=True,
        memo="Withdrawal requested",
        out=True,
    )


@retry_on_conflict
def withdrawal_return(
    *, user: User, amount: int, idempotency_key: str, ref: str, staff_user: User, reason: str
) -> Transaction:
    """A rejected withdrawal: pending withdrawals -> the player's cash wallet."""
    return wallet_house_post(
        op="withdrawal_return",
        kind=TransactionKind.WITHDRAW_RETURN,
        house=AccountKind.PENDING_PAYOUTS,
        user=user,
        currency=CASH,
        amount=amount,
        key=idempotency_key,
        ref=ref,
        ref_required=True,
        memo=check_reason(reason),
        staff=check_staff(staff_user),
    )


@retry_on_conflict
def withdrawal_pay_out(
    *, amount: int, idempotency_key: str, ref: str, staff_user: User, reason: str
) -> Transaction:
    """An approved withdrawal leaves the site: pending withdrawals -> withdrawals (money out)."""
    amount = check_amount(amount)
    key = check_key(idempotency_key)
    ref = check_ref(ref, required=True)
    memo = check_reason(reason)
    staff = check_staff(staff_user)
    pending = Ident.house(AccountKind.PENDING_PAYOUTS, CASH)
    out = Ident.house(AccountKind.WITHDRAWALS, CASH)
    accounts = lock_idents([pending, out])
    fp = request_fingerprint("withdrawal_pay_out", amount=amount, ref=ref)
    tx, _ = post_plan(
        key=key,
        fingerprint=fp,
        plan=lambda: Plan(
            kind=TransactionKind.WITHDRAWAL,
            currency=CASH,
            legs=[(accounts[pending], -amount), (accounts[out], amount)],
            ref=ref,
            memo=memo,
            staff_user=staff,
        ),
    )
    return tx


def practice_policy() -> PracticeChipsPolicy:
    """The staff's practice chips policy (the settings' defaults until staff save one)."""
    policy = PracticeChipsPolicy.objects.order_by("pk").first()
    if policy is None:
        policy = PracticeChipsPolicy(
            daily_amount=int(getattr(settings, "LEDGER_PRACTICE_TOPUP_AMOUNT", 10_000)),
            balance_cap=int(getattr(settings, "LEDGER_PRACTICE_TOPUP_BELOW", 1_000)),
            welcome_amount=int(getattr(settings, "LEDGER_PRACTICE_WELCOME_AMOUNT", 10_000)),
        )
    return policy


def practice_welcome_key(*, user: User) -> str:
    return f"practice-welcome:{user.pk}"


WELCOME_MEMO = "Welcome practice chips"


@retry_on_conflict
def practice_chips_welcome_grant(*, user: User) -> Transaction | None:
    """The welcome practice chips of a new player (the policy's ``welcome_amount``; none when
    it is 0), once per player whatever the number of calls: the key names the player, so a
    repeat returns the grant already posted."""
    check_user(user)
    key = practice_welcome_key(user=user)
    done = Transaction.objects.filter(idempotency_key=key).first()
    if done is not None:
        return done
    amount = practice_policy().welcome_amount
    if amount <= 0:
        return None
    tx, _ = _practice_chips_post(
        op="practice_welcome", user=user, amount=amount, key=key, memo=WELCOME_MEMO
    )
    return tx


def practice_topup_key(*, user: User, day: date) -> str:
    return f"practice-topup:{user.pk}:{day.isoformat()}"


def practice_chips_top_up_daily(*, user: User, now: datetime | None = None) -> Transaction:
    """The daily free practice chips: once per calendar day (in ``TIME_ZONE``; the day is in
    the key), only while the practice balance is below the policy's cap. Twenty parallel
    requests credit once: they share the key, the first posts, the others find it taken
    (``PracticeTopUpRefused``)."""
    check_user(user)
    policy = practice_policy()
    day = timezone.localdate(now or timezone.now())
    key = practice_topup_key(user=user, day=day)
    balance = int(
        Account.objects.filter(kind=AccountKind.WALLET, user=user, currency="practice")
        .values_list("balance", flat=True)
        .first()
        or 0
    )
    if balance >= policy.balance_cap:
        raise PracticeTopUpRefused(
            LedgerRefusal.PRACTICE_OVER_CAP,
            currency="practice",
            cap=policy.balance_cap,
            balance=balance,
        )
    if Transaction.objects.filter(idempotency_key=key).exists():
        raise PracticeTopUpRefused(LedgerRefusal.PRACTICE_HAD_TODAY)
    return _practice_post(user=user, amount=policy.daily_amount, key=key)


@retry_on_conflict
def _practice_post(*, user: User, amount: int, key: str) -> Transaction:
    tx, new = _practice_chips_post(
        op="practice_topup", user=user, amount=amount, key=key, memo="Daily free practice chips"
    )
    if not new:
        raise PracticeTopUpRefused(LedgerRefusal.PRACTICE_HAD_TODAY)
    return tx


def _practice_chips_post(
    *, op: str, user: User, amount: int, key: str, memo: str
) -> tuple[Transaction, bool]:
    """Free practice chips: the house deposits account -> the player's practice wallet (the
    request is the player and the key, which names the grant). Returns the transaction and
    whether it is new."""
    fp = request_fingerprint(op, user=user.pk, key=key)
    wallet = Ident.wallet(user.pk, "practice")
    house = Ident.house(AccountKind.DEPOSITS, "practice")
    accounts = lock_idents([wallet, house])
    return post_plan(
        key=key,
        fingerprint=fp,
        plan=lambda: Plan(
            kind=TransactionKind.DEPOSIT,
            currency="practice",
            legs=[(accounts[wallet], amount), (accounts[house], -amount)],
            memo=memo,
        ),
    )
