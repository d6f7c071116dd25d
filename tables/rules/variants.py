"""The one variant abstraction: ``engine_for(variant)`` returns the engine that plays it.

An engine is a set of module-level functions with the state-machine shape of
docs/architecture.md ("The game state machine contract"): ``game`` plays the four 13-card
variants (pool101, pool201, deals, points); ``classic`` plays classic 10-card rummy.

The server codes against ``GameEngine`` only::

    engine = engine_for(table.variant)
    settings = engine.settings_for(table.variant, **table_overrides)
    state = engine.new(settings=settings, seats=seats, now=now, toss=toss)
    if engine.deal_due(state, now):
        start = engine.new_start_deal(state.settings)   # store start.to_json() first
        transition = engine.apply(state, start, now=now)
    transition = engine.apply(state, engine.action_from_json(form_data), now=now)
    engine.view(transition.state, seat)
    engine.state_from_json(game.state)                  # and state.to_json()

Registering another engine: add an entry to ``_BUILTIN`` (variant name → a zero-argument
function returning its ``Engine``; the module is imported on first use), or call
``register_engine``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .errors import InvalidSettings, Refusal

__all__ = [
    "Engine",
    "EngineState",
    "GameEngine",
    "engine_for",
    "register_engine",
    "registered_variants",
]


class EngineState(Protocol):
    """What every engine's state offers the server."""

    @property
    def deadline(self) -> float | None: ...

    @property
    def deadline_kind(self) -> str | None: ...

    @property
    def phase(self) -> str: ...

    def to_json(self) -> dict[str, Any]: ...


class GameEngine(Protocol):
    """The functions the server calls for any variant."""

    @property
    def name(self) -> str: ...

    def new(self, *, settings: Any, seats: Sequence[int], now: float, toss: int) -> Any:
        """A new game state awaiting its first deal."""
        ...

    def apply(self, state: Any, action: Any, *, now: float) -> Any:
        """``Transition(state, events)``; raises ``InvalidMove`` for an illegal action."""
        ...

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]: ...

    def state_from_json(self, data: Mapping[str, Any]) -> Any: ...

    def action_from_json(self, data: Mapping[str, Any]) -> Any: ...

    def settings_for(self, variant: str, **overrides: Any) -> Any: ...

    def settings_from_json(self, data: Mapping[str, Any]) -> Any: ...

    def new_start_deal(self, settings: Any) -> Any:
        """A ``StartDeal`` action with a freshly shuffled shoe (the one impure call)."""
        ...

    def deal_due(self, state: Any, now: float) -> bool:
        """Whether the server should apply ``new_start_deal`` now rather than ``Timeout``."""
        ...

    def deadline(self, state: Any) -> tuple[float | None, str | None]: ...

    def bot_action(
        self,
        state: Any,
        seat: int,
        *,
        strength: str,
        events: Iterable[Mapping[str, Any]] = (),
        seed: int = 0,
    ) -> dict[str, Any] | None:
        """What a computer player at ``strength`` does now at ``seat`` (engine JSON without the
        seat), from that seat's own view (and the deal's public record, ``events``)."""
        ...


@dataclass(frozen=True)
class Engine:
    """A ``GameEngine`` made of module-level functions."""

    name: str
    new_fn: Callable[..., Any]
    apply_fn: Callable[..., Any]
    view_fn: Callable[[Any, int | None], dict[str, Any]]
    state_from_json_fn: Callable[[Mapping[str, Any]], Any]
    action_from_json_fn: Callable[[Mapping[str, Any]], Any]
    settings_for_fn: Callable[..., Any]
    settings_from_json_fn: Callable[[Mapping[str, Any]], Any]
    new_start_deal_fn: Callable[[Any], Any]
    deal_due_fn: Callable[[Any, float], bool]
    # (state, seat, strength, events, seed) -> the move (see ``GameEngine.bot_action``)
    bot_fn: Callable[[Any, int, str, Iterable[Mapping[str, Any]], int], dict[str, Any] | None]

    def new(self, *, settings: Any, seats: Sequence[int], now: float, toss: int) -> Any:
        return self.new_fn(settings=settings, seats=seats, now=now, toss=toss)

    def apply(self, state: Any, action: Any, *, now: float) -> Any:
        return self.apply_fn(state, action, now=now)

    def view(self, state: Any, viewer: int | None) -> dict[str, Any]:
        return self.view_fn(state, viewer)

    def state_from_json(self, data: Mapping[str, Any]) -> Any:
        return self.state_from_json_fn(data)

    def action_from_json(self, data: Mapping[str, Any]) -> Any:
        return self.action_from_json_fn(data)

    def settings_for(self, variant: str, **overrides: Any) -> Any:
        return self.settings_for_fn(variant, **overrides)

    def settings_from_json(self, data: Mapping[str, Any]) -> Any:
        return self.settings_from_json_fn(data)

    def new_start_deal(self, settings: Any) -> Any:
        return self.new_start_deal_fn(settings)

    def deal_due(self, state: Any, now: float) -> bool:
        return self.deal_due_fn(state, now)

    def bot_action(
        self,
        state: Any,
        seat: int,
        *,
        strength: str,
        events: Iterable[Mapping[str, Any]] = (),
        seed: int = 0,
    ) -> dict[str, Any] | None:
        return self.bot_fn(state, seat, strength, events, seed)

    def deadline(self, state: Any) -> tuple[float | None, str | None]:
        return state.deadline, state.deadline_kind


