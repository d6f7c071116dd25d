"""Shared fixtures and factories for the whole suite."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import settings

_counter = itertools.count(1)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``postgres``/``redis`` need those servers. On the embedded default they are
    deselected (not skipped), and a run that asks for them without the server fails loudly."""
    deselected: list[pytest.Item] = []
    kept: list[pytest.Item] = []
    for item in items:
        needs_pg = item.get_closest_marker("postgres") is not None
        needs_redis = item.get_closest_marker("redis") is not None
        missing_pg = needs_pg and not settings.DATABASE_IS_POSTGRES
        if missing_pg or (needs_redis and not settings.REDIS_URL):
            deselected.append(item)
        else:
            kept.append(item)
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = kept


@pytest.fixture(autouse=True)
def _fresh_rate_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test starts with an empty cache: no rate-limit counts (the tests of the limits
    count their own requests) and no page or board another test cached.

    A test's requests are counted in one window of each limit: django-ratelimit places a
    window's edge by the key (``_get_window``), and requests that straddle it would be
    counted in two windows, the limit seeming to lift. Each (key, period) keeps the window
    it was first counted in for the rest of the test. (Tests of servers in processes of
    their own wait out an edge instead: ``tests/deploy/test_proxy.py``.)"""
    from django.core.cache import cache
    from django_ratelimit import core

    cache.clear()
    first = core._get_window
    windows: dict[tuple[str | bytes, int], int] = {}

    def one_window(value: str | bytes, period: int) -> int:
        return windows.setdefault((value, period), first(value, period))

    monkeypatch.setattr(core, "_get_window", one_window)


@pytest.fixture
def password() -> str:
    return "correct-horse-battery-9"


@pytest.fixture
def user_factory(db: Any, password: str) -> Callable[..., Any]:
    from accounts.models import User

    def make(**kwargs: Any) -> User:
        n = next(_counter)
        kwargs.setdefault("username", f"player{n}")
        kwargs.setdefault("display_name", f"Player {n}")
        user = User(**kwargs)
        user.set_password(password)
        user.save()
        return user

    return make


@pytest.fixture
def player(user_factory: Callable[..., Any]) -> Any:
    return user_factory()


@pytest.fixture(autouse=True)
def _default_language_after() -> Iterator[None]:
    """A page asked in Hindi leaves the thread's language active (the locale middleware does not
    reset it): every test starts again in the default language."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True)
def _nothing_sent_yet() -> None:
    """Every test starts with no memory of the fragments and felts this process pushed (a
    database can hand a later test the same game ids)."""
    from tables.live.sent import sent_forget

    sent_forget()


@pytest.fixture(autouse=True)
def _lobby_pushed_at_once() -> Any:
    """Every lobby change is pushed at once in the tests (each test runs its own event loop,
    which a push gathered for later could outlive); ``test_lobby_push`` tests the gathering.
    (Not pytest-django's ``settings`` fixture: some tests have a parameter of that name.)"""
    from django.test import override_settings

    with override_settings(LOBBY_PUSH_INTERVAL_S=0):
        yield


@pytest.fixture(autouse=True)
def _fresh_channel_layer() -> None:
    """Every test gets a channel layer of its own. Each test runs its sockets in an event loop
    of its own, and a layer keeps per-loop state (the Redis layer's receive lock and buffers, the
    table relay's receive in ``tables.live.fanout``): a receive another test's loop left behind
    must not meet this test's loop on one shared layer."""
    from channels.layers import channel_layers

    channel_layers.backends.clear()
