"""The load harness's player (benchmarks/load.py): one seat's table socket and its moves, sent
on the socket or posted as the page's form, and the pushes each other seat hears of them."""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import os
import random
import re
import secrets
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlparse

import httpx
import websockets
from websockets.asyncio import client as websockets_client

ROOT_VERSION = re.compile(r'id="felt-root"[^>]*data-version="(\d+)"')
ACTION = re.compile(r'name="action" value="([a-z_]+)"')
GAME = re.compile(r'name="game" value="(\d+)"')
HAND = re.compile(r'id="my-hand".*', re.S)
HAND_ALONE = re.compile(r'id="my-hand".*?(?=id="my-actions")', re.S)
CODE = re.compile(r'data-code="([0-9AJQKTSHDC]{2,3})"')
PUSH_TIMEOUT = 10.0
OPEN_TIMEOUT = 10.0  # seconds a socket's opening handshake may take


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
    # When each answered move was sent, in seconds from the level's start (``posts`` alike).
    posted_at: list[float] = field(default_factory=list)
    pushes: list[float] = field(default_factory=list)
    # Each table's first move of the level: the first move a process plays of a game it has
    # not played before (its memory of the game, the game's state and the push's fragments cold).
    first_posts: list[float] = field(default_factory=list)
    lost: int = 0
    failed: list[str] = field(default_factory=list)  # why each move made no version, by kind
    socket_errors: int = 0
    actions: int = 0
    reconnects: int = 0  # seat sockets closed with a retry code and opened again
    lobby_reconnects: int = 0  # lobby sockets closed with a retry code and opened again
    connect_retries: int = 0  # opening handshakes that failed and were tried again
    catch_up: list[float] = field(default_factory=list)  # socket closed -> page in step again
    gaps: int = 0  # felt frames that did not follow what the seat showed: caught up
    since: int = 0  # catch-ups asked on the socket
    refetches: int = 0  # views loaded over HTTP because the socket could not catch up
    frames: list[int] = field(default_factory=list)  # bytes of every frame a seat received
    move_bytes: int = 0  # bytes of all frames to every table socket
    lobby_frames: int = 0
    lobby_bytes: int = 0

    def fail(self, kind: str) -> None:
        """A move that made no version: no socket to send it on, no answer in time (or the
        POST failed to connect), its socket gone, refused."""
        self.failed.append(kind)


# Close codes on which the page's WebSocket extension (htmx ws) reconnects: abnormal closure,
# internal error, service restart (a web process stopping: rummy_site/graceful.py), try later.
RECONNECT_CODES = frozenset({1006, 1011, 1012, 1013})


# How many times in a row a socket that did not open is tried again before it counts as an
# error (the page's WebSocket extension never gives up; its delays double up to 64 s).
CONNECT_ATTEMPTS = 6


async def listen(
    seat: Seat,
    stop: asyncio.Event,
    ready: asyncio.Event,
    stats: Stats,
    *,
    open_timeout: float = OPEN_TIMEOUT,
) -> None:
    """Hold the seat's socket; open it again as the page does (after a jittered delay of up to
    a second, doubling on each failed attempt) when the server closes it with a retry code or
    when it did not open, the first time too: a page whose handshake timed out in a burst of
    connects reconnects (a browser sees 1006 and htmx's extension retries)."""
    closed_at: float | None = None
    attempt = 0
    while not stop.is_set():
        try:
            await _listen(seat, stop, ready, stats, closed_at, open_timeout=open_timeout)
            return
        except (OSError, websockets.WebSocketException) as failure:
            next_attempt = _after_failure(failure, attempt, stats)
            if next_attempt is None:
                ready.set()
                return
            if next_attempt == 0:  # it was open: the time it closed, for the catch-up's time
                stats.reconnects += 1
                closed_at = time.perf_counter()
            attempt = next_attempt
        await _reopen_delay(attempt)


def _after_failure(failure: Exception, attempt: int, stats: Stats) -> int | None:
    """How a socket goes on after ``failure``, as the page's WebSocket extension does: opened
    again at once (0: it was open, and closed with a retry code; the caller counts that
    reconnect as a seat's or a lobby's), tried again (the next attempt's number, counted in
    ``stats``: its opening handshake failed or timed out, the first one too), or ``None``:
    given up, counted as an error (any other close code, or ``CONNECT_ATTEMPTS`` failed
    handshakes in a row)."""
    if isinstance(failure, websockets.ConnectionClosed):
        code = failure.rcvd.code if failure.rcvd is not None else 1006
        if code not in RECONNECT_CODES:
            stats.socket_errors += 1
            return None
        return 0
    if attempt >= CONNECT_ATTEMPTS:  # a handshake's timeout is an OSError
        stats.socket_errors += 1
        return None
    stats.connect_retries += 1
    return attempt + 1