def _thirteen_card_engine() -> Engine:
    from . import game, shoe
    from .game import bot
    from .settings import GameSettings

    def new_start_deal(settings: Any) -> game.StartDeal:
        return game.StartDeal(shoe.new_shoe(settings))

    def bot_action(
        state: Any, seat: int, strength: str, events: Iterable[Mapping[str, Any]], seed: int
    ) -> dict[str, Any] | None:
        level = strength if strength in bot.STRENGTHS else "medium"
        view = game.game_view(state, seat)
        knows = bot.seat_view(view, bot.public_record(events), state.settings)
        return bot.bot_decide(knows, level, seed=seed)

    return Engine(
        name="thirteen_card",
        new_fn=game.game_new,
        apply_fn=game.game_apply,
        view_fn=game.game_view,
        state_from_json_fn=game.GameState.from_json,
        action_from_json_fn=game.action_from_json,
        settings_for_fn=GameSettings.for_variant,
        settings_from_json_fn=GameSettings.from_json,
        new_start_deal_fn=new_start_deal,
        deal_due_fn=game.deal_due,
        bot_fn=bot_action,
    )


def _classic_engine() -> Engine:
    from . import classic

    def deal_due(state: Any, now: float) -> bool:
        return bool(state.phase == "break" and state.deadline is not None and now >= state.deadline)

    def bot_action(
        state: Any, seat: int, strength: str, events: Iterable[Mapping[str, Any]], seed: int
    ) -> dict[str, Any] | None:
        view = classic.classic_view(state, seat)
        return classic.classic_bot_decide(view, state.settings, strength, seed=seed)

    return Engine(
        name="classic",
        new_fn=classic.classic_new,
        apply_fn=classic.classic_apply,
        view_fn=classic.classic_view,
        state_from_json_fn=classic.ClassicState.from_json,
        action_from_json_fn=classic.classic_action_from_json,
        settings_for_fn=classic.ClassicSettings.for_variant,
        settings_from_json_fn=classic.ClassicSettings.from_json,
        new_start_deal_fn=classic.new_start_deal,
        deal_due_fn=deal_due,
        bot_fn=bot_action,
    )


# The registry: variant name -> a function building its engine (imported on first use).
_BUILTIN: dict[str, Callable[[], GameEngine]] = {
    "pool101": _thirteen_card_engine,
    "pool201": _thirteen_card_engine,
    "deals": _thirteen_card_engine,
    "points": _thirteen_card_engine,
    "classic": _classic_engine,
}
_ENGINES: dict[str, GameEngine] = {}


def register_engine(variants: Iterable[str], engine: GameEngine) -> None:
    """Make ``engine`` play ``variants`` (replacing any engine registered for them)."""
    for variant in variants:
        _ENGINES[variant] = engine


def registered_variants() -> tuple[str, ...]:
    return tuple(sorted(set(_BUILTIN) | set(_ENGINES)))


def engine_for(variant: str) -> GameEngine:
    """The engine that plays ``variant``; ``InvalidSettings`` for an unknown variant."""
    engine = _ENGINES.get(variant)
    if engine is None:
        factory = _BUILTIN.get(variant)
        if factory is None:
            raise InvalidSettings(
                Refusal.UNKNOWN_VARIANT, value=repr(variant), choices=tuple(registered_variants())
            )
        engine = factory()
        _ENGINES[variant] = engine
    return engine
