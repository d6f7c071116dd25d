"""The 13-card game's state (``GameState`` and its parts) and the small lookups and updates
the transitions share."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, cast

from .. import scoring
from ..cards import SUITS, Card
from ..errors import InvalidMove, Refusal, RefusalParams, RulesError
from ..machine import decode_fields, encode_fields
from ..melds import MeldSettings, classify_group
from ..settings import GameSettings
from .actions import Groups
from .events import Event

if TYPE_CHECKING:
    from typing_extensions import Unpack


@dataclass(frozen=True)
class Player:
    """A seat's standing in the game. ``status``: "in", "eliminated" (pool) or "left"."""

    seat: int
    status: str
    total: int
    chips: int
    paid_entries: int
    rejoins: int
    extra_time: float
    connected: bool


@dataclass(frozen=True)
class Hand:
    """A player's part in the current deal.

    ``status``: "playing", "declared" (valid show), "dropped", "wrong_show", "timed_out"
    (missed-turns limit) or "left". ``groups`` is the arrangement the server keeps (always a
    partition of ``cards``). ``turns`` counts turns played (by the player or the server),
    ``missed`` the consecutive missed turns. ``score`` is fixed when the player goes out.
    """

    seat: int
    cards: tuple[Card, ...]
    groups: Groups
    status: str = "playing"
    turns: int = 0
    missed: int = 0
    auto_drop: bool = False
    submitted: bool = False
    score: int | None = None


@dataclass(frozen=True)
class Deal:
    """The deal in progress. ``seats``: clockwise from the starter. ``closed[0]`` is the top of
    the closed deck; ``open[-1]`` the top of the open deck."""

    number: int
    seats: tuple[int, ...]
    starter: int
    tiebreak: bool
    cut_card: Card
    closed: tuple[Card, ...]
    open: tuple[Card, ...]
    first_open_on_top: bool
    reshuffle_keys: tuple[tuple[int, ...], ...]
    reshuffles: int
    hands: tuple[Hand, ...]
    turn: int | None = None
    picked: Card | None = None
    picked_from: str | None = None
    in_extra_time: bool = False
    declarer: int | None = None
    finish_card: Card | None = None


@dataclass(frozen=True)
class SeatResult:
    """One seat's part in a finished deal. ``outcome``: "won", "counted", "deal_show",
    "dropped", "wrong_show", "timed_out", "left" or "exhausted"."""

    seat: int
    points: int
    outcome: str
    groups: Groups


@dataclass(frozen=True)
class DealResult:
    number: int
    winner: int | None
    reason: str
    tiebreak: bool
    cut_card: Card
    finish_card: Card | None
    results: tuple[SeatResult, ...]


@dataclass(frozen=True)
class RejoinOffer:
    seats: tuple[int, ...]
    total: int
    amount: int


@dataclass(frozen=True)
class SplitOffer:
    seats: tuple[int, ...]
    amounts: tuple[tuple[int, int], ...]
    accepted: tuple[int, ...] = ()


@dataclass(frozen=True)
class GameResult:
    reason: str
    winners: tuple[int, ...]
    payouts: tuple[tuple[int, int], ...]
    fee: int
    gross: int


