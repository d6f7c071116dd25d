"""The tables' side of the rules engine: which engine plays a variant, the engine settings a
table template describes, the settings and state frozen in a game, and what a player may send.

Models, selectors and services all read the engine through this module; it imports nothing of
the app but the pure rules engine (``tables.rules``), so the models can validate a template
without importing the services.
"""

from __future__ import annotations

import dataclasses
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

from tables.rules.errors import InvalidSettings, Refusal
from tables.rules.settings import GameSettings
from tables.rules.variants import EngineState, ServerEngine, engine_for

__all__ = [
    "MELD_FIELDS",
    "OPTIONAL_FIELDS",
    "PLAYER_ACTIONS",
    "SETTINGS_FIELDS",
    "SETTING_ALIASES",
    "engine_of",
    "game_settings",
    "game_state",
    "game_state_remember",
    "settings_field_names",
    "stake_of",
    "state_key",
    "template_settings",
]

# Template fields copied one to one into ``GameSettings`` (same names) when not blank.
SETTINGS_FIELDS: tuple[str, ...] = (
    "seats_min",
    "seats_max",
    "entry_fee",
    "point_value",
    "platform_fee_bps",
    "packs",
    "printed_jokers_per_pack",
    "first_drop",
    "middle_drop",
    "full_count",
    "wrong_show",
    "pool_limit",
    "rejoin_max_total",
    "rejoin_window_s",
    "rejoins_per_player",
    "auto_split_min_total",
    "split_window_s",
    "split_weighting",
    "deals_count",
    "chips_per_deal",
    "deal_show_rule",
    "deal_show_min",
    "deal_show_max",
    "deal_show_flat",
    "turn_s",
    "extra_time_s",
    "meld_window_s",
    "break_s",
    "max_reshuffles",
    "first_open_joker_pickable",
    "drops_with_two_players",
    "missed_turns_limit",
    "disconnect_policy",
    "points_buy_in_multiple",
    "hands_count",
)
# Template fields that go into ``GameSettings.meld``.
MELD_FIELDS: tuple[str, ...] = ("largest_set", "allow_joker_only_groups")

# What a player may send: action name -> the payload fields it takes. The acting seat always
# comes from the signed-in user, never from the request. Fields of ``OPTIONAL_FIELDS`` may be
# left out (a discard's place in the groups names which of two copies is thrown).
PLAYER_ACTIONS: dict[str, frozenset[str]] = {
    "pick_closed": frozenset(),
    "pick_open": frozenset(),
    "discard": frozenset({"card", "group", "index"}),
    "declare": frozenset({"finish_card", "groups"}),
    "drop": frozenset(),
    "set_auto_drop": frozenset({"on"}),
    "arrange": frozenset({"groups"}),
    "submit_meld": frozenset({"groups"}),
    "rejoin": frozenset(),
    "split_accept": frozenset(),
    "split_decline": frozenset(),
    "lay_down": frozenset({"melds"}),
    "lay_off": frozenset({"cards", "meld_id", "end"}),
    "leave": frozenset(),
}

OPTIONAL_FIELDS = frozenset({"end", "group", "index"})


def engine_of(variant: str) -> ServerEngine:
    """The engine that plays ``variant`` (``tables.rules.variants.engine_for``)."""
    return engine_for(variant)


def settings_field_names(variant: str) -> frozenset[str]:
    """The setting names the engine of ``variant`` knows."""
    settings = engine_of(variant).settings_for(variant)
    if not dataclasses.is_dataclass(settings):
        return frozenset(settings.to_json())
    return frozenset(f.name for f in dataclasses.fields(settings))


