"""Django's SQLite backend with the ledger's append-only guard (``ENGINE =
"ledger.backends.sqlite3"``, the embedded default of ``rummy_site/settings.py``): Django's own
``DatabaseWrapper`` subclassed, as its database documentation provides for.

On SQLite the triggers installed by migration 0002 refuse UPDATE and DELETE on entries and
transactions unless ``ledger_purge_allowed()`` returns 1. This backend registers that SQL function
on every connection it opens, and it returns 1 only while Django's ``flush`` runs (the management
command and the test runner's teardown between transactional tests): the counterpart of
PostgreSQL's TRUNCATE, which row triggers do not see. A connection without the function (the
sqlite3 shell, or Django's plain SQLite backend) fails the trigger's condition and so is refused
too.
"""

from __future__ import annotations

import contextlib
import contextvars
import sqlite3
from collections.abc import Iterable, Iterator
from typing import Any

from django.db.backends.sqlite3 import base, operations

_purge_allowed: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "ledger_purge_allowed", default=False
)


@contextlib.contextmanager
def purge_allowed() -> Iterator[None]:
    """Let the ledger's DELETE triggers pass while the block runs (``flush`` only)."""
    token = _purge_allowed.set(True)
    try:
        yield
    finally:
        _purge_allowed.reset(token)


def _purge_allowed_sql() -> int:
    return 1 if _purge_allowed.get() else 0


class DatabaseOperations(operations.DatabaseOperations):
    def execute_sql_flush(self, sql_list: Iterable[str]) -> None:
        with purge_allowed():
            super().execute_sql_flush(sql_list)


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations

    def get_new_connection(self, conn_params: Any) -> sqlite3.Connection:
        conn: sqlite3.Connection = super().get_new_connection(conn_params)
        conn.create_function("ledger_purge_allowed", 0, _purge_allowed_sql)
        return conn
