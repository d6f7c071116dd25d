"""Classic rummy's events: the 13-card engine's where the shape fits (``CardPicked``,
``CardDiscarded``, ``TurnStarted``, ``TurnMissed``, ``DeckReshuffled``, ``Dropped``, ``DealEnded``,
``BreakStarted``, ``PlayerLeft``, ``ConnectionChanged``, ``GameEnded``), plus classic's own."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar, TypeAlias

from ..cards import Card
from ..game.events import (
    BreakStarted,
    CardDiscarded,
    CardPicked,
    ConnectionChanged,
    DealEnded,
    DeckReshuffled,
    Dropped,
    GameEnded,
    PlayerLeft,
    TurnMissed,
    TurnStarted,
)
from ..machine import EventRecord
from .melds import TableMeld


@dataclass(frozen=True)
class DealStarted(EventRecord):
    """A hand was dealt to ``seats`` (deal order, ``starter`` first); ``open_card`` starts the
    discard pile. (The 13-card event of the same type also has a cut card.)"""

    type: ClassVar[str] = "deal_started"
    number: int
    seats: tuple[int, ...]
    starter: int
    open_card: Card


@dataclass(frozen=True)
class MeldsLaidDown(EventRecord):
    type: ClassVar[str] = "melds_laid_down"
    seat: int
    melds: tuple[TableMeld, ...]


@dataclass(frozen=True)
class CardsLaidOff(EventRecord):
    """``seat`` laid ``cards`` off on ``meld`` (shown as it is afterwards)."""

    type: ClassVar[str] = "cards_laid_off"
    seat: int
    cards: tuple[Card, ...]
    meld: TableMeld


@dataclass(frozen=True)
class WentOut(EventRecord):
    """``seat`` got rid of its last card (``by`` "discard" or "meld"), going ``rummy``."""

    type: ClassVar[str] = "went_out"
    seat: int
    rummy: bool
    by: str


@dataclass(frozen=True)
class HandsShown(EventRecord):
    """At the end of hand ``number``: the cards each scored seat still held."""

    type: ClassVar[str] = "hands_shown"
    number: int
    hands: Mapping[int, tuple[Card, ...]]


Event: TypeAlias = (
    DealStarted
    | TurnStarted
    | CardPicked
    | MeldsLaidDown
    | CardsLaidOff
    | CardDiscarded
    | DeckReshuffled
    | TurnMissed
    | Dropped
    | WentOut
    | DealEnded
    | HandsShown
    | BreakStarted
    | PlayerLeft
    | ConnectionChanged
    | GameEnded
)
