"""The one variant abstraction: ``engine_for(variant)`` returns the engine that plays it.

An engine is a set of module-level functions with the state-machine shape of
docs/architecture.md ("The game state machine contract"): ``game`` plays the four 13-card
variants (pool101, pool201, deals, points); ``classic`` plays classic 10-card rummy.

``GameEngine`` is generic over an engine's own state, action and settings types: the 13-card
engine is a ``GameEngine[GameState, Action, GameSettings]``. The server codes against
``ServerEngine``, the same protocol over what every engine's values offer (``EngineState``,
``EngineAction``, ``EngineSettings``); ``engine_for`` returns an engine behind it, which
checks that each state, action and settings it is handed is its own (``EngineMismatch``
otherwise: a programming error, never a player's)::

    engine = engine_for(table.variant)
    settings = engine.settings_for(table.variant, **table_overrides)
    state = engine.new(settings=settings, seats=seats, now=now, toss=toss)
    if engine.deal_due(state, now):
        start = engine.new_start_deal(state_settings)   # store start.to_json() first
        transition = engine.apply(state, start, now=now)
    transition = engine.apply(state, engine.action_from_json(form_data), now=now)
    engine.view(transition.state, seat)                 # an ``EngineView``
    engine.state_from_json(game.state)                  # and state.to_json()

What differs by variant is asked of the engine, never of the variant's name: ``traits`` (what
the table shows: a cut joker, melds on the table, the word for a deal), ``sort_groups`` (the
auto-sort of a hand), ``player_status`` and ``bot_action``.

Registering another engine: add an entry to ``_BUILTIN`` (variant name -> a zero-argument
function returning its ``ServerEngine``; the module is imported on first use), or call
``register_engine``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from .engine_view import EngineView, JsonObject, engine_view_of, engine_views_of
from .errors import InvalidSettings, Refusal
from .machine import Transition

__all__ = [
    "Engine",
    "EngineAction",
    "EngineEvent",
    "EngineMismatch",
    "EngineSettings",
    "EngineState",
    "EngineTraits",
    "GameEngine",
    "ServerEngine",
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

    @property
    def settings(self) -> EngineSettings: ...

    def to_json(self) -> JsonObject: ...


class EngineAction(Protocol):
    """What every engine's action offers the server: its JSON (``{"type": ..., ...}``)."""

    def to_json(self) -> JsonObject: ...


class EngineEvent(Protocol):
    """What every engine's event offers the server: its JSON, as the move log keeps it."""

    def to_json(self) -> JsonObject: ...


class EngineSettings(Protocol):
    """What every engine's settings offer the server."""

    @property
    def variant(self) -> str: ...

    @property
    def seats_min(self) -> int: ...

    @property
    def seats_max(self) -> int: ...

    @property
    def entry_fee(self) -> int: ...

    @property
    def platform_fee_bps(self) -> int: ...

    @property
    def turn_s(self) -> float: ...

    @property
    def extra_time_s(self) -> float: ...

    def to_json(self) -> JsonObject: ...


@dataclass(frozen=True)
class EngineTraits:
    """What a variant's table shows, for the pages (asked of the engine, not of its name)."""

    family: str  # "thirteen_card" or "classic"
    cut_joker: bool  # a wild joker cut from the deck
    table_melds: bool  # melds laid on the table during the hand (classic)
    sorts_hand: bool  # an auto-sort of the hand into its best arrangement
    drops: bool  # a player may drop out of a deal (a first or middle drop), leaving is one
    deal_word: str  # "Deal", or "Hand" (untranslated: the pages translate it)


StateT = TypeVar("StateT", bound=EngineState)
ActionT = TypeVar("ActionT", bound=EngineAction)
SettingsT = TypeVar("SettingsT", bound=EngineSettings)


class EngineMismatch(TypeError):
    """A state, action or settings of another engine was handed to this one (a bug)."""


