"""Load harness: plays live tables against a running server the way the page does.

It starts nothing itself. Prepare a fixture and run the server(s) first (docs/benchmarks.md has
the exact commands), then::

    .venv/bin/python benchmarks/load.py --fixture /tmp/bench.json \\
        --url http://127.0.0.1:8000 [--url http://127.0.0.1:8001] \\
        --levels 10,50,100,200 --interval 5 --duration 60 \\
        [--pids 1234,1235] [--database-url postgres://postgres@127.0.0.1:5432/bench]

For each level (a number of concurrent tables from the fixture) every player of those tables
opens the table's WebSocket with a logged-in session (players are spread over the ``--url``
servers), then each table plays at the set pace: every ``--interval`` seconds (jittered) the
player whose turn it is sends the next move the page offers it (pick from the closed deck,
then discard the card just taken) as the page's POST /tables/<id>/act does. A move counts as
pushed to a seat when that seat's socket receives a frame for the move's version or later.

Printed per level: actions/s, POST p50/p95/p99, push to every other seat p50/p99, lost pushes
(a seat that never heard of a move within 10 s), errors, server CPU per action (the ``--pids``
processes' CPU time over the level divided by its actions) and the most PostgreSQL
connections held (``--database-url``; pg_stat_activity of that database); with
``--proxy-pids`` the proxy's CPU per action apart. A socket the server closes with a retry
code (1012 when a web process restarts) is reopened as the page does, and the time from the
close to the page being in step again is printed with the number of reconnects. With
``--database-url`` the database's transactions per move (pg_stat_database) are printed, and
with ``--pgbouncer-admin`` (``postgres://user@host:6432/pgbouncer``) PgBouncer's transactions
and statements per move: everything the servers ran while the tables played (the moves, the
re-fetches, the socket connects, the timer sweeps), divided by the moves. With
``--redis-url`` (the channel layer's Redis) the most messages that waited at once in one web
process's receive queue, sampled every 0.25 s: what ``CHANNEL_LAYER_CAPACITY`` must hold.
"""

from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import json
import multiprocessing
import os
import random
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

import httpx
import websockets

ROOT_VERSION = re.compile(r'id="felt-root"[^>]*data-version="(\d+)"')
ACTION = re.compile(r'name="action" value="([a-z_]+)"')
GAME = re.compile(r'name="game" value="(\d+)"')
HAND = re.compile(r'id="my-hand".*', re.S)
HAND_ALONE = re.compile(r'id="my-hand".*?(?=id="my-actions")', re.S)
CODE = re.compile(r'data-code="([0-9AJQKTSHDC]{2,3})"')
PUSH_TIMEOUT = 10.0


@dataclass
class Seat:
    table_id: int
    seat: int
    session: str
    base: str
    csrf: str = field(default_factory=lambda: secrets.token_hex(16))
    html: str = ""  # the newest own fragment this seat was pushed (or fetched)
    version: int = 0  # the felt's version the seat shows
    heard: dict[int, float] = field(default_factory=dict)  # version -> when it first arrived
    waiters: list[tuple[int, asyncio.Future[float]]] = field(default_factory=list)
    game: int | None = None  # the game the seat's view shows
    ws: Any = None  # the open table socket (None while it is down)
    counter: int = 0  # the last move counter this seat sent on its socket
    answers: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    catching_up: bool = False  # a "since" sent and not yet answered

    def headers(self) -> dict[str, str]:
        """This player's cookies, sent by hand: one HTTP client serves every player."""
        return {"Cookie": f"sessionid={self.session}; csrftoken={self.csrf}"}

    def saw(self, version: int, html: str, at: float) -> None:
        self.heard.setdefault(version, at)
        if html:
            if 'id="my-actions"' in html and 'id="my-area"' not in html:
                hand = HAND_ALONE.search(self.html)  # the actions alone: the hand as it was
                html += f"<div {hand.group(0)}</div>" if hand else ""
            self.html = html
        if version > self.version:
            self.version = version
        for wanted, future in list(self.waiters):
            if version >= wanted and not future.done():
                future.set_result(at)
                self.waiters.remove((wanted, future))

    def heard_by(self, version: int) -> asyncio.Future[float]:
        future: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        if self.version >= version:  # heard before the POST answered: when it arrived
            future.set_result(min(at for v, at in self.heard.items() if v >= version))
        else:
            self.waiters.append((version, future))
        return future


