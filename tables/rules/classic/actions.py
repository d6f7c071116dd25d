"""Classic rummy's actions. The turn actions are the 13-card engine's own classes (so the
server builds them alike for every variant); ``StartDeal``, ``LayDown`` and ``LayOff`` are
classic's, each with its own lenient decoder."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Final, TypeAlias, cast

from ..cards import Card
from ..errors import InvalidMove, Refusal
from ..game.actions import (
    Discard,
    Leave,
    PickClosed,
    PickOpen,
    SetConnected,
    Timeout,
    parse_groups,
)
from ..machine import ActionRecord, Registry
from ..shoe import Shoe
from .melds import End, to_cards


@dataclass(frozen=True)
class StartDeal(ActionRecord):
    """Server: deal the next hand from ``shoe.cards`` (the whole shuffled shoe, dealt from
    index 0; a plain sequence of cards is accepted too); ``seed`` drives this hand's
    reshuffles (``seeded_shuffle``). Store ``to_json()`` before applying it."""

    type: ClassVar[str] = "start_deal"
    shoe: Shoe
    seed: str

    def __post_init__(self) -> None:
        if not isinstance(self.shoe, Shoe):
            object.__setattr__(self, "shoe", Shoe(to_cards(self.shoe)))

    @classmethod
    def from_fields(cls, values: Mapping[str, Any]) -> StartDeal:
        try:
            shoe = values["shoe"]
            cards = Shoe.from_json(shoe).cards if isinstance(shoe, Mapping) else to_cards(shoe)
            return cls(Shoe(cards), str(values["seed"]))
        except (KeyError, TypeError) as exc:
            raise InvalidMove(Refusal.MALFORMED_ACTION, type=cls.type) from exc


@dataclass(frozen=True)
class LayDown(ActionRecord):
    """Lay down one or more new melds from the hand (after picking)."""

    type: ClassVar[str] = "lay_down"
    seat: int
    melds: tuple[tuple[Card, ...], ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "melds", parse_groups(self.melds))

    @classmethod
    def from_fields(cls, values: Mapping[str, Any]) -> LayDown:
        try:
            return cls(_int(values["seat"]), tuple(to_cards(m) for m in values["melds"]))
        except (KeyError, TypeError) as exc:
            raise InvalidMove(Refusal.MALFORMED_ACTION, type=cls.type) from exc


@dataclass(frozen=True)
class LayOff(ActionRecord):
    """Add ``cards`` from the hand to the table meld ``meld_id`` (anyone's), at the run's
    ``end`` ("low" or "high"; ``None``: wherever they fit)."""

    type: ClassVar[str] = "lay_off"
    seat: int
    cards: tuple[Card, ...]
    meld_id: int
    end: End | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "cards", to_cards(self.cards))
        if self.end not in (None, "low", "high"):
            raise InvalidMove(Refusal.UNKNOWN_RUN_END, value=repr(self.end))

    @classmethod
    def from_fields(cls, values: Mapping[str, Any]) -> LayOff:
        try:
            return cls(
                _int(values["seat"]),
                to_cards(values["cards"]),
                _int(values["meld_id"]),
                values.get("end"),
            )
        except (KeyError, TypeError) as exc:
            raise InvalidMove(Refusal.MALFORMED_ACTION, type=cls.type) from exc


Action: TypeAlias = (
    StartDeal | PickClosed | PickOpen | LayDown | LayOff | Discard | Timeout | Leave | SetConnected
)
SHARED_ACTION_TYPES: Final = frozenset(
    cls.type for cls in (PickClosed, PickOpen, Discard, Timeout, Leave, SetConnected)
)
"""Action types classic shares with the 13-card engine (the same classes, decoded alike)."""


def _int(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidMove(Refusal.EXPECTED_INTEGER, value=repr(value))
    return value


def _unknown_action(kind: object) -> InvalidMove:
    try:
        hash(kind)
    except TypeError:
        return InvalidMove(Refusal.MALFORMED_ACTION, type=str(kind))
    return InvalidMove(Refusal.NO_CLASSIC_ACTION, value=repr(kind))


ACTIONS: Registry[ActionRecord] = Registry(
    (StartDeal, PickClosed, PickOpen, LayDown, LayOff, Discard, Timeout, Leave, SetConnected),
    unknown=_unknown_action,
)


def classic_action_from_json(data: Mapping[str, Any]) -> Action:
    """Rebuild an action from its ``to_json()`` form (the move log, or a form's values: card
    codes accepted). Raises ``InvalidMove`` (or ``InvalidCard``) for anything malformed."""
    return cast(Action, ACTIONS.from_json(data))
