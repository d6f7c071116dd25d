"""The 13-card game state machine: pool 101/201, deals and points rummy (RULES.md sections 2-7).

Pure functions over immutable, JSON-serialisable state. Time (``now``, epoch seconds) and
randomness (the ``Shoe`` of each deal, the toss) are passed in, so every transition is
reproducible and replaying the move log rebuilds the same state.

    state = game_new(settings=..., seats=[1, 2, 3], now=t, toss=2)      # phase "awaiting_deal"
    state, events = game_apply(state, StartDeal(shoe), now=t)          # the server's shoe
    state, events = game_apply(state, PickClosed(seat=2), now=t)
    game_view(state, 2)                                               # what seat 2 may see

A game spans deals. Phases (``state.phase``): ``awaiting_deal`` (the server applies
``StartDeal``), ``turn`` (a player's turn; deadline kind "turn"), ``meld`` (after a valid show;
"meld"), ``rejoin`` (pool, after an elimination; "rejoin"), ``split`` (pool, a manual split
offer; "split"), ``break`` (between deals; "break"), ``ended``. ``Timeout`` applies only when
``now >= state.deadline``. Every illegal action raises ``InvalidMove`` and changes nothing.

See docs/game-engine.md for the whole contract.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar, cast, get_args

from . import scoring
from .cards import RANK_CODES, SUITS, Card, CardLike, parse_card
from .errors import InvalidMove, InvalidShoe, RulesError
from .machine import (
    ActionRecord,
    EventRecord,
    Registry,
    Transition,
    decode_fields,
    encode_fields,
    handler_for,
)
from .melds import check_declaration, count_points, is_joker, wild_rank
from .settings import THIRTEEN_CARD_VARIANTS, GameSettings
from .shoe import HAND_SIZE, Shoe, check_shoe, deal, reshuffle

__all__ = [
    "ACTION_TYPES",
    "EVENT_TYPES",
    "Action",
    "Arrange",
    "Arranged",
    "AutoDropSet",
    "BreakStarted",
    "CardDiscarded",
    "CardPicked",
    "ConnectionChanged",
    "Deal",
    "DealDue",
    "DealEnded",
    "DealResult",
    "DealStarted",
    "DeckReshuffled",
    "Declare",
    "Declared",
    "Discard",
    "Drop",
    "Dropped",
    "Eliminated",
    "Event",
    "ExtraTimeStarted",
    "GameEnded",
    "GameResult",
    "GameState",
    "Groups",
    "Hand",
    "Leave",
    "MeldSubmitted",
    "PickClosed",
    "PickOpen",
    "Player",
    "PlayerLeft",
    "PointsSettled",
    "Rejoin",
    "RejoinOffer",
    "RejoinOffered",
    "Rejoined",
    "SeatResult",
    "SetAutoDrop",
    "SetConnected",
    "SplitAccept",
    "SplitAccepted",
    "SplitDecline",
    "SplitDeclined",
    "SplitOffer",
    "SplitOffered",
    "StartDeal",
    "SubmitMeld",
    "TieBreaker",
    "Timeout",
    "Transition",
    "TurnMissed",
    "TurnStarted",
    "action_from_json",
    "deal_due",
    "default_arrangement",
    "game_apply",
    "game_new",
    "game_refunds",
    "game_view",
    "legal_actions",
    "parse_groups",
]

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
        raise InvalidMove("groups must be a list of groups of cards")
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
    type: ClassVar[str] = "discard"
    seat: int
    card: Card

    def __post_init__(self) -> None:
        object.__setattr__(self, "card", parse_card(self.card))


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


# =============================================================================== events


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
    type: ClassVar[str] = "declared"
    seat: int
    valid: bool
    reason: str
    finish_card: Card


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


# =============================================================================== state


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
            raise RulesError(f"not a game state: {exc}") from exc

    # convenience lookups -----------------------------------------------------
    def player(self, seat: int) -> Player:
        for player in self.players:
            if player.seat == seat:
                return player
        raise InvalidMove(f"seat {seat} is not in this game")

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


def _remove_one(cards: Sequence[Card], card: Card) -> tuple[Card, ...]:
    items = list(cards)
    items.remove(card)
    return tuple(items)


def _remove_from_groups(groups: Groups, card: Card) -> Groups:
    result: list[tuple[Card, ...]] = []
    done = False
    for group in groups:
        if not done and card in group:
            group = _remove_one(group, card)
            done = True
        if group:
            result.append(group)
    return tuple(result)


def _same_cards(groups: Groups, cards: Iterable[Card]) -> bool:
    return Counter(c for g in groups for c in g) == Counter(cards)


def _clockwise(seats: Sequence[int], start: int, among: Iterable[int]) -> tuple[int, ...]:
    """``among`` in clockwise order starting at ``start`` (which must be one of them)."""
    members = set(among)
    i = seats.index(start)
    rotated = [*seats[i:], *seats[:i]]
    return tuple(seat for seat in rotated if seat in members)


def _next_after(seats: Sequence[int], seat: int, among: Iterable[int]) -> int:
    members = set(among)
    i = seats.index(seat)
    n = len(seats)
    for step in range(1, n + 1):
        candidate = seats[(i + step) % n]
        if candidate in members:
            return candidate
    raise RulesError("no seat to move to")


def _set_player(state: GameState, player: Player) -> GameState:
    return replace(
        state, players=tuple(player if p.seat == player.seat else p for p in state.players)
    )


def _hand(d: Deal, seat: int) -> Hand | None:
    for hand in d.hands:
        if hand.seat == seat:
            return hand
    return None


def _set_hand(d: Deal, hand: Hand) -> Deal:
    return replace(d, hands=tuple(hand if h.seat == hand.seat else h for h in d.hands))


def _playing(d: Deal) -> list[int]:
    return [h.seat for h in d.hands if h.status == "playing"]


def _in_seats(state: GameState) -> list[int]:
    return [p.seat for p in state.players if p.status == "in"]


def _drops_allowed(settings: GameSettings, d: Deal) -> bool:
    return settings.drops_with_two_players or len(d.seats) > 2


def _prize(state: GameState) -> scoring.Prize:
    entries = sum(p.paid_entries for p in state.players)
    return scoring.prize_pool(state.settings.entry_fee, entries, state.settings.platform_fee_bps)


def _current_deal(state: GameState) -> Deal:
    if state.deal is None:
        raise InvalidMove("there is no deal in progress")
    return state.deal


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise InvalidMove(message)


class _Log:
    """Collects the events of one transition."""

    def __init__(self) -> None:
        self.events: list[Event] = []

    def add(self, event: Event) -> None:
        self.events.append(event)


# =============================================================================== public API


def game_new(*, settings: GameSettings, seats: Sequence[int], now: float, toss: int) -> GameState:
    """A new game for ``seats`` (clockwise order) whose first deal ``toss`` starts. Every seat
    has paid the entry fee (pool and deals). The state awaits ``StartDeal``."""
    settings.validate()
    if settings.variant not in THIRTEEN_CARD_VARIANTS:
        raise InvalidMove(f"the 13-card engine does not play {settings.variant!r}")
    seat_tuple = tuple(seats)
    if len(set(seat_tuple)) != len(seat_tuple) or not all(
        isinstance(s, int) and not isinstance(s, bool) for s in seat_tuple
    ):
        raise InvalidMove("seats must be distinct seat numbers")
    if not settings.seats_min <= len(seat_tuple) <= settings.seats_max:
        raise InvalidMove(
            f"this table plays with {settings.seats_min} to {settings.seats_max} players"
        )
    if toss not in seat_tuple:
        raise InvalidMove("the toss must pick one of the seats")
    chips = settings.deals_starting_chips if settings.is_deals else 0
    entries = 0 if settings.is_points else 1
    players = tuple(
        Player(
            seat=seat,
            status="in",
            total=0,
            chips=chips,
            paid_entries=entries,
            rejoins=0,
            extra_time=float(settings.extra_time_s),
            connected=True,
        )
        for seat in seat_tuple
    )
    return GameState(
        settings=settings, seats=seat_tuple, toss=toss, started_at=float(now), players=players
    )


def game_apply(state: GameState, action: Action, *, now: float) -> Transition[GameState, Event]:
    """Apply ``action`` at time ``now``. Raises ``InvalidMove`` (state unchanged) if illegal."""
    now = float(now)
    log = _Log()
    if state.phase == "ended" and not isinstance(action, SetConnected):
        raise InvalidMove("the game is over")
    handler = handler_for(_HANDLERS, action)
    new_state = handler(state, action, now, log)
    return Transition(new_state, tuple(log.events))


def deal_due(state: GameState, now: float) -> bool:
    """Whether the server should store a new shoe and apply ``StartDeal`` now: the game awaits
    a deal, or the break between deals has run out (``StartDeal`` then ends the break; applying
    ``Timeout`` first to reach "awaiting_deal" is equivalent)."""
    if state.phase == "awaiting_deal":
        return True
    return state.phase == "break" and state.deadline is not None and now >= state.deadline


def game_refunds(state: GameState) -> dict[int, int]:
    """What a cancelled game refunds each seat: every paid entry, rejoins included."""
    return scoring.cancel_refunds(
        {p.seat: p.paid_entries for p in state.players}, state.settings.entry_fee
    )


# =============================================================================== handlers


def _start_deal(state: GameState, action: Any, now: float, log: _Log) -> GameState:
    assert isinstance(action, StartDeal)
    _require(deal_due(state, now), "a deal can start only when one is due")
    try:
        check_shoe(action.shoe, state.settings)
    except InvalidShoe as exc:
        raise InvalidMove(str(exc)) from exc
    in_seats = _in_seats(state)
    members = [s for s in state.tiebreak_seats if s in in_seats] or in_seats
    _require(len(members) >= 2, "a deal needs at least two players")
    if state.last_starter is None:
        starter = (
            state.toss if state.toss in members else _next_after(state.seats, state.toss, members)
        )
    else:
        starter = _next_after(state.seats, state.last_starter, members)
    order = _clockwise(state.seats, starter, members)
    dealt = deal(action.shoe, len(order), HAND_SIZE)
    hands = tuple(
        Hand(seat=seat, cards=cards, groups=default_arrangement(cards))
        for seat, cards in zip(order, dealt.hands, strict=True)
    )
    number = state.deal_number + 1
    new_deal = Deal(
        number=number,
        seats=order,
        starter=starter,
        tiebreak=bool(state.tiebreak_seats),
        cut_card=dealt.cut_card,
        closed=dealt.closed,
        open=(dealt.open_card,),
        first_open_on_top=True,
        reshuffle_keys=action.shoe.reshuffle_keys,
        reshuffles=0,
        hands=hands,
    )
    state = replace(
        state,
        deal=new_deal,
        deal_number=number,
        last_starter=starter,
        rejoin=None,
        split=None,
    )
    log.add(
        DealStarted(
            number=number,
            seats=order,
            starter=starter,
            cut_card=dealt.cut_card,
            open_card=dealt.open_card,
            tiebreak=new_deal.tiebreak,
        )
    )
    return _begin_turn(state, starter, now, log)


def _on_turn(state: GameState, seat: int) -> tuple[Deal, Hand]:
    _require(state.phase == "turn", "it is nobody's turn now")
    d = _current_deal(state)
    _require(d.turn == seat, f"it is not seat {seat}'s turn")
    hand = _hand(d, seat)
    assert hand is not None
    return d, hand


def _pick_closed(state: GameState, action: Any, now: float, log: _Log) -> GameState:
    assert isinstance(action, PickClosed)
    d, hand = _on_turn(state, action.seat)
    _require(d.picked is None, "you have already picked a card this turn")
    _require(bool(d.closed), "the closed deck is empty")
    card = d.closed[0]
    hand = replace(hand, cards=(*hand.cards, card), groups=(*hand.groups, (card,)), missed=0)
    d = replace(_set_hand(d, hand), closed=d.closed[1:], picked=card, picked_from="closed")
    log.add(CardPicked(seat=action.seat, source="closed", card=card))
    return replace(state, deal=d)


def _pick_open(state: GameState, action: Any, now: float, log: _Log) -> GameState:
    assert isinstance(action, PickOpen)
    d, hand = _on_turn(state, action.seat)
    _require(d.picked is None, "you have already picked a card this turn")
    _require(bool(d.open), "the open deck is empty")
    card = d.open[-1]
    if is_joker(card, d.cut_card):
        allowed = state.settings.first_open_joker_pickable and d.first_open_on_top
        _require(allowed, "a joker on the open deck cannot be picked")
    hand = replace(hand, cards=(*hand.cards, card), groups=(*hand.groups, (card,)), missed=0)
    d = replace(
        _set_hand(d, hand),
        open=d.open[:-1],
        picked=card,
        picked_from="open",
        first_open_on_top=False,
    )
    log.add(CardPicked(seat=action.seat, source="open", card=card))
    return replace(state, deal=d)


def _discard_card(
    state: GameState, d: Deal, hand: Hand, card: Card, *, auto: bool, log: _Log
) -> GameState:
    hand = replace(
        hand,
        cards=_remove_one(hand.cards, card),
        groups=_remove_from_groups(hand.groups, card),
        turns=hand.turns + 1,
    )
    d = replace(
        _set_hand(d, hand),
        open=(*d.open, card),
        first_open_on_top=False,
        picked=None,
        picked_from=None,
    )
    log.add(CardDiscarded(seat=hand.seat, card=card, auto=auto))
    return replace(state, deal=d)


def _discard(state: GameState, action: Any, now: float, log: _Log) -> GameState:
    assert isinstance(action, Discard)
    d, hand = _on_turn(state, action.seat)
    _require(d.picked is not None, "pick a card before you discard")
    _require(action.card in hand.cards, f"you do not hold {action.card.code}")
    state = _discard_card(state, d, hand, action.card, auto=False, log=log)
    return _next_turn(state, action.seat, now, log)


def _declare(state: GameState, action: Any, now: float, log: _Log) -> GameState:
    assert isinstance(action, Declare)
    d, hand = _on_turn(state, action.seat)
    _require(
        d.picked is not None and len(hand.cards) == HAND_SIZE + 1,
        "pick a card before you declare: a show needs 14 cards",
    )
    _require(action.finish_card in hand.cards, f"you do not hold {action.finish_card.code}")
    rest = _remove_one(hand.cards, action.finish_card)
    _require(
        _same_cards(action.groups, rest),
        "your groups must hold exactly the 13 cards of your hand other than the finish card",
    )
    verdict = check_declaration(action.groups, d.cut_card, settings=state.settings.meld)
    log.add(
        Declared(
            seat=action.seat,
            valid=verdict.valid,
            reason=verdict.reason,
            finish_card=action.finish_card,
        )
    )
    if not verdict.valid:
        score = scoring.wrong_show_score(state.settings)
        hand = replace(
            hand,
            groups=(*action.groups, (action.finish_card,)),
            status="wrong_show",
            turns=hand.turns + 1,
            score=score,
        )
        d = replace(_set_hand(d, hand), picked=None, picked_from=None)
        state = replace(state, deal=d)
        return _after_out(state, action.seat, now, log)
    hand = replace(hand, cards=rest, groups=action.groups, status="declared", turns=hand.turns + 1)
    d = replace(
        _set_hand(d, hand),
        picked=None,
        picked_from=None,
        turn=None,
        declarer=action.seat,
        finish_card=action.finish_card,
    )
    state = replace(state, deal=d)
    if not _playing(d):
        return _end_deal(state, action.seat, "show", now, log)
    return replace(
        state,
        phase="meld",
        deadline=now + state.settings.meld_window_s,
        deadline_kind="meld",
    )


def _drop(state: GameState, action: Any, now: float, log: _Log) -> GameState:
    assert isinstance(action, Drop)
    d, hand = _on_turn(state, action.seat)
    _require(d.picked is None, "you can drop only before you pick a card")
    _require(_drops_allowed(state.settings, d), "drops are not allowed in this deal")
    return _go_out_dropping(state, hand, "drop", now, log)


def _go_out_dropping(
    state: GameState, hand: Hand, reason: str, now: float, log: _Log, *, middle: bool = False
) -> GameState:
    """Drop ``hand`` (first or middle drop by its turns; ``middle`` forces the middle drop)."""
    score = scoring.drop_score(state.settings, first=hand.turns == 0 and not middle)
    status = "left" if reason == "leave" else "dropped"
    d = _current_deal(state)
    d = _set_hand(d, replace(hand, status=status, score=score, auto_drop=False))
    if d.turn == hand.seat:
        d = replace(d, picked=None, picked_from=None)
    log.add(Dropped(seat=hand.seat, reason=reason, score=score))
    return _after_out(replace(state, deal=d), hand.seat, now, log)


def _set_auto_drop(state: GameState, action: Any, now: float, log: _Log) -> GameState:
    assert isinstance(action, SetAutoDrop)
    _require(state.phase == "turn", "auto drop can be set only while a deal is being played")
    d = _current_deal(state)
    hand = _hand(d, action.seat)
    _require(hand is not None and hand.status == "playing", "you are not playing this deal")
    assert hand is not None
    if action.on:
        _require(_drops_allowed(state.settings, d), "drops are not allowed in this deal")
    log.add(AutoDropSet(seat=action.seat, on=action.on))
    if action.on and d.turn == action.seat and d.picked is None:
        return _go_out_dropping(state, hand, "auto_drop", now, log)
    d = _set_hand(d, replace(hand, auto_drop=action.on))
    return replace(state, deal=d)


def _arrange(state: GameState, action: Any, now: float, log: _Log) -> GameState:
    assert isinstance(action, Arrange)
    _require(state.phase in ("turn", "meld"), "there is no hand to arrange now")
    d = _current_deal(state)
    hand = _hand(d, action.seat)
    _require(hand is not None and hand.status == "playing", "you are not playing this deal")
    assert hand is not None
    _require(not hand.submitted, "you have already submitted your cards")
    _require(_same_cards(action.groups, hand.cards), "your groups must hold exactly your cards")
    log.add(Arranged(seat=action.seat))
    return replace(state, deal=_set_hand(d, replace(hand, groups=action.groups)))


def _submit_meld(state: GameState, action: Any, now: float, log: _Log) -> GameState:
    assert isinstance(action, SubmitMeld)
    _require(state.phase == "meld", "there is no meld window open")
    d = _current_deal(state)
    hand = _hand(d, action.seat)
    _require(hand is not None and hand.status == "playing", "you are not melding this deal")
    assert hand is not None
    _require(not hand.submitted, "you have already submitted your cards")
    _require(_same_cards(action.groups, hand.cards), "your groups must hold exactly your cards")
    d = _set_hand(d, replace(hand, groups=action.groups, submitted=True))
    log.add(MeldSubmitted(seat=action.seat))
    state = replace(state, deal=d)
    return _maybe_end_meld(state, now, log)


def _maybe_end_meld(state: GameState, now: float, log: _Log) -> GameState:
    d = _current_deal(state)
    if all(h.submitted for h in d.hands if h.status == "playing"):
        assert d.declarer is not None
        return _end_deal(state, d.declarer, "show", now, log)
    return state


def _rejoin(state: GameState, action: Any, now: float, log: _Log) -> GameState:
    assert isinstance(action, Rejoin)
    _require(state.phase == "rejoin" and state.rejoin is not None, "no rejoin is open")
    offer = state.rejoin
    assert offer is not None
    _require(action.seat in offer.seats, f"seat {action.seat} may not rejoin now")
    player = state.player(action.seat)
    player = replace(
        player,
        status="in",
        total=offer.total,
        rejoins=player.rejoins + 1,
        paid_entries=player.paid_entries + 1,
    )
    state = _set_player(state, player)
    log.add(Rejoined(seat=action.seat, amount=offer.amount, total=offer.total))
    remaining = tuple(s for s in offer.seats if s != action.seat)
    state = replace(state, rejoin=replace(offer, seats=remaining))
    if not remaining:
        return _after_rejoin(state, now, log)
    return state


def _split_answer(state: GameState, action: Any, now: float, log: _Log) -> GameState:
    assert isinstance(action, (SplitAccept, SplitDecline))
    _require(state.phase == "split" and state.split is not None, "no split is offered")
    offer = state.split
    assert offer is not None
    _require(action.seat in offer.seats, f"seat {action.seat} is not part of this split")
    _require(action.seat not in offer.accepted, "you have already accepted")
    if isinstance(action, SplitDecline):
        log.add(SplitDeclined(seat=action.seat))
        return _withdraw_split(state, now, log)
    log.add(SplitAccepted(seat=action.seat))
    offer = replace(offer, accepted=(*offer.accepted, action.seat))
    state = replace(state, split=offer)
    if set(offer.accepted) == set(offer.seats):
        return _end_game(state, "manual_split", dict(offer.amounts), now, log)
    return state


def _withdraw_split(state: GameState, now: float, log: _Log) -> GameState:
    state = replace(state, split=None, split_declined_at=state.deal_number)
    return _start_break(state, now, log)


def _leave(state: GameState, action: Any, now: float, log: _Log) -> GameState:
    assert isinstance(action, Leave)
    player = state.player(action.seat)
    _require(player.status != "left", "you have already left")
    was_in = player.status == "in"
    state = _set_player(state, replace(player, status="left"))
    log.add(PlayerLeft(seat=action.seat))
    d = state.deal
    hand = _hand(d, action.seat) if d is not None else None
    if state.phase == "turn" and d is not None and hand is not None:
        if hand.status == "playing":
            return _go_out_dropping(state, hand, "leave", now, log)
        return state
    if state.phase == "meld" and d is not None and hand is not None:
        if hand.status == "playing" and not hand.submitted:
            state = replace(state, deal=_set_hand(d, replace(hand, submitted=True)))
            return _maybe_end_meld(state, now, log)
        return state
    if state.phase == "rejoin" and state.rejoin is not None:
        offer = state.rejoin
        state = replace(
            state, rejoin=replace(offer, seats=tuple(s for s in offer.seats if s != action.seat))
        )
        if len(_in_seats(state)) < 2:
            return _conclude_if_alone(state, now, log)
        if not state.rejoin or not state.rejoin.seats:
            return _after_rejoin(state, now, log)
        return state
    if state.phase == "split" and state.split is not None and action.seat in state.split.seats:
        log.add(SplitDeclined(seat=action.seat))
        state = replace(state, split=None, split_declined_at=state.deal_number)
        if len(_in_seats(state)) < 2:
            return _conclude_if_alone(state, now, log)
        return _start_break(state, now, log)
    if was_in and state.deal is None:
        if state.tiebreak_seats:
            remaining = tuple(s for s in state.tiebreak_seats if s != action.seat)
            if len(remaining) == 1:
                return _end_game(state, "winner", _winner_takes_all(state, remaining[0]), now, log)
            state = replace(state, tiebreak_seats=remaining)
        if len(_in_seats(state)) < 2:
            return _conclude_if_alone(state, now, log)
    return state


def _set_connected(state: GameState, action: Any, now: float, log: _Log) -> GameState:
    assert isinstance(action, SetConnected)
    player = state.player(action.seat)
    if player.connected == action.connected:
        return state
    state = _set_player(state, replace(player, connected=action.connected))
    log.add(ConnectionChanged(seat=action.seat, connected=action.connected))
    if action.connected or state.settings.disconnect_policy != "drop" or state.phase != "turn":
        return state
    d = _current_deal(state)
    hand = _hand(d, action.seat)
    if hand is None or hand.status != "playing" or not _drops_allowed(state.settings, d):
        return state
    return _go_out_dropping(state, hand, "disconnect", now, log, middle=True)


def _timeout(state: GameState, action: Any, now: float, log: _Log) -> GameState:
    assert isinstance(action, Timeout)
    _require(state.deadline is not None, "no timer is running")
    assert state.deadline is not None
    _require(now >= state.deadline, "the timer has not run out yet")
    kind = state.deadline_kind
    if kind == "turn":
        return _turn_timeout(state, now, log)
    if kind == "meld":
        d = _current_deal(state)
        assert d.declarer is not None
        return _end_deal(state, d.declarer, "show", now, log)
    if kind == "break":
        log.add(DealDue(number=state.deal_number + 1))
        return replace(state, phase="awaiting_deal", deadline=None, deadline_kind=None)
    if kind == "rejoin":
        return _after_rejoin(state, now, log)
    if kind == "split":
        log.add(SplitDeclined(seat=None))
        return _withdraw_split(state, now, log)
    raise InvalidMove(f"unknown timer {kind!r}")


def _turn_timeout(state: GameState, now: float, log: _Log) -> GameState:
    d = _current_deal(state)
    assert d.turn is not None and state.deadline is not None
    seat = d.turn
    player = state.player(seat)
    if not d.in_extra_time and player.extra_time > 0:
        deadline = state.deadline + player.extra_time
        state = _set_player(state, replace(player, extra_time=0.0))
        log.add(ExtraTimeStarted(seat=seat, deadline=deadline))
        return replace(state, deal=replace(d, in_extra_time=True), deadline=deadline)
    hand = _hand(d, seat)
    assert hand is not None
    card = d.picked
    if card is None:
        card = d.closed[0]
        hand = replace(hand, cards=(*hand.cards, card), groups=(*hand.groups, (card,)))
        d = replace(_set_hand(d, hand), closed=d.closed[1:])
        log.add(CardPicked(seat=seat, source="closed", card=card, auto=True))
    hand = replace(hand, missed=hand.missed + 1)
    log.add(TurnMissed(seat=seat, missed=hand.missed))
    state = _discard_card(state, d, hand, card, auto=True, log=log)
    d = _current_deal(state)
    hand = _hand(d, seat)
    assert hand is not None
    if hand.missed >= state.settings.missed_turns_limit:
        count = count_points(hand.groups, d.cut_card, settings=state.settings.meld)
        score = scoring.missed_turns_score(
            state.settings, drops_allowed=_drops_allowed(state.settings, d), count=count
        )
        d = _set_hand(d, replace(hand, status="timed_out", score=score, auto_drop=False))
        log.add(Dropped(seat=seat, reason="missed_turns", score=score))
        return _after_out(replace(state, deal=d), seat, now, log)
    return _next_turn(state, seat, now, log)


_HANDLERS: dict[type, Any] = {
    StartDeal: _start_deal,
    PickClosed: _pick_closed,
    PickOpen: _pick_open,
    Discard: _discard,
    Declare: _declare,
    Drop: _drop,
    SetAutoDrop: _set_auto_drop,
    Arrange: _arrange,
    SubmitMeld: _submit_meld,
    Rejoin: _rejoin,
    SplitAccept: _split_answer,
    SplitDecline: _split_answer,
    Leave: _leave,
    SetConnected: _set_connected,
    Timeout: _timeout,
}


# =============================================================================== turn flow


def _after_out(state: GameState, seat: int, now: float, log: _Log) -> GameState:
    """``seat`` has just gone out of the deal during play."""
    d = _current_deal(state)
    playing = _playing(d)
    if len(playing) == 1:
        return _end_deal(state, playing[0], "last_player", now, log)
    if not playing:
        return _end_deal(state, None, "last_player", now, log)
    if d.turn == seat:
        return _next_turn(state, seat, now, log)
    return state


def _next_turn(state: GameState, after: int, now: float, log: _Log) -> GameState:
    d = _current_deal(state)
    playing = _playing(d)
    if len(playing) <= 1:
        return _end_deal(state, playing[0] if playing else None, "last_player", now, log)
    return _begin_turn(state, _next_after(d.seats, after, playing), now, log)


def _begin_turn(state: GameState, seat: int, now: float, log: _Log) -> GameState:
    d = _current_deal(state)
    if not d.closed:
        if d.reshuffles >= state.settings.max_reshuffles or len(d.open) <= 1:
            return _end_deal(state, None, "exhausted", now, log)
        closed, open_deck = reshuffle(d.open, d.reshuffle_keys[d.reshuffles])
        d = replace(d, closed=closed, open=open_deck, reshuffles=d.reshuffles + 1)
        log.add(DeckReshuffled(number=d.number, closed_count=len(closed)))
    d = replace(d, turn=seat, picked=None, picked_from=None, in_extra_time=False)
    state = replace(state, deal=d)
    hand = _hand(d, seat)
    assert hand is not None
    settings = state.settings
    if _drops_allowed(settings, d):
        if hand.auto_drop:
            return _go_out_dropping(state, hand, "auto_drop", now, log)
        if settings.disconnect_policy == "drop" and not state.player(seat).connected:
            return _go_out_dropping(state, hand, "disconnect", now, log, middle=True)
    deadline = now + settings.turn_s
    log.add(TurnStarted(seat=seat, deadline=deadline))
    return replace(state, phase="turn", deadline=deadline, deadline_kind="turn")


# =============================================================================== deal end


def _end_deal(
    state: GameState, winner: int | None, reason: str, now: float, log: _Log
) -> GameState:
    d = _current_deal(state)
    settings = state.settings
    results: list[SeatResult] = []
    for hand in d.hands:
        if reason == "exhausted":
            points, outcome = 0, "exhausted"
        elif hand.seat == winner:
            points, outcome = 0, "won"
        elif hand.score is not None:
            points, outcome = hand.score, hand.status
        else:
            count = count_points(hand.groups, d.cut_card, settings=settings.meld)
            had_turn = hand.turns > 0
            points = scoring.loser_score(count, settings, had_first_turn=had_turn)
            outcome = "counted" if had_turn else "deal_show"
        results.append(
            SeatResult(seat=hand.seat, points=points, outcome=outcome, groups=hand.groups)
        )
    result = DealResult(
        number=d.number,
        winner=winner,
        reason=reason,
        tiebreak=d.tiebreak,
        cut_card=d.cut_card,
        finish_card=d.finish_card,
        results=tuple(results),
    )
    scores = {r.seat: r.points for r in results}
    state = replace(
        state,
        deal=None,
        history=(*state.history, result),
        deadline=None,
        deadline_kind=None,
    )
    if settings.is_pool:
        return _pool_after_deal(state, result, scores, now, log)
    if settings.is_deals:
        return _deals_after_deal(state, result, scores, now, log)
    return _points_after_deal(state, result, scores, now, log)


def _pool_after_deal(
    state: GameState, result: DealResult, scores: dict[int, int], now: float, log: _Log
) -> GameState:
    settings = state.settings
    totals = {p.seat: p.total for p in state.players}
    update = scoring.add_pool_scores(totals, scores, settings)
    players = []
    newly_out: list[int] = []
    for p in state.players:
        new_total = update.totals[p.seat]
        status = p.status
        if status == "in" and scoring.is_eliminated(new_total, settings):
            status = "eliminated"
            newly_out.append(p.seat)
        players.append(replace(p, total=new_total, status=status))
    state = replace(state, players=tuple(players), eliminations=state.eliminations + len(newly_out))
    log.add(
        DealEnded(
            number=result.number,
            winner=result.winner,
            reason=result.reason,
            scores=scores,
            totals=dict(update.totals),
        )
    )
    for seat in newly_out:
        log.add(Eliminated(seat=seat, total=update.totals[seat]))
    in_seats = _in_seats(state)
    if len(in_seats) < 2:
        return _conclude_if_alone(state, now, log)
    totals_in = [state.player(s).total for s in in_seats]
    eligible = tuple(s for s in newly_out if state.player(s).rejoins < settings.rejoins_per_player)
    if eligible and scoring.rejoin_open(totals_in, settings):
        offer = RejoinOffer(
            seats=eligible, total=scoring.rejoin_total(totals_in), amount=settings.entry_fee
        )
        deadline = now + settings.rejoin_window_s
        log.add(
            RejoinOffered(seats=eligible, total=offer.total, amount=offer.amount, deadline=deadline)
        )
        return replace(
            state, phase="rejoin", rejoin=offer, deadline=deadline, deadline_kind="rejoin"
        )
    return _after_rejoin(state, now, log)


def _after_rejoin(state: GameState, now: float, log: _Log) -> GameState:
    """Pool, after any rejoin window: auto split, manual split offer, or the break."""
    settings = state.settings
    state = replace(state, rejoin=None)
    in_seats = _in_seats(state)
    if len(in_seats) < 2:
        return _conclude_if_alone(state, now, log)
    totals_in = [state.player(s).total for s in in_seats]
    started_with = len(state.seats)
    rejoined = any(p.rejoins > 0 for p in state.players)
    drops = {s: scoring.drops_available(state.player(s).total, settings) for s in in_seats}
    prize = _prize(state)
    if scoring.auto_split_applies(
        totals_in,
        started_with=started_with,
        someone_rejoined=rejoined,
        any_eliminated=state.eliminations > 0,
        settings=settings,
    ):
        amounts = scoring.split_amounts(prize.net, drops, weighting="equal")
        return _end_game(state, "auto_split", amounts, now, log)
    if state.deal_number > state.split_declined_at and scoring.manual_split_eligible(
        totals_in,
        started_with=started_with,
        any_eliminated=state.eliminations > 0,
        rejoin_is_open=False,
        settings=settings,
    ):
        amounts = scoring.split_amounts(prize.net, drops, weighting=settings.split_weighting)
        seats = tuple(in_seats)
        deadline = now + settings.split_window_s
        offer = SplitOffer(seats=seats, amounts=tuple(sorted(amounts.items())))
        log.add(SplitOffered(seats=seats, amounts=amounts, deadline=deadline))
        return replace(state, phase="split", split=offer, deadline=deadline, deadline_kind="split")
    return _start_break(state, now, log)


def _deals_after_deal(
    state: GameState, result: DealResult, scores: dict[int, int], now: float, log: _Log
) -> GameState:
    chips = scoring.deals_transfer({p.seat: p.chips for p in state.players}, result.winner, scores)
    state = replace(state, players=tuple(replace(p, chips=chips[p.seat]) for p in state.players))
    log.add(
        DealEnded(
            number=result.number,
            winner=result.winner,
            reason=result.reason,
            scores=scores,
            chips=chips,
        )
    )
    in_seats = _in_seats(state)
    if len(in_seats) < 2:
        return _conclude_if_alone(state, now, log)
    regular = sum(1 for r in state.history if not r.tiebreak)
    if regular < state.settings.deals_count:
        return _start_break(state, now, log)
    leaders = scoring.deals_leaders({s: chips[s] for s in in_seats})
    if len(leaders) == 1:
        return _end_game(state, "winner", _winner_takes_all(state, leaders[0]), now, log)
    log.add(TieBreaker(seats=leaders))
    return _start_break(replace(state, tiebreak_seats=leaders), now, log)


def _points_after_deal(
    state: GameState, result: DealResult, scores: dict[int, int], now: float, log: _Log
) -> GameState:
    log.add(
        DealEnded(number=result.number, winner=result.winner, reason=result.reason, scores=scores)
    )
    settlement = scoring.points_settlement(scores, result.winner, state.settings)
    log.add(PointsSettled(nets=dict(settlement.nets), fee=settlement.fee))
    winners = (result.winner,) if result.winner is not None else ()
    game_result = GameResult(
        reason="points", winners=winners, payouts=(), fee=settlement.fee, gross=0
    )
    log.add(GameEnded(reason="points", winners=winners, payouts={}, fee=0, gross=0))
    return replace(state, phase="ended", result=game_result, deadline=None, deadline_kind=None)


def _start_break(state: GameState, now: float, log: _Log) -> GameState:
    deadline = now + state.settings.break_s
    log.add(BreakStarted(deadline=deadline))
    return replace(state, phase="break", deadline=deadline, deadline_kind="break")


def _winner_takes_all(state: GameState, winner: int) -> dict[int, int]:
    return {winner: _prize(state).net}


def _conclude_if_alone(state: GameState, now: float, log: _Log) -> GameState:
    """Fewer than two players are still in the game: the last one wins the prize."""
    in_seats = _in_seats(state)
    if state.settings.is_points:
        if len(in_seats) < 2 and state.phase == "awaiting_deal" and state.deal_number == 0:
            log.add(GameEnded(reason="no_deal", winners=(), payouts={}, fee=0, gross=0))
            result = GameResult(reason="no_deal", winners=(), payouts=(), fee=0, gross=0)
            return replace(state, phase="ended", result=result, deadline=None, deadline_kind=None)
        return state
    if len(in_seats) == 1:
        return _end_game(state, "winner", _winner_takes_all(state, in_seats[0]), now, log)
    if not in_seats:
        raise RulesError("no player is left in the game")
    return state


def _end_game(
    state: GameState, reason: str, payouts: Mapping[int, int], now: float, log: _Log
) -> GameState:
    prize = _prize(state)
    fee = prize.fee
    if sum(payouts.values()) + fee != prize.gross:
        raise RulesError("payouts and fee must add up to the gross pot")
    winners = tuple(sorted(payouts))
    result = GameResult(
        reason=reason,
        winners=winners,
        payouts=tuple(sorted(payouts.items())),
        fee=fee,
        gross=prize.gross,
    )
    log.add(
        GameEnded(
            reason=reason,
            winners=winners,
            payouts=dict(sorted(payouts.items())),
            fee=fee,
            gross=prize.gross,
        )
    )
    return replace(
        state,
        phase="ended",
        result=result,
        deadline=None,
        deadline_kind=None,
        rejoin=None,
        split=None,
        tiebreak_seats=(),
    )


# =============================================================================== views


def _codes(cards: Iterable[Card]) -> list[str]:
    return [card.code for card in cards]


def _groups_json(groups: Groups) -> list[list[str]]:
    return [_codes(group) for group in groups]


def _can_pick_open(state: GameState, d: Deal) -> bool:
    if not d.open:
        return False
    if not is_joker(d.open[-1], d.cut_card):
        return True
    return state.settings.first_open_joker_pickable and d.first_open_on_top


def legal_actions(state: GameState, seat: int | None) -> tuple[str, ...]:
    """The action types ``seat`` may send now (``None``: the server's own actions). A listed
    action can still be refused for its arguments (a card not held, a wrong grouping)."""
    if state.phase == "ended":
        return ()
    if seat is None:
        server: list[str] = []
        if state.phase == "awaiting_deal":
            server.append(StartDeal.type)
        if state.deadline is not None:
            server.append(Timeout.type)
        return tuple(server)
    player = next((p for p in state.players if p.seat == seat), None)
    if player is None or player.status == "left":
        return ()
    allowed: list[str] = []
    d = state.deal
    hand = _hand(d, seat) if d is not None else None
    if state.phase == "turn" and d is not None and hand is not None and hand.status == "playing":
        drops = _drops_allowed(state.settings, d)
        if d.turn == seat:
            if d.picked is None:
                allowed.append(PickClosed.type)
                if _can_pick_open(state, d):
                    allowed.append(PickOpen.type)
                if drops:
                    allowed.append(Drop.type)
            else:
                allowed += [Discard.type, Declare.type]
        allowed.append(Arrange.type)
        if drops or hand.auto_drop:
            allowed.append(SetAutoDrop.type)
    elif state.phase == "meld" and hand is not None and hand.status == "playing":
        if not hand.submitted:
            allowed += [Arrange.type, SubmitMeld.type]
    elif state.phase == "rejoin" and state.rejoin is not None and seat in state.rejoin.seats:
        allowed.append(Rejoin.type)
    elif (
        state.phase == "split"
        and state.split is not None
        and seat in state.split.seats
        and seat not in state.split.accepted
    ):
        allowed += [SplitAccept.type, SplitDecline.type]
    allowed.append(Leave.type)
    return tuple(allowed)


def _result_json(result: DealResult) -> dict[str, Any]:
    return {
        "number": result.number,
        "winner": result.winner,
        "reason": result.reason,
        "tiebreak": result.tiebreak,
        "cut_joker": result.cut_card.code,
        "finish_card": result.finish_card.code if result.finish_card else None,
        "results": [
            {
                "seat": r.seat,
                "points": r.points,
                "outcome": r.outcome,
                "groups": _groups_json(r.groups),
            }
            for r in result.results
        ],
    }


def game_view(state: GameState, viewer: int | None) -> dict[str, Any]:
    """What ``viewer`` (a seat, or ``None`` for a spectator) may see, as a JSON-ready dict.

    Never the closed deck's order, nor another player's cards while a deal is played; after a
    deal every hand is shown in ``last_deal``. The keys are described in docs/game-engine.md.
    """
    settings = state.settings
    d = state.deal
    prize = _prize(state)
    players = []
    for p in state.players:
        hand = _hand(d, p.seat) if d is not None else None
        entry: dict[str, Any] = {
            "seat": p.seat,
            "status": p.status,
            "total": p.total,
            "chips": p.chips,
            "drops_available": (
                scoring.drops_available(p.total, settings)
                if settings.is_pool and p.status == "in"
                else None
            ),
            "paid_entries": p.paid_entries,
            "rejoins": p.rejoins,
            "extra_time": p.extra_time,
            "connected": p.connected,
            "in_deal": hand is not None,
            "deal_status": hand.status if hand is not None else None,
            "card_count": len(hand.cards) if hand is not None else 0,
            "turns": hand.turns if hand is not None else 0,
            "missed_turns": hand.missed if hand is not None else 0,
            "submitted": hand.submitted if hand is not None else False,
        }
        players.append(entry)

    deal_view: dict[str, Any] | None = None
    hand_view: dict[str, Any] | None = None
    if d is not None:
        show = None
        if d.declarer is not None:
            declarer = _hand(d, d.declarer)
            assert declarer is not None
            show = {
                "seat": d.declarer,
                "groups": _groups_json(declarer.groups),
                "finish_card": d.finish_card.code if d.finish_card else None,
            }
        deal_view = {
            "number": d.number,
            "seats": list(d.seats),
            "starter": d.starter,
            "tiebreak": d.tiebreak,
            "cut_joker": d.cut_card.code,
            "wild_rank": RANK_CODES[wild_rank(d.cut_card)],
            "open_top": d.open[-1].code if d.open else None,
            "open_count": len(d.open),
            "closed_count": len(d.closed),
            "reshuffles": d.reshuffles,
            "turn": d.turn,
            "turn_picked": d.picked is not None,
            "picked_open_card": (
                d.picked.code if d.picked is not None and d.picked_from == "open" else None
            ),
            "in_extra_time": d.in_extra_time,
            "can_pick_open": _can_pick_open(state, d),
            "drops_allowed": _drops_allowed(settings, d),
            "show": show,
        }
        own = _hand(d, viewer) if viewer is not None else None
        if own is not None:
            count: int | None = None
            if len(own.cards) == HAND_SIZE:
                count = count_points(own.groups, d.cut_card, settings=settings.meld)
            hand_view = {
                "cards": _codes(own.cards),
                "groups": _groups_json(own.groups),
                "picked": d.picked.code if d.turn == viewer and d.picked is not None else None,
                "auto_drop": own.auto_drop,
                "status": own.status,
                "count": count,
            }

    rejoin_view = None
    if state.rejoin is not None and state.phase == "rejoin":
        rejoin_view = {
            "seats": list(state.rejoin.seats),
            "total": state.rejoin.total,
            "amount": state.rejoin.amount,
            "deadline": state.deadline,
        }
    split_view = None
    if state.split is not None and state.phase == "split":
        split_view = {
            "seats": list(state.split.seats),
            "amounts": [{"seat": s, "amount": a} for s, a in state.split.amounts],
            "accepted": list(state.split.accepted),
            "deadline": state.deadline,
        }
    result_view = None
    if state.result is not None:
        result_view = {
            "reason": state.result.reason,
            "winners": list(state.result.winners),
            "payouts": [{"seat": s, "amount": a} for s, a in state.result.payouts],
            "fee": state.result.fee,
            "gross": state.result.gross,
        }
    return {
        "variant": settings.variant,
        "phase": state.phase,
        "deadline": state.deadline,
        "deadline_kind": state.deadline_kind,
        "viewer": viewer,
        "seats": list(state.seats),
        "deal_number": state.deal_number,
        "deals_count": settings.deals_count if settings.is_deals else None,
        "pool_limit": settings.pool_limit if settings.is_pool else None,
        "point_value": settings.point_value if settings.is_points else None,
        "tiebreak_seats": list(state.tiebreak_seats),
        "prize": {"gross": prize.gross, "fee": prize.fee, "net": prize.net},
        "players": players,
        "deal": deal_view,
        "hand": hand_view,
        "last_deal": _result_json(state.history[-1]) if state.history else None,
        "history": [
            {
                "number": r.number,
                "winner": r.winner,
                "tiebreak": r.tiebreak,
                "scores": [{"seat": x.seat, "points": x.points} for x in r.results],
            }
            for r in state.history
        ],
        "rejoin": rejoin_view,
        "split": split_view,
        "result": result_view,
        "allowed": list(legal_actions(state, viewer)) if viewer is not None else [],
    }
