"""The one replay of a deal's part of the move log (pure): from the state stored before the deal
and the deal's stored shoe, every logged move is turned back into its engine action and
applied at the clock it ran at.

``manage.py verify_deal`` (an export), support's step-through
(``tables.support.replay.deal_history``, the step list of ``selectors.deal_replay``) and a
player's deal review (``tables.history``) all replay through ``replay_moves``, so what a player
reviews is exactly what ``verify_deal`` checks.

    for step in replay_moves(engine, state_before, shoe, moves):
        step.move, step.state, step.events      # the move as logged, the state after it

A move whose payload names no action type (none are expected) carries the state unchanged
(``step.applied`` is false). An action the engine refuses raises its ``RulesError`` (or a
``KeyError``/``TypeError``/``ValueError`` for a malformed payload) from the iteration.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .engine_view import JsonObject
from .variants import EngineAction, EngineState, ServerEngine

__all__ = ["LoggedMove", "ReplayedMove", "action_of", "events_match", "replay_moves"]

# Fields the engine added to an event after moves were logged without them: a replay gives
# them, an older log does not (``declared``: the verdict's code and parameters).
ADDED_LATER: Mapping[str, tuple[str, ...]] = {"declared": ("code", "held", "group")}


def events_match(
    replayed: Iterable[Mapping[str, Any]], logged: Iterable[Mapping[str, Any]]
) -> bool:
    """Whether a replay gave the events the log recorded: equal, but for the fields added to
    an event type after the log was written (``ADDED_LATER``) when the logged event has none
    of them."""
    mine, theirs = list(replayed), list(logged)
    if len(mine) != len(theirs):
        return False
    for new, old in zip(mine, theirs, strict=True):
        added = ADDED_LATER.get(str(new.get("type")), ())
        if added and not any(name in old for name in added):
            new = {k: v for k, v in new.items() if k not in added}
        if dict(new) != dict(old):
            return False
    return True


@dataclass(frozen=True)
class LoggedMove:
    """One entry of the move log, as stored (or exported)."""

    version: int
    action: str
    payload: Mapping[str, Any]
    clock: float
    seat: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ReplayedMove:
    """A logged move replayed: the state after it and the events the engine gave (as JSON)."""

    move: LoggedMove
    applied: bool
    state: EngineState
    events: tuple[JsonObject, ...]


def action_of(engine: ServerEngine, move: LoggedMove, shoe: JsonObject) -> EngineAction | None:
    """The engine action a logged move stands for: a deal's start is logged without its shoe
    (the payload names the deal) and gets the deal's stored shoe; ``None`` when the payload
    names no action."""
    payload = move.payload or {}
    if "type" not in payload:
        return None
    if move.action in ("start_deal", "StartDeal") and payload.get("deal") is not None:
        return engine.action_from_json(shoe)
    return engine.action_from_json(payload)


def replay_moves(
    engine: ServerEngine,
    state: EngineState,
    shoe: JsonObject,
    moves: Iterable[LoggedMove],
) -> Iterator[ReplayedMove]:
    """Each of ``moves`` applied in order from ``state`` (the engine's state before the deal)."""
    for move in moves:
        action = action_of(engine, move, shoe)
        if action is None:
            yield ReplayedMove(move=move, applied=False, state=state, events=())
            continue
        transition = engine.apply(state, action, now=float(move.clock))
        state = transition.state
        yield ReplayedMove(
            move=move,
            applied=True,
            state=state,
            events=tuple(e.to_json() for e in transition.events),
        )
