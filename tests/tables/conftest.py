"""Fixtures of the tables tests: templates, tables, funded players, the clock and the planter."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from classic_helpers import ClassicPlanter
from tables_testkit import Clock, Planter, TableDriver, assert_reconciled, fund

from tables import services
from tables.models import Table, TableTemplate
from tables.services import _context

_names = itertools.count(1)


@pytest.fixture(autouse=True)
def _fast_settings(settings: Any) -> None:
    """Timers run through the sweep unless a test asks for Celery; passwords hash fast. The
    deadline grace is 0 so timing tests count exact seconds; the grace tests set their own."""
    settings.TIMERS_BACKEND = "loop"
    settings.DEADLINE_GRACE_S = 0.0
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _reconciled_after_each_test(request: pytest.FixtureRequest) -> Iterator[None]:
    """After every test that used the database, the ledger reconciliation (game pots, entry
    fees and settlements included) must pass. A test that breaks the books on purpose asks for
    ``allow_discrepancies``."""
    marker = request.node.get_closest_marker("django_db")
    names = set(request.fixturenames)
    transactional = "transactional_db" in names or bool(
        marker is not None and marker.kwargs.get("transaction")
    )
    uses_db = transactional or "db" in names or marker is not None
    if uses_db:
        # Set the database up before this fixture, so it is torn down after the check below.
        request.getfixturevalue("transactional_db" if transactional else "db")
    yield
    if uses_db and "allow_discrepancies" not in names:
        assert_reconciled()


@pytest.fixture
def allow_discrepancies() -> None:
    """Opt out of the reconciliation after the test."""


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    c = Clock()
    monkeypatch.setattr(_context, "_clock", c)
    return c


@pytest.fixture
def planter(monkeypatch: pytest.MonkeyPatch) -> Planter:
    p = Planter()
    monkeypatch.setattr(_context, "deal_shoe_new", p)
    return p


@pytest.fixture
def classic_planter(monkeypatch: pytest.MonkeyPatch) -> ClassicPlanter:
    """Classic (10-card) deals planted: the hands the test queues are the ones dealt."""
    planter = ClassicPlanter()
    monkeypatch.setattr(_context, "deal_shoe_new", planter)
    return planter


@pytest.fixture
def toss(monkeypatch: pytest.MonkeyPatch) -> Callable[[int], None]:
    """``toss(seat)`` makes ``seat`` win every toss."""

    def set_toss(seat: int) -> None:
        monkeypatch.setattr(_context, "game_toss", lambda *, game, seats: seat)

    return set_toss


@pytest.fixture
def template_factory(db: Any) -> Callable[..., TableTemplate]:
    def make(**fields: Any) -> TableTemplate:
        fields.setdefault("name", f"Template {next(_names)}")
        fields.setdefault("variant", "pool101")
        fields.setdefault("seats_min", 2)
        fields.setdefault("seats_max", 3)
        fields.setdefault("currency", "cash")
        if fields["variant"] == "points":
            fields.setdefault("point_value", 10)
        else:
            fields.setdefault("entry_fee", 1000)
        template = TableTemplate(**fields)
        template.full_clean()
        template.save()
        return template

    return make


@pytest.fixture
def practice_pool(template_factory: Callable[..., TableTemplate]) -> TableTemplate:
    """A practice Pool 101 template private tables are made from: two or three seats, and two
    computer players who sit down after 20 s without a second person."""
    return template_factory(
        name="Practice Pool 101",
        currency="practice",
        entry_fee=100,
        practice=True,
        seats_min=2,
        seats_max=3,
        bot_count=2,
        human_wait_s=20,
    )


@pytest.fixture
def table_factory(template_factory: Callable[..., TableTemplate]) -> Callable[..., Table]:
    def make(**fields: Any) -> Table:
        return services.table_create(template=template_factory(**fields))

    return make


@pytest.fixture
def practice_table(template_factory: Callable[..., TableTemplate]) -> Callable[..., Table]:
    """``practice_table(**template_fields)``: a practice Points table (a chip a point) of two
    or three seats with two computer players, who sit down with the first person and think
    1.5 s a move."""

    def make(**fields: Any) -> Table:
        fields.setdefault("variant", "points")
        fields.setdefault("currency", "practice")
        fields.setdefault("practice", True)
        fields.setdefault("seats_min", 2)
        fields.setdefault("seats_max", 3)
        fields.setdefault("bot_count", 2)
        fields.setdefault("bot_delay_s", 1.5)
        fields.setdefault("human_wait_s", 0)  # computer players sit down with the person
        fields.setdefault("point_value", 1)
        return services.table_create(template=template_factory(**fields))

    return make


@pytest.fixture
def players(user_factory: Callable[..., Any]) -> list[Any]:
    """Six funded players (100 000 minor units of cash each)."""
    users = [user_factory() for _ in range(6)]
    for user in users:
        fund(user, 100_000)
    return users


@pytest.fixture
def seated(
    table_factory: Callable[..., Table], players: list[Any], clock: Clock, planter: Planter
) -> Callable[..., TableDriver]:
    """``seated(n, **template_fields)``: a table for ``n`` players, all seated (seat i+1 is
    ``players[i]``), so the game has started."""

    def make(n: int, **fields: Any) -> TableDriver:
        fields.setdefault("seats_max", n)
        table = table_factory(**fields)
        users = {}
        for i in range(n):
            services.table_join(table=table, user=players[i], seat_no=i + 1)
            users[i + 1] = players[i]
        return TableDriver(table, users, clock)

    return make


@pytest.fixture
def timed_three(
    seated: Callable[..., TableDriver], planter: Planter, toss: Callable[[int], None]
) -> TableDriver:
    """Three players seated, seat 1 to play; 30 s turns and no extra time."""
    toss(1)
    return seated(3, turn_s=30, extra_time_s=0)


@pytest.fixture
def showable_three(
    seated: Callable[..., TableDriver], planter: Planter, toss: Callable[[int], None]
) -> TableDriver:
    """Three players seated, seat 1 to play with a hand it could show at once."""
    toss(1)
    planter.add(hands={1: "AS 2S 3S 4S 5H 6H 7H 9D 10D JD KC KD KH"}, open_card="5C", cut_card="QC")
    return seated(3)


@pytest.fixture
def live_two(seated: Callable[..., TableDriver], toss: Callable[[int], None]) -> TableDriver:
    """A two-seat table whose game has started, seat 1 to play, and no socket counted open for
    its players (socket counts live in the cache: Redis in the PostgreSQL run, which outlives
    the test database)."""
    from django.core.cache import cache

    from tables.live.presence import presence_key

    toss(1)
    t = seated(2)
    cache.delete_many([presence_key(t.table.pk, u.pk) for u in t.users.values()])
    return t
