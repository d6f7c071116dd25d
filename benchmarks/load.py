"""Load harness: plays live tables against a running server the way the page does.

It starts nothing itself. Prepare a fixture and run the server(s) first (docs/benchmarks.md has
the exact commands), then::

    .venv/bin/python benchmarks/load.py --fixture /tmp/bench.json \\
        --url http://127.0.0.1:8000 [--url http://127.0.0.1:8001] \\
        --levels 10,50,100,200 --interval 5 --duration 60 \\
        [--pids 1234,1235] [--database-url postgres://postgres@127.0.0.1:5432/bench]

For each level (a number of concurrent tables from the fixture) every player of those tables
loads the table's view, then opens the table's WebSocket with a logged-in session (players are
spread over the ``--url`` servers), then each table plays at the set pace: every ``--interval``
seconds (jittered by ±20 %, counted from its last move's start; ``--pace after`` counts from the
last move's pushes) the player whose turn it is sends the next move the page offers it (pick from
the closed deck, then discard the card just taken) on its table socket as the page does, or with
``--via http`` as the page's fallback POST /tables/<id>/act. A
move counts as pushed to a seat when that seat's socket receives a frame for the move's version
or later.

Printed per level: actions/s, POST p50/p95/p99, push to every other seat p50/p99, lost pushes
(a seat that never heard of a move within 10 s), errors, server CPU per action (the ``--pids``
processes' CPU time over the level divided by its actions; the level starts once they are
quiet after the sockets' connects, whose CPU is printed apart) and the most PostgreSQL
connections held (``--database-url``; pg_stat_activity of that database); the cores each
process of the machine held over the level, and each ``--pids`` process's threads: its event
loop's thread apart from the others (the move pool's); with ``--proxy-pids`` the proxy's CPU
per action apart. A socket the server closes with a retry code (1012 when a web process
restarts) is reopened as the page does, and the time from the close to the page being in
step again is printed with the number of reconnects; a socket whose opening handshake failed
(a burst of connects past the client's open timeout) is opened again too, the first time
included, and the number of those retries is printed. With ``--database-url`` the database's
transactions per move (pg_stat_database) are printed, and
with ``--pgbouncer-admin`` (``postgres://user@host:6432/pgbouncer``) PgBouncer's transactions
and statements per move: everything the servers ran while the tables played (the moves, the
re-fetches, the socket connects, the timer sweeps), divided by the moves. With
``--redis-url`` (the channel layer's Redis) the most messages that waited at once in one web
process's receive queue, sampled every 0.25 s: what ``CHANNEL_LAYER_CAPACITY`` must hold.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.load_player import Seat, Stats, listen, new_client, play_table, refetch, watch_lobby  # noqa: E402
from benchmarks.load_report import HEADER, WINDOW_S, answer_windows, pct, print_level  # noqa: E402
from benchmarks.load_samplers import (  # noqa: E402
    cpu_by_command,
    cpu_by_thread,
    cpu_seconds,
    database_counts,
    redis_commands,
    rss_kib,
    sample,
    thread_cores,
    with_descendants,
)


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
    stop = asyncio.Event()  # the level's time is up: no table sends another move
    # The sockets are read until every move in flight when the level ended has its answer and
    # pushes (else those moves would count as unanswered and their pushes as lost).
    drained = asyncio.Event()
    stats = Stats()
    listeners = []
    # One logged-in spectator per ``--spectators-per`` tables: a player of the next table.
    for i in range(0, len(seats_by_table), args.spectators_per or len(seats_by_table) + 1):
        other = seats_by_table[(i + 1) % len(seats_by_table)][0]
        watcher = Seat(seats_by_table[i][0].table_id, 0, other.session, other.base)
        listeners.append(asyncio.create_task(listen(watcher, drained, asyncio.Event(), stats)))
    for i in range(lobby):
        listeners.append(asyncio.create_task(watch_lobby(urls[i % len(urls)], drained, stats)))
    for seats in seats_by_table:  # players arrive a table at a time, as pages load
        # As the page does: its view first, then its socket, whose first frame (``sync``)
        # names the version the page shows unless something moved in between.
        await asyncio.gather(*(refetch(s) for s in seats))
        readies = []
        for seat in seats:
            ready = asyncio.Event()
            readies.append(ready)
            listeners.append(asyncio.create_task(listen(seat, drained, ready, stats)))
        await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), timeout=120)
    limits = httpx.Limits(max_connections=500, max_keepalive_connections=500)
    clients = {u: new_client(u, limits=limits, timeout=30) for u in urls}
    await asyncio.get_running_loop().run_in_executor(None, start)
    players = [
        asyncio.create_task(play_table(seats, clients, args, stats, stop))
        for seats in seats_by_table
    ]
    stats.frames.clear()
    stats.move_bytes = stats.lobby_frames = stats.lobby_bytes = 0
    # The level's own: each page loaded its view as it opened, and a page that played the level
    # before met a gap on its first frame.
    stats.since = stats.refetches = stats.gaps = 0
    await asyncio.sleep(args.duration)
    stop.set()
    await asyncio.gather(*players, return_exceptions=True)
    drained.set()
    await asyncio.gather(*listeners, return_exceptions=True)
    for client in clients.values():
        await client.aclose()
    for seats in seats_by_table:
        for seat in seats:
            seat.waiters.clear()
            seat.answers.clear()
    return stats


def _worker(
    tables: list[dict[str, Any]], args: Any, lobby: int, barriers: tuple[Any, Any], results: Any
) -> None:
    ready, go = barriers

    def start() -> None:
        ready.wait(timeout=600)  # every socket of every worker open
        go.wait(timeout=900)  # the servers quiet again (``settle``)

    stats = asyncio.run(play_chunk(tables, args, lobby, start))
    results.put(stats)


def settle(pids: list[int], *, quiet_share: float, timeout: float) -> float:
    """Wait until the ``pids`` use less than ``quiet_share`` of a core each for two seconds
    in a row (the work the sockets' connects queued is done: a seat coming back is a write
    and a push, a seat gone after the last run's close another), at most ``timeout`` s;
    how long it took."""
    started = time.perf_counter()
    if not pids:
        return 0.0
    before, quiet = cpu_seconds(pids), 0
    while quiet < 2 and time.perf_counter() - started < timeout:
        time.sleep(1.0)
        now = cpu_seconds(pids)
        quiet = quiet + 1 if now - before < quiet_share * len(pids) else 0
        before = now
    return time.perf_counter() - started


def _merged(parts: list[Stats]) -> Stats:
    total = Stats()
    for part in parts:
        for name, value in vars(part).items():
            if isinstance(value, list):
                getattr(total, name).extend(value)
            else:
                setattr(total, name, getattr(total, name) + value)
    return total


def run_level(tables: list[dict[str, Any]], args: Any) -> dict[str, Any]:
    """A level played by ``--procs`` worker processes, each with its share of the tables; this
    process only measures the servers (CPU, PostgreSQL, Redis) over the same window."""
    procs = max(1, min(args.procs, len(tables)))
    context = multiprocessing.get_context("fork")
    barriers = (context.Barrier(procs + 1), context.Barrier(procs + 1))
    results = context.Queue()
    workers = [
        context.Process(
            target=_worker,
            args=(tables[i::procs], args, args.lobby // procs, barriers, results),
            daemon=True,
        )
        for i in range(procs)
    ]
    # The sockets of the level before are closed: their closes done before these open (one
    # daphne runs every socket's database calls on one thread; opened behind 1,500 closes,
    # sockets missed daphne's handshake timeout).
    settle(args.pids, quiet_share=args.quiet, timeout=args.settle)
    connect_cpu = cpu_seconds(args.pids)
    connecting = time.perf_counter()
    for worker in workers:
        worker.start()
    barriers[0].wait(timeout=600)  # every socket open
    waited = settle(args.pids, quiet_share=args.quiet, timeout=args.settle)
    connect_cpu = cpu_seconds(args.pids) - connect_cpu
    idle_cpu = cpu_seconds(args.pids)
    time.sleep(args.idle)  # every socket open, no move: what the processes spend anyway
    idle_ms_per_s = (cpu_seconds(args.pids) - idle_cpu) / args.idle * 1000 if args.idle else None
    print(
        f"# {len(tables)} tables via {args.via}: every socket open after"
        f" {time.perf_counter() - connecting - waited:.0f} s, the servers quiet {waited:.0f} s"
        f" later; {connect_cpu:.1f} s of their CPU for the connects; playing"
        f" {len(tables) / args.interval:.1f} moves/s asked (--pace {args.pace})",
        flush=True,
    )
    barriers[1].wait(timeout=600)
    cpu_before = [cpu_seconds([pid]) for pid in args.pids]
    threads_before = [cpu_by_thread(pid) for pid in args.pids]
    machine_before = cpu_by_command()
    proxy_before = cpu_seconds(args.proxy_pids)
    counts_before = database_counts(args.database_url, args.pgbouncer_admin)
    redis_before = redis_commands(args.redis_url)
    started = time.perf_counter()
    peak, backlog = [0], [0]
    asyncio.run(sample(args, peak, backlog))
    wall = time.perf_counter() - started
    cpu = [cpu_seconds([pid]) - before for pid, before in zip(args.pids, cpu_before, strict=True)]
    threads = [
        thread_cores(pid, before, cpu_by_thread(pid), wall)
        for pid, before in zip(args.pids, threads_before, strict=True)
    ]
    machine = {
        name: (seconds - machine_before.get(name, 0.0)) / wall
        for name, seconds in cpu_by_command().items()
    }
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
        "first_ms": (
            len(stats.first_posts),
            pct(stats.first_posts, 0.5),
            pct(stats.first_posts, 0.99),
        ),
        "windows": answer_windows(stats.posted_at, stats.posts, WINDOW_S),
        "lost": stats.lost,
        "errors": len(stats.failed) + stats.socket_errors,
        "failed": Counter(stats.failed).most_common(),
        "cpu_ms_per_action": (sum(cpu) / actions * 1000) if actions and args.pids else None,
        "cpu_ms_per_action_by_pid": [c / actions * 1000 for c in cpu] if actions else [],
        "idle_ms_per_s": idle_ms_per_s if args.pids else None,
        "pg_connections_peak": peak[0] if args.database_url else None,
        "proxy_cpu_ms_per_action": (
            (proxy_cpu / actions * 1000) if actions and args.proxy_pids else None
        ),
        "actions": actions,
        "per_action": [n / actions if actions else 0.0 for n in counts],
        "redis_per_action": {k: v / actions for k, v in commands.items()} if actions else {},
        "reconnects": stats.reconnects,
        "lobby_reconnects": stats.lobby_reconnects,
        "connect_retries": stats.connect_retries,
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
        "cores_by_command": sorted(machine.items(), key=lambda kv: -kv[1])[:7],
        "thread_cores": threads,
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
    parser.add_argument(
        "--proxy-pids",
        default="",
        help="the proxy's processes, with every process under them (CPU apart)",
    )
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
        "--pace",
        default="cadence",
        choices=["cadence", "after"],
        help="when a table's next move goes: --interval (jittered) after its last move was"
        " sent, so a level asks tables/interval moves a second however long a move takes, and a"
        " move slower than the interval is followed at once by the next (cadence); or the"
        " interval after the last move's answer and every seat's push (after: a level then"
        " plays tables / (interval + a move's time))",
    )
    parser.add_argument(
        "--procs", type=int, default=1, help="worker processes playing the tables (split evenly)"
    )
    parser.add_argument(
        "--settle",
        type=float,
        default=120.0,
        help="before a level, wait up to this many seconds for the --pids to go quiet (the"
        " connects' writes and pushes done), so a move's CPU is the moves' own (0: no wait)",
    )
    parser.add_argument(
        "--idle",
        type=float,
        default=10.0,
        help="after the settle, measure the --pids' CPU for this many seconds with every socket"
        " open and no move (what the processes spend whatever the moves; 0: not measured)",
    )
    parser.add_argument(
        "--quiet", type=float, default=0.05, help="the share of a core that counts as quiet"
    )
    args = parser.parse_args()
    args.pids = [int(p) for p in args.pids.split(",") if p]
    args.proxy_pids = with_descendants([int(p) for p in args.proxy_pids.split(",") if p])
    with open(args.fixture) as handle:
        fixture = json.load(handle)
    print(HEADER)
    vias = ["socket", "http"] if args.via == "both" else [args.via]
    for level, via in [(int(x), v) for x in args.levels.split(",") for v in vias]:
        if level > len(fixture):
            raise SystemExit(f"the fixture has {len(fixture)} tables, fewer than {level}")
        args.via = via
        print_level(via, run_level(fixture[:level], args), args)


if __name__ == "__main__":
    main()
