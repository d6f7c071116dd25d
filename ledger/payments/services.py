"""Writes of the cashier: deposits through a provider and withdrawals approved by staff.

Money moves only through ``ledger.services`` (``wallet_deposit_cleared``, ``withdrawal_hold``,
``withdrawal_pay_out``, ``withdrawal_return``), each with a key derived from the request, so a
repeated callback or a double click moves money once. The request rows (``Deposit``,
``Withdrawal``) carry the status and an event history.

Refusals are ``LedgerError`` subclasses with a ``LedgerRefusal`` code and its params (amounts
in paise, moments), worded when shown."""

from __future__ import annotations

import logging
import secrets
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from ..currencies import format_amount, money_games_on
from ..db import retry_on_conflict
from ..errors import InvalidAmount, LedgerError, LedgerRefusal
from ..services import (
    wallet_deposit_cleared,
    withdrawal_hold,
    withdrawal_pay_out,
    withdrawal_return,
)
from ..services._checks import check_reason, check_staff
from .models import (
    Deposit,
    DepositEvent,
    DepositStatus,
    Withdrawal,
    WithdrawalEvent,
    WithdrawalStatus,
    checkout_expiry_s,
)
from .policy import player_policy
from .providers import (
    IGNORED,
    REFUNDED,
    CallbackRefused,
    PaymentEvent,
    provider_default,
    provider_get,
)
from .selectors import DAILY_WINDOW, MONTHLY_WINDOW, deposit_room_from, deposit_total_since

if TYPE_CHECKING:
    from django.contrib.auth.models import _User as User  # the AUTH_USER_MODEL

logger = logging.getLogger("ledger.payments")

MIN_DEPOSIT = 100  # ₹1.00


class MoneyGamesOff(LedgerError):
    default_code = LedgerRefusal.MONEY_GAMES_OFF


class DepositRefused(LedgerError):
    default_code = LedgerRefusal.DEPOSIT_REFUSED


class WithdrawalRefused(LedgerError):
    default_code = LedgerRefusal.WITHDRAWAL_REFUSED


def money_games_required() -> None:
    if not money_games_on():
        raise MoneyGamesOff()


def _max_deposit() -> int:
    return int(getattr(settings, "PAYMENTS_MAX_DEPOSIT", 10_000_000))  # ₹1,00,000.00


def _check_limit(*, user: User, amount: int, limit: int | None, now: datetime, period: str) -> None:
    """Refuse a deposit that takes the paid and pending deposits of the rolling window (24
    hours for the daily limit, 30 days for the monthly one) over the limit, saying what fits
    now and from when the amount fits."""
    if limit is None:
        return
    window = DAILY_WINDOW if period == "daily" else MONTHLY_WINDOW
    left = max(0, limit - deposit_total_since(user=user, since=now - window))
    if amount <= left:
        return
    room = deposit_room_from(user=user, now=now, window=window, limit=limit, amount=amount)
    raise DepositRefused(
        LedgerRefusal.DEPOSIT_DAILY_LIMIT
        if period == "daily"
        else LedgerRefusal.DEPOSIT_MONTHLY_LIMIT,
        currency="cash",
        left=left,
        limit=limit,
        amount=amount,
        allowed_from=room,  # when set, the words add from when the amount fits again
    )


