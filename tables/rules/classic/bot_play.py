"""Classic hands played by computer players on the pure engine: the measure of the three levels
(``benchmarks/bench_bots.py --variant classic``, ``tests/rules/test_classic_bot.py``)."""

from __future__ import annotations

import random
from collections.abc import Mapping

from ..shoe import Shoe
from .actions import StartDeal, classic_action_from_json
from .bot import classic_bot_decide
from .engine import classic_apply, classic_new
from .settings import ClassicSettings
from .shoe import classic_shoe
from .view import classic_view

__all__ = ["classic_hand_play"]

MOVES_AT_MOST = 2_000  # a hand that has not ended by then is a draw (every seat 0)


def classic_hand_play(*, strengths: Mapping[int, str], seed: int, toss: int = 1) -> dict[int, int]:
    """One two-player hand of classic rummy between computer players of ``strengths`` (seat ->
    level) on the shoe of ``seed`` (``random.Random(seed)``): the points each seat was left
    with (the winner 0)."""
    settings = ClassicSettings.for_variant(
        "classic", seats_min=2, seats_max=2, hands=1, entry_fee=0
    )
    seats = sorted(strengths)
    cards = list(classic_shoe(settings))
    random.Random(seed).shuffle(cards)
    state = classic_new(settings=settings, seats=seats, now=0.0, toss=toss)
    state = classic_apply(state, StartDeal(Shoe(tuple(cards)), f"seed-{seed}"), now=0.0).state
    for move in range(MOVES_AT_MOST):
        if state.phase != "turn":
            break
        seat = state.turn
        if seat is None:  # pragma: no cover - a hand in its turns has a seat on turn
            raise AssertionError("no seat on turn")
        view = classic_view(state, seat)
        choice = classic_bot_decide(view, settings, strengths[seat], seed=seed * 7919 + move)
        if choice is None:  # pragma: no cover - a bot always has a move on its turn
            raise AssertionError(f"no move for seat {seat}")
        action = classic_action_from_json({**choice, "seat": seat})
        state = classic_apply(state, action, now=0.0).state
    else:
        return dict.fromkeys(seats, 0)
    last = classic_view(state, None).get("last_deal") or {}
    return {int(r["seat"]): int(r["points"]) for r in last.get("results", [])}