@dataclass(frozen=True)
class GameState:
    """The whole game. ``seats`` are in clockwise order. ``deadline``/``deadline_kind`` describe
    the running timer ("turn", "meld", "break", "rejoin", "split") or are ``None``."""

    settings: GameSettings
    seats: tuple[int, ...]
    toss: int
    started_at: float
    players: tuple[Player, ...]
    phase: str = "awaiting_deal"
    deadline: float | None = None
    deadline_kind: str | None = None
    deal_number: int = 0
    deal: Deal | None = None
    last_starter: int | None = None
    history: tuple[DealResult, ...] = ()
    rejoin: RejoinOffer | None = None
    split: SplitOffer | None = None
    split_declined_at: int = 0
    eliminations: int = 0
    tiebreak_seats: tuple[int, ...] = ()
    result: GameResult | None = None

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict; ``GameState.from_json`` rebuilds an equal state."""
        return encode_fields(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameState:
        try:
            return cast(GameState, decode_fields(cls, data))
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, RulesError):
                raise
            raise RulesError(Refusal.NOT_GAME_STATE, detail=str(exc)) from exc

    # convenience lookups -----------------------------------------------------
    def player(self, seat: int) -> Player:
        for player in self.players:
            if player.seat == seat:
                return player
        raise InvalidMove(Refusal.NOT_IN_GAME, seat=seat)

    @property
    def awaiting_deal(self) -> bool:
        return self.phase == "awaiting_deal"

    @property
    def ended(self) -> bool:
        return self.phase == "ended"


# =============================================================================== helpers


def default_arrangement(cards: Iterable[Card]) -> Groups:
    """The arrangement a player gets at the deal: one group per suit (spades, hearts, diamonds,
    clubs; each by rank) and the printed jokers last."""
    cards = list(cards)
    groups: list[tuple[Card, ...]] = []
    for suit in SUITS:
        group = tuple(sorted((c for c in cards if c.suit == suit), key=lambda c: c.rank))
        if group:
            groups.append(group)
    jokers = tuple(c for c in cards if c.is_printed_joker)
    if jokers:
        groups.append(jokers)
    return tuple(groups)


def remove_one(cards: Sequence[Card], card: Card) -> tuple[Card, ...]:
    items = list(cards)
    items.remove(card)
    return tuple(items)


def remove_from_groups(
    groups: Groups,
    card: Card,
    *,
    cut: Card | None,
    meld: MeldSettings,
    at: tuple[int, int] | None = None,
) -> Groups:
    """``groups`` without one copy of ``card``. With two packs a hand can hold two copies: the
    copy at ``at`` (group, index) when the player named it and it is there; else a loose copy
    (in a group that is not a valid meld, the last such one: the card just drawn stays loose
    until it is moved) before one inside a valid meld. A meld the player built is never broken
    unless the player names that copy."""
    places = [(g, i) for g, group in enumerate(groups) for i, c in enumerate(group) if c == card]
    if not places:
        raise InvalidMove(Refusal.NOT_HELD, card=card.code)
    if at is not None and at in places:
        chosen = at
    else:
        loose = [
            (g, i)
            for g, i in places
            if cut is None or not classify_group(groups[g], cut, settings=meld).is_meld
        ]
        chosen = (loose or places)[-1]
    g, i = chosen
    result = [*groups[:g], (*groups[g][:i], *groups[g][i + 1 :]), *groups[g + 1 :]]
    return tuple(group for group in result if group)


def same_cards(groups: Groups, cards: Iterable[Card]) -> bool:
    return Counter(c for g in groups for c in g) == Counter(cards)


def clockwise(seats: Sequence[int], start: int, among: Iterable[int]) -> tuple[int, ...]:
    """``among`` in clockwise order starting at ``start`` (which must be one of them)."""
    members = set(among)
    i = seats.index(start)
    rotated = [*seats[i:], *seats[:i]]
    return tuple(seat for seat in rotated if seat in members)


def next_after(seats: Sequence[int], seat: int, among: Iterable[int]) -> int:
    members = set(among)
    i = seats.index(seat)
    n = len(seats)
    for step in range(1, n + 1):
        candidate = seats[(i + step) % n]
        if candidate in members:
            return candidate
    raise RulesError(Refusal.NO_SEAT_TO_MOVE)


def with_player(state: GameState, player: Player) -> GameState:
    return replace(
        state, players=tuple(player if p.seat == player.seat else p for p in state.players)
    )


def find_hand(d: Deal, seat: int) -> Hand | None:
    for hand in d.hands:
        if hand.seat == seat:
            return hand
    return None


def with_hand(d: Deal, hand: Hand) -> Deal:
    return replace(d, hands=tuple(hand if h.seat == hand.seat else h for h in d.hands))


def playing_seats(d: Deal) -> list[int]:
    return [h.seat for h in d.hands if h.status == "playing"]


def seats_in(state: GameState) -> list[int]:
    return [p.seat for p in state.players if p.status == "in"]


def drops_allowed(settings: GameSettings, d: Deal) -> bool:
    return settings.drops_with_two_players or len(d.seats) > 2


def prize_of(state: GameState) -> scoring.Prize:
    entries = sum(p.paid_entries for p in state.players)
    return scoring.prize_pool(state.settings.entry_fee, entries, state.settings.platform_fee_bps)


def current_deal(state: GameState) -> Deal:
    if state.deal is None:
        raise InvalidMove(Refusal.NO_DEAL)
    return state.deal


def require(condition: bool, code: Refusal, /, **params: Unpack[RefusalParams]) -> None:
    """Refuse the move with ``code`` unless ``condition`` holds."""
    if not condition:
        raise InvalidMove(code, **params)


def playing_hand(d: Deal, seat: int, refusal: Refusal) -> Hand:
    """``seat``'s hand while it plays deal ``d``; the move is refused with ``refusal`` when the
    seat holds none there or is out of the deal."""
    hand = find_hand(d, seat)
    require(hand is not None and hand.status == "playing", refusal)
    assert hand is not None
    return hand


class EventLog:
    """Collects the events of one transition."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def add(self, event: Event) -> None:
        self.events.append(event)


def deal_due(state: GameState, now: float) -> bool:
    """Whether the server should store a new shoe and apply ``StartDeal`` now: the game awaits
    a deal, or the break between deals has run out (``StartDeal`` then ends the break; applying
    ``Timeout`` first to reach "awaiting_deal" is equivalent)."""
    if state.phase == "awaiting_deal":
        return True
    return state.phase == "break" and state.deadline is not None and now >= state.deadline
