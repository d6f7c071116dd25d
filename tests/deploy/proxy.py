"""Debian's nginx in front of live web processes, configured by deploy/render.py exactly as
deploy/up configures it (only the ports and paths differ)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.live_server import free_port, stop_process, wait_listening

ROOT = Path(__file__).resolve().parents[2]
NGINX = "/usr/sbin/nginx"


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
        stop_process(proc)


@contextmanager
def running_web(
    env: dict[str, str], log: Path, port: int | None = None
) -> Iterator[tuple[int, subprocess.Popen[bytes]]]:
    """A web process as deploy/up runs it (``python -m rummy_site.graceful``), on ``port`` (one
    that was free, by default)."""
    port = port or free_port()
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
        stop_process(proc, timeout=15)
