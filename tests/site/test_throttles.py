"""The rate limits of settings.RATE_LIMITS (django-ratelimit): sign-up, deposits, withdrawals,
Play now and socket connects. Each answers over its limit with the 429 page in words (in the
player's language), and the counters are per player or per address as configured."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client
from django.urls import reverse

from rummy_site.routing import websocket_urlpatterns
from tables.live.consumers import CLOSE_RATE_LIMITED

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _limits(settings: Any) -> None:
    settings.MONEY_GAMES = True
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.RATE_LIMITS = {
        **django_settings.RATE_LIMITS,
        "template_play": {"methods": ["POST"], "limits": [("user", "3/m")]},
        "socket": {"limits": [("user", "2/m")]},
    }


def _statuses(client: Client, url: str, data: dict[str, str], n: int) -> list[int]:
    return [client.post(url, data).status_code for _ in range(n)]


def test_sign_up_is_throttled_per_address() -> None:
    client = Client(REMOTE_ADDR="192.0.2.50")
    statuses = _statuses(client, reverse("signup"), {"username": ""}, 11)
    assert statuses[:10] == [400] * 10 and statuses[10] == 429
    # In Hindi for a Hindi reader.
    page = client.post(reverse("signup"), {"username": ""}, HTTP_ACCEPT_LANGUAGE="hi")
    assert page.status_code == 429 and 'lang="hi"' in page.content.decode()
    assert Client(REMOTE_ADDR="192.0.2.51").post(reverse("signup"), {}).status_code == 400


def test_deposits_and_withdrawals_are_throttled_per_player(player: Any) -> None:
    client = Client()
    client.force_login(player)
    deposits = _statuses(client, reverse("wallet_deposit"), {"amount": "0"}, 11)
    assert deposits[:10] == [302] * 10 and deposits[10] == 429
    withdrawals = _statuses(client, reverse("wallet_withdraw"), {"amount": "0"}, 11)
    assert withdrawals[:10] == [302] * 10 and withdrawals[10] == 429
    text = client.post(reverse("wallet_withdraw"), {"amount": "1"}).content.decode()
    assert "Too many tries in a short time" in text


@pytest.fixture
def play_now_url() -> str:
    """Play now of a practice Pool 101 template."""
    from tables.models import TableTemplate

    template = TableTemplate.objects.create(
        name="Throttled", variant="pool101", seats_min=2, seats_max=3, currency="practice",
        entry_fee=100, practice=True,
    )  # fmt: skip
    return reverse("template_play", args=[template.pk])


def test_play_now_is_throttled_per_player(user_factory: Any, play_now_url: str) -> None:
    client = Client()
    client.force_login(user_factory())
    statuses = _statuses(client, play_now_url, {}, 4)
    assert statuses[:3] == [302] * 3 and statuses[3] == 429


@pytest.mark.django_db(transaction=True)
def test_socket_connects_are_throttled_per_player(user_factory: Any) -> None:
    client = Client()
    client.force_login(user_factory())
    session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    headers = [(b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={session}".encode())]
    app = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))

    async def connect() -> Any:
        ws = WebsocketCommunicator(app, "/ws/lobby/", headers=headers)
        connected, code = await ws.connect()
        await ws.disconnect()
        return connected, code

    results = [async_to_sync(connect)() for _ in range(3)]
    assert [r[0] for r in results] == [True, True, False]
    assert results[2][1] == CLOSE_RATE_LIMITED


def test_a_tests_requests_straddling_a_window_edge_are_counted_in_one_window(
    user_factory: Any, play_now_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The suite's ``_fresh_rate_limits`` keeps each limit's first window for the whole test:
    with the clock django-ratelimit reads crossing a minute's edge between two plays, the
    fourth of 3/m is still refused."""
    import time as real_time
    from types import SimpleNamespace

    from django_ratelimit import core

    client = Client()
    client.force_login(user_factory())
    now = [real_time.time()]
    monkeypatch.setattr(core, "time", SimpleNamespace(time=lambda: now[0]))
    statuses = _statuses(client, play_now_url, {}, 2)
    now[0] += 61
    statuses += _statuses(client, play_now_url, {}, 2)
    assert statuses == [302, 302, 302, 429]
