"""Django's PostgreSQL backend whose pooled connections are checked without a round trip
(``ENGINE = "rummy_site.backends.postgresql"``, set by ``rummy_site/settings.py`` when
``DATABASE_URL`` is given): Django's own ``DatabaseWrapper`` subclassed, as its database
documentation provides for.

Django's health check on a pooled connection is psycopg's ``check_connection``: an empty query
sent every time the pool hands a connection out. That is a round trip to the server before every
move on the table socket, and PostgreSQL counts it as a transaction of its own
(``pg_stat_database``), so a move was two.

A connection that waits in the pool has nothing to read: the server speaks only when asked. If
its socket is readable, the server has said something unasked: it ended the session
(``pg_terminate_backend``, a restart, an idle timeout: an error message, then the end of the
stream) or sent a notice. Only then does this backend run psycopg's check, and a connection that
fails it is closed and handed back (the pool drops it) before another is taken. A connection that
is dead without a word from the server (a network cut) fails on its first statement, as it would
have failed the check; the pool drops it when it comes back broken.
"""

from __future__ import annotations

import select
from typing import Any

import psycopg
from django.db.backends.postgresql import base
from psycopg.rows import TupleRow
from psycopg_pool import ConnectionPool

Connection = psycopg.Connection[TupleRow]


def said_something(connection: Connection) -> bool:
    """Whether the server has sent anything to this idle connection (without reading it)."""
    if connection.closed:
        return True
    # poll, not select: a web process holding thousands of sockets has descriptors past select's
    # limit (FD_SETSIZE, 1024).
    waiting = select.poll()
    waiting.register(connection.fileno(), select.POLLIN)
    return bool(waiting.poll(0))


def usable(connection: Connection) -> bool:
    """The pooled connection is fit to hand out: the server has said nothing since it was
    used, or psycopg's check (a round trip) passes."""
    if not said_something(connection):
        return True
    try:
        ConnectionPool.check_connection(connection)
    except psycopg.Error:
        return False
    return True


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params: dict[str, Any]) -> Connection:
        connection: Connection = super().get_new_connection(conn_params)
        # Django's own attribute (the process's pool of this alias), unknown to django-stubs.
        pool: ConnectionPool[Connection] | None = getattr(self, "pool", None)
        if pool is None:
            return connection
        # Every connection the pool holds may have been ended at once (a restart): try each.
        for _ in range(pool.max_size + 1):
            if usable(connection):
                return connection
            connection.close()
            pool.putconn(connection)  # closed: the pool drops it and opens another
            connection = super().get_new_connection(conn_params)
        return connection
