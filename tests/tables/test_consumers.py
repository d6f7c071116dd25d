"""The WebSocket consumers, through channels' WebsocketCommunicator and the configured channel
layer (Redis in the PostgreSQL run, in-memory on the embedded default)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import redis
from asgiref.sync import async_to_sync, sync_to_async
from channels.auth import AuthMiddlewareStack
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client

from tables.live import presence
from tables.live.routing import websocket_urlpatterns
from tables.models import Seat

pytestmark = pytest.mark.django_db(transaction=True)

APP = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))


def _cookie_for(user: Any) -> list[tuple[bytes, bytes]]:
    client = Client()
    client.force_login(user)
    session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    return [(b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={session}".encode())]


async def _text(ws: WebsocketCommunicator, timeout: float = 1) -> str:
    """The socket's next frame, which is text (the consumers send no bytes)."""
    message = await ws.receive_from(timeout=timeout)
    assert isinstance(message, str)
    return message


def _frame(message: str) -> dict[str, Any]:
    """A frame of the table socket: a JSON object told apart by ``t`` (docs/table-socket.md)."""
    frame = json.loads(message)
    assert isinstance(frame, dict) and isinstance(frame.get("t"), str), message[:200]
    return frame


def _kind(message: str) -> str:
    return str(_frame(message)["t"])


def _version(message: str) -> int:
    frame = _frame(message)
    assert frame["t"] == "sync", message[:200]
    return int(frame["v"])


@pytest.fixture
def two(live_two: Any) -> Any:
    return live_two


@pytest.fixture
def spectator_headers(user_factory: Any) -> list[tuple[bytes, bytes]]:
    """The cookie of a logged-in user who does not sit at the table."""
    return _cookie_for(user_factory())


def _felt(message: str) -> tuple[int, int, str]:
    """(from version, version, the pushed felt) of a felt frame."""
    frame = _frame(message)
    assert frame["t"] == "felt", message[:200]
    return int(frame["from"]), int(frame["v"]), frame["html"] or ""


def _seat(message: str) -> tuple[int, str]:
    """(version, the pushed parts) of a seat's fragment."""
    frame = _frame(message)
    assert frame["t"] == "seat", message[:200]
    return int(frame["v"]), frame["html"]


def _readable(message: str) -> str:
    """A frame as a person would read it: its kind and the HTML it carries, unescaped."""
    frame = _frame(message)
    return f"{frame['t']} {frame.get('html') or ''}"


def _codes_in(html: str) -> set[str]:
    return set(re.findall(r'data-code="([0-9AJQKTSHDC]{2,3})"', html))


def _public_cards(t: Any) -> set[str]:
    deal = t.view()["deal"]
    return {c for c in (deal.get("open_top"), deal.get("cut_joker")) if c}


async def _connected(ws: WebsocketCommunicator) -> int:
    """Connect and read until the current version (a seated socket may first hear its own
    seat's badge)."""
    connected, _ = await ws.connect()
    assert connected
    while True:
        message = await _text(ws, timeout=5)
        if _kind(message) == "sync":
            return _version(message)


async def _heard(ws: WebsocketCommunicator, quiet: float = 0.3) -> list[str]:
    """Every frame the socket hears until it is quiet, badges left out."""
    frames = []
    while not await ws.receive_nothing(timeout=quiet):
        message = await _text(ws)
        if _kind(message) != "presence":
            frames.append(message)
    return frames


def test_a_socket_gets_the_current_version_then_every_new_felt(two, spectator_headers):
    async def scenario() -> tuple[int, list[str]]:
        ws = WebsocketCommunicator(APP, f"/ws/tables/{two.table.pk}/", headers=spectator_headers)
        first = await _connected(ws)
        from channels.db import database_sync_to_async

        await database_sync_to_async(two.act)(1, "pick_closed")
        heard = await _heard(ws)
        await ws.disconnect()
        return first, heard

    first, heard = async_to_sync(scenario)()
    (message,) = heard  # a spectator hears the felt only, once
    before, after, html = _felt(message)
    game = two.game()
    assert first == before == game.version - 1
    assert after == game.version
    # The felt's regions that changed (this process sent the felt before it): the seat that
    # moved, the line of what happened, the open deck's history; never a hand.
    assert 'id="felt-root"' not in html
    assert 'id="felt-seat-1"' in html and 'id="last-move"' in html
    assert 'id="felt-seat-2"' not in html  # the other seat did not change
    assert 'id="my-hand"' not in html