@dataclass
class Stats:
    posts: list[float] = field(default_factory=list)
    pushes: list[float] = field(default_factory=list)
    lost: int = 0
    errors: int = 0
    socket_errors: int = 0
    actions: int = 0
    reconnects: int = 0
    catch_up: list[float] = field(default_factory=list)  # socket closed -> page in step again
    gaps: int = 0  # felt frames that did not follow what the seat showed: caught up
    since: int = 0  # catch-ups asked on the socket
    refetches: int = 0  # views loaded over HTTP because the socket could not catch up
    frames: list[int] = field(default_factory=list)  # bytes of every frame a seat received
    move_bytes: int = 0  # bytes of all frames to every table socket
    lobby_frames: int = 0
    lobby_bytes: int = 0


# Close codes on which the page's WebSocket extension (htmx ws) reconnects: abnormal closure,
# internal error, service restart (a web process stopping: rummy_site/graceful.py), try later.
RECONNECT_CODES = frozenset({1006, 1011, 1012, 1013})


async def listen(seat: Seat, stop: asyncio.Event, ready: asyncio.Event, stats: Stats) -> None:
    """Hold the seat's socket; reconnect as the page does (after a jittered delay of up to a
    second, doubling on each failed attempt) when the server closes it with a retry code."""
    closed_at: float | None = None
    attempt = 0
    while not stop.is_set():
        try:
            await _listen(seat, stop, ready, stats, closed_at)
            return
        except websockets.ConnectionClosed as closed:
            code = closed.rcvd.code if closed.rcvd is not None else 1006
            if code not in RECONNECT_CODES:
                stats.socket_errors += 1
                ready.set()
                return
            stats.reconnects += 1
            closed_at, attempt = time.perf_counter(), 0
        except (OSError, websockets.WebSocketException):
            if closed_at is None or attempt >= 6:
                stats.socket_errors += 1
                ready.set()
                return
            attempt += 1
        await asyncio.sleep(random.uniform(0, min(2**attempt, 64)))


async def watch_lobby(base: str, stop: asyncio.Event, stats: Stats) -> None:
    """A lobby page's socket: counts what it is sent (the page fetches nothing on a push)."""
    host = urlparse(base)
    try:
        uri = f"ws://{host.netloc}/ws/lobby/"
        origin = {"Origin": base}
        async with websockets.connect(uri, additional_headers=origin, max_size=2**22) as ws:
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout=1.0)
                except TimeoutError:
                    continue
                stats.lobby_frames += 1
                stats.lobby_bytes += len(text)
    except (OSError, websockets.WebSocketException):
        stats.socket_errors += 1


async def _listen(
    seat: Seat, stop: asyncio.Event, ready: asyncio.Event, stats: Stats, closed_at: float | None
) -> None:
    host = urlparse(seat.base)
    uri = f"ws://{host.netloc}/ws/tables/{seat.table_id}/"
    headers = {"Cookie": f"sessionid={seat.session}", "Origin": seat.base}
    async with websockets.connect(uri, additional_headers=headers, max_size=2**22) as ws:
        seat.ws = ws
        ready.set()
        try:
            while not stop.is_set():
                try:
                    text = await asyncio.wait_for(ws.recv(), timeout=1.0)
                except TimeoutError:
                    continue
                if isinstance(text, bytes):
                    text = text.decode()
                if await _heard_frame(seat, ws, text, stats) and closed_at is not None:
                    stats.catch_up.append(time.perf_counter() - closed_at)
                    closed_at = None
        finally:
            seat.ws = None
            seat.catching_up = False


async def _catch_up(seat: Seat, ws: Any, stats: Stats) -> None:
    """Ask the socket for the frames after the version the seat shows (as the page does)."""
    if seat.catching_up:
        return
    seat.catching_up = True
    stats.since += 1
    await ws.send(json.dumps({"t": "since", "v": seat.version, "g": seat.game}))


