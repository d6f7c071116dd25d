"""Idle sockets: what thousands of open lobby sockets cost a running daphne.

Run against a running server (docs/benchmarks.md has the commands)::

    .venv/bin/python benchmarks/idle_sockets.py --url http://127.0.0.1:8100 --pid 1234 \\
        --sockets 5000 --idle 30

Opens ``--sockets`` lobby WebSockets (a few hundred at a time), then holds them for ``--idle``
seconds without any traffic and prints the server's RSS before and after opening them (and
per socket) and its CPU over the idle period (the share of one core).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

import websockets

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.load_player import socket_open  # noqa: E402
from benchmarks.load_samplers import cpu_seconds, rss_kib  # noqa: E402


async def hold(uri: str, origin: str, opened: asyncio.Event, stop: asyncio.Event) -> bool:
    try:
        async with socket_open(uri, {"Origin": origin}) as ws:
            opened.set()
            while not stop.is_set():
                try:
                    await asyncio.wait_for(ws.recv(), timeout=1.0)
                except TimeoutError:
                    continue
        return True
    except (OSError, websockets.WebSocketException):
        opened.set()
        return False


async def run(args: Any) -> None:
    uri = f"ws://{urlparse(args.url).netloc}/ws/lobby/"
    before = sum(rss_kib([args.pid]))
    stop = asyncio.Event()
    tasks = []
    for start in range(0, args.sockets, args.batch):
        events = []
        for _ in range(min(args.batch, args.sockets - start)):
            opened = asyncio.Event()
            events.append(opened)
            tasks.append(asyncio.create_task(hold(uri, args.url, opened, stop)))
        await asyncio.wait_for(asyncio.gather(*(e.wait() for e in events)), timeout=120)
    await asyncio.sleep(5)  # let the server settle after the handshakes
    after = sum(rss_kib([args.pid]))
    cpu_before, wall_before = cpu_seconds([args.pid]), time.perf_counter()
    await asyncio.sleep(args.idle)
    idle_share = (cpu_seconds([args.pid]) - cpu_before) / (time.perf_counter() - wall_before)
    stop.set()
    held = sum(1 for ok in await asyncio.gather(*tasks) if ok)
    print(f"sockets held: {held} of {args.sockets}")
    print(f"daphne RSS: {before} KiB before, {after} KiB with the sockets open")
    print(f"per socket: {(after - before) / max(1, held):.1f} KiB")
    print(f"idle CPU with them open: {idle_share * 100:.1f} % of one core")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--url", required=True)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--sockets", type=int, default=5000)
    parser.add_argument("--batch", type=int, default=250)
    parser.add_argument("--idle", type=float, default=30.0)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