class GameEngine(Protocol[StateT, ActionT, SettingsT]):
    """The functions the server calls for any variant, over the engine's own types."""

    @property
    def name(self) -> str: ...

    @property
    def traits(self) -> EngineTraits: ...

    def new(self, *, settings: SettingsT, seats: Sequence[int], now: float, toss: int) -> StateT:
        """A new game state awaiting its first deal."""
        ...

    def apply(
        self, state: StateT, action: ActionT, *, now: float
    ) -> Transition[StateT, EngineEvent]:
        """``Transition(state, events)``; raises ``InvalidMove`` for an illegal action."""
        ...

    def view(self, state: StateT, viewer: int | None) -> EngineView: ...

    def views(self, state: StateT, viewers: Sequence[int | None]) -> list[EngineView]:
        """``view`` for each of ``viewers``, in their order (what they share worked out once,
        where the engine can: a push shows one state to every seat and to the spectators)."""
        ...

    def state_from_json(self, data: JsonObject) -> StateT: ...

    def action_from_json(self, data: Mapping[str, object]) -> ActionT:
        """An action from its JSON (a player's fields too: refused with ``InvalidMove``)."""
        ...

    def settings_for(self, variant: str, **overrides: object) -> SettingsT: ...

    def settings_from_json(self, data: JsonObject) -> SettingsT: ...

    def new_start_deal(self, settings: SettingsT) -> ActionT:
        """A ``StartDeal`` action with a freshly shuffled shoe (the one impure call)."""
        ...

    def deal_due(self, state: StateT, now: float) -> bool:
        """Whether the server should apply ``new_start_deal`` now rather than ``Timeout``."""
        ...

    def deadline(self, state: StateT) -> tuple[float | None, str | None]: ...

    def player_status(self, state: StateT, seat: int) -> str:
        """``seat``'s status in the game ("in", "out", "left"...; "unknown": not a player)."""
        ...

    def sort_groups(self, state: StateT, seat: int) -> list[list[str]] | None:
        """The auto-sort of ``seat``'s hand: its best arrangement (the lowest count; a valid
        show when there is one), the loose cards last; ``None`` where the variant has none or
        the seat holds no hand."""
        ...

    def bot_action(
        self,
        state: StateT,
        seat: int,
        *,
        strength: str,
        events: Iterable[JsonObject] = (),
        seed: int = 0,
    ) -> JsonObject | None:
        """What a computer player at ``strength`` does now at ``seat`` (engine JSON without the
        seat), from that seat's own view (and the deal's public record, ``events``)."""
        ...


# The server's engine: the protocol over what every engine's values offer.
ServerEngine = GameEngine[EngineState, EngineAction, EngineSettings]