async def _heard_frame(seat: Seat, ws: Any, text: str, stats: Stats) -> bool:
    """Take one frame of the table socket (docs/table-socket.md); whether it was a ``sync``."""
    now = time.perf_counter()
    if seat.seat:  # a spectator's frames are counted in the move's bytes only
        stats.frames.append(len(text.encode()))
    stats.move_bytes += len(text.encode())
    frame = json.loads(text)
    kind = frame.get("t")
    if kind == "felt":
        before, after = int(frame["from"]), int(frame["v"])
        if before != seat.version and after > seat.version:
            stats.gaps += 1
            if os.environ.get("LOAD_DEBUG") and stats.gaps < 5:
                print("gap", seat.table_id, seat.seat, before, after, seat.version, flush=True)
            await _catch_up(seat, ws, stats)
        else:
            seat.saw(after, "", now)
    elif kind == "seat":
        seat.saw(int(frame["v"]), str(frame["html"]), now)
    elif kind == "sync":
        seat.catching_up = False
        if int(frame["v"]) > seat.version:
            await _catch_up(seat, ws, stats)
        return True
    elif kind == "refetch":
        seat.catching_up = False
        stats.refetches += 1
        await refetch(seat)
    elif kind in ("ack", "refused"):
        answer = seat.answers.pop(frame.get("a"), None)
        if answer is not None and not answer.done():
            answer.set_result(frame)
    return False


class _NoCookies(http.cookiejar.DefaultCookiePolicy):
    """Keep no cookie from a response: each request names its player's own."""

    def set_ok(self, cookie: Any, request: Any) -> bool:
        return False


def new_client(base: str, **kwargs: Any) -> httpx.AsyncClient:
    jar = http.cookiejar.CookieJar(policy=_NoCookies())
    return httpx.AsyncClient(base_url=base, cookies=httpx.Cookies(jar), **kwargs)


async def refetch(seat: Seat) -> None:
    async with new_client(seat.base, timeout=60) as client:
        try:
            response = await client.get(f"/tables/{seat.table_id}/view", headers=seat.headers())
        except httpx.HTTPError:
            return  # the next frame's gap asks again
        match = ROOT_VERSION.search(response.text)
        if response.status_code == 200 and match:
            game = GAME.search(response.text)
            seat.game = int(game.group(1)) if game else seat.game
            seat.saw(int(match.group(1)), response.text, time.perf_counter())


def next_move(seat: Seat) -> dict[str, str] | None:
    """The move the page offers the seat, with the game its forms name (as the page posts)."""
    allowed = set(ACTION.findall(seat.html))
    game = GAME.search(seat.html)
    named = {"game": game.group(1)} if game else {}
    if "pick_closed" in allowed:
        return {"action": "pick_closed", **named}
    if "discard" in allowed:
        hand = HAND.search(seat.html)
        codes = CODE.findall(hand.group(0)) if hand else []
        if codes:
            return {"action": "discard", "card": codes[-1], **named}
    return None


async def play_table(
    seats: list[Seat],
    client_for: dict[str, httpx.AsyncClient],
    args: Any,
    stats: Stats,
    stop: asyncio.Event,
) -> None:
    await asyncio.sleep(random.uniform(0, args.interval))
    while not stop.is_set():
        actor, move = None, None
        for seat in seats:
            move = next_move(seat)
            if move is not None:
                actor = seat
                break
        if actor is None or move is None:
            await asyncio.sleep(0.2)
            continue
        before = actor.version
        data = {**move, "version": str(before)}
        started = time.perf_counter()
        if args.via == "socket":
            version = await _move_on_socket(actor, data, stats)
        else:
            version = await _move_posted(actor, client_for[actor.base], data, stats)
        if version is None:
            await asyncio.sleep(args.interval)
            continue
        stats.posts.append(time.perf_counter() - started)
        stats.actions += 1
        others = [s for s in seats if s is not actor]
        waits = [asyncio.wait_for(s.heard_by(version), PUSH_TIMEOUT) for s in others]
        for result in await asyncio.gather(*waits, return_exceptions=True):
            if isinstance(result, BaseException):
                stats.lost += 1
            else:
                stats.pushes.append(result - started)
        await asyncio.sleep(args.interval * random.uniform(0.8, 1.2))