def template_settings(template: Any) -> Any:
    """The engine settings a template describes: the variant's rule-book defaults, then every
    non-blank rule field of the template, then ``extra_settings``. Validated by the engine
    (raises ``InvalidSettings``, a ``ValueError``)."""
    engine = engine_of(template.variant)
    names = settings_field_names(template.variant)
    overrides: dict[str, Any] = {}
    for name in SETTINGS_FIELDS:
        value = getattr(template, name)
        target = SETTING_ALIASES.get((template.variant, name), name)
        if value is None:
            continue
        if target not in names:
            if name in _ALWAYS_SET_FIELDS:
                continue
            raise InvalidSettings(
                Refusal.SETTING_NOT_FOR_VARIANT, name=name, variant=template.variant
            )
        overrides[target] = value
    meld: dict[str, Any] = {}
    for name in MELD_FIELDS:
        value = getattr(template, name)
        if value is None:
            continue
        if "meld" in names:
            meld[name] = value
        elif name in names:
            overrides[name] = value
        else:
            raise InvalidSettings(
                Refusal.SETTING_NOT_FOR_VARIANT, name=name, variant=template.variant
            )
    if meld:
        overrides["meld"] = meld
    extra = dict(template.extra_settings or {})
    if isinstance(extra.get("meld"), Mapping) and meld:
        extra["meld"] = {**meld, **extra["meld"]}
    overrides.update(extra)
    settings = engine.settings_for(template.variant, **overrides)
    if stake_of(template.variant, settings) <= 0:
        raise InvalidSettings(
            Refusal.STAKE_POINT_VALUE if template.variant == "points" else Refusal.STAKE_ENTRY_FEE
        )
    if template.variant == "points" and isinstance(settings, GameSettings):
        worst = max(settings.full_count, settings.wrong_show, settings.middle_drop)
        if settings.points_buy_in_multiple < worst:
            raise InvalidSettings(Refusal.BUY_IN_TOO_LOW, count=worst)
    return settings


# (variant, template field) -> engine setting name, where they differ.
SETTING_ALIASES: dict[tuple[str, str], str] = {("classic", "hands_count"): "hands"}
# Always-filled template fields that some engines do not have (skipped there).
_ALWAYS_SET_FIELDS = frozenset(
    {"seats_min", "seats_max", "entry_fee", "point_value", "platform_fee_bps"}
)


def stake_of(variant: str, settings: Any) -> int:
    """What each seat pays into the pot: the points buy-in, or the entry fee."""
    if variant == "points":
        return int(settings.points_buy_in)
    return int(settings.entry_fee)


def game_settings(game: Any) -> Any:
    """The settings frozen in ``game``."""
    return engine_of(game.variant).settings_from_json(game.settings)


def game_state(game: Any) -> EngineState | None:
    """The engine state of a started game (``None`` before the start), decoded once per game
    and version in this process: states are immutable and a version names one committed
    state, so the decoded value is shared by every reader of that version."""
    if game.state is None:
        return None
    key = state_key(game)
    with _STATES_LOCK:
        state = _STATES.get(key)
        if state is not None:
            _STATES.move_to_end(key)
            return state
    state = engine_of(game.variant).state_from_json(game.state)
    if game.pk is not None:
        game_state_remember(key=key, state=state)
    return state


def state_key(game: Any) -> tuple[Any, ...]:
    """What names one committed state of a game: its id, when it was created (an id can come
    back after a rollback, as in the tests) and its version."""
    return (game.pk, game.created_at, game.version)


def game_state_remember(*, key: tuple[Any, ...], state: EngineState | None) -> None:
    """Keep the decoded ``state`` under ``state_key(game)`` (call after the commit only: a
    version rolled back could be taken again by another state)."""
    if state is None:
        return
    with _STATES_LOCK:
        _STATES[key] = state
        _STATES.move_to_end(key)
        while len(_STATES) > _STATES_MAX:
            _STATES.popitem(last=False)


# Decoded states by ``state_key``, least recently used first.
_STATES: OrderedDict[tuple[Any, ...], EngineState] = OrderedDict()
_STATES_LOCK = threading.Lock()
_STATES_MAX = 4096