@dataclass(frozen=True)
class Engine(Generic[StateT, ActionT, SettingsT]):
    """A ``GameEngine`` made of module-level functions, over its own types."""

    name: str
    traits: EngineTraits
    state_type: type[StateT]
    action_types: tuple[type[ActionT], ...]
    settings_type: type[SettingsT]
    new_fn: Callable[[SettingsT, Sequence[int], float, int], StateT]
    apply_fn: Callable[[StateT, ActionT, float], Transition[StateT, EngineEvent]]
    view_fn: Callable[[StateT, int | None], JsonObject]
    state_from_json_fn: Callable[[JsonObject], StateT]
    action_from_json_fn: Callable[[Mapping[str, object]], ActionT]
    settings_for_fn: Callable[[str, Mapping[str, object]], SettingsT]
    settings_from_json_fn: Callable[[JsonObject], SettingsT]
    new_start_deal_fn: Callable[[SettingsT], ActionT]
    deal_due_fn: Callable[[StateT, float], bool]
    player_status_fn: Callable[[StateT, int], str]
    sort_fn: Callable[[StateT, int], list[list[str]] | None]
    # (state, seat, strength, events, seed) -> the move (see ``GameEngine.bot_action``)
    bot_fn: Callable[[StateT, int, str, Iterable[JsonObject], int], JsonObject | None]
    # Several viewers' views at once, sharing what they show alike (``None``: ``view_fn`` each).
    views_fn: Callable[[StateT, Sequence[int | None]], Sequence[JsonObject]] | None = None

    def new(self, *, settings: SettingsT, seats: Sequence[int], now: float, toss: int) -> StateT:
        return self.new_fn(settings, seats, now, toss)

    def apply(
        self, state: StateT, action: ActionT, *, now: float
    ) -> Transition[StateT, EngineEvent]:
        return self.apply_fn(state, action, now)

    def view(self, state: StateT, viewer: int | None) -> EngineView:
        return engine_view_of(self.view_fn(state, viewer))

    def views(self, state: StateT, viewers: Sequence[int | None]) -> list[EngineView]:
        if self.views_fn is None:
            return [self.view(state, viewer) for viewer in viewers]
        return engine_views_of(self.views_fn(state, viewers))

    def state_from_json(self, data: JsonObject) -> StateT:
        return self.state_from_json_fn(data)

    def action_from_json(self, data: Mapping[str, object]) -> ActionT:
        return self.action_from_json_fn(data)

    def settings_for(self, variant: str, **overrides: object) -> SettingsT:
        return self.settings_for_fn(variant, overrides)

    def settings_from_json(self, data: JsonObject) -> SettingsT:
        return self.settings_from_json_fn(data)

    def new_start_deal(self, settings: SettingsT) -> ActionT:
        return self.new_start_deal_fn(settings)

    def deal_due(self, state: StateT, now: float) -> bool:
        return self.deal_due_fn(state, now)

    def deadline(self, state: StateT) -> tuple[float | None, str | None]:
        return state.deadline, state.deadline_kind

    def player_status(self, state: StateT, seat: int) -> str:
        return self.player_status_fn(state, seat)

    def sort_groups(self, state: StateT, seat: int) -> list[list[str]] | None:
        return self.sort_fn(state, seat)

    def bot_action(
        self,
        state: StateT,
        seat: int,
        *,
        strength: str,
        events: Iterable[JsonObject] = (),
        seed: int = 0,
    ) -> JsonObject | None:
        return self.bot_fn(state, seat, strength, events, seed)


@dataclass(frozen=True)
class _Checked(Generic[StateT, ActionT, SettingsT]):
    """An ``Engine`` behind ``ServerEngine``: each value handed to it is checked to be of the
    engine's own types (``EngineMismatch`` otherwise), the one place they are narrowed."""

    engine: Engine[StateT, ActionT, SettingsT]

    def _state(self, state: EngineState) -> StateT:
        if not isinstance(state, self.engine.state_type):
            raise EngineMismatch(f"{self.engine.name} got a {type(state).__name__} state")
        return state

    def _action(self, action: EngineAction) -> ActionT:
        if not isinstance(action, self.engine.action_types):
            raise EngineMismatch(f"{self.engine.name} got a {type(action).__name__} action")
        return action

    def _settings(self, settings: EngineSettings) -> SettingsT:
        if not isinstance(settings, self.engine.settings_type):
            raise EngineMismatch(f"{self.engine.name} got {type(settings).__name__} settings")
        return settings

    @property
    def name(self) -> str:
        return self.engine.name

    @property
    def traits(self) -> EngineTraits:
        return self.engine.traits

    def new(
        self, *, settings: EngineSettings, seats: Sequence[int], now: float, toss: int
    ) -> EngineState:
        return self.engine.new(settings=self._settings(settings), seats=seats, now=now, toss=toss)

    def apply(
        self, state: EngineState, action: EngineAction, *, now: float
    ) -> Transition[EngineState, EngineEvent]:
        moved = self.engine.apply(self._state(state), self._action(action), now=now)
        return Transition(moved.state, moved.events)

    def view(self, state: EngineState, viewer: int | None) -> EngineView:
        return self.engine.view(self._state(state), viewer)

    def views(self, state: EngineState, viewers: Sequence[int | None]) -> list[EngineView]:
        return self.engine.views(self._state(state), viewers)

    def state_from_json(self, data: JsonObject) -> EngineState:
        return self.engine.state_from_json(data)

    def action_from_json(self, data: Mapping[str, object]) -> EngineAction:
        return self.engine.action_from_json(data)

    def settings_for(self, variant: str, **overrides: object) -> EngineSettings:
        return self.engine.settings_for(variant, **overrides)

    def settings_from_json(self, data: JsonObject) -> EngineSettings:
        return self.engine.settings_from_json(data)

    def new_start_deal(self, settings: EngineSettings) -> EngineAction:
        return self.engine.new_start_deal(self._settings(settings))

    def deal_due(self, state: EngineState, now: float) -> bool:
        return self.engine.deal_due(self._state(state), now)

    def deadline(self, state: EngineState) -> tuple[float | None, str | None]:
        return self.engine.deadline(self._state(state))

    def player_status(self, state: EngineState, seat: int) -> str:
        return self.engine.player_status(self._state(state), seat)

    def sort_groups(self, state: EngineState, seat: int) -> list[list[str]] | None:
        return self.engine.sort_groups(self._state(state), seat)

    def bot_action(
        self,
        state: EngineState,
        seat: int,
        *,
        strength: str,
        events: Iterable[JsonObject] = (),
        seed: int = 0,
    ) -> JsonObject | None:
        return self.engine.bot_action(
            self._state(state), seat, strength=strength, events=events, seed=seed
        )


