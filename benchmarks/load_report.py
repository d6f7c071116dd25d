"""The load harness's report (benchmarks/load.py): the percentiles of its samples and the lines
it prints, a table row a level and the notes under it."""

from __future__ import annotations

from typing import Any

HEADER = (
    "via     tables  actions/s  answer p50/p95/p99 ms   push p50/p99 ms   lost  errors"
    "  CPU ms/action  PG conns"
)


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))] * 1000


# The level's answers are also given by windows of this many seconds (when the move was sent).
WINDOW_S = 10.0


def answer_windows(
    sent_at: list[float], answers: list[float], width: float
) -> list[tuple[float, int, float, float]]:
    """The answers by when their move was sent: each window of ``width`` seconds from the
    level's start, as (its start, moves, answer p50 ms, answer p99 ms)."""
    by_window: dict[int, list[float]] = {}
    for at, answer in zip(sent_at, answers, strict=True):
        by_window.setdefault(int(at // width), []).append(answer)
    return [
        (n * width, len(found), pct(found, 0.5), pct(found, 0.99))
        for n, found in sorted(by_window.items())
    ]


def threads_line(held: list[tuple[float, list[float]]]) -> str:
    """The cores each server process's threads held (``load_samplers.thread_cores``): its event
    loop's thread, then the others together, with the busiest of them (the move pool's threads
    under load), to tell a saturated loop from threads that share the interpreter."""
    described = []
    for loop, others in held:
        busy = ", ".join(f"{share:.2f}" for share in others[:6])
        more = ", ..." if len(others) > 6 else ""
        threads = "other thread" if len(others) == 1 else "other threads"
        described.append(
            f"event loop {loop:.2f}, {len(others)} {threads} {sum(others):.2f}"
            + (f" ({busy}{more})" if others else "")
        )
    return "cores held by each server process's threads: " + "; ".join(described)


def print_level(via: str, r: dict[str, Any], args: Any) -> None:
    """One level's row under ``HEADER``, then its notes (those the options asked for)."""
    cpu = f"{r['cpu_ms_per_action']:.1f}" if r["cpu_ms_per_action"] is not None else "-"
    conns = r["pg_connections_peak"] if r["pg_connections_peak"] is not None else "-"
    p50, p95, p99 = r["post_ms"]
    q50, q99 = r["push_ms"]
    print(
        f"{via:6s}  {r['tables']:6d}  {r['actions_per_s']:9.1f}"
        f"  {p50:6.0f} /{p95:6.0f} /{p99:6.0f}"
        f"   {q50:7.0f} /{q99:6.0f}   {r['lost']:5d}  {r['errors']:6d}  {cpu:>13}  {conns:>8}",
        flush=True,
    )
    if r.get("windows"):
        firsts, f50, f99 = r["first_ms"]
        spans = "; ".join(
            f"{start:.0f}-{start + WINDOW_S:.0f} s: {moves} at {p50:.0f}/{p99:.0f}"
            for start, moves, p50, p99 in r["windows"]
        )
        print(
            f"        answers p50/p99 ms by when the move was sent: {spans};"
            f" each table's first move ({firsts}): {f50:.0f}/{f99:.0f}",
            flush=True,
        )
    if r["failed"]:
        kinds = ", ".join(f"{kind} {count}" for kind, count in r["failed"])
        print(f"        moves that made no version: {kinds}", flush=True)
    if args.database_url:
        pg_x, pgb_x, pgb_q = r["per_action"]
        line = f"        {r['actions']} actions; per action: {pg_x:.1f} PostgreSQL transactions"
        if args.pgbouncer_admin:
            line += f", {pgb_x:.1f} transactions and {pgb_q:.1f} statements through PgBouncer"
        print(line, flush=True)
    if r.get("idle_ms_per_s") is not None and r["actions_per_s"]:
        idle = r["idle_ms_per_s"]
        print(
            f"        idle: {idle:.0f} ms of CPU a second with every socket open and no move,"
            f" {idle / r['actions_per_s']:.1f} ms of each move's CPU at this rate",
            flush=True,
        )
    if len(args.pids) > 1:
        shares = ", ".join(f"{c:.1f}" for c in r["cpu_ms_per_action_by_pid"])
        print(f"        CPU ms/action by process: {shares}", flush=True)
    if r["redis_per_action"]:
        top = sorted(r["redis_per_action"].items(), key=lambda kv: -kv[1])[:6]
        words = ", ".join(f"{name} {calls:.1f}" for name, calls in top)
        total = sum(r["redis_per_action"].values())
        print(f"        Redis commands per action: {total:.1f} ({words})", flush=True)
    print(
        f"        catch-ups on the socket {r['since']}, views loaded {r['refetches']};"
        f" felt gaps {r['gaps']}; frame to a seat p50 {r['frame_median_kb']:.1f} KB;"
        f" all frames {r['bytes_per_action'] / 1000:.1f} KB a move; lobby frames"
        f" {r['lobby_frames_per_s']:.2f}/s a socket; RSS KiB {r['rss_kib']}",
        flush=True,
    )
    held = [(name, share) for name, share in r["cores_by_command"] if share >= 0.01]
    cores = ", ".join(f"{name} {share:.2f}" for name, share in held)
    print(f"        cores held over the level, by process: {cores}", flush=True)
    if r.get("thread_cores"):
        print(f"        {threads_line(r['thread_cores'])}", flush=True)
    if r["layer_backlog_peak"] is not None:
        print(
            f"        channel layer: at most {r['layer_backlog_peak']} messages waiting"
            " in one process's queue",
            flush=True,
        )
    if r["proxy_cpu_ms_per_action"] is not None:
        print(f"        proxy CPU ms/action: {r['proxy_cpu_ms_per_action']:.2f}", flush=True)
    if r["connect_retries"]:
        print(
            f"        sockets that did not open and were opened again: {r['connect_retries']}",
            flush=True,
        )
    if r["lobby_reconnects"]:
        print(f"        lobby sockets reopened after a close: {r['lobby_reconnects']}", flush=True)
    if r["reconnects"]:
        c50, cmax = r["catch_up_ms"]
        print(
            f"        reconnects: {r['reconnects']}, socket closed -> in step again "
            f"p50 {c50:.0f} ms, max {cmax:.0f} ms; socket errors {r['socket_errors']}",
            flush=True,
        )
