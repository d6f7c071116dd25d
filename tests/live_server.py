"""A real daphne process serving the test database, for the browser tests and the live-server
tests (connection pool, error pages). It sees what the test committed, so it needs
``transactional_db``."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def server_env(**overrides: str) -> dict[str, str]:
    """The environment of a server process that uses the test database (and the test's Redis)."""
    from django.db import connection

    db = connection.settings_dict
    env = dict(os.environ)
    env["DJANGO_SETTINGS_MODULE"] = "rummy_site.settings"
    env["TIMERS_BACKEND"] = "loop"
    if db["ENGINE"].endswith("sqlite3"):
        env.pop("DATABASE_URL", None)
        env["SQLITE_PATH"] = str(db["NAME"])
    else:
        user = db.get("USER") or "postgres"
        host = db.get("HOST") or "127.0.0.1"
        port = db.get("PORT") or 5432
        env["DATABASE_URL"] = f"postgres://{user}@{host}:{port}/{db['NAME']}"
    env.update(overrides)
    return env


@contextmanager
def running_daphne(env: dict[str, str] | None = None) -> Iterator[str]:
    """Start daphne on a free port, yield its base URL, stop it (before the test database is
    flushed: the server's timers and computer players write to it while it runs)."""
    port = free_port()
    log = open(ROOT / "test-results-daphne.log", "a")  # noqa: SIM115
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port)),
            "rummy_site.asgi:application",
        ],
        cwd=ROOT,
        env=env if env is not None else server_env(),
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_listening(port, proc, "the live daphne server", "test-results-daphne.log")
        yield f"http://127.0.0.1:{port}"
    finally:
        stop_process(proc)
        log.close()


def wait_listening(port: int, proc: subprocess.Popen[bytes], what: str, log: Path | str) -> None:
    """Wait (30 s at most) until ``proc`` accepts connections on ``port``; a process that ended
    or never listened is an error naming ``what`` and its ``log``."""
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"{what} did not start; see {log}") from None
            time.sleep(0.1)


def stop_process(proc: subprocess.Popen[bytes], timeout: float = 10) -> None:
    """End ``proc`` as a service manager would: SIGTERM, and SIGKILL after ``timeout`` s."""
    if proc.poll() is None:
        proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
