"""The settings of a classic ring game (``ClassicSettings``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, Final

from ..cards import STANDARD_PACK
from ..errors import InvalidSettings, Refusal
from ..settings import DISCONNECT_POLICIES

MIN_MELD: Final = 3
"""A set or a run has at least three cards."""
BPS: Final = 10_000
"""Basis points in one whole (fee and share settings are in basis points)."""


def _check_int(name: str, value: object, low: int, high: int | None = None) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise InvalidSettings(Refusal.SETTING_INTEGER_AT_LEAST, name=name, low=low)
    if high is not None and value > high:
        raise InvalidSettings(Refusal.SETTING_AT_MOST, name=name, high=high)


def _check_bool(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise InvalidSettings(Refusal.SETTING_NOT_BOOL, name=name)


@dataclass(frozen=True, slots=True)
class ClassicSettings:
    """Every setting of a classic ring game, with the rule book's defaults. Names shared with
    ``GameSettings`` (``seats_min``, ``packs``, ``turn_s``, ``entry_fee``, ...) mean the same.

    Cards and melds:
    ``packs`` (2) of 52 cards, no jokers; ``hand_size`` (10) cards dealt to each player;
    ``seats_min``/``seats_max`` (2..6) players at a table;
    ``set_suits_may_repeat`` (True): with two packs a set may hold the same suit twice;
    ``largest_set`` (None = no limit): the most cards a set may have;
    ``ace_low`` (True: A-2-3) and ``ace_high`` (True: Q-K-A) Ace places in runs;
    ``run_wrap`` (False): runs may turn the corner (K-A-2), every Ace place then allowed.

    Going out and scoring:
    ``go_out_by_melding`` (False): melding or laying off the last card goes out too (by default
    only discarding the last card does); ``rummy_bonus`` (25) added to each loser when the winner
    went rummy; ``ace_points`` (11) and ``court_points`` (10, J Q K) card values, 2-10 at face.

    Ring game and money (minor units):
    ``hands`` (5): hands in the ring game; ``entry_fee`` paid by every seat;
    ``platform_fee_bps`` (1000 = 10 %) of the entries; ``payout_gap_limit`` (80): a runner-up
    shares only when less than this many points behind 1st; ``runner_up_share_bps``
    (2500 = 25 %): the part of the prize pool the qualifying runners-up share.

    Time and absence (seconds):
    ``turn_s`` (30) per turn plus an ``extra_time_s`` (30) bank per player for the game;
    ``missed_turns_limit`` (3) consecutive missed turns put a player out of the hand;
    ``disconnect_policy`` ("missed_turns": a disconnected player's turns run out; "drop": out
    of the hand at once); ``break_s`` (10) between hands; ``max_reshuffles`` (None = no limit):
    when the stock runs out after that many reshuffles in a hand, the hand ends with no winner
    and nobody adds anything.
    """

    variant: str = "classic"
    seats_min: int = 2
    seats_max: int = 6
    packs: int = 2
    hand_size: int = 10
    set_suits_may_repeat: bool = True
    largest_set: int | None = None
    ace_low: bool = True
    ace_high: bool = True
    run_wrap: bool = False
    go_out_by_melding: bool = False
    rummy_bonus: int = 25
    ace_points: int = 11
    court_points: int = 10
    hands: int = 5
    entry_fee: int = 0
    platform_fee_bps: int = 1000
    payout_gap_limit: int = 80
    runner_up_share_bps: int = 2500
    turn_s: float = 30.0
    extra_time_s: float = 30.0
    break_s: float = 10.0
    missed_turns_limit: int = 3
    disconnect_policy: str = "missed_turns"
    max_reshuffles: int | None = None

    def __post_init__(self) -> None:
        for name in ("turn_s", "extra_time_s", "break_s"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or isinstance(value, bool) or not value >= 0:
                raise InvalidSettings(Refusal.SETTING_SECONDS, name=name)
            object.__setattr__(self, name, float(value))
        if self.variant != "classic":
            raise InvalidSettings(Refusal.CLASSIC_SETTINGS_ONLY)
        _check_int("packs", self.packs, 1)
        _check_int("hand_size", self.hand_size, 1)
        _check_int("seats_min", self.seats_min, 2)
        _check_int("seats_max", self.seats_max, self.seats_min)
        if self.seats_max * self.hand_size + 2 > self.packs * len(STANDARD_PACK):
            raise InvalidSettings(
                Refusal.CLASSIC_PACKS_TOO_FEW,
                packs=self.packs,
                hand_size=self.hand_size,
                players=self.seats_max,
            )
        for name in (
            "set_suits_may_repeat",
            "ace_low",
            "ace_high",
            "run_wrap",
            "go_out_by_melding",
        ):
            _check_bool(name, getattr(self, name))
        if self.largest_set is not None:
            _check_int("largest_set", self.largest_set, MIN_MELD)
        for name in ("rummy_bonus", "ace_points", "court_points", "entry_fee"):
            _check_int(name, getattr(self, name), 0)
        _check_int("hands", self.hands, 1)
        _check_int("platform_fee_bps", self.platform_fee_bps, 0, BPS)
        _check_int("payout_gap_limit", self.payout_gap_limit, 0)
        _check_int("runner_up_share_bps", self.runner_up_share_bps, 0, BPS)
        _check_int("missed_turns_limit", self.missed_turns_limit, 1)
        if self.turn_s <= 0:
            raise InvalidSettings(Refusal.SETTING_MORE_THAN_ZERO, name="turn_s")
        if self.disconnect_policy not in DISCONNECT_POLICIES:
            raise InvalidSettings(
                Refusal.SETTING_ONE_OF, name="disconnect_policy", choices=tuple(DISCONNECT_POLICIES)
            )
        if self.max_reshuffles is not None:
            _check_int("max_reshuffles", self.max_reshuffles, 0)

    @classmethod
    def for_variant(cls, variant: str = "classic", **overrides: Any) -> ClassicSettings:
        """The rule book's defaults with ``overrides`` applied (the ``GameSettings.for_variant``
        shape, so a table template builds either kind the same way)."""
        if variant != "classic":
            raise InvalidSettings(Refusal.UNKNOWN_CLASSIC_VARIANT, value=repr(variant))
        if "variant" in overrides:
            raise InvalidSettings(Refusal.VARIANT_AS_OVERRIDE)
        return cls.from_json(overrides)

    @property
    def shoe_size(self) -> int:
        return self.packs * len(STANDARD_PACK)

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClassicSettings:
        """Rebuild settings from ``to_json`` output (missing keys take the defaults)."""
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise InvalidSettings(Refusal.UNKNOWN_CLASSIC_SETTINGS, names=tuple(sorted(unknown)))
        return cls(**dict(data))
