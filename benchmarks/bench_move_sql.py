"""What one socket move costs the database: its SQL statements and its transactions.

Run from the repository root::

    .venv/bin/python benchmarks/bench_move_sql.py [--moves 60] [--database-url postgres://...]
        [--show]

Sets up a throw-away database (SQLite in memory by default; with ``--database-url`` a fresh
``test_<name>`` database on that PostgreSQL server), seats six players at a Pool 101 table with
every seat's socket counted open (``presence``), and plays ``--moves`` moves (pick from the
closed deck, discard the card drawn) through ``tables.live.moves.socket_move``, the function a
socket's ``move`` message runs: the action, its commit and the pushes after it. Printed: the
statements per move and the transactions per move, counted as the server sees them (a
statement outside an atomic block is a transaction of its own; an outermost atomic block that
ran a statement is one), and on PostgreSQL also from ``pg_stat_database.xact_commit``.
``--show`` prints the statements of the last pick and the last discard, each marked with the
transaction it ran in.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


@dataclass
class Counted:
    """The statements one block ran, each with the number of the transaction it ran in."""

    statements: list[tuple[int, str]] = field(default_factory=list)

    @property
    def transactions(self) -> int:
        return len({number for number, _sql in self.statements})


@contextmanager
def statements_counted() -> Iterator[Counted]:
    """Count the statements run on the default connection in the block and the transactions
    they ran in: each statement outside an atomic block is a transaction of its own (autocommit),
    the statements of one outermost atomic block are one transaction."""
    from django.db import connection, transaction

    counted = Counted()
    blocks = [0]  # outermost atomic blocks entered so far
    number = [0]  # transactions seen so far
    seen_block = [-1]
    enter: Callable[[Any], Any] = transaction.Atomic.__enter__

    def entered(self: Any) -> Any:
        if not connection.in_atomic_block:
            blocks[0] += 1
        return enter(self)

    def wrapper(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if sql.startswith("BEGIN"):  # SQLite's start of an atomic block: not a statement
            return execute(sql, params, many, context)
        if not connection.in_atomic_block:
            number[0] += 1
        elif seen_block[0] != blocks[0]:
            seen_block[0] = blocks[0]
            number[0] += 1
        counted.statements.append((number[0], sql))
        return execute(sql, params, many, context)

    transaction.Atomic.__enter__ = entered  # type: ignore[method-assign]
    try:
        with connection.execute_wrapper(wrapper):
            yield counted
    finally:
        transaction.Atomic.__enter__ = enter  # type: ignore[method-assign]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args()
    from benchmarks.in_memory import django_in_memory

    django_in_memory(args.database_url)
    run(args.moves, show=args.show)


def _xact_commits() -> int | None:
    """This database's committed transactions as PostgreSQL counts them (``None``: SQLite),
    after this connection's own counts are flushed; reading costs two transactions."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_force_next_flush()")
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"
        )
        row = cursor.fetchone()
    return int(row[0]) if row else None


def run(moves: int, *, show: bool) -> None:
    from django.conf import settings

    from benchmarks.bench_push import six_seat_table
    from benchmarks.bench_socket import next_move
    from tables.live import presence
    from tables.live.moves import socket_move

    settings.SOCKET_MESSAGES_PER_S = 1000.0
    table, users = six_seat_table("sql")
    for user in users:
        presence.socket_opened(table_id=table.pk, user_id=user.pk)
    # What reading the counts costs by itself (its own transactions), measured.
    first, second = _xact_commits(), _xact_commits()
    reading = None if first is None or second is None else second - first
    per_move: dict[str, list[tuple[int, int, int | None]]] = {"pick_closed": [], "discard": []}
    last: dict[str, Counted] = {}
    for _ in range(moves):
        found = next_move(table)
        if found is None:
            break
        seat_no, fields = found
        before = _xact_commits()
        with statements_counted() as counted:
            done = socket_move(table_id=table.pk, user=users[seat_no - 1], fields=fields)
        after = _xact_commits()
        if done.version is None:
            raise SystemExit(f"move refused: {done.refused}")
        pg = None if before is None or after is None or reading is None else after - before
        pg = None if pg is None or reading is None else pg - reading
        per_move[fields["action"]].append((len(counted.statements), counted.transactions, pg))
        last[fields["action"]] = counted
    vendor = "PostgreSQL" if settings.DATABASE_IS_POSTGRES else "SQLite"
    for action, rows in per_move.items():
        if not rows:
            continue
        statements = statistics.median(r[0] for r in rows)
        transactions = statistics.median(r[1] for r in rows)
        line = f"{action} ({len(rows)} moves, {vendor}): {statements:g} statements"
        line += f", {transactions:g} transactions"
        pg_counts = [r[2] for r in rows if r[2] is not None]
        if pg_counts:
            line += f" (pg_stat_database: {statistics.median(pg_counts):g})"
        print(line)
    if show:
        for action, counted in last.items():
            print(f"--- {action}")
            for number, sql in counted.statements:
                print(f"[{number}] {sql[:300]}")


if __name__ == "__main__":
    main()
