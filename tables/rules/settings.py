"""Game settings: every *(setting)* of RULES.md sections 1 to 7, with the rule book's defaults.

A ``GameSettings`` is frozen when a game starts (RULES.md section 9): the engine reads every
number from it and never from a constant. ``GameSettings.for_variant`` gives the table defaults
of RULES.md section 4 for each variant; keyword overrides replace single values.

Money is in integer minor units: ``entry_fee`` (pool and deals), ``point_value`` (points), and
the platform fee in basis points (``platform_fee_bps``: 1000 = 10 %).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from .errors import InvalidSettings, Refusal, RefusalParams
from .melds import MeldSettings

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "DEAL_SHOW_RULES",
    "DISCONNECT_POLICIES",
    "POOL_VARIANTS",
    "SPLIT_WEIGHTINGS",
    "THIRTEEN_CARD_VARIANTS",
    "VARIANTS",
    "GameSettings",
]

POOL_VARIANTS: Final = ("pool101", "pool201")
THIRTEEN_CARD_VARIANTS: Final = ("pool101", "pool201", "deals", "points")
VARIANTS: Final = (*THIRTEEN_CARD_VARIANTS, "classic")
"""Every variant name a table may carry (``classic`` is played by the ``classic`` package)."""

DEAL_SHOW_RULES: Final = ("half", "flat")
DISCONNECT_POLICIES: Final = ("missed_turns", "drop")
SPLIT_WEIGHTINGS: Final = ("drops_plus_one", "drops", "equal")
DEALS_COUNTS: Final = (2, 3, 6)

_VARIANT_DEFAULTS: Final[dict[str, dict[str, Any]]] = {
    "pool101": {
        "first_drop": 20,
        "middle_drop": 40,
        "pool_limit": 101,
        "rejoin_max_total": 79,
        "auto_split_min_total": 81,
    },
    "pool201": {
        "first_drop": 25,
        "middle_drop": 50,
        "pool_limit": 201,
        "rejoin_max_total": 174,
        "auto_split_min_total": 176,
    },
    "deals": {
        "first_drop": 20,
        "middle_drop": 40,
        "drops_with_two_players": False,
        "deal_show_rule": "flat",
    },
    "points": {"first_drop": 20, "middle_drop": 40},
    "classic": {"printed_jokers_per_pack": 0},
}


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@dataclass(frozen=True)
class GameSettings:
    """Every setting of a 13-card game (and the table-level ones the classic game shares).

    Scores (RULES.md sections 3 and 4): ``first_drop``, ``middle_drop``, ``full_count`` (a
    loser's cap), ``wrong_show``; the deal-show rule (``deal_show_rule`` "half": ⌊count / 2⌋
    kept within ``deal_show_min``..``deal_show_max`` when the count is at least
    ``deal_show_min``, 0 stays 0; "flat": ``deal_show_flat``).

    Pool (section 5): ``pool_limit`` (eliminated at a total >= limit), ``rejoin_max_total``,
    ``rejoin_window_s``, ``rejoins_per_player``, ``auto_split_min_total``, ``split_window_s``,
    ``split_weighting`` ("drops_plus_one": weights drops available + 1; "drops": weights drops
    available, equal when all are 0; "equal").

    Deals (section 6): ``deals_count`` (2, 3 or 6; 1 to 6 when ``tournament_table``, section
    10), ``chips_per_deal`` (each player starts with
    ``deals_count`` x ``chips_per_deal`` chips). Points (section 7): ``point_value`` per point,
    and a seat needs ``points_buy_in_multiple`` x ``point_value``.

    Timers in seconds: ``turn_s``, ``extra_time_s`` (a per-player bank for the whole game),
    ``meld_window_s``, ``break_s`` (between deals).
    """

    variant: str = "pool101"
    seats_min: int = 2
    seats_max: int = 6
    packs: int = 2
    printed_jokers_per_pack: int = 1
    first_drop: int = 20
    middle_drop: int = 40
    full_count: int = 80
    wrong_show: int = 80
    pool_limit: int = 101
    rejoin_max_total: int = 79
    rejoin_window_s: float = 20.0
    rejoins_per_player: int = 1
    auto_split_min_total: int = 81
    split_window_s: float = 20.0
    split_weighting: str = "drops_plus_one"
    deals_count: int = 2
    chips_per_deal: int = 80
    deal_show_rule: str = "half"
    deal_show_min: int = 2
    deal_show_max: int = 40
    deal_show_flat: int = 20
    turn_s: float = 30.0
    extra_time_s: float = 30.0
    meld_window_s: float = 45.0
    break_s: float = 10.0
    max_reshuffles: int = 3
    first_open_joker_pickable: bool = True
    drops_with_two_players: bool = True
    missed_turns_limit: int = 3
    disconnect_policy: str = "missed_turns"
    entry_fee: int = 0
    point_value: int = 0
    points_buy_in_multiple: int = 80
    platform_fee_bps: int = 1000
    # A tournament's table (section 10): it plays as many deals as it has players (1 to 6, a
    # tie-breaker at the cut 1), not only 2, 3 or 6.
    tournament_table: bool = False
    # Deals: a tie for the most chips after the last deal plays a tie-breaker deal (section 6).
    # Off at a tournament's round table (section 10): a tie that does not decide the cut stays a
    # tie, and the director plays the cut's own tie-breaker.
    play_off_ties: bool = True
    meld: MeldSettings = field(default_factory=MeldSettings)

    def __post_init__(self) -> None:
        # Timers are floats; an integer given for one is stored as the equal float.
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.type in ("float", float) and _is_int(value):
                object.__setattr__(self, f.name, float(value))

    # ----------------------------------------------------------------- construction

    @classmethod
    def for_variant(cls, variant: str, /, **overrides: Any) -> GameSettings:
        """The rule book's table defaults for ``variant``, with ``overrides`` applied, validated."""
        if variant not in _VARIANT_DEFAULTS:
            raise InvalidSettings(
                Refusal.UNKNOWN_VARIANT, value=repr(variant), choices=tuple(VARIANTS)
            )
        if "variant" in overrides:
            raise InvalidSettings(Refusal.VARIANT_AS_OVERRIDE)
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(overrides) - names)
        if unknown:
            raise InvalidSettings(Refusal.UNKNOWN_SETTINGS, names=tuple(unknown))
        values: dict[str, Any] = {**_VARIANT_DEFAULTS[variant], **overrides}
        if isinstance(values.get("meld"), Mapping):
            values["meld"] = _meld_from_json(values["meld"])
        settings = cls(variant=variant, **values)
        settings.validate()
        return settings

    # ----------------------------------------------------------------- derived values

    @property
    def is_pool(self) -> bool:
        return self.variant in POOL_VARIANTS

    @property
    def is_deals(self) -> bool:
        return self.variant == "deals"

    @property
    def is_points(self) -> bool:
        return self.variant == "points"

    @property
    def shoe_size(self) -> int:
        return self.packs * (52 + self.printed_jokers_per_pack)

    @property
    def deals_starting_chips(self) -> int:
        return self.deals_count * self.chips_per_deal

    @property
    def points_buy_in(self) -> int:
        """The least a seat must hold at a points table, in minor units."""
        return self.points_buy_in_multiple * self.point_value

    # ----------------------------------------------------------------- validation

    def validate(self) -> None:
        """Raise ``InvalidSettings`` naming the first impossible value."""
        if self.variant not in VARIANTS:
            raise InvalidSettings(
                Refusal.UNKNOWN_VARIANT, value=repr(self.variant), choices=tuple(VARIANTS)
            )
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.type in ("int", int) and not _is_int(value):
                raise InvalidSettings(Refusal.SETTING_NOT_INTEGER, name=f.name, value=repr(value))
            if f.type in ("float", float) and not _is_number(value):
                raise InvalidSettings(Refusal.SETTING_NOT_NUMBER, name=f.name, value=repr(value))
            if f.type in ("bool", bool) and not isinstance(value, bool):
                raise InvalidSettings(
                    Refusal.SETTING_NOT_BOOL_VALUE, name=f.name, value=repr(value)
                )
            if f.type in ("str", str) and not isinstance(value, str):
                raise InvalidSettings(Refusal.SETTING_NOT_STRING, name=f.name, value=repr(value))
        if not isinstance(self.meld, MeldSettings):
            raise InvalidSettings(Refusal.MELD_NOT_SETTINGS)

        def need(condition: bool, code: Refusal, /, **params: Unpack[RefusalParams]) -> None:
            if not condition:
                raise InvalidSettings(code, **params)

        need(2 <= self.seats_min <= self.seats_max, Refusal.SEATS_MIN_MAX)
        need(self.packs >= 1, Refusal.SETTING_AT_LEAST, name="packs", low=1)
        need(
            self.printed_jokers_per_pack >= 0,
            Refusal.SETTING_NOT_NEGATIVE,
            name="printed_jokers_per_pack",
        )
        if self.variant in THIRTEEN_CARD_VARIANTS:
            # 13 cards each, one open card, one cut joker and at least one closed card.
            need(
                self.seats_max * 13 + 3 <= self.shoe_size,
                Refusal.PACKS_TOO_FEW,
                packs=self.packs,
                players=self.seats_max,
            )
        need(self.full_count >= 1, Refusal.SETTING_AT_LEAST, name="full_count", low=1)
        need(0 <= self.first_drop <= self.middle_drop, Refusal.DROPS_ORDER)
        need(
            self.middle_drop <= self.full_count,
            Refusal.SETTING_NOT_ABOVE,
            name="middle_drop",
            other="full_count",
        )
        need(self.wrong_show >= 0, Refusal.SETTING_NOT_NEGATIVE, name="wrong_show")
        need(
            self.deal_show_rule in DEAL_SHOW_RULES,
            Refusal.SETTING_ONE_OF,
            name="deal_show_rule",
            choices=tuple(DEAL_SHOW_RULES),
        )
        need(
            0 <= self.deal_show_min <= self.deal_show_max,
            Refusal.DEAL_SHOW_ORDER,
        )
        need(self.deal_show_flat >= 0, Refusal.SETTING_NOT_NEGATIVE, name="deal_show_flat")
        for name in ("turn_s", "meld_window_s", "rejoin_window_s", "split_window_s"):
            need(getattr(self, name) > 0, Refusal.SETTING_POSITIVE, name=name)
        need(self.extra_time_s >= 0, Refusal.SETTING_NOT_NEGATIVE, name="extra_time_s")
        need(self.break_s >= 0, Refusal.SETTING_NOT_NEGATIVE, name="break_s")
        need(self.max_reshuffles >= 0, Refusal.SETTING_NOT_NEGATIVE, name="max_reshuffles")
        need(
            self.missed_turns_limit >= 1, Refusal.SETTING_AT_LEAST, name="missed_turns_limit", low=1
        )
        need(
            self.disconnect_policy in DISCONNECT_POLICIES,
            Refusal.SETTING_ONE_OF,
            name="disconnect_policy",
            choices=tuple(DISCONNECT_POLICIES),
        )
        need(self.entry_fee >= 0, Refusal.SETTING_NOT_NEGATIVE, name="entry_fee")
        need(self.point_value >= 0, Refusal.SETTING_NOT_NEGATIVE, name="point_value")
        need(
            self.points_buy_in_multiple >= 0,
            Refusal.SETTING_NOT_NEGATIVE,
            name="points_buy_in_multiple",
        )
        need(
            0 <= self.platform_fee_bps <= 10000,
            Refusal.SETTING_WITHIN,
            name="platform_fee_bps",
            low=0,
            high=10000,
        )
        if self.is_pool:
            need(self.pool_limit > 1, Refusal.SETTING_ABOVE, name="pool_limit", low=1)
            need(self.first_drop >= 1, Refusal.POOL_FIRST_DROP)
            need(
                0 <= self.rejoin_max_total < self.pool_limit - 1,
                Refusal.REJOIN_MAX_BELOW,
            )
            need(
                self.rejoins_per_player >= 0,
                Refusal.SETTING_NOT_NEGATIVE,
                name="rejoins_per_player",
            )
            need(
                0 <= self.auto_split_min_total < self.pool_limit,
                Refusal.SETTING_BELOW,
                name="auto_split_min_total",
                other="pool_limit",
            )
            need(
                self.split_weighting in SPLIT_WEIGHTINGS,
                Refusal.SETTING_ONE_OF,
                name="split_weighting",
                choices=tuple(SPLIT_WEIGHTINGS),
            )
        if self.is_deals:
            if self.tournament_table:
                need(1 <= self.deals_count <= 6, Refusal.TOURNAMENT_DEALS_COUNT)
            else:
                need(
                    self.deals_count in DEALS_COUNTS,
                    Refusal.SETTING_ONE_OF,
                    name="deals_count",
                    choices=tuple(map(str, DEALS_COUNTS)),
                )
            need(self.chips_per_deal >= 1, Refusal.SETTING_AT_LEAST, name="chips_per_deal", low=1)

    # ----------------------------------------------------------------- JSON

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict; ``GameSettings.from_json`` rebuilds an equal object."""
        data: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if isinstance(value, MeldSettings):
                value = {m.name: getattr(value, m.name) for m in dataclasses.fields(value)}
            data[f.name] = value
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameSettings:
        """Rebuild settings from ``to_json`` output (missing keys take the defaults)."""
        names = {f.name for f in dataclasses.fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise InvalidSettings(Refusal.UNKNOWN_SETTINGS, names=tuple(unknown))
        values = dict(data)
        if "meld" in values:
            values["meld"] = _meld_from_json(values["meld"])
        settings = cls(**values)
        settings.validate()
        return settings


def _meld_from_json(data: object) -> MeldSettings:
    if isinstance(data, MeldSettings):
        return data
    if not isinstance(data, Mapping):
        raise InvalidSettings(Refusal.MELD_SETTINGS_OBJECT)
    names = {f.name for f in dataclasses.fields(MeldSettings)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise InvalidSettings(Refusal.UNKNOWN_MELD_SETTINGS, names=tuple(unknown))
    return MeldSettings(**data)
