"""The 13-card game's actions (what a player or the server asks the engine to do), their
registry and ``action_from_json``. Classic rummy shares the turn actions."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from ..cards import Card, CardLike, parse_card
from ..errors import InvalidMove, Refusal
from ..machine import ActionRecord, Registry
from ..shoe import Shoe

Groups = tuple[tuple[Card, ...], ...]
"""An arrangement: groups of cards (the engine drops empty groups)."""


def parse_groups(groups: Iterable[Iterable[CardLike]] | Iterable[str]) -> Groups:
    """Groups of cards or codes (a group may also be one space-separated string of codes)."""
    result: list[tuple[Card, ...]] = []
    for group in groups:
        if isinstance(group, str):
            cards = tuple(parse_card(code) for code in group.split())
        else:
            cards = tuple(parse_card(code) for code in group)
        if cards:
            result.append(cards)
    return tuple(result)


def _norm_groups(value: object) -> Groups:
    if not isinstance(value, Iterable) or isinstance(value, (str, bytes)):
        raise InvalidMove(Refusal.GROUPS_NOT_LIST)
    return parse_groups(cast(Iterable[Iterable[CardLike]], value))


# =============================================================================== actions


@dataclass(frozen=True)
class StartDeal(ActionRecord):
    """Server: deal the next deal from ``shoe`` (stored by the server before it is applied)."""

    type: ClassVar[str] = "start_deal"
    shoe: Shoe


@dataclass(frozen=True)
class PickClosed(ActionRecord):
    type: ClassVar[str] = "pick_closed"
    seat: int


@dataclass(frozen=True)
class PickOpen(ActionRecord):
    type: ClassVar[str] = "pick_open"
    seat: int


@dataclass(frozen=True)
class Discard(ActionRecord):
    """Throw ``card``. With two packs a hand can hold two copies: ``group`` and ``index`` name
    the copy (its place in the player's groups); without them a loose copy goes before one
    inside a valid meld."""

    type: ClassVar[str] = "discard"
    seat: int
    card: Card
    group: int | None = None
    index: int | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", parse_card(self.card))
        for name in ("group", "index"):
            value = getattr(self, name)
            if value is not None and (
                not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 64
            ):
                raise InvalidMove(Refusal.CARD_PLACE, value=repr(value))

    @property
    def at(self) -> tuple[int, int] | None:
        if self.group is None or self.index is None:
            return None
        return (self.group, self.index)


@dataclass(frozen=True)
class Declare(ActionRecord):
    """Show: ``finish_card`` goes to the finish slot, ``groups`` hold the other 13 cards."""

    type: ClassVar[str] = "declare"
    seat: int
    finish_card: Card
    groups: Groups

    def __post_init__(self) -> None:
        object.__setattr__(self, "finish_card", parse_card(self.finish_card))
        object.__setattr__(self, "groups", _norm_groups(self.groups))


@dataclass(frozen=True)
class Drop(ActionRecord):
    type: ClassVar[str] = "drop"
    seat: int


@dataclass(frozen=True)
class SetAutoDrop(ActionRecord):
    type: ClassVar[str] = "set_auto_drop"
    seat: int
    on: bool


@dataclass(frozen=True)
class Arrange(ActionRecord):
    """Keep ``groups`` (all of the player's cards) as the player's arrangement."""

    type: ClassVar[str] = "arrange"
    seat: int
    groups: Groups

    def __post_init__(self) -> None:
        object.__setattr__(self, "groups", _norm_groups(self.groups))


@dataclass(frozen=True)
class SubmitMeld(ActionRecord):
    """In the meld window: the final arrangement, counted as it stands."""

    type: ClassVar[str] = "submit_meld"
    seat: int
    groups: Groups

    def __post_init__(self) -> None:
        object.__setattr__(self, "groups", _norm_groups(self.groups))


@dataclass(frozen=True)
class Rejoin(ActionRecord):
    type: ClassVar[str] = "rejoin"
    seat: int


@dataclass(frozen=True)
class SplitAccept(ActionRecord):
    type: ClassVar[str] = "split_accept"
    seat: int


@dataclass(frozen=True)
class SplitDecline(ActionRecord):
    type: ClassVar[str] = "split_decline"
    seat: int


@dataclass(frozen=True)
class Leave(ActionRecord):
    type: ClassVar[str] = "leave"
    seat: int


@dataclass(frozen=True)
class SetConnected(ActionRecord):
    type: ClassVar[str] = "set_connected"
    seat: int
    connected: bool


@dataclass(frozen=True)
class Timeout(ActionRecord):
    """Server: the current timer ran out (only valid when ``now >= state.deadline``)."""

    type: ClassVar[str] = "timeout"


Action = (
    StartDeal
    | PickClosed
    | PickOpen
    | Discard
    | Declare
    | Drop
    | SetAutoDrop
    | Arrange
    | SubmitMeld
    | Rejoin
    | SplitAccept
    | SplitDecline
    | Leave
    | SetConnected
    | Timeout
)

ACTIONS: Registry[ActionRecord] = Registry(
    (
        StartDeal,
        PickClosed,
        PickOpen,
        Discard,
        Declare,
        Drop,
        SetAutoDrop,
        Arrange,
        SubmitMeld,
        Rejoin,
        SplitAccept,
        SplitDecline,
        Leave,
        SetConnected,
        Timeout,
    )
)
ACTION_TYPES: dict[str, type[ActionRecord]] = ACTIONS.classes


def action_from_json(data: Mapping[str, Any]) -> Action:
    """Rebuild an action from ``action.to_json()`` (or a form's values: card codes accepted).
    Raises ``InvalidMove`` (or ``InvalidCard``) for anything malformed."""
    return cast(Action, ACTIONS.from_json(data))
