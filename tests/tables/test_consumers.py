"""The WebSocket consumers, through channels' WebsocketCommunicator and the configured channel
layer (Redis in the PostgreSQL run, in-memory on the embedded default)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client

from tables.models import Seat
from tables.presence import presence_key
from tables.routing import websocket_urlpatterns

pytestmark = pytest.mark.django_db(transaction=True)

APP = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))


def _cookie_for(user: Any) -> list[tuple[bytes, bytes]]:
    client = Client()
    client.force_login(user)
    session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    return [(b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={session}".encode())]


def _version(message: str) -> int:
    match = re.search(r'id="table-sync"[^>]*data-version="(\d+)"', message)
    assert match, message
    return int(match.group(1))


@pytest.fixture
def two(seated: Any, toss: Any) -> Any:
    from django.core.cache import cache

    toss(1)
    t = seated(2)
    # Socket counts live in the cache (Redis in the PostgreSQL run, which outlives the test
    # database): none may be left over for these ids.
    cache.delete_many([presence_key(t.table.pk, u.pk) for u in t.users.values()])
    return t


@pytest.fixture
def spectator_headers(user_factory: Any) -> list[tuple[bytes, bytes]]:
    """The cookie of a logged-in user who does not sit at the table."""
    return _cookie_for(user_factory())


def test_a_socket_gets_the_current_version_then_every_new_one(two, spectator_headers):
    async def scenario() -> tuple[int, int]:
        ws = WebsocketCommunicator(APP, f"/ws/tables/{two.table.pk}/", headers=spectator_headers)
        connected, _ = await ws.connect()
        assert connected
        first = _version(await ws.receive_from(timeout=5))
        from channels.db import database_sync_to_async

        await database_sync_to_async(two.act)(1, "pick_closed")
        pushed = _version(await ws.receive_from(timeout=5))
        await ws.disconnect()
        return first, pushed

    first, pushed = async_to_sync(scenario)()
    game = two.game()
    assert first == game.version - 1
    assert pushed == game.version


def test_a_push_carries_no_cards(two, spectator_headers):
    async def scenario() -> str:
        ws = WebsocketCommunicator(APP, f"/ws/tables/{two.table.pk}/", headers=spectator_headers)
        await ws.connect()
        await ws.receive_from(timeout=5)
        from channels.db import database_sync_to_async

        await database_sync_to_async(two.act)(1, "pick_closed")
        message = await ws.receive_from(timeout=5)
        await ws.disconnect()
        return message

    message = async_to_sync(scenario)()
    assert "data-code" not in message
    assert not re.search(r"\b(10|[2-9AJQK])[SHDC]\b", message)


def test_a_seated_players_socket_marks_the_seat_connected_and_disconnected(two):
    user = two.users[2]
    headers = _cookie_for(user)
    path = f"/ws/tables/{two.table.pk}/"

    async def visit(*, leave: bool) -> None:
        ws = WebsocketCommunicator(APP, path, headers=headers)
        connected, _ = await ws.connect()
        assert connected
        await ws.receive_from(timeout=5)
        if leave:
            await ws.disconnect()

    seat = Seat.objects.get(game=two.game(), user=user)
    async_to_sync(visit)(leave=True)
    seat.refresh_from_db()
    assert seat.connected is False
    assert any(p["seat"] == 2 and not p["connected"] for p in two.view()["players"])
    # Coming back restores the seat.
    async_to_sync(visit)(leave=False)
    seat.refresh_from_db()
    assert seat.connected is True
    assert all(p["connected"] for p in two.view()["players"])


def test_closing_one_of_two_tabs_keeps_the_player_connected(two):
    from channels.db import database_sync_to_async

    user = two.users[2]
    headers = _cookie_for(user)
    path = f"/ws/tables/{two.table.pk}/"
    seat = Seat.objects.get(game=two.game(), user=user)

    @database_sync_to_async
    def connected() -> bool:
        seat.refresh_from_db()
        return bool(seat.connected)

    async def scenario() -> tuple[bool, bool]:
        first = WebsocketCommunicator(APP, path, headers=headers)
        second = WebsocketCommunicator(APP, path, headers=headers)
        for ws in (first, second):
            await ws.connect()
            await ws.receive_from(timeout=5)
        await first.disconnect()
        after_one = await connected()
        await second.disconnect()
        return after_one, await connected()

    after_one, after_both = async_to_sync(scenario)()
    assert after_one is True
    assert after_both is False


def test_an_unknown_table_is_refused(db, spectator_headers):
    async def scenario() -> tuple[bool, Any]:
        ws = WebsocketCommunicator(APP, "/ws/tables/999999/", headers=spectator_headers)
        return await ws.connect()

    connected, code = async_to_sync(scenario)()
    assert connected is False
    assert code == 4404


def test_an_anonymous_socket_to_a_table_is_refused_and_hears_nothing(two):
    from channels.db import database_sync_to_async

    async def scenario() -> tuple[bool, Any, bool]:
        ws = WebsocketCommunicator(APP, f"/ws/tables/{two.table.pk}/")
        connected, code = await ws.connect()
        await database_sync_to_async(two.act)(1, "pick_closed")
        silent = await ws.receive_nothing(timeout=0.5)
        return connected, code, silent

    connected, code, silent = async_to_sync(scenario)()
    assert connected is False
    assert code == 4401
    assert silent is True
    # Nobody was marked connected by the refused socket.
    assert all(p["connected"] for p in two.view()["players"])


def test_the_lobby_socket_hears_about_seat_changes(table_factory, players):
    from tables import services

    table = table_factory(seats_max=3)

    async def scenario() -> str:
        ws = WebsocketCommunicator(APP, "/ws/lobby/")
        connected, _ = await ws.connect()
        assert connected
        from channels.db import database_sync_to_async

        await database_sync_to_async(services.table_join)(table=table, user=players[0])
        message = await ws.receive_from(timeout=5)
        await ws.disconnect()
        return message

    assert 'id="lobby-sync"' in async_to_sync(scenario)()