@retry_on_conflict
def deposit_start(
    *, user: User, amount: int, provider: str | None = None, now: datetime | None = None
) -> Deposit:
    """Open a deposit of ``amount`` paise at the provider and return it (pending, with the
    checkout URL to send the player to). Refused while money games are off, while the player
    is self-excluded, and over the player's daily or monthly limit (pending and paid deposits
    of the last 24 hours / 30 days count). Nothing is credited here: only a verified
    callback credits."""
    money_games_required()
    if isinstance(amount, bool) or not isinstance(amount, int):
        raise InvalidAmount(LedgerRefusal.AMOUNT_IN_RUPEES)
    if amount < MIN_DEPOSIT:
        raise DepositRefused(LedgerRefusal.DEPOSIT_TOO_SMALL, currency="cash", amount=MIN_DEPOSIT)
    if amount > _max_deposit():
        raise DepositRefused(
            LedgerRefusal.DEPOSIT_TOO_LARGE, currency="cash", amount=_max_deposit()
        )
    now = now or timezone.now()
    name = provider or provider_default()
    impl = provider_get(name)
    with transaction.atomic():
        # One deposit start per player at a time: the limit check and the new row are atomic.
        locked = get_user_model()._default_manager.select_for_update().get(pk=user.pk)
        policy = player_policy(user=locked, now=now)
        if policy.self_excluded_until is not None and policy.self_excluded_until > now:
            raise DepositRefused(
                LedgerRefusal.DEPOSIT_SELF_EXCLUDED, until=policy.self_excluded_until
            )
        _check_limit(user=locked, amount=amount, limit=policy.daily_limit, now=now, period="daily")
        _check_limit(
            user=locked, amount=amount, limit=policy.monthly_limit, now=now, period="monthly"
        )
        deposit = Deposit.objects.create(
            user=locked,
            provider=name,
            reference=f"dep_{secrets.token_hex(12)}",
            amount=amount,
            created_at=now,
            updated_at=now,
        )
        checkout = impl.checkout_create(
            reference=deposit.reference, amount=amount, return_url="/wallet/"
        )
        deposit.checkout_url = checkout.url
        deposit.provider_payment_id = checkout.provider_payment_id[:100]
        deposit.save(update_fields=["checkout_url", "provider_payment_id"])
        DepositEvent.objects.create(
            deposit=deposit, status=deposit.status, detail=f"Checkout opened at {name}", at=now
        )
    return deposit


def deposit_callback_apply(
    *, provider: str, body: bytes, headers: Mapping[str, str]
) -> Deposit | None:
    """Apply a provider's callback: verify its signature over the raw body (a forged or
    unreadable one is refused with ``CallbackRefused`` and logged), then bring the deposit to
    what the provider says. ``paid`` credits the wallet with the key
    ``deposit:<provider>:<reference>``, so any number of deliveries, in any order, credit it
    exactly once; ``failed``/``cancelled`` credit nothing and never undo a payment; a refund is
    flagged. A genuine event that moves nothing returns None."""
    impl = provider_get(provider)
    try:
        event = impl.callback_verify(body=body, headers=headers)
    except CallbackRefused as error:
        logger.warning("payments: %s callback refused: %s", provider, error.message)
        raise
    if event.status == IGNORED:
        return None
    if event.status == REFUNDED:
        return _refund_apply(provider=provider, event=event)
    if not money_games_on():
        _refuse_money_off(provider=provider, event=event)
    return _event_apply(provider=provider, event=event)


@retry_on_conflict
def _refund_apply(*, provider: str, event: PaymentEvent) -> Deposit:
    """The provider refunded (part of) a paid deposit. The wallet was credited and may have
    been played, so nothing is debited by itself: the deposit keeps the amount refunded in all
    and is flagged for staff (logged, in its history), who reverse the credit in the admin."""
    with transaction.atomic():
        found = Deposit.objects.select_for_update().filter(provider=provider)
        if event.intent_id:
            found = found.filter(provider_intent_id=event.intent_id)
        elif event.reference:
            found = found.filter(reference=event.reference)
        else:
            raise CallbackRefused(LedgerRefusal.REFUND_NO_PAYMENT)
        deposit = found.first()
        if deposit is None:
            # Perhaps before the payment's own event (out of order): refused, so resent later.
            raise CallbackRefused(LedgerRefusal.REFUND_UNKNOWN_DEPOSIT)
        if event.amount <= deposit.refunded_amount:
            return deposit  # a repeated or older refund event
        if deposit.status != DepositStatus.PAID:
            raise CallbackRefused(LedgerRefusal.REFUND_NOT_PAID)
        deposit.refunded_amount = min(event.amount, deposit.amount)
        deposit.updated_at = timezone.now()
        deposit.save(update_fields=["refunded_amount", "updated_at"])
        detail = (
            f"Refunded at {provider}: {format_amount(deposit.refunded_amount, 'cash')} in all. "
            "FLAGGED for staff: the wallet was credited; reverse the credit in the admin"
        )
        DepositEvent.objects.create(
            deposit=deposit, status=deposit.status, detail=f"{detail} [{event.event_id}]"[:300]
        )
        logger.warning("payments: %s refund of %s flagged: %s", provider, deposit.reference, detail)
    return deposit


