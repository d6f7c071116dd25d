"""Bots playing a whole deal against each other on the pure engine (benchmarks and tests).

``bot_deal_play(settings, shoe, strengths, toss=..., seed=...)`` starts a game of
``settings`` for the seats of ``strengths`` (seat -> strength), deals ``shoe`` and lets every
seat's bot act, each from its own ``SeatView`` only, until the deal ends. It returns the deal's
``DealEnded`` event as JSON (``scores``, ``winner``, ...).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import Refusal, RulesError
from ..settings import GameSettings
from ..shoe import Shoe
from .actions import StartDeal, action_from_json
from .bot import Strength, bot_decide, public_record, seat_view
from .engine import game_apply, game_new
from .view import game_view, legal_actions

__all__ = ["bot_deal_play"]

MAX_ACTIONS = 2000


def bot_deal_play(
    settings: GameSettings,
    shoe: Shoe,
    strengths: Mapping[int, Strength],
    *,
    toss: int,
    seed: int = 0,
    now: float = 1_900_000_000.0,
) -> dict[str, Any]:
    seats = sorted(strengths)
    state = game_new(settings=settings, seats=seats, now=now, toss=toss)
    transition = game_apply(state, StartDeal(shoe), now=now)
    state = transition.state
    events: list[dict[str, Any]] = [e.to_json() for e in transition.events]
    for step in range(MAX_ACTIONS):
        ended = next((e for e in events if e["type"] == "deal_ended"), None)
        if ended is not None:
            return ended
        record = public_record(events)
        for seat in seats:
            if set(legal_actions(state, seat)) - {"leave", "arrange", "set_auto_drop"}:
                view = seat_view(game_view(state, seat), record, settings)
                choice = bot_decide(view, strengths[seat], seed=seed * 7919 + step)
                if choice is not None:
                    break
        else:
            raise RulesError(Refusal.NO_BOT_MOVE)
        action = action_from_json({**choice, "seat": seat})
        transition = game_apply(state, action, now=now)
        state = transition.state
        events.extend(e.to_json() for e in transition.events)
    raise RulesError(Refusal.DEAL_DID_NOT_END)