async def _move_on_socket(actor: Seat, data: dict[str, str], stats: Stats) -> int | None:
    """Send the move on the actor's socket and wait for its answer: the version it made, or
    ``None`` when it was refused or went unanswered."""
    if actor.ws is None:
        stats.errors += 1
        return None
    actor.counter += 1
    counter = actor.counter
    answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    actor.answers[counter] = answer
    try:
        await actor.ws.send(json.dumps({"t": "move", "a": counter, "d": data}))
        frame = await asyncio.wait_for(answer, PUSH_TIMEOUT)
    except (TimeoutError, websockets.WebSocketException):
        actor.answers.pop(counter, None)
        stats.errors += 1
        return None
    if frame["t"] != "ack":
        stats.errors += 1
        if frame.get("html"):
            actor.saw(actor.version, str(frame["html"]), time.perf_counter())
        elif frame.get("status") == 409 and actor.ws is not None:
            await _catch_up(actor, actor.ws, stats)
        return None
    return int(frame["v"])


async def _move_posted(
    actor: Seat, client: httpx.AsyncClient, data: dict[str, str], stats: Stats
) -> int | None:
    """Post the move as the page's fallback does: the version it made, or ``None``."""
    try:
        response = await client.post(
            f"/tables/{actor.table_id}/act",
            data=data,
            headers={**actor.headers(), "HX-Request": "true", "X-CSRFToken": actor.csrf},
        )
    except httpx.HTTPError:
        stats.errors += 1
        return None
    if response.status_code not in (200, 204):
        stats.errors += 1
        await refetch(actor)
        return None
    if response.status_code == 200:  # no socket open: the answer is the fragment
        actor.saw(actor.version, response.text, time.perf_counter())
    return int(data["version"]) + 1


def cpu_seconds(pids: list[int]) -> float:
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / tick  # utime + stime
    return total


async def pg_connections(url: str | None, stop: asyncio.Event, peak: list[int]) -> None:
    if not url:
        return
    import psycopg

    name = urlparse(url).path.lstrip("/")
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        while not stop.is_set():
            cursor = await conn.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [name]
            )
            row = await cursor.fetchone()
            peak[0] = max(peak[0], int(row[0]) - 1 if row else 0)  # less this connection
            await asyncio.sleep(0.5)


async def layer_backlog(url: str | None, stop: asyncio.Event, peak: list[int]) -> None:
    """The most messages waiting at once in one process's receive queue of the core Redis
    channel layer (its ``asgi:specific.<process>!`` sorted sets; a group send puts one message
    there per process, whatever the number of its sockets in the group). What the layer's
    ``capacity`` must hold."""
    if not url:
        return
    import redis.asyncio as aioredis

    client = aioredis.from_url(url)
    try:
        while not stop.is_set():
            keys = [k async for k in client.scan_iter(match="asgi*specific*", count=1000)]
            for key in keys:
                peak[0] = max(peak[0], int(await client.zcard(key)))
            await asyncio.sleep(0.25)
    finally:
        await client.aclose()


def database_counts(url: str | None, admin_url: str | None) -> tuple[int, int, int]:
    """(transactions PostgreSQL committed or rolled back on the database, and PgBouncer's
    transactions and statements for it when ``admin_url`` names its admin console; else 0)."""
    if not url:
        return 0, 0, 0
    import psycopg

    name = urlparse(url).path.lstrip("/")
    with psycopg.connect(url, autocommit=True) as conn:
        row = conn.execute(
            "SELECT xact_commit + xact_rollback FROM pg_stat_database WHERE datname = %s", [name]
        ).fetchone()
    xacts = int(row[0]) if row else 0
    if not admin_url:
        return xacts, 0, 0
    with psycopg.connect(admin_url, autocommit=True, prepare_threshold=None) as admin:
        cursor = admin.cursor()
        cursor.execute("SHOW STATS")
        columns = [c.name for c in cursor.description or ()]
        for values in cursor.fetchall():
            stats = dict(zip(columns, values, strict=True))
            if stats["database"] == name:
                return xacts, int(stats["total_xact_count"]), int(stats["total_query_count"])
    return xacts, 0, 0


def rss_kib(pids: list[int]) -> list[int]:
    out = []
    for pid in pids:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    out.append(int(line.split()[1]))
    return out


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


