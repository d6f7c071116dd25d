"""Play now by rating: the spread of the people's ratings at a table when it starts, with
today's rule alone and with the ratings' preference (``tables.rules.matchmaking.table_order``,
the function ``tables.services.matching`` runs), on a simulated busy table kind.

Run from the repository root::

    .venv/bin/python benchmarks/bench_matchmaking.py [--players 1000] [--hours 8] [--seed 1]

The simulation (seeded: the same every run; the pure choice function, no Django): ``--players``
people with fixed ratings (display scale, normal around 1500, standard deviation 250) come back
to Play now after an idle time (exponential, mean ``--idle`` s). A table of the kind seats 2 to
6 players: it starts at once when full, or ``--countdown`` s after its second player sits;
a game lasts 3 to 7 minutes. After it, each player presses "Play again" (back to the same
table, when it has room) with the chance ``--again`` 5 to 15 s later, else goes idle. A waiting
player closes the tab with a hazard of ``--leave`` a second (their seat frees). Play now tries
the waiting tables in the order given by ``table_order``, then an empty table (a new one when
none is open). Three rules:

* ``today``: the fullest waiting table, the older first (no ratings);
* ``rating`` (shipped): the same, and among tables as full the nearest in mean rating;
* ``nearest`` (not shipped, for comparison): the nearest in mean rating among every waiting
  table with people, however full: what a preference that may keep players waiting buys.

Printed per rule: games started, the mean of the tables' rating spread (max - min, and the
standard deviation) at the start, the mean wait from Play now to the start, and how often a
player's table was not the one today's rule would have chosen.
"""

from __future__ import annotations

import argparse
import heapq
import random
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tables.rules.matchmaking import OpenTable, mean_distance, table_order  # noqa: E402

SEATS_MIN, SEATS_MAX = 2, 6


@dataclass
class SimTable:
    table_id: int
    seated: list[int] = field(default_factory=list)
    joined_at: dict[int, float] = field(default_factory=dict)
    starts_at: float | None = None
    playing: bool = False


@dataclass
class Result:
    games: int = 0
    spreads: list[float] = field(default_factory=list)
    stdevs: list[float] = field(default_factory=list)
    waits: list[float] = field(default_factory=list)
    diverted: int = 0
    joins: int = 0


def simulate(
    *,
    players: int,
    hours: float,
    seed: int,
    rule: str,
    idle: float,
    countdown: float,
    leave: float,
    again: float,
) -> Result:
    rng = random.Random(seed)
    ratings = [rng.gauss(1500.0, 250.0) for _ in range(players)]
    tables: dict[int, SimTable] = {}
    next_id = 1
    events: list[tuple[float, int, str, int]] = []  # (time, tiebreak, kind, who)
    tick = 0

    def push(at: float, kind: str, who: int) -> None:
        nonlocal tick
        tick += 1
        heapq.heappush(events, (at, tick, kind, who))

    for p in range(players):
        push(rng.expovariate(1 / idle), "arrive", p)
    result = Result()
    end = hours * 3600
    seat_of: dict[int, int] = {}
    last_table: dict[int, int] = {}

    def start(table: SimTable, now: float) -> None:
        table.playing = True
        table.starts_at = None
        people = [ratings[p] for p in table.seated]
        result.games += 1
        result.spreads.append(max(people) - min(people))
        result.stdevs.append(statistics.pstdev(people))
        result.waits.extend(now - table.joined_at[p] for p in table.seated)
        push(now + rng.uniform(180, 420), "over", table.table_id)

    def order(player: int, waiting: list[SimTable]) -> list[int]:
        if not waiting:
            return []
        most = max(len(t.seated) for t in waiting)
        rows = []
        for t in waiting:
            taken = len(t.seated)
            if rule == "nearest":
                taken = most
            distance = None
            if rule != "today":
                distance = mean_distance(ratings[player], [ratings[p] for p in t.seated])
            rows.append(OpenTable(t.table_id, taken, distance))
        return table_order(rows)

    while events:
        now, _tick, kind, who = heapq.heappop(events)
        if now > end:
            break
        if kind in ("arrive", "again"):
            player = who
            back = tables.get(last_table.get(player, -1)) if kind == "again" else None
            waiting = [t for t in tables.values() if not t.playing and t.seated]
            choice = order(player, waiting)
            today = table_order([OpenTable(t.table_id, len(t.seated)) for t in waiting])
            if back is not None and not back.playing and len(back.seated) < SEATS_MAX:
                table = back  # Play again: the same table, no choice made
            elif choice:
                table = tables[choice[0]]
                result.joins += 1
                result.diverted += choice[0] != today[0]
            else:
                empty = [t for t in tables.values() if not t.playing and not t.seated]
                if empty:
                    table = min(empty, key=lambda t: t.table_id)
                else:
                    table = SimTable(next_id)
                    tables[next_id] = table
                    next_id += 1
            table.seated.append(player)
            table.joined_at[player] = now
            seat_of[player] = table.table_id
            if len(table.seated) == SEATS_MAX:
                start(table, now)
            elif len(table.seated) == SEATS_MIN and table.starts_at is None:
                table.starts_at = now + countdown
                push(table.starts_at, "countdown", table.table_id)
            if leave > 0 and not table.playing:
                push(now + rng.expovariate(leave), "leave", player)
        elif kind == "leave":
            left = tables.get(seat_of.get(who, -1))
            if left is None or left.playing or who not in left.seated:
                continue
            left.seated.remove(who)
            del seat_of[who]
            if len(left.seated) < SEATS_MIN:
                left.starts_at = None
            push(now + rng.expovariate(1 / idle), "arrive", who)
        elif kind == "countdown":
            table = tables[who]
            if (
                not table.playing
                and table.starts_at is not None
                and abs(table.starts_at - now) < 1e-9
                and len(table.seated) >= SEATS_MIN
            ):
                start(table, now)
        elif kind == "over":
            table = tables[who]
            for p in table.seated:
                seat_of.pop(p, None)
                last_table[p] = table.table_id
                if rng.random() < again:
                    push(now + rng.uniform(5, 15), "again", p)
                else:
                    push(now + rng.expovariate(1 / idle), "arrive", p)
            table.seated, table.joined_at, table.playing = [], {}, False
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--hours", type=float, default=8.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--idle", type=float, default=120.0, help="mean idle seconds")
    parser.add_argument("--countdown", type=float, default=20.0, help="start countdown, s")
    parser.add_argument("--leave", type=float, default=0.01, help="leaving hazard a second")
    parser.add_argument("--again", type=float, default=0.5, help="chance of Play again")
    args = parser.parse_args()
    print(
        f"{args.players} players, {args.hours:g} h, seed {args.seed}, idle {args.idle:g} s, "
        f"countdown {args.countdown:g} s, leaving {args.leave:g}/s, play again {args.again:g}"
    )
    print("| rule | games | spread max-min | spread stdev | wait to start | moved |")
    print("|---|---|---|---|---|---|")
    for rule in ("today", "rating", "nearest"):
        r = simulate(
            players=args.players,
            hours=args.hours,
            seed=args.seed,
            rule=rule,
            idle=args.idle,
            countdown=args.countdown,
            leave=args.leave,
            again=args.again,
        )
        moved = 100.0 * r.diverted / max(r.joins, 1)
        print(
            f"| {rule} | {r.games} | {statistics.mean(r.spreads):.0f} | "
            f"{statistics.mean(r.stdevs):.0f} | {statistics.mean(r.waits):.1f} s | {moved:.1f} % |"
        )


if __name__ == "__main__":
    main()
