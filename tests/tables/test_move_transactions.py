"""What a move made on the table's socket costs the database, all of it (the action, its commit
and the pushes after it, every seat with a socket open): one transaction of three statements on
PostgreSQL (the game locked with its table, the seats, the move logged and the game saved in
one statement), four on SQLite (the move and the game apart), one more (the newest deal) only
when this process did not commit the version the game is at. A form's
arrangement, which names no game, finds the table's live game in the same transaction.

Transactions are counted as the database sees them: a statement outside an atomic block is a
transaction of its own, an outermost atomic block that ran statements is one."""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.db import DEFAULT_DB_ALIAS, connections
from tables_testkit import TableDriver

from tables.live import presence
from tables.live.moves import socket_move
from tables.services import _context

pytestmark = pytest.mark.django_db(transaction=True)

# the game with its table (locked), the seats (locked), the move and the game (one statement
# on PostgreSQL: ``tables.services._saved``)
MOVE_STATEMENTS = 3 if connections[DEFAULT_DB_ALIAS].vendor == "postgresql" else 4
MOVE_STATEMENTS_UNKNOWN_DEAL = MOVE_STATEMENTS + 1  # and the newest deal


@dataclass
class Counted:
    statements: list[str] = field(default_factory=list)
    transactions: int = 0
    pending: bool = False  # an atomic block ran a statement since the last commit


@contextmanager
def counted() -> Iterator[Counted]:
    """The statements run in the block, and the transactions they made."""
    seen = Counted()
    wrapper_of = connections[DEFAULT_DB_ALIAS]  # this thread's connection

    def ended(end: Callable[[], None]) -> Callable[[], None]:
        def wrapped() -> None:
            if seen.pending:
                seen.transactions += 1
                seen.pending = False
            end()

        return wrapped

    def wrapper(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if not sql.startswith("BEGIN"):  # SQLite's start of an atomic block
            seen.statements.append(sql)
            if wrapper_of.in_atomic_block:
                seen.pending = True
            else:
                seen.transactions += 1
        return execute(sql, params, many, context)

    wrapper_of.commit = ended(wrapper_of.commit)  # type: ignore[method-assign]
    wrapper_of.rollback = ended(wrapper_of.rollback)  # type: ignore[method-assign]
    try:
        with wrapper_of.execute_wrapper(wrapper):
            yield seen
    finally:
        del wrapper_of.commit, wrapper_of.rollback  # the class's own again


@pytest.fixture
def t(seated: Callable[..., TableDriver], toss: Callable[[int], None]) -> TableDriver:
    """Three players seated, seat 1 to play, every seat's socket counted open (its parts are
    rendered and pushed after each move)."""
    toss(1)
    driver = seated(3, turn_s=30, extra_time_s=0)
    for user in driver.users.values():
        presence.socket_opened(table_id=driver.table.pk, user_id=user.pk)
    return driver


def _fields(t: TableDriver, action: str, **extra: str) -> dict[str, str]:
    game = t.game()
    return {"action": action, "version": str(game.version), "game": str(game.pk), **extra}


def test_a_pick_and_a_discard_are_one_transaction_of_four_statements(t: TableDriver) -> None:
    fields = _fields(t, "pick_closed")
    with counted() as pick:
        assert socket_move(table_id=t.table.pk, user=t.users[1], fields=fields).version
    fields = _fields(t, "discard", card=t.view(1)["hand"]["picked"])
    with counted() as discard:
        assert socket_move(table_id=t.table.pk, user=t.users[1], fields=fields).version
    for seen in (pick, discard):
        assert seen.transactions == 1, seen.statements
        assert len(seen.statements) == MOVE_STATEMENTS, "\n".join(seen.statements)
        if MOVE_STATEMENTS == 3:  # the move's row and the game's in one statement
            assert seen.statements[-1].startswith('WITH logged AS (INSERT INTO "tables_move"')
            assert 'UPDATE "tables_game"' in seen.statements[-1]


def test_the_newest_deal_is_read_when_this_process_did_not_commit_the_version(
    t: TableDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_context, "_DEALS", OrderedDict())  # as if another process had moved
    fields = _fields(t, "pick_closed")
    with counted() as pick:
        assert socket_move(table_id=t.table.pk, user=t.users[1], fields=fields).version
    assert pick.transactions == 1, pick.statements
    assert len(pick.statements) == MOVE_STATEMENTS_UNKNOWN_DEAL, "\n".join(pick.statements)
    assert sum('"tables_deal"' in sql for sql in pick.statements) == 1


def test_an_arrangement_finds_the_live_game_in_its_own_transaction(t: TableDriver) -> None:
    groups = t.view(1)["hand"]["groups"]
    fields = {"action": "arrange", "version": "0", "groups": json.dumps(groups[::-1])}
    before = t.game().version
    with counted() as arrange:
        done = socket_move(table_id=t.table.pk, user=t.users[1], fields=fields)
    assert done.version == before + 1
    assert arrange.transactions == 1, arrange.statements
    assert len(arrange.statements) == MOVE_STATEMENTS, "\n".join(arrange.statements)