@retry_on_conflict
def _event_apply(*, provider: str, event: PaymentEvent) -> Deposit:
    with transaction.atomic():
        deposit = (
            Deposit.objects.select_for_update(of=("self",))
            .select_related("user")
            .filter(provider=provider, reference=event.reference)
            .first()
        )
        if deposit is None:
            logger.warning("payments: %s callback for unknown %r", provider, event.reference)
            raise CallbackRefused(LedgerRefusal.CALLBACK_UNKNOWN_DEPOSIT)
        if event.amount != deposit.amount:
            logger.warning(
                "payments: %s callback for %s says %s, the deposit is %s",
                provider,
                deposit.reference,
                event.amount,
                deposit.amount,
            )
            raise CallbackRefused(LedgerRefusal.CALLBACK_AMOUNT_DIFFERS)
        now = timezone.now()
        if event.status == DepositStatus.PAID:
            tx = wallet_deposit_cleared(
                user=deposit.user,
                amount=deposit.amount,
                idempotency_key=f"deposit:{provider}:{deposit.reference}",
                ref=f"deposit:{deposit.reference}",
                memo=f"Deposit ({provider})",
            )
            if deposit.status == DepositStatus.PAID:
                detail = "Paid again (a repeated callback): already credited"
            else:
                detail = f"Paid: credited to the wallet (transaction #{tx.pk})"
                if deposit.status in (DepositStatus.CANCELLED, DepositStatus.EXPIRED):
                    # A paid callback always wins: the money was taken, so it is credited.
                    detail += f", after the checkout was {deposit.status}"
                elif deposit.status != DepositStatus.PENDING:
                    detail += f", after an earlier {deposit.status} callback"
                deposit.status = DepositStatus.PAID
                deposit.transaction = tx
            if event.intent_id and not deposit.provider_intent_id:
                deposit.provider_intent_id = event.intent_id[:100]
        elif deposit.status == DepositStatus.PAID:
            detail = f"A {event.status} callback after the payment: ignored, stays paid"
        elif deposit.status == event.status:
            detail = f"{event.status.capitalize()} again (a repeated callback)"
        else:
            detail = f"{event.status.capitalize()}: nothing credited"
            deposit.status = event.status
        deposit.updated_at = now
        deposit.save(update_fields=["status", "transaction", "provider_intent_id", "updated_at"])
        DepositEvent.objects.create(
            deposit=deposit,
            status=deposit.status,
            detail=f"{detail} [{event.event_id}]" if event.event_id else detail,
            at=now,
        )
    return deposit


MONEY_OFF_DETAIL = "Money games are off: nothing credited"


def _deposit_to(deposit: Deposit, status: DepositStatus, *, detail: str, at: datetime) -> None:
    """The locked ``deposit`` takes ``status`` at ``at``, the change kept in its history."""
    deposit.status = status
    deposit.updated_at = at
    deposit.save(update_fields=["status", "updated_at"])
    DepositEvent.objects.create(deposit=deposit, status=status, detail=detail, at=at)