async def _reopen_delay(attempt: int) -> None:
    """A jittered delay of up to a second, doubling on each failed attempt up to 64 s."""
    await asyncio.sleep(random.uniform(0, min(2 ** max(attempt - 1, 0), 64)))


def socket_open(
    uri: str, headers: dict[str, str], *, open_timeout: float = OPEN_TIMEOUT
) -> websockets_client.connect:
    """A socket opened as a page opens it, for every harness that holds sockets. Like a
    browser, it sends no pings of its own (``websockets``' client would send one every 20 s,
    each for the server to answer): it answers the server's."""
    return websockets_client.connect(
        uri,
        additional_headers=headers,
        max_size=2**22,
        ping_interval=None,
        open_timeout=open_timeout,
    )


async def watch_lobby(
    base: str, stop: asyncio.Event, stats: Stats, *, open_timeout: float = OPEN_TIMEOUT
) -> None:
    """A lobby page's socket: counts what it is sent (the page fetches nothing on a push).
    Opened again as a seat's is (``_after_failure``): a lobby page whose handshake timed out
    in a burst of connects retries it too."""
    host = urlparse(base)
    uri = f"ws://{host.netloc}/ws/lobby/"
    origin = {"Origin": base}
    attempt = 0
    while not stop.is_set():
        try:
            async with socket_open(uri, origin, open_timeout=open_timeout) as ws:
                attempt = 0
                while not stop.is_set():
                    try:
                        text = await asyncio.wait_for(ws.recv(), timeout=1.0)
                    except TimeoutError:
                        continue
                    stats.lobby_frames += 1
                    stats.lobby_bytes += len(text)
            return
        except (OSError, websockets.WebSocketException) as failure:
            next_attempt = _after_failure(failure, attempt, stats)
            if next_attempt is None:
                return
            if next_attempt == 0:
                stats.lobby_reconnects += 1
            attempt = next_attempt
        await _reopen_delay(attempt)


async def _listen(
    seat: Seat,
    stop: asyncio.Event,
    ready: asyncio.Event,
    stats: Stats,
    closed_at: float | None,
    *,
    open_timeout: float,
) -> None:
    host = urlparse(seat.base)
    uri = f"ws://{host.netloc}/ws/tables/{seat.table_id}/"
    headers = {"Cookie": f"sessionid={seat.session}", "Origin": seat.base}
    async with socket_open(uri, headers, open_timeout=open_timeout) as ws:
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
            if seat.version:  # a page that has not loaded its view yet has no gap to count
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
        # The hand up to the actions below it (a whole view goes on to the felt's result
        # sheet, whose cards the seat does not hold); a hand kept after the actions, to the end.
        hand = HAND_ALONE.search(seat.html) or HAND.search(seat.html)
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
    level_start = time.perf_counter()
    await asyncio.sleep(random.uniform(0, args.interval))
    first = True
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
        if stop.is_set():
            break  # answered after the level's time: the level's figures leave it out
        if version is None:
            await asyncio.sleep(args.interval)
            continue
        stats.posts.append(time.perf_counter() - started)
        stats.posted_at.append(started - level_start)
        if first:
            stats.first_posts.append(stats.posts[-1])
            first = False
        stats.actions += 1
        others = [s for s in seats if s is not actor]
        waits = [asyncio.wait_for(s.heard_by(version), PUSH_TIMEOUT) for s in others]
        for result in await asyncio.gather(*waits, return_exceptions=True):
            if isinstance(result, BaseException):
                stats.lost += 1
            else:
                stats.pushes.append(result - started)
        pause = args.interval * random.uniform(0.8, 1.2)
        if args.pace == "cadence":  # the interval runs from the move's start, not its end
            pause -= time.perf_counter() - started
        await asyncio.sleep(max(0.0, pause))


async def _move_on_socket(actor: Seat, data: dict[str, str], stats: Stats) -> int | None:
    """Send the move on the actor's socket and wait for its answer: the version it made, or
    ``None`` when it was refused or went unanswered."""
    if actor.ws is None:
        stats.fail("no socket")
        return None
    actor.counter += 1
    counter = actor.counter
    answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    actor.answers[counter] = answer
    try:
        await actor.ws.send(json.dumps({"t": "move", "a": counter, "d": data}))
        frame = await asyncio.wait_for(answer, PUSH_TIMEOUT)
    except TimeoutError:
        actor.answers.pop(counter, None)
        stats.fail("unanswered")
        return None
    except websockets.WebSocketException:
        actor.answers.pop(counter, None)
        stats.fail("socket closed")
        return None
    if frame["t"] != "ack":
        stats.fail(f"refused {frame.get('code')}")
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
        stats.fail("unanswered")
        return None
    if response.status_code not in (200, 204):
        stats.fail(f"HTTP {response.status_code}")
        await refetch(actor)
        return None
    if response.status_code == 200:  # no socket open: the answer is the fragment
        actor.saw(actor.version, response.text, time.perf_counter())
    return int(data["version"]) + 1