def server_engine(engine: Engine[StateT, ActionT, SettingsT]) -> ServerEngine:
    """``engine`` as the server calls it (see ``_Checked``)."""
    return _Checked(engine)


def _thirteen_card_engine() -> ServerEngine:
    from typing import get_args

    from . import game, shoe
    from .evaluate import evaluate_hand
    from .game import bot
    from .game.state import find_hand
    from .settings import GameSettings

    def new(settings: GameSettings, seats: Sequence[int], now: float, toss: int) -> game.GameState:
        return game.game_new(settings=settings, seats=seats, now=now, toss=toss)

    def apply(
        state: game.GameState, action: game.Action, now: float
    ) -> Transition[game.GameState, EngineEvent]:
        moved = game.game_apply(state, action, now=now)
        return Transition(moved.state, moved.events)

    def settings_for(variant: str, overrides: Mapping[str, object]) -> GameSettings:
        return GameSettings.for_variant(variant, **overrides)

    def new_start_deal(settings: GameSettings) -> game.Action:
        return game.StartDeal(shoe.new_shoe(settings))

    def player_status(state: game.GameState, seat: int) -> str:
        found = next((p for p in state.players if p.seat == seat), None)
        return "unknown" if found is None else str(found.status)

    def sort_groups(state: game.GameState, seat: int) -> list[list[str]] | None:
        deal = state.deal
        own = find_hand(deal, seat) if deal is not None else None
        if deal is None or own is None or not own.cards:
            return None
        best = evaluate_hand(own.cards, deal.cut_card, settings=state.settings.meld)
        groups = [[c.code for c in g] for g in best.groups]
        if best.ungrouped:
            groups.append([c.code for c in best.ungrouped])
        return groups

    def bot_action(
        state: game.GameState, seat: int, strength: str, events: Iterable[JsonObject], seed: int
    ) -> JsonObject | None:
        level = strength if strength in bot.STRENGTHS else "medium"
        view = game.game_view(state, seat)
        knows = bot.seat_view(view, bot.public_record(events), state.settings)
        return bot.bot_decide(knows, level, seed=seed)

    return server_engine(
        Engine(
            name="thirteen_card",
            traits=EngineTraits(
                family="thirteen_card",
                cut_joker=True,
                table_melds=False,
                sorts_hand=True,
                drops=True,
                deal_word="Deal",
            ),
            state_type=game.GameState,
            action_types=get_args(game.Action),
            settings_type=GameSettings,
            new_fn=new,
            apply_fn=apply,
            view_fn=game.game_view,
            views_fn=game.game_views,
            state_from_json_fn=game.GameState.from_json,
            action_from_json_fn=game.action_from_json,
            settings_for_fn=settings_for,
            settings_from_json_fn=GameSettings.from_json,
            new_start_deal_fn=new_start_deal,
            deal_due_fn=game.deal_due,
            player_status_fn=player_status,
            sort_fn=sort_groups,
            bot_fn=bot_action,
        )
    )