def _refuse_money_off(*, provider: str, event: PaymentEvent) -> None:
    """Money games are off: a deposit still open takes no money. It is cancelled (kept in its
    history and logged); a payment the provider reports anyway is refused and flagged, so staff
    refund it at the provider. Raises ``CallbackRefused`` once that is committed; returns
    (nothing to refuse) for a deposit credited before the switch."""
    with transaction.atomic():
        deposit = (
            Deposit.objects.select_for_update()
            .filter(provider=provider, reference=event.reference)
            .first()
        )
        if deposit is None:
            raise CallbackRefused(LedgerRefusal.CALLBACK_UNKNOWN_DEPOSIT)
        if deposit.status == DepositStatus.PAID:
            return
        now = timezone.now()
        paid = event.status == DepositStatus.PAID
        detail = MONEY_OFF_DETAIL + (
            "; the provider reports it PAID: FLAGGED, refund it at the provider" if paid else ""
        )
        _deposit_to(deposit, DepositStatus.CANCELLED, detail=detail, at=now)
        logger.warning("payments: %s %s: %s", provider, deposit.reference, detail)
    raise CallbackRefused(
        LedgerRefusal.CALLBACK_MONEY_OFF_PAID if paid else LedgerRefusal.CALLBACK_MONEY_OFF
    )


def deposit_cancel_money_off(*, deposit: Deposit) -> Deposit:
    """Cancel a pending deposit because money games are off (the sandbox page, a sweep)."""
    with transaction.atomic():
        locked = Deposit.objects.select_for_update().get(pk=deposit.pk)
        if locked.status == DepositStatus.PENDING:
            _deposit_to(locked, DepositStatus.CANCELLED, detail=MONEY_OFF_DETAIL, at=timezone.now())
            logger.warning("payments: %s cancelled: money games are off", locked.reference)
    return locked


LATE_PAID = "a paid callback arriving later still credits the wallet"


@retry_on_conflict
def deposit_cancel(*, user: User, reference: str, now: datetime | None = None) -> Deposit:
    """The player gives up a pending checkout: cancelled, nothing credited, and it no longer
    counts against the deposit limits. A second press finds it cancelled and changes nothing.
    If the provider still reports it paid, the payment is credited (a paid callback wins)."""
    now = now or timezone.now()
    with transaction.atomic():
        deposit = (
            Deposit.objects.select_for_update()
            .filter(user_id=user.pk, reference=str(reference)[:48])
            .first()
        )
        if deposit is None:
            raise DepositRefused(LedgerRefusal.NO_SUCH_DEPOSIT)
        if deposit.status == DepositStatus.CANCELLED:
            return deposit
        if deposit.status != DepositStatus.PENDING:
            raise DepositRefused(
                LedgerRefusal.DEPOSIT_NOT_PENDING, status=deposit.get_status_display().lower()
            )
        _deposit_to(
            deposit,
            DepositStatus.CANCELLED,
            detail=f"Cancelled by the player: nothing credited ({LATE_PAID})",
            at=now,
        )
    return deposit


def deposits_expire(*, now: datetime | None = None, batch: int = 500) -> int:
    """Pending checkouts older than ``PAYMENTS_CHECKOUT_EXPIRY_S`` become expired: nothing
    credited, no longer counted against the limits, no longer resumable. Idempotent and safe
    to run from several places at once (Celery beat and the loop timer): each deposit is
    locked and expired only while still pending, so a repeat or a concurrent run does
    nothing more. A paid callback arriving later still credits the wallet. Returns how many
    deposits it expired."""
    now = now or timezone.now()
    cutoff = now - timedelta(seconds=checkout_expiry_s())
    due = list(
        Deposit.objects.filter(status=DepositStatus.PENDING, created_at__lt=cutoff)
        .order_by("pk")
        .values_list("pk", flat=True)[:batch]
    )
    expired = 0
    for pk in due:
        with transaction.atomic():
            deposit = (
                Deposit.objects.select_for_update()
                .filter(pk=pk, status=DepositStatus.PENDING)
                .first()
            )
            if deposit is None:  # paid, cancelled or expired meanwhile
                continue
            _deposit_to(
                deposit,
                DepositStatus.EXPIRED,
                detail=(
                    f"Expired: the checkout was not completed within "
                    f"{checkout_expiry_s() // 60} minutes; nothing credited ({LATE_PAID})"
                ),
                at=now,
            )
            expired += 1
    return expired


