"""Database plumbing for the ledger: the conflict retry helper (the SQLite append-only guard is
the backend ``ledger.backends.sqlite3``).

``retry_on_conflict`` runs a function in one database transaction and, when PostgreSQL aborts it
with a serialization failure or a deadlock (or SQLite reports the database locked), rolls back
and runs it again a bounded number of times with a short random back-off. Callers never see those
errors: after the last attempt they get ``LedgerBusy``, a ``LedgerError`` with a player-facing
message. Inside an enclosing ``atomic`` block it cannot retry (the enclosing transaction is the one
that must start again): it then runs the function once in a savepoint, so a refused operation
still leaves the enclosing transaction as it was, and lets conflicts propagate to the owner of the
outermost block (who should wrap its own unit of work in ``retry_on_conflict``).
"""

from __future__ import annotations

import functools
import logging
import random
import time
from collections.abc import Callable
from typing import ParamSpec, TypeVar, overload

from django.db import DatabaseError, connection, transaction

from .errors import LedgerBusy

logger = logging.getLogger(__name__)

P = ParamSpec("P")
R = TypeVar("R")

DEFAULT_ATTEMPTS = 6
# SQLSTATEs worth a retry: serialization_failure, deadlock_detected, lock_not_available.
RETRYABLE_SQLSTATES = frozenset({"40001", "40P01", "55P03"})


def is_retryable(error: BaseException) -> bool:
    """True for the transient conflicts a fresh attempt can succeed after."""
    cause: BaseException | None = error
    while cause is not None:
        sqlstate = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
        if sqlstate in RETRYABLE_SQLSTATES:
            return True
        if "database is locked" in str(cause) or "database table is locked" in str(cause):
            return True
        cause = cause.__cause__
    return False


@overload
def retry_on_conflict(func: Callable[P, R], /) -> Callable[P, R]: ...


@overload
def retry_on_conflict(
    *, attempts: int = DEFAULT_ATTEMPTS, base_delay: float = 0.002
) -> Callable[[Callable[P, R]], Callable[P, R]]: ...


def retry_on_conflict(
    func: Callable[P, R] | None = None,
    /,
    *,
    attempts: int = DEFAULT_ATTEMPTS,
    base_delay: float = 0.002,
) -> Callable[P, R] | Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorator: run the function in ``transaction.atomic()``, retrying transient conflicts.

    Usable bare (``@retry_on_conflict``) or with options
    (``@retry_on_conflict(attempts=3)``)."""

    def decorate(fn: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(fn)
        def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            if connection.in_atomic_block:
                with transaction.atomic():
                    return fn(*args, **kwargs)
            for attempt in range(1, attempts + 1):
                try:
                    with transaction.atomic():
                        return fn(*args, **kwargs)
                except DatabaseError as error:
                    if not is_retryable(error):
                        raise
                    if attempt == attempts:
                        logger.warning("ledger: giving up after %s conflicts: %s", attempt, error)
                        raise LedgerBusy() from error
                    delay = random.uniform(0, base_delay * (2 ** (attempt - 1)))
                    logger.info("ledger: conflict on attempt %s, retrying: %s", attempt, error)
                    time.sleep(min(delay, 0.1))
            raise AssertionError("unreachable")  # pragma: no cover

        return wrapper

    if func is not None:
        return decorate(func)
    return decorate
