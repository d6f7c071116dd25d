"""Browser tests: a real daphne process serving the test database, driven by Playwright in
Debian's chromium (never a downloaded browser)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.live_server import running_daphne

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


# The deals of the browser tests are shuffled like any other: now and then (about 2 % of
# deals, measured on the engine) a computer player holds a valid show or drops at its first
# turn and the deal ends before the person's turn. A test that waited for that turn in vain is
# run again (at most twice, and only for that failure: "not my turn" or the pick button never
# shown); pytest reports each rerun.
TURN_NEVER_CAME = ["not my turn", "act-pick_closed"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.flaky(reruns=2, only_rerun=TURN_NEVER_CAME))


@pytest.fixture
def live_server_url(transactional_db: None) -> Iterator[str]:
    """A daphne process per test (see tests/live_server.py)."""
    with running_daphne() as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """One chromium per test module. Playwright's sync API keeps an event loop running in this
    thread while it lives, so it is closed at the end of the module: the tests after it may use
    ``async_to_sync`` again. Meanwhile the ORM calls the tests make between browser steps are
    synchronous and safe, which ``DJANGO_ALLOW_ASYNC_UNSAFE`` tells Django for this module."""
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} is missing: scripts/test installs Debian's chromium")
    from playwright.sync_api import sync_playwright

    with orm_beside_playwright(), sync_playwright() as pw:
        instance = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield instance
        instance.close()


@contextmanager
def orm_beside_playwright() -> Iterator[None]:
    """Within the block, Django lets the ORM be called from a thread where an event loop runs
    (Playwright's sync API keeps one): ``DJANGO_ALLOW_ASYNC_UNSAFE``, as it was after."""
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        yield
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


@contextmanager
def acted(page, action: str | None = None, answer: str = "ack") -> Iterator[None]:
    """The block makes one action on the page's socket: wait until the server answers it
    (``ack``, or ``refused``), and check which action it was (a failure names the refusal's
    code)."""
    before = page.evaluate("() => +(document.documentElement.dataset.liveAcked || 0)")
    yield
    page.wait_for_function(
        "n => +(document.documentElement.dataset.liveAcked || 0) > n", arg=before, timeout=10_000
    )
    shown = page.evaluate(
        "() => [document.documentElement.dataset.liveAnswer,"
        " document.documentElement.dataset.liveAction,"
        " document.documentElement.dataset.liveCode]"
    )
    assert shown[0] == answer, shown
    if action is not None:
        assert shown[1] == action, shown


def sign_up(page, username: str, display_name: str, password: str) -> None:
    """Sign up through the form (of age), landing in the lobby."""
    page.goto("/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_display_name", display_name)
    page.fill("#id_password1", password)
    page.fill("#id_password2", password)
    page.check("#id_age_confirmed")
    page.click("main button[type=submit]")
    page.wait_for_url("**/")


def two_seat_table(
    monkeypatch: pytest.MonkeyPatch,
    *,
    people: list[tuple[str, str]],
    password: str,
    chips: int,
    deal: dict[str, Any] | None = None,
    **template_fields: Any,
) -> tuple[Any, list[Any]]:
    """A two-seat cash table (long turns) with ``people`` (username, display name) signed up
    with ``password``, funded with ``chips`` each and seated in order, seat 1 to play first:
    the game has started, on the deal ``deal`` (the planter's fields) when one is given.
    ``template_fields`` name the template, its variant and stake. The table and its players."""
    from django.contrib.auth import get_user_model

    from ledger.services import wallet_deposit
    from tables import services
    from tables.models import TableTemplate
    from tables.services import _context
    from tests.tables.tables_testkit import Planter

    if deal is not None:
        planter = Planter()
        planter.add(**deal)
        monkeypatch.setattr(_context, "deal_shoe_new", planter)
    monkeypatch.setattr(_context, "game_toss", lambda *, game, seats: 1)
    users = []
    for username, shown in people:
        user = get_user_model().objects.create_user(
            username=username, password=password, display_name=shown
        )
        wallet_deposit(
            user=user, currency="cash", amount=chips, idempotency_key=f"t:fund:{username}"
        )
        users.append(user)
    template = TableTemplate(
        seats_min=2, seats_max=2, currency="cash", turn_s=300, extra_time_s=0, **template_fields
    )
    template.full_clean()
    template.save()
    table = services.table_create(template=template, name=template.name)
    for seat, user in enumerate(users, start=1):
        services.table_join(table=table, user=user, seat_no=seat)
    return table, users


def act_now(game: Any, user: Any, action: str, **payload: Any) -> None:
    """``user`` makes ``action`` in ``game`` through the service, on the game's newest
    version."""
    from tables import services
    from tables.models import Game

    services.game_act(
        game_id=game.pk,
        user=user,
        action=action,
        payload=payload,
        expected_version=Game.objects.get(pk=game.pk).version,
    )
