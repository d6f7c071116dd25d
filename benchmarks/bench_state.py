"""Benchmark of a game state's round trip: decoding and encoding a 6-seat mid-deal state.

Run from the repository root::

    .venv/bin/python benchmarks/bench_state.py [--rounds 2000]

Plays a 6-seat Pool 101 game to the middle of its first deal (every seat has picked and thrown
four times), then times, per call, in CPU time (``time.thread_time``):

* ``decode``: ``GameState.from_json`` of the stored JSON (what every action and every view
  paid before decoded states were kept per version);
* ``decode, kept``: ``tables.engines.game_state`` on a game row whose version was decoded
  before in this process (what an action or a view pays now when the same process moved the
  game last, or read that version already);
* ``encode``: ``state.to_json()`` (paid once per saved change).

The size of the JSON is printed too.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))


def mid_deal_state() -> Any:
    from tables.rules.game import Discard, GameState, PickClosed, StartDeal, game_apply, game_new
    from tables.rules.settings import GameSettings
    from tables.rules.shoe import new_shoe

    settings = GameSettings.for_variant("pool101", entry_fee=1000)
    seats = [1, 2, 3, 4, 5, 6]
    state: GameState = game_new(settings=settings, seats=seats, now=0.0, toss=1)
    now = 1.0
    state = game_apply(state, StartDeal(new_shoe(settings)), now=now).state
    for _ in range(4 * len(seats)):
        deal = state.deal
        assert deal is not None and deal.turn is not None
        seat = deal.turn
        now += 1.0
        state = game_apply(state, PickClosed(seat=seat), now=now).state
        after = state.deal
        assert after is not None and after.picked is not None
        now += 1.0
        state = game_apply(state, Discard(seat=seat, card=after.picked), now=now).state
    return state


def timed(function: Any, rounds: int) -> list[float]:
    samples = []
    for _ in range(rounds):
        start = time.thread_time()
        function()
        samples.append((time.thread_time() - start) * 1e6)
    return samples


def summary(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[int(len(ordered) * 0.99) - 1]
    mean, p50 = statistics.fmean(samples), ordered[len(ordered) // 2]
    return f"mean {mean:8.1f} µs   p50 {p50:8.1f} µs   p99 {p99:8.1f} µs"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000)
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummy_site.settings")
    import django

    django.setup()
    from tables.engines import game_state
    from tables.rules.game import GameState

    state = mid_deal_state()
    data = state.to_json()
    assert GameState.from_json(data) == state
    text = json.dumps(data)
    row = SimpleNamespace(pk=1, created_at=0.0, version=48, variant="pool101", state=data)
    game_state(row)  # decoded once; every later read of version 48 is kept

    print(f"6-seat Pool 101 state, mid-deal: {len(text):,} bytes of JSON")
    print(f"decode        {summary(timed(lambda: GameState.from_json(data), args.rounds))}")
    print(f"decode, kept  {summary(timed(lambda: game_state(row), args.rounds))}")
    print(f"encode        {summary(timed(state.to_json, args.rounds))}")


if __name__ == "__main__":
    main()
