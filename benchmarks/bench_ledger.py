#!/usr/bin/env python
"""Ledger throughput: postings per second through the service API, with latency percentiles.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/ledger_dev \\
        .venv/bin/python benchmarks/bench_ledger.py --threads 4 --seconds 20

Creates its own database (``ledger_bench`` on the DATABASE_URL server, through Django's test
database machinery: migrations included, so the triggers are there), funds the players, then
runs ``--threads`` threads, each with its own connection, playing games until the time is up:
every player of a game pays the entry fee into the game's pot (``pot_hold_entry``) and the pot
is paid out to a winner with the platform fee (``pot_payout``), so every payout also touches the
shared house fee account. Each service call is one posting, timed on its own. Afterwards it runs
the reconciliation on the bench database and drops it (``--keep`` keeps it).

Exit status 0 when the ledger reconciles and the targets are met (``--target-rate``,
``--target-p99-ms``), 1 otherwise.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummy_site.settings")
# Production configuration: no per-query debug logging.
os.environ.setdefault("DJANGO_DEBUG", "false")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds not measured")
    parser.add_argument("--players-per-game", type=int, default=4)
    parser.add_argument("--players-per-thread", type=int, default=40)
    parser.add_argument("--fee", type=int, default=5000, help="entry fee, minor units")
    parser.add_argument("--database", default="ledger_bench")
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    parser.add_argument("--target-rate", type=float, default=500.0)
    parser.add_argument("--target-p99-ms", type=float, default=10.0)
    args = parser.parse_args()

    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        print("bench_ledger: set DATABASE_URL to a PostgreSQL server", file=sys.stderr)
        return 2

    import django

    django.setup()
    from django.db import connection, connections

    from accounts.models import User
    from ledger import services
    from ledger.reconcile import reconcile_run

    connection.settings_dict.setdefault("TEST", {})["NAME"] = args.database
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    print(f"bench database: {connection.settings_dict['NAME']} (PostgreSQL)")
    try:
        users_by_thread: list[list[Any]] = []
        for t in range(args.threads):
            batch = User.objects.bulk_create(
                [User(username=f"bench-{t}-{i}") for i in range(args.players_per_thread)]
            )
            users_by_thread.append(batch)
            for user in batch:
                services.wallet_deposit(
                    user=user,
                    currency="cash",
                    amount=10**12,
                    idempotency_key=f"bench:fund:{user.pk}",
                )

        start_gate = threading.Barrier(args.threads + 1)
        begin = time.perf_counter()
        measure_from = 0.0
        stop_at = 0.0
        samples: list[list[tuple[str, float, float]]] = [[] for _ in range(args.threads)]
        errors: list[BaseException] = []

        def play(t: int) -> None:
            users = users_by_thread[t]
            out = samples[t]
            game = 0
            try:
                start_gate.wait()
                while time.perf_counter() < stop_at:
                    game += 1
                    ref = f"game:b{t}x{game}"
                    first = (game * args.players_per_game) % len(users)
                    seated = [users[(first + k) % len(users)] for k in range(args.players_per_game)]
                    for seat, user in enumerate(seated, start=1):
                        t0 = time.perf_counter()
                        services.pot_hold_entry(
                            user=user,
                            currency="cash",
                            pot_ref=ref,
                            amount=args.fee,
                            idempotency_key=f"entry:{ref}:seat:{seat}",
                        )
                        out.append(("pot_hold_entry", t0, time.perf_counter() - t0))
                    pot = args.fee * len(seated)
                    fee = pot // 10
                    t0 = time.perf_counter()
                    services.pot_payout(
                        pot_ref=ref,
                        currency="cash",
                        payouts={seated[game % len(seated)].pk: pot - fee},
                        fee=fee,
                        idempotency_key=f"settle:{ref}",
                    )
                    out.append(("pot_payout", t0, time.perf_counter() - t0))
            except BaseException as error:  # pragma: no cover - reported below
                errors.append(error)
            finally:
                connections.close_all()

        threads = [threading.Thread(target=play, args=(t,)) for t in range(args.threads)]
        for thread in threads:
            thread.start()
        begin = time.perf_counter()
        measure_from = begin + args.warmup
        stop_at = measure_from + args.seconds
        start_gate.wait()
        for thread in threads:
            thread.join()
        if errors:
            print(f"bench_ledger: {len(errors)} thread(s) failed: {errors[0]!r}", file=sys.stderr)
            return 1

        measured = [s for per in samples for s in per if measure_from <= s[1] < stop_at]
        latencies = [s[2] * 1000 for s in measured]
        rate = len(measured) / args.seconds
        p50, p95, p99 = (percentile(latencies, q) for q in (50, 95, 99))
        print(
            f"threads={args.threads} seconds={args.seconds:g} postings={len(measured)} "
            f"rate={rate:.0f}/s"
        )
        print(
            f"latency ms: p50={p50:.2f} p95={p95:.2f} p99={p99:.2f} "
            f"max={max(latencies):.2f} mean={statistics.fmean(latencies):.2f}"
        )
        for kind in ("pot_hold_entry", "pot_payout"):
            lat = [s[2] * 1000 for s in measured if s[0] == kind]
            print(
                f"  {kind}: n={len(lat)} p50={percentile(lat, 50):.2f} "
                f"p99={percentile(lat, 99):.2f}"
            )

        t0 = time.perf_counter()
        report = reconcile_run()
        print(
            f"reconcile: {len(report.checks)} checks, {len(report.discrepancies)} discrepancies "
            f"({time.perf_counter() - t0:.1f}s)"
        )
        for discrepancy in report.discrepancies[:20]:
            print(f"  {discrepancy}")
        met = rate >= args.target_rate and p99 <= args.target_p99_ms
        print(
            f"targets: >= {args.target_rate:g}/s and p99 <= {args.target_p99_ms:g} ms: "
            f"{'met' if met else 'NOT met'}"
        )
        return 0 if report.ok and met else 1
    finally:
        connections.close_all()
        if args.keep:
            print(f"kept database {args.database}")
        else:
            connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    sys.exit(main())