@retry_on_conflict
def withdrawal_request(*, user: User, amount: int, now: datetime | None = None) -> Withdrawal:
    """Ask to withdraw ``amount`` paise of cash. Only a player whose identity staff verified;
    allowed while self-excluded and while money games are off (the player takes out what they
    own). The amount is held at once (wallet -> pending withdrawals), so
    it cannot be played; ``InsufficientFunds`` says what the wallet holds."""
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise InvalidAmount(LedgerRefusal.AMOUNT_ABOVE_ZERO)
    now = now or timezone.now()
    policy = player_policy(user=user, now=now)
    if not policy.identity_verified:
        raise WithdrawalRefused(LedgerRefusal.WITHDRAWAL_UNVERIFIED, contact_support=True)
    with transaction.atomic():
        withdrawal = Withdrawal.objects.create(user=user, amount=amount, created_at=now)
        withdrawal_hold(
            user=user,
            amount=amount,
            idempotency_key=f"withdrawal:{withdrawal.pk}:hold",
            ref=withdrawal.ref,
        )
        WithdrawalEvent.objects.create(
            withdrawal=withdrawal,
            status=withdrawal.status,
            detail=f"Requested; {withdrawal.amount_display} held from the wallet",
            at=now,
        )
    return withdrawal


def _decide(*, withdrawal: Withdrawal, staff_user: User, reason: str, target: str) -> Withdrawal:
    staff = check_staff(staff_user)
    reason = check_reason(reason)
    with transaction.atomic():
        locked = Withdrawal.objects.select_for_update().select_related("user").get(pk=withdrawal.pk)
        if locked.status == target:
            return locked  # a double submit: decided already, nothing moves again
        if locked.status != WithdrawalStatus.PENDING:
            raise WithdrawalRefused(
                LedgerRefusal.WITHDRAWAL_DECIDED, status=locked.get_status_display().lower()
            )
        key = f"withdrawal:{locked.pk}:{'approve' if target == 'approved' else 'reject'}"
        if target == WithdrawalStatus.APPROVED:
            withdrawal_pay_out(
                amount=locked.amount,
                idempotency_key=key,
                ref=locked.ref,
                staff_user=staff,
                reason=reason,
            )
            detail = f"Approved and paid out: {reason}"
        else:
            withdrawal_return(
                user=locked.user,
                amount=locked.amount,
                idempotency_key=key,
                ref=locked.ref,
                staff_user=staff,
                reason=reason,
            )
            detail = f"Rejected, {locked.amount_display} returned to the wallet: {reason}"
        locked.status = target
        locked.reason = reason
        locked.decided_by = staff
        locked.decided_at = timezone.now()
        locked.save(update_fields=["status", "reason", "decided_by", "decided_at"])
        WithdrawalEvent.objects.create(
            withdrawal=locked, status=target, detail=detail[:300], staff_user=staff
        )
    return locked


@retry_on_conflict
def withdrawal_approve(*, withdrawal: Withdrawal, staff_user: User, reason: str) -> Withdrawal:
    """Staff paid the withdrawal out (pending withdrawals -> withdrawals), with a reason or
    payout note."""
    return _decide(
        withdrawal=withdrawal,
        staff_user=staff_user,
        reason=reason,
        target=WithdrawalStatus.APPROVED,
    )


@retry_on_conflict
def withdrawal_reject(*, withdrawal: Withdrawal, staff_user: User, reason: str) -> Withdrawal:
    """Staff refused the withdrawal: the held amount goes back to the player's wallet."""
    return _decide(
        withdrawal=withdrawal,
        staff_user=staff_user,
        reason=reason,
        target=WithdrawalStatus.REJECTED,
    )