def _seats(tables: list[dict[str, Any]], urls: list[str]) -> list[list[Seat]]:
    return [
        [
            Seat(t["table_id"], p["seat"], p["session"], urls[(t["table_id"] + i) % len(urls)])
            for i, p in enumerate(t["players"])
        ]
        for t in tables
    ]


async def play_chunk(
    tables: list[dict[str, Any]], args: Any, lobby: int, start: Callable[[], None]
) -> Stats:
    """One worker's share of a level: its tables' sockets (and spectators, and ``lobby`` lobby
    sockets) opened, then, once every worker is ready (``start``), the tables played for the
    level's duration."""
    urls = args.url
    seats_by_table = _seats(tables, urls)
    stop = asyncio.Event()
    stats = Stats()
    listeners = []
    # One logged-in spectator per ``--spectators-per`` tables: a player of the next table.
    for i in range(0, len(seats_by_table), args.spectators_per or len(seats_by_table) + 1):
        other = seats_by_table[(i + 1) % len(seats_by_table)][0]
        watcher = Seat(seats_by_table[i][0].table_id, 0, other.session, other.base)
        listeners.append(asyncio.create_task(listen(watcher, stop, asyncio.Event(), stats)))
    for i in range(lobby):
        listeners.append(asyncio.create_task(watch_lobby(urls[i % len(urls)], stop, stats)))
    for seats in seats_by_table:  # players arrive a table at a time, as pages load
        readies = []
        for seat in seats:
            ready = asyncio.Event()
            readies.append(ready)
            listeners.append(asyncio.create_task(listen(seat, stop, ready, stats)))
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), timeout=120)
        await asyncio.gather(*(refetch(s) for s in seats))  # every page starts from its view
    limits = httpx.Limits(max_connections=500, max_keepalive_connections=500)
    clients = {u: new_client(u, limits=limits, timeout=30) for u in urls}
    await asyncio.get_running_loop().run_in_executor(None, start)
    players = [
        asyncio.create_task(play_table(seats, clients, args, stats, stop))
        for seats in seats_by_table
    ]
    stats.frames.clear()
    stats.move_bytes = stats.lobby_frames = stats.lobby_bytes = 0
    await asyncio.sleep(args.duration)
    stop.set()
    await asyncio.gather(*players, return_exceptions=True)
    await asyncio.gather(*listeners, return_exceptions=True)
    for client in clients.values():
        await client.aclose()
    for seats in seats_by_table:
        for seat in seats:
            seat.waiters.clear()
            seat.answers.clear()
    return stats


def _worker(
    tables: list[dict[str, Any]], args: Any, lobby: int, barrier: Any, results: Any
) -> None:
    stats = asyncio.run(play_chunk(tables, args, lobby, lambda: barrier.wait(timeout=600)))
    results.put(stats)


def _merged(parts: list[Stats]) -> Stats:
    total = Stats()
    for part in parts:
        for name, value in vars(part).items():
            if isinstance(value, list):
                getattr(total, name).extend(value)
            else:
                setattr(total, name, getattr(total, name) + value)
    return total


def redis_commands(url: str | None) -> dict[str, int]:
    """Every command the Redis server has run so far, by name (``INFO commandstats``)."""
    if not url:
        return {}
    import redis

    client = redis.Redis.from_url(url)
    try:
        info = client.info("commandstats")
    finally:
        client.close()
    # Less the harness's own: its sampler's SCAN and ZCARD, and these INFO calls.
    own = {"scan", "zcard", "info"}
    calls = {name.removeprefix("cmdstat_"): int(row["calls"]) for name, row in info.items()}
    return {name: count for name, count in calls.items() if name not in own}


async def _sample(args: Any, peak: list[int], backlog: list[int]) -> None:
    stop = asyncio.Event()
    tasks = [
        asyncio.create_task(pg_connections(args.database_url, stop, peak)),
        asyncio.create_task(layer_backlog(args.redis_url, stop, backlog)),
    ]
    await asyncio.sleep(args.duration)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)


