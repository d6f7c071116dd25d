"""Benchmark of one move's server work at a 6-seat table, in process, the socket path against
the HTTP path: what a move costs the web process whichever way the page sends it.

Run from the repository root::

    .venv/bin/python benchmarks/bench_socket.py [--moves 200] [--via socket,http]
        [--database-url postgres://...]

Sets up a throw-away database (SQLite in memory, or with ``--database-url`` a fresh
``test_<name>`` database on that PostgreSQL server; the in-memory channel layer), seats six
players at a Pool 101 table, opens every seat's table socket (the real consumer, through
channels' ``WebsocketCommunicator``) and plays ``--moves`` moves (pick from the closed deck,
discard the card drawn). With ``socket`` the player on turn sends ``{"t":"move",...}`` on its
socket and waits for the ``ack``; with ``http`` it posts the form as the page's fallback does
(Django's test client: the session, the middleware, the view) and the pushes go through the
channel layer. Either way every socket's frames are read before the next move. Printed per
path: the process's CPU per move (every thread: the event loop, the move's pool thread, the
request), the wall time from sending to the answer, and the frames and bytes the six sockets
got per move. With ``--parts``, also the CPU of each part of the move's own thread (the lock,
the save, the push's renders, contexts and views: ``PARTS``), per move and per call.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--via", default="socket,http")
    parser.add_argument("--database-url", default="", help="PostgreSQL (a fresh test_<name>)")
    parser.add_argument("--parts", action="store_true", help="time each part of the move")
    parser.add_argument(
        "--deal", type=int, default=1, help="play in this deal (the deals before end in drops)"
    )
    args = parser.parse_args()
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # the setup's ORM calls, between moves
    from benchmarks.in_memory import django_in_memory

    django_in_memory(args.database_url)
    from django.conf import settings

    from rummy_site.gc_settle import gc_settle

    gc_settle()  # as rummy_site/asgi.py does in daphne

    settings.SOCKET_MESSAGES_PER_S = 1000.0  # one socket plays every sixth move, fast
    timed = parts_timed() if args.parts else None
    for via in args.via.split(","):
        for calls in (timed or {}).values():
            calls.clear()
        asyncio.run(run(via, args.moves, deal=args.deal))
        if timed is not None:
            parts_print(timed, args.moves)


# The parts of a move timed by ``--parts``: (module, function), looked up by name where the
# move's code calls them.
PARTS = [
    ("tables.services._pipeline", "lock_game"),
    ("tables.services._pipeline", "save_game"),
    ("tables.services._pipeline", "push_observed"),
    ("tables.live.realtime", "render_felt"),
    ("tables.live.realtime", "render_seat"),
    ("tables.live.realtime", "felt_context"),
    ("tables.live.realtime", "seat_context"),
    ("tables.live.realtime", "_data"),
    ("tables.live.realtime", "_views"),
    ("tables.live.realtime", "seat_keys"),
    ("tables.live.realtime", "sent_read"),
    ("tables.live.realtime", "sent_write"),
]

Timed = dict[str, list[float]]


def parts_timed() -> Timed:
    """Wrap each of ``PARTS`` to record the CPU of its calls (``time.thread_time``)."""
    import importlib

    timed: Timed = {}

    def wrapped(module: ModuleType, name: str) -> Callable[..., object]:
        function = getattr(module, name)
        calls = timed.setdefault(name, [])

        def timing(*args: object, **kwargs: object) -> object:
            started = time.thread_time()
            try:
                return function(*args, **kwargs)
            finally:
                calls.append(time.thread_time() - started)

        return timing

    for module_name, name in PARTS:
        module = importlib.import_module(module_name)
        setattr(module, name, wrapped(module, name))
    return timed


def parts_print(timed: Timed, moves: int) -> None:
    print("  parts of the move's thread (CPU ms per move: the mean; per call: the median):")
    for name, calls in timed.items():
        if not calls:
            continue
        per_move = sum(calls) / moves * 1000
        per_call = statistics.median(calls) * 1000
        rate = len(calls) / moves
        print(f"    {name:<14} {per_move:6.2f} a move, {rate:4.2f} calls, {per_call:.3f} a call")


def next_move(table: Any) -> tuple[int, dict[str, str]] | None:
    """The seat on turn and its move's fields (pick closed, then discard what it drew)."""
    from tables.engines import engine_of, game_state
    from tables.models import Game
    from tables.rules.game import GameState

    game = Game.objects.get(table=table)
    state = game_state(game)
    if game.status != "running" or not isinstance(state, GameState) or state.deal is None:
        return None
    if state.deal.turn is None:
        return None
    seat_no = state.deal.turn
    view = engine_of(game.variant).view(state, seat_no)
    fields = {"version": str(game.version), "game": str(game.pk)}
    if "pick_closed" in view.allowed:
        fields["action"] = "pick_closed"
    else:
        hand = view.hand
        assert hand is not None
        fields["action"] = "discard"
        fields["card"] = hand.picked or hand.groups[-1][-1]
    return seat_no, fields