def _classic_engine() -> ServerEngine:
    from typing import get_args

    from . import classic

    def new(
        settings: classic.ClassicSettings, seats: Sequence[int], now: float, toss: int
    ) -> classic.ClassicState:
        return classic.classic_new(settings=settings, seats=seats, now=now, toss=toss)

    def apply(
        state: classic.ClassicState, action: classic.Action, now: float
    ) -> Transition[classic.ClassicState, EngineEvent]:
        moved = classic.classic_apply(state, action, now=now)
        return Transition(moved.state, moved.events)

    def settings_for(variant: str, overrides: Mapping[str, object]) -> classic.ClassicSettings:
        return classic.ClassicSettings.for_variant(variant, **overrides)

    def new_start_deal(settings: classic.ClassicSettings) -> classic.Action:
        return classic.new_start_deal(settings)

    def deal_due(state: classic.ClassicState, now: float) -> bool:
        return bool(state.phase == "break" and state.deadline is not None and now >= state.deadline)

    def player_status(state: classic.ClassicState, seat: int) -> str:
        found = next((p for p in state.players if p.seat == seat), None)
        if found is None:
            return "unknown"
        return "left" if found.left else "in"  # the classic engine keeps a flag

    def no_sort(state: classic.ClassicState, seat: int) -> list[list[str]] | None:
        return None  # a classic hand is laid off in melds, not arranged

    def bot_action(
        state: classic.ClassicState,
        seat: int,
        strength: str,
        events: Iterable[JsonObject],
        seed: int,
    ) -> JsonObject | None:
        view = classic.classic_view(state, seat)
        return classic.classic_bot_decide(view, state.settings, strength, seed=seed)

    return server_engine(
        Engine(
            name="classic",
            traits=EngineTraits(
                family="classic",
                cut_joker=False,
                table_melds=True,
                sorts_hand=False,
                drops=False,
                deal_word="Hand",
            ),
            state_type=classic.ClassicState,
            action_types=get_args(classic.Action),
            settings_type=classic.ClassicSettings,
            new_fn=new,
            apply_fn=apply,
            view_fn=classic.classic_view,
            state_from_json_fn=classic.ClassicState.from_json,
            action_from_json_fn=classic.classic_action_from_json,
            settings_for_fn=settings_for,
            settings_from_json_fn=classic.ClassicSettings.from_json,
            new_start_deal_fn=new_start_deal,
            deal_due_fn=deal_due,
            player_status_fn=player_status,
            sort_fn=no_sort,
            bot_fn=bot_action,
        )
    )


# The registry: variant name -> a function building its engine (imported on first use).
_BUILTIN: dict[str, Callable[[], ServerEngine]] = {
    "pool101": _thirteen_card_engine,
    "pool201": _thirteen_card_engine,
    "deals": _thirteen_card_engine,
    "points": _thirteen_card_engine,
    "classic": _classic_engine,
}
_ENGINES: dict[str, ServerEngine] = {}


def register_engine(variants: Iterable[str], engine: ServerEngine) -> None:
    """Make ``engine`` play ``variants`` (replacing any engine registered for them)."""
    for variant in variants:
        _ENGINES[variant] = engine


def registered_variants() -> tuple[str, ...]:
    return tuple(sorted(set(_BUILTIN) | set(_ENGINES)))


def engine_for(variant: str) -> ServerEngine:
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