def run_level(tables: list[dict[str, Any]], args: Any) -> dict[str, Any]:
    """A level played by ``--procs`` worker processes, each with its share of the tables; this
    process only measures the servers (CPU, PostgreSQL, Redis) over the same window."""
    procs = max(1, min(args.procs, len(tables)))
    context = multiprocessing.get_context("fork")
    barrier = context.Barrier(procs + 1)
    results = context.Queue()
    workers = [
        context.Process(
            target=_worker,
            args=(tables[i::procs], args, args.lobby // procs, barrier, results),
            daemon=True,
        )
        for i in range(procs)
    ]
    for worker in workers:
        worker.start()
    barrier.wait(timeout=600)  # every socket open
    print(f"# {len(tables)} tables via {args.via}: every socket open, playing", flush=True)
    cpu_before = [cpu_seconds([pid]) for pid in args.pids]
    proxy_before = cpu_seconds(args.proxy_pids)
    counts_before = database_counts(args.database_url, args.pgbouncer_admin)
    redis_before = redis_commands(args.redis_url)
    started = time.perf_counter()
    peak, backlog = [0], [0]
    asyncio.run(_sample(args, peak, backlog))
    wall = time.perf_counter() - started
    cpu = [cpu_seconds([pid]) - before for pid, before in zip(args.pids, cpu_before, strict=True)]
    rss = rss_kib(args.pids)
    proxy_cpu = cpu_seconds(args.proxy_pids) - proxy_before
    counts = [
        b - a
        for a, b in zip(
            counts_before, database_counts(args.database_url, args.pgbouncer_admin), strict=True
        )
    ]
    redis_after = redis_commands(args.redis_url)
    stats = _merged([results.get(timeout=300) for _ in workers])
    for worker in workers:
        worker.join(timeout=30)
    commands = {
        name: calls - redis_before.get(name, 0)
        for name, calls in redis_after.items()
        if calls > redis_before.get(name, 0)
    }
    actions = stats.actions
    return {
        "tables": len(tables),
        "actions_per_s": actions / wall,
        "post_ms": (pct(stats.posts, 0.5), pct(stats.posts, 0.95), pct(stats.posts, 0.99)),
        "push_ms": (pct(stats.pushes, 0.5), pct(stats.pushes, 0.99)),
        "lost": stats.lost,
        "errors": stats.errors + stats.socket_errors,
        "cpu_ms_per_action": (sum(cpu) / actions * 1000) if actions and args.pids else None,
        "cpu_ms_per_action_by_pid": [c / actions * 1000 for c in cpu] if actions else [],
        "pg_connections_peak": peak[0] if args.database_url else None,
        "proxy_cpu_ms_per_action": (
            (proxy_cpu / actions * 1000) if actions and args.proxy_pids else None
        ),
        "actions": actions,
        "per_action": [n / actions if actions else 0.0 for n in counts],
        "redis_per_action": {k: v / actions for k, v in commands.items()} if actions else {},
        "reconnects": stats.reconnects,
        "catch_up_ms": (pct(stats.catch_up, 0.5), max(stats.catch_up, default=0.0) * 1000),
        "socket_errors": stats.socket_errors,
        "gaps": stats.gaps,
        "since": stats.since,
        "refetches": stats.refetches,
        "frame_median_kb": sorted(stats.frames)[len(stats.frames) // 2] / 1000
        if stats.frames
        else 0,
        "bytes_per_action": stats.move_bytes / actions if actions else 0,
        "lobby_frames_per_s": stats.lobby_frames / wall / max(1, args.lobby),
        "rss_kib": rss,
        "layer_backlog_peak": backlog[0] if args.redis_url else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description="Load harness (see the module docstring).")
    parser.add_argument("--fixture", required=True)
    parser.add_argument("--url", action="append", required=True)
    parser.add_argument("--levels", default="10")
    parser.add_argument("--interval", type=float, default=5.0)
    parser.add_argument("--duration", type=float, default=60.0)
    parser.add_argument("--pids", default="")
    parser.add_argument("--database-url", default=None)
    parser.add_argument("--proxy-pids", default="", help="the proxy's processes (CPU apart)")
    parser.add_argument("--lobby", type=int, default=0, help="lobby sockets open all along")
    parser.add_argument(
        "--spectators-per", type=int, default=10, help="one spectator per this many tables"
    )
    parser.add_argument(
        "--pgbouncer-admin", default=None, help="PgBouncer's admin console (statements per move)"
    )
    parser.add_argument(
        "--redis-url",
        default=None,
        help="the channel layer's Redis: its commands per move and its peak receive backlog per"
        " process are printed",
    )
    parser.add_argument(
        "--via",
        default="socket",
        choices=["socket", "http", "both"],
        help="how a player sends a move: on its table socket (as the page does), as the form's"
        " POST (the page's fallback), or each level both ways, one after the other",
    )
    parser.add_argument(
        "--procs", type=int, default=1, help="worker processes playing the tables (split evenly)"
    )
    args = parser.parse_args()
    args.pids = [int(p) for p in args.pids.split(",") if p]
    args.proxy_pids = [int(p) for p in args.proxy_pids.split(",") if p]
    with open(args.fixture) as handle:
        fixture = json.load(handle)
    print(
        "via     tables  actions/s  answer p50/p95/p99 ms   push p50/p99 ms   lost  errors"
        "  CPU ms/action  PG conns"
    )
    vias = ["socket", "http"] if args.via == "both" else [args.via]
    for level, via in [(int(x), v) for x in args.levels.split(",") for v in vias]:
        if level > len(fixture):
            raise SystemExit(f"the fixture has {len(fixture)} tables, fewer than {level}")
        args.via = via
        r = run_level(fixture[:level], args)
        cpu = f"{r['cpu_ms_per_action']:.1f}" if r["cpu_ms_per_action"] is not None else "-"
        conns = r["pg_connections_peak"] if r["pg_connections_peak"] is not None else "-"
        p50, p95, p99 = r["post_ms"]
        q50, q99 = r["push_ms"]
        print(
            f"{via:6s}  {r['tables']:6d}  {r['actions_per_s']:9.1f}"
            f"  {p50:6.0f} /{p95:6.0f} /{p99:6.0f}"
            f"   {q50:7.0f} /{q99:6.0f}   {r['lost']:5d}  {r['errors']:6d}  {cpu:>13}  {conns:>8}",
            flush=True,
        )
        if args.database_url:
            pg_x, pgb_x, pgb_q = r["per_action"]
            line = f"        {r['actions']} actions; per action: {pg_x:.1f} PostgreSQL transactions"
            if args.pgbouncer_admin:
                line += f", {pgb_x:.1f} transactions and {pgb_q:.1f} statements through PgBouncer"
            print(line, flush=True)
        if len(args.pids) > 1:
            shares = ", ".join(f"{c:.1f}" for c in r["cpu_ms_per_action_by_pid"])
            print(f"        CPU ms/action by process: {shares}", flush=True)
        if r["redis_per_action"]:
            top = sorted(r["redis_per_action"].items(), key=lambda kv: -kv[1])[:6]
            words = ", ".join(f"{name} {calls:.1f}" for name, calls in top)
            total = sum(r["redis_per_action"].values())
            print(f"        Redis commands per action: {total:.1f} ({words})", flush=True)
        print(
            f"        catch-ups on the socket {r['since']}, views loaded {r['refetches']};"
            f" felt gaps {r['gaps']}; frame to a seat p50 {r['frame_median_kb']:.1f} KB;"
            f" all frames {r['bytes_per_action'] / 1000:.1f} KB a move; lobby frames"
            f" {r['lobby_frames_per_s']:.2f}/s a socket; RSS KiB {r['rss_kib']}",
            flush=True,
        )
        if r["layer_backlog_peak"] is not None:
            print(
                f"        channel layer: at most {r['layer_backlog_peak']} messages waiting"
                " in one process's queue",
                flush=True,
            )
        if r["proxy_cpu_ms_per_action"] is not None:
            print(f"        proxy CPU ms/action: {r['proxy_cpu_ms_per_action']:.2f}", flush=True)
        if r["reconnects"]:
            c50, cmax = r["catch_up_ms"]
            print(
                f"        reconnects: {r['reconnects']}, socket closed -> in step again "
                f"p50 {c50:.0f} ms, max {cmax:.0f} ms; socket errors {r['socket_errors']}",
                flush=True,
            )


if __name__ == "__main__":
    main()
