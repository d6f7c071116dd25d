"""Typed errors of the ledger. Every refused operation raises a subclass of ``LedgerError``
(itself a ``ValueError``) whose ``message`` can be shown to the player as it is, and leaves the
database unchanged."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django_stubs_ext import StrOrPromise


class LedgerError(ValueError):
    """A refused ledger operation. ``message`` is player-facing; ``details`` carries the
    machine-readable facts (amounts in minor units, keys, references)."""

    default_message: StrOrPromise = _("The payment could not be completed.")

    def __init__(self, message: StrOrPromise | None = None, **details: Any) -> None:
        # A lazy translation becomes text in the language active when it is shown.
        self.message = message or self.default_message
        self.details = details
        super().__init__(self.message)


class InvalidAmount(LedgerError):
    default_message = _("The amount must be a whole positive number of minor units.")


class InvalidCurrency(LedgerError):
    default_message = _("That currency is not available here.")


class CurrencyMismatch(LedgerError):
    default_message = _("Cash and practice chips cannot be mixed in one payment.")


class InvalidReference(LedgerError):
    default_message = _("The payment reference is not valid.")


class InsufficientFunds(LedgerError):
    default_message = _("Not enough money in the wallet.")


class IdempotencyConflict(LedgerError):
    default_message = _("This request was already made with different details.")


class UnbalancedTransaction(LedgerError):
    default_message = _("The payment does not balance.")


class EmptyTransaction(LedgerError):
    default_message = _("There is nothing to pay.")


class AlreadyReversed(LedgerError):
    default_message = _("This transaction has already been reversed.")


class NotReversible(LedgerError):
    default_message = _("This transaction cannot be reversed.")


class PotNotEmpty(LedgerError):
    default_message = _("The pot would not be empty after this payout.")


class PotClosed(LedgerError):
    default_message = _("This game has already been settled; no more entries are taken.")


class RefundExceedsStake(LedgerError):
    default_message = _("The refund is larger than what was paid into this game.")


class ReasonRequired(LedgerError):
    default_message = _("A reason is required.")


class StaffRequired(LedgerError):
    default_message = _("Only staff can do this.")


class UnknownUser(LedgerError):
    default_message = _("No such player.")


class LedgerBusy(LedgerError):
    default_message = _("The cashier is busy right now. Please try again.")


class AppendOnlyViolation(LedgerError):
    default_message = _("Ledger records cannot be changed or deleted; post a reversal instead.")
