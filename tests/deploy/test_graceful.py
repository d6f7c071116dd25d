"""The graceful stop of a web process (rummy_site/graceful.py): on SIGTERM daphne stops taking
connections, lets the request in flight finish, closes its WebSockets with 1012 (the code on
which the page's WebSocket extension reconnects), tells the application each socket went with
1012, and exits by itself."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import websockets

from tests.live_server import free_port

ROOT = Path(__file__).resolve().parents[2]


def _start(app: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "rummy_site.settings",
        "GRACEFUL_TIMEOUT_S": "8",
        "GRACEFUL_CLOSE_SPREAD_S": "0.3",
        "SLOW_APP_CODES": str(log.with_suffix(".codes")),
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "rummy_site.graceful", "-b", "127.0.0.1", "-p", str(port), app],
        cwd=ROOT,
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise RuntimeError(f"the graceful daphne did not start; see {log}") from None
            time.sleep(0.1)


def _refused(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return False
    except OSError:
        return True


def test_sigterm_finishes_requests_closes_sockets_with_1012_and_stops_listening(tmp_path):
    port = free_port()
    proc = _start("tests.deploy.slow_app:application", port, tmp_path / "daphne.log")
    try:

        async def scenario() -> dict[str, object]:
            uri = f"ws://127.0.0.1:{port}/ws/"
            sockets = [await websockets.connect(uri) for _ in range(3)]
            assert [await s.recv() for s in sockets] == ["hello"] * 3

            def slow_get() -> tuple[int, bytes]:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/slow", timeout=10) as r:
                    return r.status, r.read()

            loop = asyncio.get_running_loop()
            slow = loop.run_in_executor(None, slow_get)
            await asyncio.sleep(0.4)  # the request is in flight
            sent = time.monotonic()
            proc.send_signal(signal.SIGTERM)
            codes = []
            for s in sockets:
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await asyncio.wait_for(s.recv(), timeout=5)
                codes.append(closed.value.rcvd.code if closed.value.rcvd else None)
            closed_after = time.monotonic() - sent
            refused = await loop.run_in_executor(None, _refused, port)
            status, body = await slow
            return {
                "codes": codes,
                "closed_after": closed_after,
                "refused": refused,
                "slow": (status, body),
            }

        result = asyncio.run(scenario())
        assert result["codes"] == [1012, 1012, 1012]
        assert result["closed_after"] < 1.0  # at once, not after the request finished
        assert result["refused"]  # no new connection once the stop began
        assert result["slow"] == (200, b"done")  # the request in flight was answered
        assert proc.wait(timeout=10) == 0
        assert "graceful stop: drained" in (tmp_path / "daphne.log").read_text()
        # The consumers are told 1012 too: the page reconnects, the player did not leave.
        assert (tmp_path / "daphne.codes").read_text().split() == ["1012"] * 3
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
