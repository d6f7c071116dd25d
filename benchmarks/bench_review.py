#!/usr/bin/env python
"""How fast a player's deal review page renders (My games), for a deal of 60 moves or more.

Run from the repository root::

    .venv/bin/python benchmarks/bench_review.py [--rounds 30] [--min-moves 60]

Creates a throw-away test database (SQLite in memory by default; PostgreSQL with
``DATABASE_URL``), plays 2-player Points games through the services (both players choose
with the medium computer player's logic, from seeded shoes) until one deal has at least
``--min-moves`` moves, then fetches that deal's review page (``/me/games/deal/<id>/``) with
Django's test client as one of its players:

* ``cold``: the review's cache emptied before every request (the replay with the pure engine,
  the advice on every turn, the presenter and the template);
* ``warm``: the review read from the cache (the presenter and the template).

Prints the median and the worst of ``--rounds`` requests each (wall time), and the median
CPU time of this process (what the request itself cost when other processes share the
cores); exits 1 when a median wall time is over ``--target-ms`` (150).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, cast

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummy_site.settings")
os.environ.setdefault("DJANGO_DEBUG", "false")


def _seeded_shoe(seed: int) -> Any:
    from tables.rules import game as game13
    from tables.rules.shoe import Shoe, build_cards

    def deal_shoe_new(*, game: Any, settings: Any) -> Any:
        cards = list(build_cards(settings))
        random.Random(seed).shuffle(cards)
        keys = [tuple(range(len(cards)))] * settings.max_reshuffles
        return game13.StartDeal(Shoe(tuple(cards), tuple(keys)))

    return deal_shoe_new


def _play_deal(template: Any, users: list[Any], seed: int) -> Any:
    """One points game between ``users`` played through the services; its deal."""
    from tables import services
    from tables.engines import engine_of, game_state
    from tables.models import Deal, Game, GameStatus
    from tables.services import _context

    _context.deal_shoe_new = _seeded_shoe(seed)
    table = services.table_create(template=template)
    for seat, user in enumerate(users, start=1):
        services.table_join(table=table, user=user, seat_no=seat)
    game = Game.objects.get(table=table)
    engine = engine_of(game.variant)
    for _ in range(400):
        game = Game.objects.get(pk=game.pk)
        if game.status != GameStatus.RUNNING:
            break
        state = game_state(game)
        assert state is not None
        for seat, user in enumerate(users, start=1):
            choice = services.bot_choose(engine=engine, state=state, seat=seat, seed=seed)
            if choice is not None:
                payload = {k: v for k, v in choice.items() if k != "type"}
                services.game_act(
                    game_id=game.pk,
                    user=user,
                    action=str(choice["type"]),
                    payload=payload,
                    expected_version=game.version,
                )
                break
        else:
            raise RuntimeError("nobody can move")
    return Deal.objects.get(game=game)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--min-moves", type=int, default=60)
    parser.add_argument("--target-ms", type=float, default=150.0)
    parser.add_argument("--profile", action="store_true", help="profile one cold request")
    args = parser.parse_args()

    import django

    django.setup()
    from django.conf import settings
    from django.core.cache import cache
    from django.db import connection
    from django.test import RequestFactory

    from accounts.models import User
    from ledger.services import wallet_deposit
    from tables.models import Move, TableTemplate

    settings.ALLOWED_HOSTS = ["testserver"]
    settings.TIMERS_BACKEND = "loop"
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
    try:
        users = [User.objects.create_user(username=f"bench-{i}") for i in range(2)]
        for user in users:
            wallet_deposit(
                user=user,
                currency="cash",
                amount=10_000_000,
                idempotency_key=f"bench:fund:{user.pk}",
            )
        template = TableTemplate(
            name="Bench points", variant="points", seats_min=2, seats_max=2, point_value=1
        )
        template.full_clean()
        template.save()
        deal, moves = None, 0
        for seed in range(1, 200):
            deal = _play_deal(template, users, seed)
            moves = Move.objects.filter(
                game_id=deal.game_id, version__gt=deal.version_before
            ).count()
            if moves >= args.min_moves:
                break
        assert deal is not None
        from accounts.http import AuthenticatedHttpRequest
        from tables.history.views import deal_review

        factory = RequestFactory()

        def fetch() -> Any:
            # The request of a signed-in player, as login_required lets through.
            request = cast(AuthenticatedHttpRequest, factory.get(f"/me/games/deal/{deal.pk}/"))
            request.user = users[0]
            request.session = {}  # type: ignore[assignment]
            return deal_review(request, deal.pk)

        response = fetch()
        assert response.status_code == 200, response.status_code
        if args.profile:
            import cProfile
            import pstats

            cache.clear()
            profiler = cProfile.Profile()
            profiler.runcall(fetch)
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
        timings: dict[str, list[float]] = {"cold": [], "warm": []}
        cpu: dict[str, list[float]] = {"cold": [], "warm": []}
        for kind in ("cold", "warm"):
            for _ in range(args.rounds):
                if kind == "cold":
                    cache.clear()
                started, started_cpu = time.perf_counter(), time.process_time()
                response = fetch()
                timings[kind].append((time.perf_counter() - started) * 1000)
                cpu[kind].append((time.process_time() - started_cpu) * 1000)
                assert response.status_code == 200
        size = len(response.content)
        print(
            f"deal review page, {moves} moves (deal {deal.pk}), {size // 1024} KiB, "
            f"{connection.vendor}:"
        )
        ok = True
        for kind, values in timings.items():
            median = statistics.median(values)
            ok = ok and median <= args.target_ms
            print(
                f"  {kind}: median {median:.1f} ms, worst {max(values):.1f} ms "
                f"(CPU time: median {statistics.median(cpu[kind]):.1f} ms)"
            )
        return 0 if ok else 1
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    sys.exit(main())