def test_a_spectators_felt_carries_no_players_cards(two, spectator_headers):
    async def scenario() -> list[str]:
        ws = WebsocketCommunicator(APP, f"/ws/tables/{two.table.pk}/", headers=spectator_headers)
        await _connected(ws)
        from channels.db import database_sync_to_async

        await database_sync_to_async(two.act)(1, "pick_closed")
        heard = await _heard(ws)
        await ws.disconnect()
        return heard

    heard = async_to_sync(scenario)()
    hands = set(two.view(1)["hand"]["cards"]) | set(two.view(2)["hand"]["cards"])
    for message in heard:
        assert not (_codes_in(_readable(message)) & (hands - _public_cards(two)))
        assert 'id="my-hand"' not in _readable(message) and _kind(message) != "seat"


def _play(two: Any, cookies: dict[int, Any], moves: list[tuple[int, str, dict[str, Any]]]) -> Any:
    """Open every seat's socket, make ``moves`` (seat, action, payload) one after the other,
    and return what each seat heard after each move."""

    async def scenario() -> list[dict[int, list[str]]]:
        from channels.db import database_sync_to_async

        sockets = {}
        for seat, headers in cookies.items():
            ws = WebsocketCommunicator(APP, f"/ws/tables/{two.table.pk}/", headers=headers)
            await _connected(ws)
            sockets[seat] = ws
        for ws in sockets.values():
            await _heard(ws, quiet=0.2)  # the other seat's badge
        rounds = []
        for seat, action, payload in moves:
            if callable(payload):
                payload = await database_sync_to_async(payload)()
            await database_sync_to_async(two.act)(seat, action, **payload)
            rounds.append({s: await _heard(ws) for s, ws in sockets.items()})
        for ws in sockets.values():
            await ws.disconnect()
        return rounds

    return async_to_sync(scenario)()


def test_each_seat_hears_the_felt_and_only_its_own_fragment(two):
    """The leak test for pushes: every seat hears the felt once per change and its own
    fragment, never another seat's; no card of the other player's hand reaches it."""
    cookies = {seat: _cookie_for(two.users[seat]) for seat in (1, 2)}
    (heard,) = _play(two, cookies, [(1, "pick_closed", {})])
    version = two.game().version
    public = _public_cards(two)
    for seat, other in ((1, 2), (2, 1)):
        felts = [m for m in heard[seat] if _kind(m) == "felt"]
        seats = [m for m in heard[seat] if _kind(m) == "seat"]
        assert len(felts) == 1 and len(felts) + len(seats) == len(heard[seat])
        before, after, felt = _felt(felts[0])
        assert (before, after) == (version - 1, version)
        own = set(two.view(seat)["hand"]["cards"])
        theirs = set(two.view(other)["hand"]["cards"]) - own - public
        assert not (_codes_in(felt) & (own | theirs) - public), "the felt shows a hand"
        for message in seats:
            at, parts = _seat(message)
            assert at == version
            assert 'id="my-hand"' in parts and own <= _codes_in(parts)
            assert not (_codes_in(parts) & theirs), f"seat {seat} was sent seat {other}'s cards"
    # The mover's hand changed: the mover hears its fragment.
    assert any(_kind(m) == "seat" for m in heard[1])


def test_a_fragment_is_pushed_only_to_the_seats_it_changed_for(two):
    """After the first push (which renders every seat: nothing was sent before), a pick
    changes the mover's fragment only; the discard changes the mover's and the next player's
    (whose turn begins)."""
    cookies = {seat: _cookie_for(two.users[seat]) for seat in (1, 2)}
    hand = two.view(1)["hand"]
    heard = _play(
        two,
        cookies,
        [
            (1, "arrange", {"groups": [list(g) for g in hand["groups"]][::-1]}),
            (1, "pick_closed", {}),
            (1, "discard", lambda: {"card": two.view(1)["hand"]["picked"]}),
        ],
    )
    fragments = [
        {seat: sum(_kind(m) == "seat" for m in frames) for seat, frames in round_.items()}
        for round_ in heard
    ]
    assert fragments[1] == {1: 1, 2: 0}
    assert fragments[2] == {1: 1, 2: 1}
    # Arranging shows nothing new on the felt: its versions only.
    felt_of_arrange = next(m for m in heard[0][2] if _kind(m) == "felt")
    assert 'id="felt-root"' not in felt_of_arrange


GRACE = 0.3


@pytest.fixture
def short_grace(settings: Any) -> None:
    settings.PRESENCE_GRACE_S = GRACE


def test_a_seated_players_socket_marks_the_seat_connected_and_disconnected(two, short_grace):
    """Closing the last socket changes the seat's badge at once and becomes a move (the
    disconnection policy hears of it) only when no socket came back within the grace."""
    import asyncio

    user = two.users[2]
    headers = _cookie_for(user)
    path = f"/ws/tables/{two.table.pk}/"

    async def visit(*, leave: bool) -> None:
        ws = WebsocketCommunicator(APP, path, headers=headers)
        await _connected(ws)
        if leave:
            await ws.disconnect()
            await asyncio.sleep(GRACE * 3)

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


