"""Database connections are bounded by design: each process takes them from Django's psycopg
pool, never more than DATABASE_POOL_MAX, whatever the number of concurrent requests."""

from __future__ import annotations

import os
import resource
import threading
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import psycopg
import pytest
from django.conf import settings
from django.db import connection, connections

from rummy_site.backends.postgresql.base import said_something
from tests.live_server import running_daphne, server_env

POOL_MAX = 4
APP_NAME = "rummy-pool-test"


@pytest.mark.postgres
def test_postgres_settings_use_the_pool_and_no_persistent_connections():
    database = settings.DATABASES["default"]
    assert database["CONN_MAX_AGE"] == 0
    pool = database["OPTIONS"]["pool"]
    assert pool["max_size"] == settings.DATABASE_POOL_MAX
    assert 0 <= pool["min_size"] <= pool["max_size"]


def _held_connections(database: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND application_name = %s",
            [database, APP_NAME],
        )
        return int(cursor.fetchone()[0])


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            response.read()
            return int(response.status)
    except urllib.error.HTTPError as error:
        return int(error.code)
    except OSError as error:
        return -1 if "timed out" in str(error) else -2


@pytest.mark.postgres
def test_150_concurrent_requests_never_hold_more_than_the_pool(transactional_db, settings):
    from tables.models import TableTemplate
    from tables.services import table_create

    template = TableTemplate.objects.create(
        name="Pool test", variant="pool101", seats_min=2, seats_max=2, entry_fee=100
    )
    table = table_create(template=template)
    database = connection.settings_dict["NAME"]
    env = server_env(DATABASE_POOL_MAX=str(POOL_MAX), DATABASE_POOL_MIN="1")
    env["DATABASE_URL"] += f"?application_name={APP_NAME}"

    with running_daphne(env) as base:
        assert _get(f"{base}/healthz") == 200
        paths = ["/", "/healthz", f"/tables/{table.pk}/", f"/tables/{table.pk}/view"]
        urls = [base + paths[i % len(paths)] for i in range(150)]
        peak = 0
        done = threading.Event()

        def watch() -> None:
            nonlocal peak
            try:
                while not done.is_set():
                    peak = max(peak, _held_connections(database))
                    time.sleep(0.02)
            finally:
                connections.close_all()

        watcher = threading.Thread(target=watch)
        watcher.start()
        try:
            with ThreadPoolExecutor(max_workers=150) as executor:
                statuses = list(executor.map(_get, urls))
        finally:
            done.set()
            watcher.join()
        peak = max(peak, _held_connections(database))

    failures = [(url, status) for url, status in zip(urls, statuses, strict=True) if status >= 400]
    assert not [s for s in statuses if s < 0], statuses
    assert failures == []
    assert 1 <= peak <= POOL_MAX, f"{peak} connections held, the pool max is {POOL_MAX}"


def _side_connection() -> psycopg.Connection[tuple[object, ...]]:
    params = connection.settings_dict
    return psycopg.connect(
        host=params["HOST"],
        port=params["PORT"] or 5432,
        user=params["USER"],
        dbname=params["NAME"],
        autocommit=True,
    )


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid() /* checked out */")
        return int(cursor.fetchone()[0])


@pytest.mark.postgres
def test_a_healthy_pooled_connection_is_handed_out_without_a_round_trip(transactional_db):
    assert connection.pool is not None
    _backend_pid()
    connection.close()  # back to the pool, idle
    with _side_connection() as side:

        def last_changes() -> dict[int, object]:
            """When each other session of the database last changed state."""
            rows = side.execute(
                "SELECT pid, state_change FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchall()
            return dict(rows)

        idle = last_changes()
        time.sleep(0.05)
        connection.ensure_connection()  # taken from the pool again
        after_checkout = last_changes()
        pid = _backend_pid()
        after_query = last_changes()
    connection.close()
    # Handing a pooled connection out sent no server anything (an empty health-check query
    # would have moved that session's state to active and back); its first query does.
    assert pid in idle
    assert after_checkout == idle
    assert after_query[pid] != idle[pid]


@pytest.mark.postgres
def test_a_pooled_connection_the_server_ended_is_replaced_before_use(transactional_db):
    assert connection.pool is not None
    first = _backend_pid()
    connection.close()
    with _side_connection() as side:
        side.execute("SELECT pg_terminate_backend(%s)", [first])
        for _ in range(100):  # the server ends it asynchronously
            gone = side.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [first])
            if gone.fetchone() == (0,):
                break
            time.sleep(0.02)
    second = _backend_pid()  # no error: the ended connection was dropped, another taken
    connection.close()
    assert second != first


@pytest.mark.postgres
def test_the_check_reads_a_socket_numbered_past_selects_limit(transactional_db):
    """A web process holding thousands of sockets gives a new connection a descriptor past
    ``select``'s 1024: the idle check must still tell a live connection from an ended one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 1200:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(4096, hard), hard))
    fillers = []
    try:
        while len(fillers) < 1100 and (not fillers or fillers[-1] <= 1024):
            fillers.append(os.open(os.devnull, os.O_RDONLY))
        with _side_connection() as high, _side_connection() as side:
            assert high.fileno() > 1024
            assert not said_something(high)
            pid = high.info.backend_pid
            side.execute("SELECT pg_terminate_backend(%s)", [pid])
            for _ in range(100):
                if said_something(high):
                    break
                time.sleep(0.02)
            assert said_something(high)
    finally:
        for fd in fillers:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
