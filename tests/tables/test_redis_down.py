"""Issue 21, point 8: Redis going down does not take the site down. A live daphne with its own
Redis (a private redis-server on port 6390, started and killed here: never the shared one):
mid-game the Redis process is killed; logging in, the lobby, the table and the moves go on over
HTTP (sessions in the database, the cache degrades to memory), a socket is refused cleanly;
when Redis is back, sockets connect again and pushes resume."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from tables_testkit import TableDriver

from tables import services
from tables.models import Game, TableTemplate
from tests.live_server import running_daphne, server_env

pytestmark = pytest.mark.django_db(transaction=True)

PORT = 6390
PASSWORD = "correct-horse-battery-9"


def _redis_start(pidfile: Path) -> None:
    server = shutil.which("redis-server")
    assert server, "redis-server is needed (Debian: apt-get install redis-server)"
    subprocess.run(
        [server, "--port", str(PORT), "--save", "", "--appendonly", "no", "--daemonize", "yes",
         "--pidfile", str(pidfile), "--bind", "127.0.0.1"],
        check=True,
    )  # fmt: skip
    deadline = time.monotonic() + 10
    while (
        subprocess.run(
            ["redis-cli", "-p", str(PORT), "ping"], capture_output=True, text=True, check=False
        ).stdout.strip()
        != "PONG"
    ):
        assert time.monotonic() < deadline, "the private redis-server did not start"
        time.sleep(0.1)


def _redis_kill(pidfile: Path) -> None:
    deadline = time.monotonic() + 5
    while not pidfile.exists():
        assert time.monotonic() < deadline
        time.sleep(0.05)
    pid = int(pidfile.read_text().strip())
    os.kill(pid, signal.SIGKILL)
    while Path(f"/proc/{pid}").exists():
        stat = Path(f"/proc/{pid}/stat").read_text() if Path(f"/proc/{pid}/stat").exists() else ""
        if " Z " in stat:
            break
        time.sleep(0.05)
    pidfile.unlink(missing_ok=True)


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[Path]:
    pidfile = tmp_path / "redis-6390.pid"
    _redis_start(pidfile)
    try:
        yield pidfile
    finally:
        if pidfile.exists():
            _redis_kill(pidfile)


def _login(base: str, user: Any) -> httpx.Client:
    client = httpx.Client(base_url=base, follow_redirects=False, timeout=20)
    client.get("/accounts/login/")
    response = client.post(
        "/accounts/login/",
        data={
            "username": user.username,
            "password": PASSWORD,
            "csrfmiddlewaretoken": client.cookies["csrftoken"],
        },
    )
    assert response.status_code == 302, response.text[:300]
    return client


def _act(client: httpx.Client, table_id: int, **data: Any) -> httpx.Response:
    return client.post(
        f"/tables/{table_id}/act",
        data={k: str(v) for k, v in data.items()},
        headers={"X-CSRFToken": client.cookies["csrftoken"], "HX-Request": "true"},
    )


async def _socket_first(base: str, table_id: int, cookie: str, *, then: Callable | None = None):
    """Open the table socket; return (the first message, the next one after ``then()``)."""
    url = base.replace("http://", "ws://") + f"/ws/tables/{table_id}/"
    headers = {"Cookie": cookie, "Origin": base}
    async with websockets.connect(url, additional_headers=headers) as ws:
        first = await asyncio.wait_for(ws.recv(), 10)
        later: list[str] = []
        if then is not None:
            await asyncio.to_thread(then)
            try:
                while len(later) < 5:
                    later.append(str(await asyncio.wait_for(ws.recv(), 5)))
            except TimeoutError:
                pass
        return first, later


def _cookie(client: httpx.Client) -> str:
    return "; ".join(f"{k}={v}" for k, v in client.cookies.items())


def test_killing_redis_mid_game_keeps_http_play_going_and_pushes_resume(
    private_redis: Path,
    template_factory: Callable[..., TableTemplate],
    players: list[Any],
    toss: Callable[[int], None],
) -> None:
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    hasher = PBKDF2PasswordHasher()
    for player in players[:2]:  # a hasher the server process knows (the tests use MD5)
        player.password = hasher.encode(PASSWORD, hasher.salt(), iterations=1000)
        player.save(update_fields=["password"])
    toss(1)
    template = template_factory(seats_max=2, turn_s=120)
    table = services.table_create(template=template)
    for player in players[:2]:
        services.table_join(table=table, user=player)
    game = Game.objects.get(table=table)
    assert game.status == "running"
    driver = TableDriver(table, {1: players[0], 2: players[1]}, clock=None)
    starter = driver.turn()
    mover = players[starter - 1]

    env = server_env(REDIS_URL=f"redis://127.0.0.1:{PORT}/0", CACHE_RETRY_AFTER_S="1")
    with running_daphne(env) as base:
        player = _login(base, mover)
        first, _ = asyncio.run(_socket_first(base, table.pk, _cookie(player)))
        assert json.loads(first) == {"t": "sync", "v": driver.game().version}

        _redis_kill(private_redis)
        # Logging in, the lobby, the table page and a move: all over HTTP, no 500.
        other = _login(base, players[2 - starter])
        assert other.get("/").status_code == 200
        assert player.get(f"/tables/{table.pk}/").status_code == 200
        version = driver.game().version
        moved = _act(player, table.pk, action="pick_closed", version=version)
        assert moved.status_code == 200, moved.text[:300]
        assert driver.game().version == version + 1
        assert player.get(f"/tables/{table.pk}/view").status_code == 200
        assert httpx.get(base + "/healthz", timeout=10).status_code == 503
        # A socket now is refused cleanly (the page re-fetches meanwhile), not with an error.
        with pytest.raises(websockets.exceptions.ConnectionClosed) as closed:
            asyncio.run(_socket_first(base, table.pk, _cookie(player)))
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4503

        _redis_start(private_redis)
        time.sleep(1.5)  # past CACHE_RETRY_AFTER_S: the cache tries Redis again
        card = driver.view(starter)["hand"]["cards"][0]
        after_discard: list[int] = []

        def discard() -> None:
            answer = _act(
                player, table.pk, action="discard", version=driver.game().version, card=card
            )
            assert answer.status_code == 204  # the socket is open: the push brings the parts
            after_discard.append(driver.game().version)

        # The page's socket reconnects by itself, with a pause between tries; the first try may
        # meet a connection the server's pool still held from before the outage.
        for _attempt in range(10):
            try:
                again, pushed = asyncio.run(
                    _socket_first(base, table.pk, _cookie(player), then=discard)
                )
                break
            except websockets.exceptions.ConnectionClosed:
                time.sleep(1)
        else:
            raise AssertionError("the socket did not come back with Redis")
        # Told the current version on connecting (the move made meanwhile, and the socket's own
        # connection change), then pushed the discard's felt.
        now_at = int(json.loads(again)["v"])
        assert now_at >= version + 1
        frames = [json.loads(text) for text in pushed]
        pushes = [(f["from"], f["v"]) for f in frames if f["t"] == "felt"]
        assert (after_discard[-1] - 1, after_discard[-1]) in pushes, pushes
        assert driver.view()["deal"]["open_top"] == card
        assert httpx.get(base + "/healthz", timeout=10).status_code == 200