def test_a_reload_within_the_grace_records_no_move(two, short_grace, spectator_headers):
    """A reload (socket closed, another opened at once) is absorbed by the grace: the seat
    stays connected, no move is logged, and a watcher hears only the two badges."""
    import asyncio

    headers = _cookie_for(two.users[2])
    path = f"/ws/tables/{two.table.pk}/"
    version = two.game().version

    async def scenario() -> list[str]:
        watcher = WebsocketCommunicator(APP, path, headers=spectator_headers)
        await _connected(watcher)
        first = WebsocketCommunicator(APP, path, headers=headers)
        await _connected(first)
        await first.disconnect()
        second = WebsocketCommunicator(APP, path, headers=headers)
        await _connected(second)
        await asyncio.sleep(GRACE * 3)
        heard = []
        while not await watcher.receive_nothing(timeout=0.2):
            heard.append(await _text(watcher))
        await second.disconnect()
        await watcher.disconnect()
        await asyncio.sleep(GRACE * 3)
        return heard

    heard = async_to_sync(scenario)()
    assert two.game().version == version + 1  # only the final disconnection, after the grace
    assert heard and all(_kind(m) == "presence" for m in heard)
    assert [_frame(m)["online"] is False for m in heard] == [False, True, False]


def test_closing_one_of_two_tabs_keeps_the_player_connected(two, short_grace):
    import asyncio

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
            await _connected(ws)
        await first.disconnect()
        await asyncio.sleep(GRACE * 3)
        after_one = await connected()
        await second.disconnect()
        await asyncio.sleep(GRACE * 3)
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
        message = await _text(ws, timeout=5)
        await ws.disconnect()
        return message

    message = async_to_sync(scenario)()
    # The lobby's counts come with the push, swapped in out of band: the page fetches nothing.
    assert f'id="lobby-players-{table.template_id}"' in message and "hx-swap-oob" in message
    assert "1 seated" in message


@pytest.mark.redis
def test_an_idle_socket_on_redis_still_hears_the_next_push(two, spectator_headers):
    """An idle consumer outlives the Redis layer's 5 s blocking read (the socket timeout is
    longer), so a quiet table's sockets are not dropped."""
    import asyncio

    async def scenario() -> str:
        ws = WebsocketCommunicator(APP, f"/ws/tables/{two.table.pk}/", headers=spectator_headers)
        connected, _ = await ws.connect()
        assert connected
        await _text(ws, timeout=5)
        await asyncio.sleep(7)  # longer than the layer's blocking read
        from channels.db import database_sync_to_async

        await database_sync_to_async(two.act)(1, "pick_closed")
        message = await _text(ws, timeout=5)
        await ws.disconnect()
        return message

    assert _kind(async_to_sync(scenario)()) == "felt"


def _cache_connections() -> int:
    """The Redis connections open under the cache's client name, as Redis lists them."""
    client = redis.Redis.from_url(django_settings.REDIS_URL)
    try:
        name = django_settings.CACHES["default"]["OPTIONS"]["client_name"]
        return sum(1 for entry in client.client_list() if entry.get("name") == name)
    finally:
        client.close()


@pytest.mark.redis
def test_a_process_s_sockets_share_its_cache_connections(two):
    """Every table socket runs in an asynchronous context of its own, where Django makes a
    cache object of its own; the Redis connections behind them are the process's, shared.
    Twenty sockets open at once (ten tabs of each player, each counted in the cache) hold no
    connection of their own: before, each held one for as long as it was open."""
    cookies = [_cookie_for(two.users[seat]) for seat in (1, 2) for _ in range(10)]

    async def scenario() -> tuple[int, int]:
        sockets = [
            WebsocketCommunicator(APP, f"/ws/tables/{two.table.pk}/", headers=headers)
            for headers in cookies
        ]
        for ws in sockets:
            await _connected(ws)
        during = await sync_to_async(_cache_connections)()
        counted = await sync_to_async(presence.open_count)(
            table_id=two.table.pk, user_id=two.users[1].pk
        )
        for ws in sockets:
            await ws.disconnect()
        return during, counted

    before = _cache_connections()
    during, counted = async_to_sync(scenario)()
    assert counted == 10  # every tab of the player was counted, through the cache
    assert during - before <= 2, (before, during)
    assert presence.open_count(table_id=two.table.pk, user_id=two.users[1].pk) == 0
