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


def _push(message: str) -> tuple[int, int, str]:
    """(from version, version, the pushed partial) of a pushed view."""
    match = re.search(r'id="table-push" data-from="(\d+)" data-version="(\d+)"', message)
    assert match, message[:200]
    return int(match.group(1)), int(match.group(2)), message[match.end() :]


def _codes_in(html: str) -> set[str]:
    return set(re.findall(r'data-code="([0-9AJQKTSHDC]{2,3})"', html))


def _public_cards(t: Any) -> set[str]:
    deal = t.view()["deal"]
    return {c for c in (deal.get("open_top"), deal.get("cut_joker")) if c}


def test_a_socket_gets_the_current_version_then_every_new_view(two, spectator_headers):
    async def scenario() -> tuple[int, tuple[int, int, str]]:
        ws = WebsocketCommunicator(APP, f"/ws/tables/{two.table.pk}/", headers=spectator_headers)
        connected, _ = await ws.connect()
        assert connected
        first = _version(await ws.receive_from(timeout=5))
        from channels.db import database_sync_to_async

        await database_sync_to_async(two.act)(1, "pick_closed")
        pushed = _push(await ws.receive_from(timeout=5))
        await ws.disconnect()
        return first, pushed

    first, (before, after, html) = async_to_sync(scenario)()
    game = two.game()
    assert first == before == game.version - 1
    assert after == game.version
    assert 'id="table-root"' in html and f'data-version="{game.version}"' in html


def test_a_spectators_push_carries_no_players_cards(two, spectator_headers):
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
    hands = set(two.view(1)["hand"]["cards"]) | set(two.view(2)["hand"]["cards"])
    assert not (_codes_in(message) & (hands - _public_cards(two)))
    assert 'id="my-hand"' not in message


def test_each_seat_is_pushed_its_own_view_and_nobody_elses_cards(two):
    """The leak test for pushes: a seat's socket hears its own view, once per change, and no
    card of the other player's hand ever reaches it (nor the public frame)."""

    cookies = {seat: _cookie_for(two.users[seat]) for seat in (1, 2)}

    picked: dict[str, int] = {}

    async def scenario() -> dict[int, list[str]]:
        sockets = {}
        for seat in (1, 2):
            ws = WebsocketCommunicator(APP, f"/ws/tables/{two.table.pk}/", headers=cookies[seat])
            connected, _ = await ws.connect()
            assert connected
            await ws.receive_from(timeout=5)  # the current version
            sockets[seat] = ws
        from channels.db import database_sync_to_async

        picked["version"] = (await database_sync_to_async(two.act)(1, "pick_closed")).version
        heard: dict[int, list[str]] = {1: [], 2: []}
        for seat, ws in sockets.items():
            heard[seat].append(await ws.receive_from(timeout=5))
        for seat, ws in sockets.items():  # one frame each: no public copy as well
            if not await ws.receive_nothing(timeout=0.3):
                heard[seat].append(await ws.receive_from())
        for ws in sockets.values():
            await ws.disconnect()
        return heard

    heard = async_to_sync(scenario)()
    public = _public_cards(two)
    for seat, other in ((1, 2), (2, 1)):
        (message,) = heard[seat]
        before, after, html = _push(message)
        assert after == picked["version"] and before == after - 1
        own = set(two.view(seat)["hand"]["cards"])
        theirs = set(two.view(other)["hand"]["cards"]) - own - public
        assert own <= _codes_in(html)  # the player's own hand is in the frame
        assert not (_codes_in(html) & theirs), f"seat {seat} was sent seat {other}'s cards"


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


@pytest.mark.redis
def test_an_idle_socket_on_redis_still_hears_the_next_push(two, spectator_headers):
    """An idle consumer outlives the Redis layer's 5 s blocking read (the socket timeout is
    longer), so a quiet table's sockets are not dropped."""
    import asyncio

    async def scenario() -> str:
        ws = WebsocketCommunicator(APP, f"/ws/tables/{two.table.pk}/", headers=spectator_headers)
        connected, _ = await ws.connect()
        assert connected
        await ws.receive_from(timeout=5)
        await asyncio.sleep(7)  # longer than the layer's blocking read
        from channels.db import database_sync_to_async

        await database_sync_to_async(two.act)(1, "pick_closed")
        message = await ws.receive_from(timeout=5)
        await ws.disconnect()
        return message

    assert 'id="table-push"' in async_to_sync(scenario)()
