"""Debian's nginx in front of live web processes, configured by deploy/render.py exactly as
deploy/up configures it (only the ports and paths differ)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.live_server import free_port

ROOT = Path(__file__).resolve().parents[2]
NGINX = "/usr/sbin/nginx"


def wait_listening(port: int, proc: subprocess.Popen[bytes], what: str, log: Path) -> None:
    deadline = time.monotonic() + 30
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"{what} did not start; see {log}") from None
            time.sleep(0.1)


@contextmanager
def running_nginx(
    web_ports: list[int], run_dir: Path, static_root: Path, secret: str = ""
) -> Iterator[str]:
    if not os.path.exists(NGINX):
        raise RuntimeError(f"{NGINX} is missing: scripts/test installs Debian's nginx")
    port = free_port()
    env = {
        **os.environ,
        "RUN_DIR": str(run_dir),
        "PROXY_PORT": str(port),
        "WEB_PORTS": " ".join(str(p) for p in web_ports),
        "STATIC_ROOT": str(static_root),
        "NGINX_USER": "root",
        "TRUSTED_PROXY_SECRET": secret,
    }
    subprocess.run(
        [sys.executable, str(ROOT / "deploy" / "render.py"), "nginx.conf"], env=env, check=True
    )
    conf = run_dir / "nginx.conf"
    log = run_dir / "logs" / "nginx-error.log"
    proc = subprocess.Popen(
        [NGINX, "-p", str(run_dir), "-c", str(conf), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=(run_dir / "logs" / "nginx.out").open("ab"),
    )
    try:
        wait_listening(port, proc, "nginx", log)
        yield f"127.0.0.1:{port}"
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@contextmanager
def running_web(env: dict[str, str], log: Path) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """A web process as deploy/up runs it (``python -m rummy_site.graceful``)."""
    port = free_port()
    proc = subprocess.Popen(
        [
            *(sys.executable, "-m", "rummy_site.graceful", "-b", "127.0.0.1", "-p", str(port)),
            "rummy_site.asgi:application",
        ],
        cwd=ROOT,
        env=env,
        stdout=log.open("ab"),
        stderr=subprocess.STDOUT,
    )
    try:
        wait_listening(port, proc, "the web process", log)
        yield port, proc
    finally:
        if proc.poll() is None:
            proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
