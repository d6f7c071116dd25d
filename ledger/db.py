"""Database plumbing for the ledger: the conflict retry helper and the SQLite append-only guard.

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

import contextlib
import contextvars
import functools
import logging
import random
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, ParamSpec, TypeVar, overload

from django.db import DatabaseError, connection, transaction
from django.db.backends.base.base import BaseDatabaseWrapper

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


# --- SQLite: append-only triggers that still let ``flush`` empty the tables --------------------
#
# On SQLite the triggers installed by migration 0002 refuse UPDATE and DELETE on entries and
# transactions unless ``ledger_purge_allowed()`` returns 1. That SQL function is registered on
# every SQLite connection and returns 1 only while Django's ``flush`` runs (the management command
# and the test runner's teardown between transactional tests), the counterpart of PostgreSQL's
# TRUNCATE, which row triggers do not see. A connection without the function (the sqlite3 shell)
# fails the trigger's condition and so is refused too.

_purge_allowed: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "ledger_purge_allowed", default=False
)


@contextlib.contextmanager
def purge_allowed() -> Iterator[None]:
    token = _purge_allowed.set(True)
    try:
        yield
    finally:
        _purge_allowed.reset(token)


def _purge_allowed_sql() -> int:
    return 1 if _purge_allowed.get() else 0


def sqlite_connection_created(sender: Any, connection: BaseDatabaseWrapper, **kwargs: Any) -> None:
    """``connection_created`` receiver: register the guard function, wrap ``flush``."""
    if connection.vendor != "sqlite":
        return
    connection.connection.create_function("ledger_purge_allowed", 0, _purge_allowed_sql)
    ops = connection.ops
    if getattr(ops, "_ledger_flush_wrapped", False):
        return
    original = ops.execute_sql_flush

    def execute_sql_flush(sql_list: Iterable[str]) -> None:
        with purge_allowed():
            original(sql_list)

    # Wrapping this connection's method on purpose (an attribute set on the instance).
    ops.execute_sql_flush = execute_sql_flush  # type: ignore[method-assign]
    ops._ledger_flush_wrapped = True  # type: ignore[attr-defined]