async def _drain(sockets: list[Any], quiet: float = 0.02) -> tuple[int, int]:
    frames = size = 0
    for ws in sockets:
        while not await ws.receive_nothing(timeout=quiet, interval=0.005):
            text = await ws.receive_from()
            frames += 1
            size += len(str(text).encode())
    return frames, size


async def run(via: str, moves: int, *, deal: int = 1) -> None:
    from channels.auth import AuthMiddlewareStack
    from channels.db import database_sync_to_async
    from channels.routing import URLRouter
    from channels.testing import WebsocketCommunicator
    from django.conf import settings
    from django.test import Client

    from rummy_site.routing import websocket_urlpatterns
    from tables.live import moves as socket_moves

    app = AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
    thread_cpu: list[float] = []
    socket_move = socket_moves.socket_move

    profile = None
    if os.environ.get("BENCH_PROFILE"):
        import cProfile

        profile = cProfile.Profile()

    def timed_move(**kwargs: Any) -> Any:
        started = time.thread_time()
        if profile is not None:
            profile.enable()
        try:
            return socket_move(**kwargs)
        finally:
            if profile is not None:
                profile.disable()
            thread_cpu.append(time.thread_time() - started)

    socket_moves.socket_move = timed_move

    def timed_post(client: Any, url: str, fields: dict[str, str]) -> Any:
        started = time.thread_time()
        try:
            return client.post(url, fields, HTTP_HX_REQUEST="true")
        finally:
            thread_cpu.append(time.thread_time() - started)

    from benchmarks.bench_push import six_seat_table

    table, users = await database_sync_to_async(six_seat_table)(f"bench{via}")
    if deal > 1:
        from tables.management.commands.bench_setup import bench_deal_reach

        await database_sync_to_async(bench_deal_reach)(table=table, deal=deal)
    clients, sockets = [], []
    for user in users:
        client = Client()
        await database_sync_to_async(client.force_login)(user)
        cookie = (
            f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"
        )
        ws = WebsocketCommunicator(
            app, f"/ws/tables/{table.pk}/", headers=[(b"cookie", cookie.encode())]
        )
        connected, _ = await ws.connect()
        assert connected
        clients.append(client)
        sockets.append(ws)
    await _drain(sockets, quiet=0.2)
    cpu: list[float] = []
    wall: list[float] = []
    frames: list[int] = []
    sizes: list[int] = []
    counter = 0
    for _ in range(moves):
        found = await database_sync_to_async(next_move)(table)
        if found is None:
            break
        seat_no, fields = found
        started_cpu, started = time.process_time(), time.perf_counter()
        if via == "socket":
            counter += 1
            ws = sockets[seat_no - 1]
            await ws.send_to(text_data=json.dumps({"t": "move", "a": counter, "d": fields}))
            got = 0
            while True:
                text = await ws.receive_from(timeout=10)
                got += 1
                sizes.append(len(str(text).encode()))
                frame = json.loads(str(text))
                if frame["t"] in ("ack", "refused") and frame.get("a") == counter:
                    break
            if frame["t"] != "ack":
                raise SystemExit(f"move refused: {frame}")
        else:
            client = clients[seat_no - 1]
            response = await database_sync_to_async(timed_post)(
                client, f"/tables/{table.pk}/act", fields
            )
            if response.status_code not in (200, 204):
                raise SystemExit(f"move refused: {response.status_code} {fields}")
            got = 0
        wall.append(time.perf_counter() - started)
        count, size = await _drain(sockets)
        cpu.append(time.process_time() - started_cpu)
        frames.append(got + count)
        sizes.append(size)
    for ws in sockets:
        await ws.disconnect()
    socket_moves.socket_move = socket_move
    if profile is not None:
        profile.dump_stats(os.environ["BENCH_PROFILE"])
    done = len(cpu)
    own = "pool thread" if via == "socket" else "request"
    print(
        f"via {via}: {done} moves at a 6-seat Pool 101 table in its deal {deal}, every seat's"
        " socket open"
    )
    print(f"  CPU per move, every thread, frames read: {_ms(cpu)}")
    print(f"  CPU of the move's {own}, pushes rendered: {_ms(thread_cpu)}")
    print(f"  from sending to the answer: {_ms(wall)}")
    per_move = sum(sizes) / done / 1000
    print(f"  frames per move: {statistics.mean(frames):.1f}, {per_move:.1f} KB")


def _ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:.2f} ms"


if __name__ == "__main__":
    main()
