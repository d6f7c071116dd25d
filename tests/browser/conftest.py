"""Browser tests: a real daphne process serving the test database, driven by Playwright in
Debian's chromium (never a downloaded browser)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _server_env() -> dict[str, str]:
    from django.db import connection

    db = connection.settings_dict
    env = dict(os.environ)
    env["DJANGO_SETTINGS_MODULE"] = "rummy_site.settings"
    env["TIMERS_BACKEND"] = "loop"
    if db["ENGINE"].endswith("sqlite3"):
        env.pop("DATABASE_URL", None)
        env["SQLITE_PATH"] = str(db["NAME"])
    else:
        user = db.get("USER") or "postgres"
        host = db.get("HOST") or "127.0.0.1"
        port = db.get("PORT") or 5432
        env["DATABASE_URL"] = f"postgres://{user}@{host}:{port}/{db['NAME']}"
    return env


@pytest.fixture
def live_server_url(transactional_db: None) -> Iterator[str]:
    """A daphne process per test, stopped before the test database is flushed (the server's
    timers and computer players write to it while it runs)."""
    port = _free_port()
    env = _server_env()
    log = open(ROOT / "test-results-daphne.log", "a")  # noqa: SIM115
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "daphne",
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "rummy_site.asgi:application",
            ],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        ),
    ]
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            if time.monotonic() > deadline or procs[0].poll() is not None:
                for proc in procs:
                    proc.kill()
                raise RuntimeError(
                    "the live daphne server did not start; see test-results-daphne.log"
                ) from None
            time.sleep(0.2)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """One chromium per test module. Playwright's sync API keeps an event loop running in this
    thread while it lives, so it is closed at the end of the module: the tests after it may use
    ``async_to_sync`` again. Meanwhile the ORM calls the tests make between browser steps are
    synchronous and safe, which ``DJANGO_ALLOW_ASYNC_UNSAFE`` tells Django for this module."""
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} is missing: scripts/test installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as pw:
            instance = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            yield instance
            instance.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def page(browser, transactional_db, live_server_url) -> Iterator[object]:
    context = browser.new_context(base_url=live_server_url, viewport={"width": 1280, "height": 860})
    context.set_default_timeout(10_000)
    pg = context.new_page()
    yield pg
    context.close()


@pytest.fixture
def new_page(browser, transactional_db, live_server_url):
    """Open further pages (other players) in their own browser contexts."""
    contexts = []

    def make(viewport: dict[str, int] | None = None):
        context = browser.new_context(
            base_url=live_server_url, viewport=viewport or {"width": 1280, "height": 860}
        )
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


def login(page, username: str, password: str) -> None:
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url("**/")
