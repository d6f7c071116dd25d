"""The 13-card game's events: what a transition reports, in order. Classic rummy shares the
turn, deck, drop and game-end events."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar, get_args

from ..cards import Card
from ..machine import EventRecord, Registry


@dataclass(frozen=True)
class DealStarted(EventRecord):
    type: ClassVar[str] = "deal_started"
    number: int
    seats: tuple[int, ...]
    starter: int
    cut_card: Card
    open_card: Card
    tiebreak: bool


@dataclass(frozen=True)
class TurnStarted(EventRecord):
    type: ClassVar[str] = "turn_started"
    seat: int
    deadline: float


@dataclass(frozen=True)
class ExtraTimeStarted(EventRecord):
    type: ClassVar[str] = "extra_time_started"
    seat: int
    deadline: float


@dataclass(frozen=True)
class CardPicked(EventRecord):
    """``card`` is private to the picker when ``source`` is "closed"."""

    type: ClassVar[str] = "card_picked"
    seat: int
    source: str
    card: Card
    auto: bool = False


@dataclass(frozen=True)
class CardDiscarded(EventRecord):
    type: ClassVar[str] = "card_discarded"
    seat: int
    card: Card
    auto: bool = False


@dataclass(frozen=True)
class TurnMissed(EventRecord):
    type: ClassVar[str] = "turn_missed"
    seat: int
    missed: int


@dataclass(frozen=True)
class DeckReshuffled(EventRecord):
    type: ClassVar[str] = "deck_reshuffled"
    number: int
    closed_count: int


@dataclass(frozen=True)
class Declared(EventRecord):
    """A show judged. ``reason`` is the engine's sentence (``check_declaration``); ``code``
    says the verdict for a program (``turns.show_fault``): "valid", "card_count" (``held``: the
    cards the groups hold), "no_pure_sequence", "one_sequence" or "invalid_group" (``group``:
    the first group that is no meld). Events logged before the codes have ``code`` "" (a
    reader falls back to ``reason``)."""

    type: ClassVar[str] = "declared"
    seat: int
    valid: bool
    reason: str
    finish_card: Card
    code: str = ""
    held: int = 0
    group: tuple[Card, ...] = ()


@dataclass(frozen=True)
class MeldSubmitted(EventRecord):
    type: ClassVar[str] = "meld_submitted"
    seat: int


@dataclass(frozen=True)
class Arranged(EventRecord):
    type: ClassVar[str] = "arranged"
    seat: int


@dataclass(frozen=True)
class AutoDropSet(EventRecord):
    type: ClassVar[str] = "auto_drop_set"
    seat: int
    on: bool


@dataclass(frozen=True)
class Dropped(EventRecord):
    """Out of the deal: ``reason`` is "drop", "auto_drop", "disconnect", "missed_turns" or
    "leave"; ``score`` is what the player adds for the deal."""

    type: ClassVar[str] = "dropped"
    seat: int
    reason: str
    score: int


@dataclass(frozen=True)
class DealEnded(EventRecord):
    """``reason``: "show", "last_player" or "exhausted". ``totals``: pool totals after the deal;
    ``chips``: deals chips after the deal (empty for the other variants)."""

    type: ClassVar[str] = "deal_ended"
    number: int
    winner: int | None
    reason: str
    scores: Mapping[int, int]
    totals: Mapping[int, int] = field(default_factory=dict)
    chips: Mapping[int, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Eliminated(EventRecord):
    type: ClassVar[str] = "eliminated"
    seat: int
    total: int


@dataclass(frozen=True)
class RejoinOffered(EventRecord):
    type: ClassVar[str] = "rejoin_offered"
    seats: tuple[int, ...]
    total: int
    amount: int
    deadline: float


@dataclass(frozen=True)
class Rejoined(EventRecord):
    """Money: ``seat`` pays ``amount`` (the entry fee) into the pot again."""

    type: ClassVar[str] = "rejoined"
    seat: int
    amount: int
    total: int


@dataclass(frozen=True)
class SplitOffered(EventRecord):
    type: ClassVar[str] = "split_offered"
    seats: tuple[int, ...]
    amounts: Mapping[int, int]
    deadline: float


@dataclass(frozen=True)
class SplitAccepted(EventRecord):
    type: ClassVar[str] = "split_accepted"
    seat: int


@dataclass(frozen=True)
class SplitDeclined(EventRecord):
    """A manual split offer withdrawn: ``seat`` declined (or left), or ``None`` when it expired."""

    type: ClassVar[str] = "split_declined"
    seat: int | None


@dataclass(frozen=True)
class TieBreaker(EventRecord):
    type: ClassVar[str] = "tie_breaker"
    seats: tuple[int, ...]


@dataclass(frozen=True)
class BreakStarted(EventRecord):
    type: ClassVar[str] = "break_started"
    deadline: float


@dataclass(frozen=True)
class DealDue(EventRecord):
    """The server should now store a new shoe and apply ``StartDeal``."""

    type: ClassVar[str] = "deal_due"
    number: int


@dataclass(frozen=True)
class PlayerLeft(EventRecord):
    type: ClassVar[str] = "player_left"
    seat: int


@dataclass(frozen=True)
class ConnectionChanged(EventRecord):
    type: ClassVar[str] = "connection_changed"
    seat: int
    connected: bool


@dataclass(frozen=True)
class PointsSettled(EventRecord):
    """Money (points games): per-seat nets in minor units (the winner's after the fee); they sum
    to ``-fee``."""

    type: ClassVar[str] = "points_settled"
    nets: Mapping[int, int]
    fee: int


@dataclass(frozen=True)
class GameEnded(EventRecord):
    """Money (pool and deals): the pot pays ``payouts`` and ``fee``, which add up to ``gross``.
    Points games settle through ``PointsSettled``: their ``GameEnded`` has no payouts and fee 0.
    ``reason``: "winner", "auto_split", "manual_split", "points" or "no_deal" (a points game
    left with one player before its deal)."""

    type: ClassVar[str] = "game_ended"
    reason: str
    winners: tuple[int, ...]
    payouts: Mapping[int, int]
    fee: int
    gross: int


Event = (
    DealStarted
    | TurnStarted
    | ExtraTimeStarted
    | CardPicked
    | CardDiscarded
    | TurnMissed
    | DeckReshuffled
    | Declared
    | MeldSubmitted
    | Arranged
    | AutoDropSet
    | Dropped
    | DealEnded
    | Eliminated
    | RejoinOffered
    | Rejoined
    | SplitOffered
    | SplitAccepted
    | SplitDeclined
    | TieBreaker
    | BreakStarted
    | DealDue
    | PlayerLeft
    | ConnectionChanged
    | PointsSettled
    | GameEnded
)
EVENTS: Registry[EventRecord] = Registry(get_args(Event), kind="event")
EVENT_TYPES: tuple[str, ...] = EVENTS.names
