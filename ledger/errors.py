"""Typed errors of the ledger. Every refused operation raises a subclass of ``LedgerError``
(itself a ``ValueError``) whose ``message`` can be shown to the player as it is, and leaves the
database unchanged."""

from __future__ import annotations

from typing import Any


class LedgerError(ValueError):
    """A refused ledger operation. ``message`` is player-facing; ``details`` carries the
    machine-readable facts (amounts in minor units, keys, references)."""

    default_message = "The payment could not be completed."

    def __init__(self, message: str | None = None, **details: Any) -> None:
        self.message = message or self.default_message
        self.details = details
        super().__init__(self.message)


class InvalidAmount(LedgerError):
    default_message = "The amount must be a whole positive number of minor units."


class InvalidCurrency(LedgerError):
    default_message = "That currency is not available here."


class CurrencyMismatch(LedgerError):
    default_message = "Cash and practice chips cannot be mixed in one payment."


class InvalidReference(LedgerError):
    default_message = "The payment reference is not valid."


class InsufficientFunds(LedgerError):
    default_message = "Not enough money in the wallet."


class IdempotencyConflict(LedgerError):
    default_message = "This request was already made with different details."


class UnbalancedTransaction(LedgerError):
    default_message = "The payment does not balance."


class EmptyTransaction(LedgerError):
    default_message = "There is nothing to pay."


class AlreadyReversed(LedgerError):
    default_message = "This transaction has already been reversed."


class NotReversible(LedgerError):
    default_message = "This transaction cannot be reversed."


class PotNotEmpty(LedgerError):
    default_message = "The pot would not be empty after this payout."


class PotClosed(LedgerError):
    default_message = "This game has already been settled; no more entries are taken."


class RefundExceedsStake(LedgerError):
    default_message = "The refund is larger than what was paid into this game."


class ReasonRequired(LedgerError):
    default_message = "A reason is required."


class StaffRequired(LedgerError):
    default_message = "Only staff can do this."


class UnknownUser(LedgerError):
    default_message = "No such player."


class LedgerBusy(LedgerError):
    default_message = "The cashier is busy right now. Please try again."


class AppendOnlyViolation(LedgerError):
    default_message = "Ledger records cannot be changed or deleted; post a reversal instead."
