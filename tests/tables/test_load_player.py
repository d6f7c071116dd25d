"""The load harness's seat socket (``benchmarks.load_player.listen``) opens as the page's does:
a socket whose opening handshake did not finish (a burst of connects) is tried again, the
first time too, and counts as an error only after ``CONNECT_ATTEMPTS`` retries."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve
from websockets.http11 import Request, Response

from benchmarks import load_player
from benchmarks.load_player import Seat, Stats, listen


class _Handshakes:
    """A server's opening handshakes, counted: the first ``slow`` take longer than the client
    waits, or every one is answered 503 (``refuse_all``)."""

    def __init__(self, *, slow: int, refuse_all: bool = False) -> None:
        self.count = 0
        self.slow = slow
        self.refuse_all = refuse_all

    async def process_request(
        self, connection: ServerConnection, request: Request
    ) -> Response | None:
        self.count += 1
        if self.refuse_all:
            return connection.respond(503, "busy\n")
        if self.count <= self.slow:
            await asyncio.sleep(1.0)  # past the client's open timeout
        return None


def _run_listen(*, slow_handshakes: int, refuse_all: bool = False) -> tuple[Stats, bool, int]:
    """Serve table sockets whose first ``slow_handshakes`` handshakes take longer than the
    client waits (or that all answer 503); hold one seat's socket until it opens or gives up.
    The stats, whether the seat's socket was open when it became ready, and the handshakes."""

    async def scenario() -> tuple[Stats, bool, int]:
        handshakes = _Handshakes(slow=slow_handshakes, refuse_all=refuse_all)

        async def handler(connection: ServerConnection) -> None:
            await connection.wait_closed()

        async with serve(
            handler, "127.0.0.1", 0, process_request=handshakes.process_request
        ) as server:
            port = server.sockets[0].getsockname()[1]
            seat = Seat(table_id=7, seat=1, session="s", base=f"http://127.0.0.1:{port}")
            stop, ready, stats = asyncio.Event(), asyncio.Event(), Stats()
            task = asyncio.create_task(listen(seat, stop, ready, stats, open_timeout=0.3))
            await asyncio.wait_for(ready.wait(), timeout=20)
            opened = seat.ws is not None
            stop.set()
            await asyncio.wait_for(task, timeout=5)
            return stats, opened, handshakes.count

    return asyncio.run(scenario())


def test_a_socket_whose_first_handshake_timed_out_is_opened_again() -> None:
    stats, opened, handshakes = _run_listen(slow_handshakes=1)

    assert opened
    assert handshakes == 2
    assert stats.connect_retries == 1
    assert stats.socket_errors == 0


def test_a_socket_that_never_opens_counts_as_an_error_after_its_retries(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(load_player, "CONNECT_ATTEMPTS", 2)
    delays: list[float] = []
    sleep = asyncio.sleep

    async def no_wait(delay: float, *args: Any) -> None:
        delays.append(delay)
        await sleep(0)

    monkeypatch.setattr(asyncio, "sleep", no_wait)  # the harness waits between retries

    stats, opened, handshakes = _run_listen(slow_handshakes=0, refuse_all=True)

    assert not opened
    assert handshakes == 3  # the first try and two more
    assert stats.connect_retries == 2
    assert stats.socket_errors == 1
    assert 0 <= delays[0] <= 1 and 0 <= delays[1] <= 2  # jittered, doubling


def _run_lobby(*, slow_handshakes: int, close_first: bool = False) -> tuple[Stats, int]:
    """Serve lobby sockets that send one row (the first ``slow_handshakes`` handshakes slower
    than the client waits; with ``close_first`` the first socket opened is closed at once with
    1012, a restart); hold one lobby socket until it hears the row. The stats and the
    handshakes."""

    async def scenario() -> tuple[Stats, int]:
        handshakes = _Handshakes(slow=slow_handshakes)

        async def handler(connection: ServerConnection) -> None:
            if close_first and handshakes.count == 1:
                await connection.close(1012, "restart")
                return
            await connection.send("lobby row")
            await connection.wait_closed()

        async with serve(
            handler, "127.0.0.1", 0, process_request=handshakes.process_request
        ) as server:
            port = server.sockets[0].getsockname()[1]
            stop, stats = asyncio.Event(), Stats()
            task = asyncio.create_task(
                load_player.watch_lobby(f"http://127.0.0.1:{port}", stop, stats, open_timeout=0.3)
            )
            for _ in range(200):
                if stats.lobby_frames:
                    break
                await asyncio.sleep(0.05)
            stop.set()
            await asyncio.wait_for(task, timeout=5)
            return stats, handshakes.count

    return asyncio.run(scenario())


def test_a_lobby_socket_whose_first_handshake_timed_out_is_opened_again_and_hears() -> None:
    """The harness's lobby pages retry as its seats do: the lobby socket whose handshake timed
    out in the connect burst opens on the next try and counts what the lobby sends it."""
    stats, handshakes = _run_lobby(slow_handshakes=1)

    assert handshakes == 2
    assert stats.connect_retries == 1
    assert stats.lobby_frames == 1 and stats.lobby_bytes == len("lobby row")
    assert stats.socket_errors == 0


def test_a_lobby_socket_closed_with_a_retry_code_reopens_as_a_lobby_reconnect() -> None:
    """A lobby socket that a restarting server closes (1012) is opened again, and counted
    apart from the seats' reconnects, whose catch-up times the report prints beside them."""
    stats, handshakes = _run_lobby(slow_handshakes=0, close_first=True)

    assert handshakes == 2
    assert stats.lobby_reconnects == 1 and stats.reconnects == 0
    assert stats.lobby_frames == 1
    assert stats.connect_retries == 0 and stats.socket_errors == 0
