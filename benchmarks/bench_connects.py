"""What opening a table and its socket costs a running daphne: the table's page loaded by
seated players, and their table sockets opened without the page (as pages reconnect after a
failover or a restart).

Run against a running server, with a fixture of ``manage.py bench_setup`` (docs/benchmarks.md
has the commands)::

    .venv/bin/python benchmarks/bench_connects.py --fixture /tmp/bench.json \\
        --url http://127.0.0.1:8100 --pid 1234 [--tables 200] [--pages 600]

``--pages`` loads of ``GET /tables/<id>/`` as the fixture's seated players (their session
cookies), four at a time, after 40 to warm the process; then every seat socket of the first
``--tables`` tables, 50 handshakes at a time, each waiting for its first frame (the version),
and, with them all open, the same again (a second tab of each player: the seat is already
online, so the connect changes nothing in the database). Printed: the server's CPU (from
``/proc``) per page and per socket, and how long each wave took.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.load_player import socket_open  # noqa: E402
from benchmarks.load_samplers import cpu_seconds  # noqa: E402


async def load_pages(url: str, seats: list[tuple[int, str]], count: int) -> dict[int, int]:
    """``count`` table pages, four at a time, as the seats' players: the answers' statuses."""
    limit = asyncio.Semaphore(4)
    statuses: dict[int, int] = {}
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:

        async def one(table_id: int, session: str) -> None:
            async with limit:
                answer = await client.get(
                    f"/tables/{table_id}/", headers={"Cookie": f"sessionid={session}"}
                )
            statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1

        await asyncio.gather(*(one(*seats[i % len(seats)]) for i in range(count)))
    return statuses


async def open_sockets(
    url: str, seats: list[tuple[int, str]], stop: asyncio.Event
) -> tuple[list[asyncio.Task[None]], float]:
    """A socket for every seat, 50 handshakes at a time, each until its first frame: the tasks
    holding them open until ``stop`` and the seconds until all were open."""
    host = url.split("//", 1)[1]
    limit = asyncio.Semaphore(50)
    opened: list[int] = []

    async def hold(table_id: int, session: str) -> None:
        headers = {"Cookie": f"sessionid={session}", "Origin": url}
        async with limit:
            socket = await socket_open(
                f"ws://{host}/ws/tables/{table_id}/", headers, open_timeout=120
            )
            await socket.recv()
        opened.append(table_id)
        await stop.wait()
        await socket.close()

    started = time.perf_counter()
    tasks = [asyncio.create_task(hold(*seat)) for seat in seats]
    while len(opened) < len(tasks):
        failed = [task for task in tasks if task.done()]
        if failed:
            raise SystemExit(f"a socket did not open: {failed[0].exception()!r}")
        await asyncio.sleep(0.05)
    return tasks, time.perf_counter() - started


async def run(args: Any) -> None:
    with open(args.fixture) as handle:
        fixture = json.load(handle)
    seats = [(t["table_id"], p["session"]) for t in fixture for p in t["players"]]
    if args.pages:
        await load_pages(args.url, seats, 40)
        before, started = cpu_seconds([args.pid]), time.perf_counter()
        statuses = await load_pages(args.url, seats, args.pages)
        wall, spent = time.perf_counter() - started, cpu_seconds([args.pid]) - before
        print(
            f"{args.pages} table pages {statuses} in {wall:.1f} s:"
            f" {spent / args.pages * 1000:.1f} ms of the server's CPU a page"
        )
    tabled = [(t["table_id"], p["session"]) for t in fixture[: args.tables] for p in t["players"]]
    stop = asyncio.Event()
    held: list[asyncio.Task[None]] = []
    for wave in ("first socket of each seat", "a second tab of each seat"):
        before = cpu_seconds([args.pid])
        tasks, wall = await open_sockets(args.url, tabled, stop)
        held += tasks
        await asyncio.sleep(args.settle)  # what the connects set off (badges, pushes) done
        spent = cpu_seconds([args.pid]) - before
        print(
            f"{wave}: {len(tasks)} sockets open in {wall:.1f} s,"
            f" {spent / len(tasks) * 1000:.1f} ms of the server's CPU a socket"
            f" ({args.settle:.0f} s after included)"
        )
    stop.set()
    await asyncio.gather(*held, return_exceptions=True)


def main() -> None:
    parser = argparse.ArgumentParser(description="Table pages and table sockets (see above).")
    parser.add_argument("--fixture", required=True)
    parser.add_argument("--url", required=True)
    parser.add_argument("--pid", type=int, required=True, help="the server's process")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--pages", type=int, default=600)
    parser.add_argument("--settle", type=float, default=3.0)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
