"""The load harness's samplers (benchmarks/load.py): the servers' CPU and memory, PostgreSQL's
connections and transactions, PgBouncer's statements and Redis's commands and channel-layer
backlog, read before, during and after a level."""

from __future__ import annotations

import asyncio
import os
from typing import Any
from urllib.parse import urlparse


def _stat(pid: int | str) -> tuple[str, float]:
    """A process's command name and the CPU seconds it has used (``/proc/<pid>/stat``)."""
    with open(f"/proc/{pid}/stat") as stat:
        head, _, rest = stat.read().rpartition(")")
    fields = rest.split()
    utime_stime = int(fields[11]) + int(fields[12])
    return head.partition("(")[2], utime_stime / os.sysconf("SC_CLK_TCK")


def cpu_seconds(pids: list[int]) -> float:
    return sum(_stat(pid)[1] for pid in pids)


def with_descendants(pids: list[int]) -> list[int]:
    """``pids`` and every process under them (``/proc/<pid>/task/<tid>/children``): a proxy
    started through a supervisor is its master's and its workers' processes."""
    found: list[int] = []
    waiting = list(pids)
    while waiting:
        pid = waiting.pop(0)
        if pid in found:
            continue
        found.append(pid)
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:  # gone
            continue
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/children") as handle:
                    waiting += [int(child) for child in handle.read().split()]
            except OSError:
                continue
    return found


def cpu_by_thread(pid: int) -> dict[int, float]:
    """The CPU seconds each thread of a process has used so far, by thread id
    (``/proc/<pid>/task``); the process's own id is its first thread's, which in daphne runs
    the event loop (asyncio's and Twisted's reactor)."""
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:  # gone
        return {}
    found: dict[int, float] = {}
    for tid in tids:
        try:
            found[int(tid)] = _stat(f"{pid}/task/{tid}")[1]
        except OSError:  # ended meanwhile
            continue
    return found


def thread_cores(
    pid: int, before: dict[int, float], after: dict[int, float], wall: float
) -> tuple[float, list[float]]:
    """The cores a process's threads held over ``wall`` seconds, from two ``cpu_by_thread``
    readings: its first thread's (the event loop's), and every other thread's that used any,
    the busiest first (a thread started meanwhile counts from nothing; one that ended, not at
    all)."""
    held = {tid: (seconds - before.get(tid, 0.0)) / wall for tid, seconds in after.items()}
    loop = held.pop(pid, 0.0)
    return loop, sorted((share for share in held.values() if share > 0), reverse=True)


def _script_of(pid: str) -> str | None:
    """What a Python process runs: its module (``-m``) or script's name."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as cmdline:
            args = cmdline.read().decode(errors="replace").split("\0")
    except OSError:
        return None
    for i, arg in enumerate(args[1:], start=1):
        if arg == "-m" and i + 1 < len(args):
            return args[i + 1]
        if not arg.startswith("-"):
            return arg.rsplit("/", 1)[-1]
    return None


def cpu_by_command() -> dict[str, float]:
    """The CPU seconds every process of the machine has used so far, summed by its command
    name (``daphne``, ``postgres``, ``redis-server``, ``celery``, ``nginx``; a Python process by
    its module or script: ``rummy_site.graceful`` for ``deploy/``'s web processes, ``load.py``
    for the harness's own workers): which processes held the cores over a level."""
    totals: dict[str, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            name, seconds = _stat(entry)
        except OSError:  # gone meanwhile
            continue
        if name.startswith("python"):  # a Python server or the harness: by its script
            name = _script_of(entry) or name
        totals[name] = totals.get(name, 0.0) + seconds
    return totals


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


async def sample(args: Any, peak: list[int], backlog: list[int]) -> None:
    """PostgreSQL's connections and the channel layer's backlog, sampled for the level's
    duration: their peaks into ``peak`` and ``backlog``."""
    stop = asyncio.Event()
    tasks = [
        asyncio.create_task(pg_connections(args.database_url, stop, peak)),
        asyncio.create_task(layer_backlog(args.redis_url, stop, backlog)),
    ]
    await asyncio.sleep(args.duration)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
