"""How strong the three computer players are: seeded 2-player Points deals (or classic hands,
``--variant classic``) per pairing.

Run from the repository root::

    .venv/bin/python benchmarks/bench_bots.py [--deals 1000] [--pairs easy-medium,...]

For each pairing (easy-medium, medium-hard, easy-hard) it plays ``--deals`` deals on the pure
engine (``tables.rules.game.bot_play``): half the shoes as they are, each shoe played twice with
the bots in swapped seats (and the toss swapped), so both bots meet the same cards. Every shoe
is shuffled by ``random.Random(seed)``: the run is the same every time.

Printed per pairing: each bot's mean points per deal (what it lost; a won deal counts 0) with a
95 % confidence interval, the mean difference (weaker minus stronger) with its interval, and
the stronger bot's win share (deals it won) with its interval (normal approximation).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import cast

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tables.rules.classic.bot_play import classic_hand_play  # noqa: E402
from tables.rules.game.bot import Strength  # noqa: E402
from tables.rules.game.bot_play import bot_deal_play  # noqa: E402
from tables.rules.settings import GameSettings  # noqa: E402
from tables.rules.shoe import Shoe, build_cards  # noqa: E402

Z95 = 1.96


def _shoe(settings: GameSettings, seed: int) -> Shoe:
    cards = list(build_cards(settings))
    random.Random(seed).shuffle(cards)
    keys = [
        tuple(random.Random(seed * 31 + k).sample(range(len(cards)), len(cards)))
        for k in range(settings.max_reshuffles)
    ]
    return Shoe(tuple(cards), tuple(keys))


def _interval(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, half


def _classic_pairing(weak: str, strong: str, deals: int) -> tuple[list[float], ...]:
    weak_points: list[float] = []
    strong_points: list[float] = []
    strong_wins: list[float] = []
    for seed in range(deals // 2):
        for seats in ({1: weak, 2: strong}, {1: strong, 2: weak}):
            left = classic_hand_play(strengths=seats, seed=seed, toss=1)
            w = next(seat for seat, level in seats.items() if level == weak)
            s = 3 - w
            weak_points.append(left[w])
            strong_points.append(left[s])
            strong_wins.append(1.0 if left[s] == 0 and left[w] > 0 else 0.0)
    return weak_points, strong_points, strong_wins


def pairing(
    weak: Strength, strong: Strength, deals: int, variant: str = "points"
) -> dict[str, float]:
    settings = GameSettings.for_variant("points", seats_min=2, seats_max=2, point_value=1)
    weak_points: list[float] = []
    strong_points: list[float] = []
    strong_wins: list[float] = []
    if variant == "classic":
        weak_points, strong_points, strong_wins = _classic_pairing(weak, strong, deals)
    for seed in range(deals // 2 if variant != "classic" else 0):
        shoe = _shoe(settings, seed)
        for swap in (False, True):
            strengths: dict[int, Strength] = (
                {1: weak, 2: strong} if not swap else {1: strong, 2: weak}
            )
            ended = bot_deal_play(settings, shoe, strengths, toss=1, seed=seed)
            scores = {int(k): int(v) for k, v in ended["scores"].items()}
            w, s = (1, 2) if not swap else (2, 1)
            weak_points.append(scores[w])
            strong_points.append(scores[s])
            strong_wins.append(1.0 if ended.get("winner") == s else 0.0)
    diff = [a - b for a, b in zip(weak_points, strong_points, strict=True)]
    weak_mean, weak_half = _interval(weak_points)
    strong_mean, strong_half = _interval(strong_points)
    diff_mean, diff_half = _interval(diff)
    share = statistics.fmean(strong_wins)
    share_half = Z95 * math.sqrt(share * (1 - share) / len(strong_wins))
    return {
        "deals": len(diff),
        "weak": weak_mean,
        "weak_ci": weak_half,
        "strong": strong_mean,
        "strong_ci": strong_half,
        "diff": diff_mean,
        "diff_ci": diff_half,
        "share": share,
        "share_ci": share_half,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--pairs", default="easy-medium,medium-hard,easy-hard")
    parser.add_argument("--variant", choices=("points", "classic"), default="points")
    args = parser.parse_args()
    for pair in args.pairs.split(","):
        weak, strong = pair.split("-")
        started = time.perf_counter()
        r = pairing(cast(Strength, weak), cast(Strength, strong), args.deals, args.variant)
        took = time.perf_counter() - started
        verdict = (
            "outside the CI"
            if r["diff"] - r["diff_ci"] > 0 and (r["share"] - r["share_ci"] > 0.5)
            else "NOT outside the CI"
        )
        print(
            f"{weak} vs {strong}: {r['deals']:.0f} deals; points per deal {weak} "
            f"{r['weak']:.1f} ± {r['weak_ci']:.1f}, {strong} {r['strong']:.1f} ± "
            f"{r['strong_ci']:.1f}; difference {r['diff']:.1f} ± {r['diff_ci']:.1f}; "
            f"{strong} wins {100 * r['share']:.1f} % ± {100 * r['share_ci']:.1f}; "
            f"{strong} better: {verdict} ({took:.0f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
