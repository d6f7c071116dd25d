"""The leaderboards' reads at 100,000 rated players, on PostgreSQL.

Run from the repository root (a database of its own, made afresh; never the tests' one)::

    createdb -h 127.0.0.1 -U postgres bench_lb
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_lb \\
        .venv/bin/python benchmarks/bench_leaderboards.py [--players 100000] [--runs 30]

It migrates the database, then (once: a second run reuses them) creates ``--players`` players
(``bulk_create``) with a Points rating each (``mu`` spread as ratings are, 5 to 400 rated
games: about 9 in 10 over the board's minimum of 10) and, for the current season and week, a
standing each (the rating change summed over the window and its games, 0 to 40: the read model
the ratings' writes keep), then times the boards' reads as the page runs them, the pages'
cache bypassed (``selectors._rows``): the first page and a deep one (page 1,000: ranks
49,951 to 50,000), by rating, all time and this season, each ``--runs`` times with the board's
count cached (as every page of a board shares it for a minute) and ``--runs`` times cold (the
count read too); printed: the median and the 95th percentile in milliseconds, and each
statement of a cold read with PostgreSQL's ``EXPLAIN (ANALYZE, BUFFERS)``; and the time of
the sweep's count of every public board (``board_counts_refresh``, once a minute).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummy_site.settings")

import django  # noqa: E402

django.setup()

from django.core.cache import cache  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test.utils import CaptureQueriesContext  # noqa: E402
from django.utils import timezone  # noqa: E402

from accounts.models import User  # noqa: E402
from tables.leaderboards import selectors  # noqa: E402
from tables.leaderboards.models import Season, Standing  # noqa: E402
from tables.ratings.models import Rating  # noqa: E402

FAMILY = "points"
PREFIX = "lb-bench-"
BATCH = 5_000


def _seed(players: int) -> Season:
    now = timezone.now()
    season = Season.objects.filter(name="Bench season").first()
    if season is None or season.ends_at <= now:
        Season.objects.filter(name="Bench season").delete()
        season = Season.objects.create(
            name="Bench season", starts_at=now - timedelta(days=10), length_days=30
        )
    have = User.objects.filter(username__startswith=PREFIX).count()
    if have >= players:
        return season
    rng = random.Random(1)
    print(f"creating {players - have:,} players ...", flush=True)
    started = time.perf_counter()
    week = selectors.week_of(now).key
    for first in range(have, players, BATCH):
        users = User.objects.bulk_create(
            User(username=f"{PREFIX}{n}", display_name=f"Bench {n}", password="!")
            for n in range(first, min(players, first + BATCH))
        )
        ratings, standings = [], []
        for user in users:
            mu = rng.gauss(25.0, 3.0)
            games = rng.randint(5, 400)
            ratings.append(Rating(user=user, family=FAMILY, mu=mu, sigma=2.0, games=games))
            for period in (season.period_key, week):
                played = rng.randint(0, 40)
                standings.append(
                    Standing(
                        period=period,
                        family=FAMILY,
                        user=user,
                        delta=rng.gauss(0.0, 0.05) * played,
                        games=played,
                        mu=mu,
                        games_total=games,
                    )
                )
        Rating.objects.bulk_create(ratings)
        Standing.objects.bulk_create(standings)
    print(f"  in {time.perf_counter() - started:.1f} s", flush=True)
    return season


def _explain(sql: str) -> str:
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {sql}")
        return "\n".join(row[0] for row in cursor.fetchall())


def _ms(times: list[float]) -> str:
    times = sorted(times)
    p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
    return f"{statistics.median(times):.1f} ms | {p95:.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=30)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        sys.exit("Set DATABASE_URL to a PostgreSQL database of its own (e.g. bench_lb).")
    call_command("migrate", verbosity=0)
    season = _seed(args.players)
    with connection.cursor() as cursor:  # as autovacuum leaves the tables between bursts
        cursor.execute("VACUUM ANALYZE ratings_rating")
        cursor.execute("VACUUM ANALYZE leaderboards_standing")
    cases = [
        ("all time, by rating, page 1", None, 1),
        ("all time, by rating, page 1,000", None, 1000),
        ("this season, by rating, page 1", selectors.season_window(season), 1),
        ("this season, by rating, page 1,000", selectors.season_window(season), 1000),
    ]
    on_all = selectors.rating_all_time(family=FAMILY).count()
    on_season = selectors.rating_in_window(family=FAMILY, window=selectors.season_window(season))
    print(f"\nplayers: {args.players:,}; on the all-time board: {on_all:,}; ", end="")
    print(f"on the season's: {on_season.count():,}")
    print("\n| board | page, count cached: median | p95 | cold (count too): median | p95 |")
    print("|---|---|---|---|---|")
    plans: list[tuple[str, list[str]]] = []
    for name, window, number in cases:
        warm: list[float] = []
        cold: list[float] = []
        for run in range(2 * args.runs + 2):
            fresh = run % 2 == 0  # every other run counts the board afresh
            if fresh:
                cache.clear()
            started = time.perf_counter()
            with CaptureQueriesContext(connection) as queries:
                rows, _pages, _count = selectors._rows(
                    family=FAMILY, kind="rating", window=window, number=number, viewer=None
                )
            elapsed = (time.perf_counter() - started) * 1000
            if run >= 2:  # one warm-up of each
                (cold if fresh else warm).append(elapsed)
            if fresh:
                sqls = [q["sql"] for q in queries.captured_queries]
        assert rows and rows[0].rank == (number - 1) * selectors.PAGE_SIZE + 1
        print(f"| {name} | {_ms(warm)} | {_ms(cold)} |")
        plans.append((name, sqls))
    sweeps = []
    for _ in range(5):
        started = time.perf_counter()
        boards = selectors.board_counts_refresh()
        sweeps.append((time.perf_counter() - started) * 1000)
    print(f"\nthe sweep's count of every public board ({boards}): {_ms(sweeps)}")
    for name, sqls in plans:
        print(f"\n### {name}\n")
        for sql in sqls:
            print(f"```sql\n{sql}\n```\n```\n{_explain(sql)}\n```\n")


if __name__ == "__main__":
    main()
