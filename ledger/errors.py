"""Typed errors of the ledger. Every refused operation raises a subclass of ``LedgerError``
(itself a ``ValueError``) and leaves the database unchanged.

A refusal carries a ``code`` (a ``LedgerRefusal``), its ``params`` (the values its words use and
the facts code reads: amounts in minor units, keys, references) and an HTTP ``status``. Its words
come from one catalogue, ``LEDGER_WORDS``, keyed by code, and are worded in the language active
when they are shown (``str(exc)``, ``exc.message``): an ``int`` amount param is shown in the
refusal's ``currency``, a ``datetime`` in the local time. No raise site writes a sentence."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from enum import StrEnum
from types import MappingProxyType
from typing import ClassVar, Final

from django.utils import formats, timezone
from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise

from .currencies import CURRENCY_INFO, format_amount

__all__ = [
    "AMOUNT_PARAMS",
    "LEDGER_HINTS",
    "LEDGER_STATUS",
    "LEDGER_WORDS",
    "AlreadyReversed",
    "AppendOnlyViolation",
    "CurrencyMismatch",
    "EmptyTransaction",
    "IdempotencyConflict",
    "InsufficientFunds",
    "InvalidAmount",
    "InvalidCurrency",
    "InvalidReference",
    "LedgerBusy",
    "LedgerError",
    "LedgerRefusal",
    "NotReversible",
    "PotClosed",
    "PotNotEmpty",
    "ReasonRequired",
    "RefundExceedsStake",
    "StaffRequired",
    "UnbalancedTransaction",
    "UnknownUser",
    "ledger_words",
]


class LedgerRefusal(StrEnum):
    """What the ledger (its postings, the cashier and the payments) refuses, one code per
    sentence of ``LEDGER_WORDS``."""

    REFUSED = "refused"
    # amounts, currencies, references
    AMOUNT_INVALID = "amount_invalid"
    AMOUNT_NOT_WHOLE = "amount_not_whole"
    AMOUNT_ZERO = "amount_zero"
    AMOUNT_NEGATIVE = "amount_negative"
    AMOUNT_TOO_LARGE = "amount_too_large"
    AMOUNT_IN_RUPEES = "amount_in_rupees"
    AMOUNT_ABOVE_ZERO = "amount_above_zero"
    CURRENCY_UNAVAILABLE = "currency_unavailable"
    CURRENCY_UNKNOWN = "currency_unknown"
    NOT_WITHDRAWABLE = "not_withdrawable"
    CURRENCY_MISMATCH = "currency_mismatch"
    POT_CURRENCY = "pot_currency"
    ACCOUNT_CURRENCY = "account_currency"
    REFERENCE_INVALID = "reference_invalid"
    REFERENCE_MALFORMED = "reference_malformed"
    KEY_INVALID = "key_invalid"
    # who asks
    REASON_REQUIRED = "reason_required"
    STAFF_REQUIRED = "staff_required"
    NO_SUCH_PLAYER = "no_such_player"
    NO_PLAYER_WITH_ID = "no_player_with_id"
    PAYOUT_KEY = "payout_key"
    # postings
    INSUFFICIENT_FUNDS = "insufficient_funds"
    WALLET_SHORT = "wallet_short"
    IDEMPOTENCY_CONFLICT = "idempotency_conflict"
    UNBALANCED = "unbalanced"
    UNBALANCED_BY = "unbalanced_by"
    NOTHING_TO_PAY = "nothing_to_pay"
    ALREADY_REVERSED = "already_reversed"
    NOT_REVERSIBLE = "not_reversible"
    NO_SUCH_TRANSACTION = "no_such_transaction"
    REVERSAL_NOT_REVERSIBLE = "reversal_not_reversible"
    BUSY = "busy"
    APPEND_ONLY = "append_only"
    # pots
    POT_NOT_EMPTY = "pot_not_empty"
    POT_LEFT_BEHIND = "pot_left_behind"
    POT_SHORT = "pot_short"
    POT_SHORT_OF_PAYOUT = "pot_short_of_payout"
    POT_CLOSED = "pot_closed"
    POT_PAID_OUT = "pot_paid_out"
    POT_KEPT_CHANGING = "pot_kept_changing"
    POT_MISMATCH = "pot_mismatch"
    PAYOUTS_NOT_MAPPING = "payouts_not_mapping"
    REFUND_EXCEEDS_STAKE = "refund_exceeds_stake"
    REFUND_MORE_THAN_PAID = "refund_more_than_paid"
    # the cashier
    PRACTICE_NOT_NOW = "practice_not_now"
    PRACTICE_OVER_CAP = "practice_over_cap"
    PRACTICE_HAD_TODAY = "practice_had_today"
    MONEY_GAMES_OFF = "money_games_off"
    DEPOSIT_REFUSED = "deposit_refused"
    DEPOSIT_TOO_SMALL = "deposit_too_small"
    DEPOSIT_TOO_LARGE = "deposit_too_large"
    DEPOSIT_SELF_EXCLUDED = "deposit_self_excluded"
    DEPOSIT_DAILY_LIMIT = "deposit_daily_limit"
    DEPOSIT_MONTHLY_LIMIT = "deposit_monthly_limit"
    DEPOSIT_FITS_AGAIN = "deposit_fits_again"
    NO_SUCH_DEPOSIT = "no_such_deposit"
    DEPOSIT_NOT_PENDING = "deposit_not_pending"
    WITHDRAWAL_REFUSED = "withdrawal_refused"
    WITHDRAWAL_UNVERIFIED = "withdrawal_unverified"
    WITHDRAWAL_DECIDED = "withdrawal_decided"
    # payment providers (their callbacks: answered to the provider and logged)
    PAYMENTS_UNAVAILABLE = "payments_unavailable"
    PROVIDER_UNKNOWN = "provider_unknown"
    PROVIDER_NOT_CONFIGURED = "provider_not_configured"
    CALLBACK_REFUSED = "callback_refused"
    CALLBACK_NO_SECRET = "callback_no_secret"
    CALLBACK_BAD_SIGNATURE = "callback_bad_signature"
    CALLBACK_FUTURE_SIGNATURE = "callback_future_signature"
    CALLBACK_TOO_LARGE = "callback_too_large"
    CALLBACK_NOT_AN_EVENT = "callback_not_an_event"
    CALLBACK_UNREADABLE = "callback_unreadable"
    CALLBACK_UNKNOWN_STATUS = "callback_unknown_status"
    CALLBACK_NOT_OURS = "callback_not_ours"
    CALLBACK_UNKNOWN_DEPOSIT = "callback_unknown_deposit"
    CALLBACK_AMOUNT_DIFFERS = "callback_amount_differs"
    CALLBACK_MONEY_OFF = "callback_money_off"
    CALLBACK_MONEY_OFF_PAID = "callback_money_off_paid"
    REFUND_NO_PAYMENT = "refund_no_payment"
    REFUND_UNKNOWN_DEPOSIT = "refund_unknown_deposit"
    REFUND_NOT_PAID = "refund_not_paid"
    CHECKOUT_OUTCOME_UNKNOWN = "checkout_outcome_unknown"


L = LedgerRefusal
LEDGER_WORDS: Final[Mapping[LedgerRefusal, StrOrPromise]] = MappingProxyType(
    {
        L.REFUSED: _("The payment could not be completed."),
        L.AMOUNT_INVALID: _("The amount must be a whole positive number of minor units."),
        L.AMOUNT_NOT_WHOLE: _("Amounts must be whole numbers of minor units."),
        L.AMOUNT_ZERO: _("The amount cannot be zero."),
        L.AMOUNT_NEGATIVE: _("The amount cannot be negative."),
        L.AMOUNT_TOO_LARGE: _("The amount is too large."),
        L.AMOUNT_IN_RUPEES: _("Enter an amount in rupees."),
        L.AMOUNT_ABOVE_ZERO: _("Enter an amount above ₹0.00."),
        L.CURRENCY_UNAVAILABLE: _("That currency is not available here."),
        L.CURRENCY_UNKNOWN: _("Unknown currency %(currency)s."),
        L.NOT_WITHDRAWABLE: _("%(label)s cannot be withdrawn."),
        L.CURRENCY_MISMATCH: _("Cash and practice chips cannot be mixed in one payment."),
        L.POT_CURRENCY: _("The pot %(pot_ref)s is played in %(played)s, not %(asked)s."),
        L.ACCOUNT_CURRENCY: _("This account is played in %(played)s, not %(asked)s."),
        L.REFERENCE_INVALID: _("The payment reference is not valid."),
        L.REFERENCE_MALFORMED: _("Invalid reference %(ref)s: expected a form like 'game:12'."),
        L.KEY_INVALID: _("Every posting needs an idempotency key of 1 to 200 characters."),
        L.REASON_REQUIRED: _("A reason is required."),
        L.STAFF_REQUIRED: _("Only an active staff member can do this."),
        L.NO_SUCH_PLAYER: _("No such player."),
        L.NO_PLAYER_WITH_ID: _("No player with id %(user_id)s."),
        L.PAYOUT_KEY: _("Payouts are keyed by user id, not %(key)s."),
        L.INSUFFICIENT_FUNDS: _("Not enough money in the wallet."),
        L.WALLET_SHORT: _(
            "Not enough money in the wallet: it holds %(balance)s and this needs %(required)s."
        ),
        L.IDEMPOTENCY_CONFLICT: _("This request was already made with different details."),
        L.UNBALANCED: _("The payment does not balance."),
        L.UNBALANCED_BY: _("The payment does not balance (off by %(total)s)."),
        L.NOTHING_TO_PAY: _("There is nothing to pay."),
        L.ALREADY_REVERSED: _("This transaction has already been reversed."),
        L.NOT_REVERSIBLE: _("This transaction cannot be reversed."),
        L.NO_SUCH_TRANSACTION: _("No such transaction."),
        L.REVERSAL_NOT_REVERSIBLE: _("A reversal cannot be reversed; post an adjustment instead."),
        L.BUSY: _("The cashier is busy right now. Please try again."),
        L.APPEND_ONLY: _("Ledger records cannot be changed or deleted; post a reversal instead."),
        L.POT_NOT_EMPTY: _("The pot would not be empty after this payout."),
        L.POT_LEFT_BEHIND: _(
            "The pot %(pot_ref)s holds %(pot_balance)s; paying %(total)s would leave %(rest)s "
            "behind."
        ),
        L.POT_SHORT: _("The pot %(pot_ref)s holds only %(balance)s."),
        L.POT_SHORT_OF_PAYOUT: _(
            "The pot %(pot_ref)s holds %(pot_balance)s, less than the %(total)s to pay."
        ),
        L.POT_CLOSED: _("This game has already been settled; no more entries are taken."),
        L.POT_PAID_OUT: _("This game has already been paid out."),
        L.POT_KEPT_CHANGING: _("The pot kept changing; try again."),
        L.POT_MISMATCH: _(
            "The pot %(pot_ref)s does not match what the players paid in; staff must settle it."
        ),
        L.PAYOUTS_NOT_MAPPING: _("Payouts must map user ids to amounts."),
        L.REFUND_EXCEEDS_STAKE: _("The refund is larger than what was paid into this game."),
        L.REFUND_MORE_THAN_PAID: _("Cannot refund %(amount)s: %(paid)s was paid into %(pot_ref)s."),
        L.PRACTICE_NOT_NOW: _("No free practice chips now."),
        L.PRACTICE_OVER_CAP: _(
            "Free practice chips are for balances under %(cap)s; you have %(balance)s."
        ),
        L.PRACTICE_HAD_TODAY: _("You already had today's free practice chips. Come back tomorrow."),
        L.MONEY_GAMES_OFF: _(
            "Money games are off on this site: only practice chips are played here."
        ),
        L.DEPOSIT_REFUSED: _("This deposit cannot be taken."),
        L.DEPOSIT_TOO_SMALL: _("The smallest deposit is %(amount)s."),
        L.DEPOSIT_TOO_LARGE: _("The largest deposit is %(amount)s."),
        L.DEPOSIT_SELF_EXCLUDED: _(
            "You have excluded yourself from money games until %(until)s: no deposits until then."
        ),
        L.DEPOSIT_DAILY_LIMIT: _(
            "That is over your daily deposit limit of %(limit)s (counted over the last 24 "
            "hours): you can deposit %(left)s more now."
        ),
        L.DEPOSIT_MONTHLY_LIMIT: _(
            "That is over your monthly deposit limit of %(limit)s (counted over the last 30 "
            "days): you can deposit %(left)s more now."
        ),
        L.DEPOSIT_FITS_AGAIN: _("From %(allowed_from)s, %(amount)s fits again."),
        L.NO_SUCH_DEPOSIT: _("There is no such deposit in your wallet."),
        L.DEPOSIT_NOT_PENDING: _(
            "This deposit is no longer pending (%(status)s): there is nothing to cancel."
        ),
        L.WITHDRAWAL_REFUSED: _("This withdrawal cannot be made."),
        L.WITHDRAWAL_UNVERIFIED: _(
            "Withdrawals need a verified identity, and our staff have not verified yours yet. "
            "Please contact support."
        ),
        L.WITHDRAWAL_DECIDED: _("This withdrawal was already decided: %(status)s."),
        L.PAYMENTS_UNAVAILABLE: _("Payments are not available."),
        L.PROVIDER_UNKNOWN: _("Unknown payment provider %(provider)s."),
        L.PROVIDER_NOT_CONFIGURED: _("%(provider)s is not configured (%(setting)s)."),
        L.CALLBACK_REFUSED: _("The payment callback was refused."),
        L.CALLBACK_NO_SECRET: _("The %(provider)s callbacks have no signing secret configured."),
        L.CALLBACK_BAD_SIGNATURE: _("The %(provider)s signature does not match."),
        L.CALLBACK_FUTURE_SIGNATURE: _("The %(provider)s signature is dated in the future."),
        L.CALLBACK_TOO_LARGE: _("The callback body is too large."),
        L.CALLBACK_NOT_AN_EVENT: _("The callback body is not a %(provider)s payment event."),
        L.CALLBACK_UNREADABLE: _("The %(provider)s event could not be read."),
        L.CALLBACK_UNKNOWN_STATUS: _("The callback names an unknown status or currency."),
        L.CALLBACK_NOT_OURS: _("The %(provider)s event names no reference of ours or not INR."),
        L.CALLBACK_UNKNOWN_DEPOSIT: _("The callback names no deposit of ours."),
        L.CALLBACK_AMOUNT_DIFFERS: _("The callback amount differs from the deposit."),
        L.CALLBACK_MONEY_OFF: _("Money games are off: nothing credited."),
        L.CALLBACK_MONEY_OFF_PAID: _(
            "Money games are off: nothing credited; the provider reports it paid: flagged, "
            "refund it at the provider."
        ),
        L.REFUND_NO_PAYMENT: _("The refund names no payment."),
        L.REFUND_UNKNOWN_DEPOSIT: _("The refund names no deposit of ours (yet)."),
        L.REFUND_NOT_PAID: _("A refund of a deposit that is not paid (yet)."),
        L.CHECKOUT_OUTCOME_UNKNOWN: _("Unknown checkout outcome."),
    }
)

# The HTTP status a page or a callback answers a refusal with: 400 unless named here.
LEDGER_STATUS: Final[Mapping[LedgerRefusal, int]] = MappingProxyType(
    {
        L.STAFF_REQUIRED: 403,
        L.MONEY_GAMES_OFF: 403,
        L.DEPOSIT_SELF_EXCLUDED: 403,
        L.WITHDRAWAL_UNVERIFIED: 403,
        L.NO_SUCH_PLAYER: 404,
        L.NO_PLAYER_WITH_ID: 404,
        L.NO_SUCH_TRANSACTION: 404,
        L.NO_SUCH_DEPOSIT: 404,
        L.IDEMPOTENCY_CONFLICT: 409,
        L.ALREADY_REVERSED: 409,
        L.BUSY: 409,
        L.APPEND_ONLY: 409,
        L.POT_CLOSED: 409,
        L.POT_PAID_OUT: 409,
        L.POT_KEPT_CHANGING: 409,
        L.POT_MISMATCH: 409,
        L.PRACTICE_HAD_TODAY: 409,
        L.DEPOSIT_NOT_PENDING: 409,
        L.WITHDRAWAL_DECIDED: 409,
        L.PAYMENTS_UNAVAILABLE: 503,
        L.PROVIDER_UNKNOWN: 503,
        L.PROVIDER_NOT_CONFIGURED: 503,
    }
)

# A code's second sentence, added when its param is set (not None): from when a deposit over
# a limit fits again.
LEDGER_HINTS: Final[Mapping[LedgerRefusal, tuple[str, LedgerRefusal]]] = MappingProxyType(
    {
        L.DEPOSIT_DAILY_LIMIT: ("allowed_from", L.DEPOSIT_FITS_AGAIN),
        L.DEPOSIT_MONTHLY_LIMIT: ("allowed_from", L.DEPOSIT_FITS_AGAIN),
    }
)
del L

# Params that are amounts in minor units of the refusal's ``currency`` param: an ``int`` among
# them is shown as money (``format_amount``) when the words are shown.
AMOUNT_PARAMS: Final = frozenset(
    {
        "amount",
        "balance",
        "cap",
        "left",
        "limit",
        "paid",
        "pot_balance",
        "required",
        "rest",
        "total",
    }
)


def _shown(name: str, value: object, currency: object) -> object:
    """A param as the words show it, in the active language."""
    if (
        name in AMOUNT_PARAMS
        and isinstance(value, int)
        and not isinstance(value, bool)
        and isinstance(currency, str)
        and currency in CURRENCY_INFO
    ):
        return format_amount(value, currency)
    if isinstance(value, datetime):
        return formats.date_format(timezone.localtime(value), "DATETIME_FORMAT")
    return value


def ledger_words(exc: LedgerError) -> str:
    """The refusal ``exc`` in the active language: its code's sentence with its params (and the
    sentence of a hint whose param is set)."""
    currency = exc.params.get("currency")
    shown = {name: _shown(name, value, currency) for name, value in exc.params.items()}
    text = LEDGER_WORDS[exc.code] % shown
    if exc.code in LEDGER_HINTS:
        param, hint = LEDGER_HINTS[exc.code]
        if exc.params.get(param) is not None:
            text = f"{text} {LEDGER_WORDS[hint] % shown}"
    return text


class LedgerError(ValueError):
    """A refused ledger operation: a ``code`` (the class's ``default_code`` when none is given),
    its ``params`` and the HTTP ``status``; ``str(exc)`` and ``message`` are the player's words.
    ``details`` is ``params`` by its older name (the facts code reads: ``balance``...)."""

    default_code: ClassVar[LedgerRefusal] = LedgerRefusal.REFUSED

    def __init__(self, code: LedgerRefusal | None = None, /, **params: object) -> None:
        self.code = LedgerRefusal(code) if code is not None else self.default_code
        self.params: dict[str, object] = params
        super().__init__(self.code.value)

    @property
    def status(self) -> int:
        return LEDGER_STATUS.get(self.code, 400)

    @property
    def details(self) -> dict[str, object]:
        return self.params

    @property
    def message(self) -> str:
        return ledger_words(self)

    def __str__(self) -> str:
        return ledger_words(self)


class InvalidAmount(LedgerError):
    default_code = LedgerRefusal.AMOUNT_INVALID


class InvalidCurrency(LedgerError):
    default_code = LedgerRefusal.CURRENCY_UNAVAILABLE


class CurrencyMismatch(LedgerError):
    default_code = LedgerRefusal.CURRENCY_MISMATCH


class InvalidReference(LedgerError):
    default_code = LedgerRefusal.REFERENCE_INVALID


class InsufficientFunds(LedgerError):
    default_code = LedgerRefusal.INSUFFICIENT_FUNDS


class IdempotencyConflict(LedgerError):
    default_code = LedgerRefusal.IDEMPOTENCY_CONFLICT


class UnbalancedTransaction(LedgerError):
    default_code = LedgerRefusal.UNBALANCED


class EmptyTransaction(LedgerError):
    default_code = LedgerRefusal.NOTHING_TO_PAY


class AlreadyReversed(LedgerError):
    default_code = LedgerRefusal.ALREADY_REVERSED


class NotReversible(LedgerError):
    default_code = LedgerRefusal.NOT_REVERSIBLE


class PotNotEmpty(LedgerError):
    default_code = LedgerRefusal.POT_NOT_EMPTY


class PotClosed(LedgerError):
    default_code = LedgerRefusal.POT_CLOSED


class RefundExceedsStake(LedgerError):
    default_code = LedgerRefusal.REFUND_EXCEEDS_STAKE


class ReasonRequired(LedgerError):
    default_code = LedgerRefusal.REASON_REQUIRED


class StaffRequired(LedgerError):
    default_code = LedgerRefusal.STAFF_REQUIRED


class UnknownUser(LedgerError):
    default_code = LedgerRefusal.NO_SUCH_PLAYER


class LedgerBusy(LedgerError):
    default_code = LedgerRefusal.BUSY


class AppendOnlyViolation(LedgerError):
    default_code = LedgerRefusal.APPEND_ONLY
