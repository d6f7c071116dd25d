"""Benchmark of the hand evaluator on the checked hand vectors.

Run from the repository root::

    .venv/bin/python benchmarks/bench_evaluate.py [--rounds 3] [--vectors PATH]

Times ``evaluate_hand`` on every 13-card vector hand and ``best_discard`` on 14-card hands made
from them by adding one card from the rest of the shoe (2 packs of 53, seeded), and prints the
mean, p50, p99 and max per hand in microseconds. Every call evaluates its hand from scratch (the
engine keeps no cache between calls). Each hand is timed ``--rounds`` times; three figures are
printed for each function: wall-clock time of every call, wall-clock time of each hand's
fastest round (filters out time the operating system gave to other processes), and the CPU
time of every call (``time.thread_time``, less the cost of reading the clocks).
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tables.rules import Card, parse_card, parse_cards  # noqa: E402
from tables.rules.cards import PRINTED_JOKER, STANDARD_PACK  # noqa: E402
from tables.rules.evaluate import best_discard, evaluate_hand  # noqa: E402

DEFAULT_VECTORS = Path(__file__).resolve().parents[1] / "tests" / "data" / "hands.jsonl"
SEED = 20240613


def load(path: Path) -> list[tuple[list[Card], Card, int]]:
    rows = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                row = json.loads(line)
                rows.append((parse_cards(row["hand"]), parse_card(row["cut"]), row["points"]))
    return rows


def fourteen(rows: Sequence[tuple[list[Card], Card, int]]) -> list[tuple[list[Card], Card]]:
    """Each 13-card hand plus one card drawn (seeded) from what is left of a 2-pack shoe."""
    rng = random.Random(SEED)
    out = []
    for hand, cut, _points in rows:
        shoe = [*STANDARD_PACK, *STANDARD_PACK, PRINTED_JOKER, PRINTED_JOKER]
        for card in [*hand, cut]:
            shoe.remove(card)
        out.append(([*hand, rng.choice(shoe)], cut))
    return out


def measure(calls: Sequence[Callable[[], object]], rounds: int) -> tuple[list[float], list[float]]:
    """Seconds per call, every call of every round: (wall clock, CPU time of this thread).

    The CPU time leaves out time the operating system gave to other processes, so on a busy
    machine it is the steadier figure; the cost of reading the CPU clock is subtracted."""
    wall: list[float] = []
    cpu: list[float] = []
    clock = time.perf_counter
    cpu_clock = time.thread_time
    overhead = min(_clock_cost(cpu_clock) for _ in range(5))
    gc.collect()
    gc.disable()
    try:
        for _ in range(rounds):
            for call in calls:
                cpu_start = cpu_clock()
                start = clock()
                call()
                end = clock()
                cpu_end = cpu_clock()
                wall.append(end - start)
                cpu.append(max(0.0, cpu_end - cpu_start - overhead))
    finally:
        gc.enable()
    return wall, cpu


def _clock_cost(cpu_clock: Callable[[], float]) -> float:
    """What reading the CPU clock twice (and the wall clock twice) costs, per call."""
    clock = time.perf_counter
    samples = 2000
    first = cpu_clock()
    for _ in range(samples):
        a = cpu_clock()
        clock()
        clock()
        cpu_clock()
    del a
    return (cpu_clock() - first) / samples


def best_of_rounds(timings: list[float], hands: int) -> list[float]:
    """Per hand, its fastest round: what is left when the operating system's interruptions
    (other processes on the same cores) are filtered out."""
    return [min(timings[h::hands]) for h in range(hands)]


def report(name: str, timings: list[float]) -> None:
    ordered = sorted(timings)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    print(
        f"{name:<36} n={len(ordered):>5}  mean {statistics.fmean(ordered) * 1e6:8.1f} us"
        f"  p50 {statistics.median(ordered) * 1e6:8.1f} us  p99 {p99 * 1e6:8.1f} us"
        f"  max {ordered[-1] * 1e6:8.1f} us"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--vectors", type=Path, default=DEFAULT_VECTORS)
    args = parser.parse_args()
    rows = load(args.vectors)
    wrong = [hand for hand, cut, points in rows if evaluate_hand(hand, cut).points != points]
    if wrong:
        raise SystemExit(f"{len(wrong)} vector hands evaluate wrongly")
    print(f"{len(rows)} vector hands, {args.rounds} rounds, Python {sys.version.split()[0]}")
    thirteen = [lambda h=hand, c=cut: evaluate_hand(h, c) for hand, cut, _ in rows]
    discards = [lambda h=hand, c=cut: best_discard(h, c) for hand, cut in fourteen(rows)]
    for name, calls in (("evaluate_hand 13", thirteen), ("best_discard 14", discards)):
        wall, cpu = measure(calls, args.rounds)
        report(f"{name}, wall, every call", wall)
        report(f"{name}, wall, best round", best_of_rounds(wall, len(calls)))
        report(f"{name}, CPU, every call", cpu)


if __name__ == "__main__":
    main()
