"""Writes to the ledger: every movement of money goes through these functions.

All functions are keyword-only and return the ``Transaction`` they posted (or, for a replay, the
one posted the first time). Amounts are ``int`` minor units. Each posting:

1. validates its arguments (``InvalidAmount``, ``InvalidCurrency``, ``InvalidReference``...);
2. in one database transaction (``retry_on_conflict``: serialization failures and deadlocks are
   retried, never surfaced), finds or creates the accounts it touches and locks them all with
   ``SELECT ... FOR UPDATE`` in primary-key order;
3. looks up its idempotency key: the same key with the same request returns the original
   transaction; the same key with a different request raises ``IdempotencyConflict``;
4. checks the business rules under the lock (funds, pot state) and writes one ``Transaction``
   and its balanced ``Entry`` rows. The database adds each entry to its account's cached balance,
   refuses a negative wallet or pot, and refuses to commit an unbalanced transaction.

A refused operation raises a ``LedgerError`` subclass and changes nothing. Called inside an
enclosing ``atomic`` block (a game action), a posting runs in a savepoint of that transaction;
the caller should wrap its whole unit of work in ``retry_on_conflict``.

Idempotency keys name the domain event: ``entry:game:12:seat:3``, ``rejoin:game:12:seat:3:1``,
``refund:game:12:seat:3``, ``settle:game:12``, ``cancel:game:12``, ``reverse:tx:881``.

Modules (import the functions from ``ledger.services``, not from the modules):

* ``wallets``: ``wallet_get_or_create``, ``wallet_deposit``, ``wallet_withdraw``;
* ``pots``: ``pot_hold_entry``, ``pot_hold_rejoin``, ``pot_refund_entry``, ``pot_payout``,
  ``pot_settle``, ``pot_cancel_refund``, ``pot_guarantee_top_up`` (a tournament's guarantee);
* ``corrections``: ``wallet_adjust``, ``transaction_reverse`` (staff, with a reason);
* ``cashier``: ``wallet_deposit_cleared`` (a verified deposit), ``withdrawal_hold``,
  ``withdrawal_pay_out``, ``withdrawal_return``, ``practice_chips_top_up_daily``,
  ``practice_chips_welcome_grant`` (the new player's practice chips);
* ``_posting`` (private): account locking (``accounts_lock``), idempotency, the double-entry
  write; ``_checks`` (private): argument checks and request fingerprints.
"""

from __future__ import annotations

from ..db import retry_on_conflict
from ._checks import MAX_AMOUNT
from ._posting import accounts_lock
from .cashier import (
    PracticeTopUpRefused,
    practice_chips_top_up_daily,
    practice_chips_welcome_grant,
    practice_policy,
    practice_topup_key,
    practice_welcome_key,
    wallet_deposit_cleared,
    withdrawal_hold,
    withdrawal_pay_out,
    withdrawal_return,
)
from .corrections import transaction_reverse, wallet_adjust
from .pots import (
    pot_cancel_refund,
    pot_guarantee_top_up,
    pot_hold_entry,
    pot_hold_rejoin,
    pot_payout,
    pot_refund_entry,
    pot_settle,
)
from .wallets import wallet_deposit, wallet_get_or_create, wallet_withdraw

__all__ = [
    "MAX_AMOUNT",
    "PracticeTopUpRefused",
    "accounts_lock",
    "pot_cancel_refund",
    "pot_guarantee_top_up",
    "pot_hold_entry",
    "pot_hold_rejoin",
    "pot_payout",
    "pot_refund_entry",
    "pot_settle",
    "practice_chips_top_up_daily",
    "practice_chips_welcome_grant",
    "practice_policy",
    "practice_topup_key",
    "practice_welcome_key",
    "retry_on_conflict",
    "transaction_reverse",
    "wallet_adjust",
    "wallet_deposit",
    "wallet_deposit_cleared",
    "wallet_get_or_create",
    "wallet_withdraw",
    "withdrawal_hold",
    "withdrawal_pay_out",
    "withdrawal_return",
]
