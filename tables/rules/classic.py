"""Classic 10-card rummy played as a ring game (RULES.md section 8).

A pure state machine with the same shape as the 13-card engine (``game.py``): immutable,
JSON-serialisable state; time (``now``) and randomness (the shoe and a reshuffle seed) are passed
in, so replaying the move log rebuilds the same state.

```python
state = classic_new(settings=ClassicSettings(...), seats=[1, 2, 3], now=t, toss=2)
result = classic_apply(state, new_start_deal(state.settings), now=t)   # Transition(state, events)
classic_view(result.state, viewer_seat_or_None)                        # what that viewer may see
ClassicState.from_json(result.state.to_json()) == result.state
```

Rules as implemented (``docs/classic-rummy.md`` has the full text):

* 2 packs of 52, no jokers; 10 cards each; one card face up starts the discard pile.
* A turn: pick (stock = ``PickClosed``, top of the discard pile = ``PickOpen``), then any number
  of ``LayDown`` (new melds) and ``LayOff`` (cards added to any meld on the table), then
  ``Discard``. Discarding the last card goes out and wins the hand (setting: melding or laying
  off the last card goes out too). Going out without having laid down or laid off in an earlier
  turn of the hand is going rummy: every loser adds the rummy bonus.
* When the stock runs out, the discard pile except its top card (the card discarded by the player
  who drew the last stock card) is shuffled into a new stock; the shuffle is a Fisher-Yates
  driven by SHA-256 of the hand's reshuffle seed (``StartDeal.seed``), so it is reproducible.
* A ring game is a fixed number of hands; losers add the points of the cards left in their hand;
  after the last hand the prize pool is paid out by :func:`ring_payout`.
"""

from __future__ import annotations

import hashlib
import secrets
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar, Final, Literal, TypeAlias, cast

from .cards import ACE, JACK, KING, STANDARD_PACK, Card, CardLike, parse_card
from .errors import InvalidMove, InvalidSettings, RulesError
from .game import (
    BreakStarted,
    CardDiscarded,
    CardPicked,
    ConnectionChanged,
    DealEnded,
    DeckReshuffled,
    Discard,
    Dropped,
    GameEnded,
    Leave,
    PickClosed,
    PickOpen,
    PlayerLeft,
    SetConnected,
    Timeout,
    TurnMissed,
    TurnStarted,
    parse_groups,
)
from .machine import ActionRecord, EventRecord, Registry, Transition, handler_for
from .scoring import prize_pool
from .settings import DISCONNECT_POLICIES
from .shoe import Shoe, shuffle_cards

__all__ = [
    "BPS",
    "MIN_MELD",
    "SHARED_ACTION_TYPES",
    "Action",
    "BreakStarted",
    "CardDiscarded",
    "CardPicked",
    "CardsLaidOff",
    "ClassicPlayer",
    "ClassicSettings",
    "ClassicState",
    "ConnectionChanged",
    "DealEnded",
    "DealStarted",
    "DeckReshuffled",
    "Discard",
    "Dropped",
    "Event",
    "GameEnded",
    "HandResult",
    "HandsShown",
    "LayDown",
    "LayOff",
    "Leave",
    "MeldsLaidDown",
    "PickClosed",
    "PickOpen",
    "PlayerLeft",
    "SetConnected",
    "StartDeal",
    "TableMeld",
    "Timeout",
    "Transition",
    "TurnMissed",
    "TurnStarted",
    "WentOut",
    "bot_meld_action",
    "card_points",
    "classic_action_from_json",
    "classic_apply",
    "classic_new",
    "classic_shoe",
    "classic_view",
    "classify_meld",
    "deal_due",
    "hand_points",
    "lay_off_result",
    "legal_actions",
    "new_start_deal",
    "ring_payout",
    "seeded_shuffle",
    "stacked_classic_shoe",
]

MIN_MELD: Final = 3
"""A set or a run has at least three cards."""
BPS: Final = 10_000
"""Basis points in one whole (fee and share settings are in basis points)."""
_RANKS: Final = 13

MeldType: TypeAlias = Literal["set", "run"]
End: TypeAlias = Literal["low", "high"]
Phase: TypeAlias = Literal["break", "turn", "ended"]
DeadlineKind: TypeAlias = Literal["turn", "break"]


def _check_int(name: str, value: object, low: int, high: int | None = None) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise InvalidSettings(f"{name} must be an integer of at least {low}")
    if high is not None and value > high:
        raise InvalidSettings(f"{name} must be at most {high}")


def _check_bool(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise InvalidSettings(f"{name} must be true or false")


# --------------------------------------------------------------------------------------------
# Settings
# --------------------------------------------------------------------------------------------


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
                raise InvalidSettings(f"{name} must be a number of seconds, 0 or more")
            object.__setattr__(self, name, float(value))
        if self.variant != "classic":
            raise InvalidSettings("ClassicSettings are for the classic variant only")
        _check_int("packs", self.packs, 1)
        _check_int("hand_size", self.hand_size, 1)
        _check_int("seats_min", self.seats_min, 2)
        _check_int("seats_max", self.seats_max, self.seats_min)
        if self.seats_max * self.hand_size + 2 > self.packs * len(STANDARD_PACK):
            raise InvalidSettings(
                f"{self.packs} pack(s) cannot deal {self.hand_size} cards to "
                f"{self.seats_max} players and leave a stock and a discard pile"
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
            raise InvalidSettings("turn_s must be more than 0")
        if self.disconnect_policy not in DISCONNECT_POLICIES:
            raise InvalidSettings(f"disconnect_policy: one of {DISCONNECT_POLICIES}")
        if self.max_reshuffles is not None:
            _check_int("max_reshuffles", self.max_reshuffles, 0)

    @classmethod
    def for_variant(cls, variant: str = "classic", **overrides: Any) -> ClassicSettings:
        """The rule book's defaults with ``overrides`` applied (the ``GameSettings.for_variant``
        shape, so a table template builds either kind the same way)."""
        if variant != "classic":
            raise InvalidSettings(f"unknown classic variant {variant!r}")
        if "variant" in overrides:
            raise InvalidSettings("give the variant as the first argument, not as an override")
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
            raise InvalidSettings(f"unknown classic settings: {', '.join(sorted(unknown))}")
        return cls(**dict(data))


# --------------------------------------------------------------------------------------------
# Cards, melds and points
# --------------------------------------------------------------------------------------------


def _codes(cards: Iterable[Card]) -> list[str]:
    return [card.code for card in cards]


def _cards(codes: Iterable[CardLike]) -> tuple[Card, ...]:
    return tuple(parse_card(code) for code in codes)


def _check_no_jokers(cards: Iterable[Card]) -> None:
    for card in cards:
        if card.is_printed_joker:
            raise InvalidMove("classic rummy is played without jokers")


def card_points(card: CardLike, settings: ClassicSettings) -> int:
    """Penalty value of one card: 2-10 at face value, J Q K ``court_points``, A ``ace_points``."""
    card = parse_card(card)
    _check_no_jokers([card])
    if card.rank == ACE:
        return settings.ace_points
    if card.rank >= JACK:
        return settings.court_points
    return card.rank


def hand_points(cards: Iterable[CardLike], settings: ClassicSettings) -> int:
    """Penalty value of the cards left in a loser's hand."""
    return sum(card_points(card, settings) for card in cards)


def _is_set(cards: Sequence[Card], settings: ClassicSettings) -> bool:
    if len(cards) < MIN_MELD or len({card.rank for card in cards}) != 1:
        return False
    if settings.largest_set is not None and len(cards) > settings.largest_set:
        return False
    return settings.set_suits_may_repeat or len({card.suit for card in cards}) == len(cards)


def _run_orderings(cards: Sequence[Card], settings: ClassicSettings) -> list[tuple[Card, ...]]:
    """Every order in which ``cards`` form a run (low end first); empty if they form none.

    Without wrapping there are at most two (a full A..K run read Ace low or Ace high)."""
    if not cards or len({card.suit for card in cards}) != 1:
        return []
    by_rank = {card.rank: card for card in cards}
    if len(by_rank) != len(cards):
        return []
    size = len(cards)
    ranks = set(by_rank)
    found: list[tuple[Card, ...]] = []

    def add(order: Iterable[int]) -> None:
        run = tuple(by_rank[rank] for rank in order)
        if run not in found:
            found.append(run)

    if settings.run_wrap:
        for start in sorted(ranks):
            order = [(start - 1 + step) % _RANKS + 1 for step in range(size)]
            if set(order) == ranks:
                add(order)
        return found
    has_ace = ACE in ranks
    if (not has_ace or settings.ace_low) and max(ranks) - min(ranks) == size - 1:
        add(sorted(ranks))
    if has_ace and settings.ace_high:
        high = {KING + 1 if rank == ACE else rank for rank in ranks}
        if max(high) - min(high) == size - 1:
            add(sorted(ranks, key=lambda rank: KING + 1 if rank == ACE else rank))
    return found


def classify_meld(
    cards: Iterable[CardLike], settings: ClassicSettings
) -> tuple[MeldType, tuple[Card, ...]] | None:
    """What a group laid down would be: ``("set", cards)`` or ``("run", cards in order)``, or
    ``None`` when it is not a meld under ``settings``."""
    group = _cards(cards)
    if any(card.is_printed_joker for card in group):
        return None
    if _is_set(group, settings):
        return ("set", group)
    if len(group) >= MIN_MELD:
        orders = _run_orderings(group, settings)
        if orders:
            return ("run", orders[0])
    return None


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table: ``id`` (unique in the hand), ``kind``, ``cards`` (a run low end
    first) and ``owner``, the seat that laid it down (anyone may lay off on it)."""

    id: int
    kind: MeldType
    cards: tuple[Card, ...]
    owner: int

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "cards": _codes(self.cards), "owner": self.owner}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableMeld:
        kind = data["kind"]
        if kind not in ("set", "run"):
            raise RulesError(f"unknown meld kind {kind!r}")
        return cls(int(data["id"]), kind, _cards(data["cards"]), int(data["owner"]))


def lay_off_result(
    meld: TableMeld,
    cards: Iterable[CardLike],
    settings: ClassicSettings,
    end: End | None = None,
) -> tuple[Card, ...]:
    """The meld's cards after laying off ``cards`` on it. A run grows at its ``low`` or ``high``
    end (``None``: whichever fits; both at once when several cards are laid off); a set takes
    cards of its rank (``end`` does not apply). Raises ``InvalidMove`` when they do not fit."""
    added = _cards(cards)
    if not added:
        raise InvalidMove("lay off at least one card")
    _check_no_jokers(added)
    if meld.kind == "set":
        combined = meld.cards + added
        if _is_set(combined, settings):
            return combined
        if len({card.rank for card in combined}) != 1:
            raise InvalidMove(f"only cards of the set's rank fit meld {meld.id}")
        if not settings.set_suits_may_repeat and len({c.suit for c in combined}) != len(combined):
            raise InvalidMove(f"meld {meld.id} already has that suit")
        raise InvalidMove(f"a set may have at most {settings.largest_set} cards")
    length = len(meld.cards)
    for order in _run_orderings(meld.cards + added, settings):
        for start in range(len(order) - length + 1):
            if order[start : start + length] != meld.cards:
                continue
            after = len(order) - start - length
            if (end == "low" and after == 0) or (end == "high" and start == 0) or end is None:
                return order
    where = f" at the {end} end" if end else ""
    raise InvalidMove(f"{' '.join(_codes(added))} does not extend run {meld.id}{where}")


# --------------------------------------------------------------------------------------------
# Shoe and reproducible reshuffles
# --------------------------------------------------------------------------------------------


def classic_shoe(settings: ClassicSettings) -> tuple[Card, ...]:
    """The unshuffled shoe: ``packs`` standard packs, no jokers."""
    return STANDARD_PACK * settings.packs


class _Stream:
    """A deterministic byte stream: SHA-256 over (seed, label, block number)."""

    def __init__(self, seed: str, label: str) -> None:
        self._prefix = f"{seed}\x00{label}\x00".encode()
        self._block = 0
        self._buffer = b""

    def _take(self, count: int) -> bytes:
        while len(self._buffer) < count:
            self._buffer += hashlib.sha256(self._prefix + str(self._block).encode()).digest()
            self._block += 1
        out, self._buffer = self._buffer[:count], self._buffer[count:]
        return out

    def below(self, bound: int) -> int:
        """An unbiased integer in ``0..bound-1`` (rejection sampling over 32-bit words)."""
        limit = (1 << 32) - (1 << 32) % bound
        while True:
            value = int.from_bytes(self._take(4), "big")
            if value < limit:
                return value % bound


def seeded_shuffle(cards: Sequence[Card], seed: str, label: str) -> tuple[Card, ...]:
    """Fisher-Yates shuffle of ``cards`` driven by SHA-256 of ``seed`` and ``label``: the same
    inputs always give the same order. The seed comes from ``secrets`` (see ``new_start_deal``)."""
    items = list(cards)
    stream = _Stream(seed, label)
    for i in range(len(items) - 1, 0, -1):
        j = stream.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return tuple(items)


# --------------------------------------------------------------------------------------------
# Money
# --------------------------------------------------------------------------------------------


def ring_payout(
    totals: Mapping[int, int],
    prize: int,
    *,
    gap_limit: int = 80,
    share_bps: int = 2500,
) -> dict[int, int]:
    """Split ``prize`` (minor units) among the seats of ``totals`` (penalty totals) per RULES.md
    section 8. Returns every seat's amount (0 included); the amounts sum to ``prize``.

    The lowest total is 1st. Each other seat whose gap (its total - 1st's) is less than
    ``gap_limit`` gets ``floor(prize * share_bps/10000 * (gap_limit - gap) / S)``, S being the
    sum of ``gap_limit - gap`` over those seats; 1st takes the rest (all of it when nobody
    qualifies).
    Seats with equal totals share equally what their places pay; the units that do not divide
    go one each to the tied seats in ascending seat number. (1st is the lowest seat number among
    the lowest totals, which only matters before the tie is shared.)"""
    if not totals:
        raise RulesError("a payout needs at least one seat")
    if not isinstance(prize, int) or isinstance(prize, bool) or prize < 0:
        raise RulesError("prize must be an integer of at least 0")
    order = sorted(totals, key=lambda seat: (totals[seat], seat))
    best = totals[order[0]]
    weights = {
        seat: gap_limit - (totals[seat] - best)
        for seat in order[1:]
        if totals[seat] - best < gap_limit
    }
    weight_sum = sum(weights.values())
    place: dict[int, int] = dict.fromkeys(order, 0)
    for seat, weight in weights.items():
        place[seat] = prize * share_bps * weight // (BPS * weight_sum)
    place[order[0]] = prize - sum(place.values())
    payout: dict[int, int] = {}
    for total in sorted(set(totals.values())):
        tied = sorted(seat for seat in order if totals[seat] == total)
        pool = sum(place[seat] for seat in tied)
        share, left = divmod(pool, len(tied))
        for index, seat in enumerate(tied):
            payout[seat] = share + (1 if index < left else 0)
    return payout


# --------------------------------------------------------------------------------------------
# Actions: the shared ones come from the 13-card engine (``game.py``), so the server builds
# them alike for every variant; ``StartDeal``, ``LayDown`` and ``LayOff`` are classic's own.
# --------------------------------------------------------------------------------------------


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
            object.__setattr__(self, "shoe", Shoe(_cards(self.shoe)))

    @classmethod
    def from_fields(cls, values: Mapping[str, Any]) -> StartDeal:
        try:
            shoe = values["shoe"]
            cards = Shoe.from_json(shoe).cards if isinstance(shoe, Mapping) else _cards(shoe)
            return cls(Shoe(cards), str(values["seed"]))
        except (KeyError, TypeError) as exc:
            raise InvalidMove(f"malformed {cls.type} action") from exc


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
            return cls(_int(values["seat"]), tuple(_cards(m) for m in values["melds"]))
        except (KeyError, TypeError) as exc:
            raise InvalidMove(f"malformed {cls.type} action") from exc


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
        object.__setattr__(self, "cards", _cards(self.cards))
        if self.end not in (None, "low", "high"):
            raise InvalidMove(f"unknown run end {self.end!r}")

    @classmethod
    def from_fields(cls, values: Mapping[str, Any]) -> LayOff:
        try:
            return cls(
                _int(values["seat"]),
                _cards(values["cards"]),
                _int(values["meld_id"]),
                values.get("end"),
            )
        except (KeyError, TypeError) as exc:
            raise InvalidMove(f"malformed {cls.type} action") from exc


Action: TypeAlias = (
    StartDeal | PickClosed | PickOpen | LayDown | LayOff | Discard | Timeout | Leave | SetConnected
)
SHARED_ACTION_TYPES: Final = frozenset(
    cls.type for cls in (PickClosed, PickOpen, Discard, Timeout, Leave, SetConnected)
)
"""Action types classic shares with the 13-card engine (the same classes, decoded alike)."""


def _int(value: object) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidMove(f"expected an integer, got {value!r}")
    return value


def _unknown_action(kind: object) -> InvalidMove:
    try:
        hash(kind)
    except TypeError:
        return InvalidMove(f"malformed {kind} action")
    return InvalidMove(f"classic rummy has no {kind!r} action")


ACTIONS: Registry[ActionRecord] = Registry(
    (StartDeal, PickClosed, PickOpen, LayDown, LayOff, Discard, Timeout, Leave, SetConnected),
    unknown=_unknown_action,
)


def classic_action_from_json(data: Mapping[str, Any]) -> Action:
    """Rebuild an action from its ``to_json()`` form (the move log, or a form's values: card
    codes accepted). Raises ``InvalidMove`` (or ``InvalidCard``) for anything malformed."""
    return cast(Action, ACTIONS.from_json(data))


# --------------------------------------------------------------------------------------------
# Events: shared with the 13-card engine where the shape fits (``CardPicked``,
# ``CardDiscarded``, ``TurnStarted``, ``TurnMissed``, ``DeckReshuffled``, ``Dropped``,
# ``DealEnded``, ``BreakStarted``, ``PlayerLeft``, ``ConnectionChanged``, ``GameEnded``), plus
# classic's own below.
# --------------------------------------------------------------------------------------------


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


# --------------------------------------------------------------------------------------------
# State
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClassicPlayer:
    """One seat. ``in_hand``: takes turns in the current hand; ``melded``: laid down or off in
    an earlier turn of this hand (no rummy then); ``missed``: consecutive missed turns;
    ``bank``: extra-time seconds left for the game; ``left``: left the ring game."""

    seat: int
    hand: tuple[Card, ...] = ()
    total: int = 0
    in_hand: bool = False
    melded: bool = False
    missed: int = 0
    bank: float = 0.0
    connected: bool = True
    left: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "hand": _codes(self.hand),
            "total": self.total,
            "in_hand": self.in_hand,
            "melded": self.melded,
            "missed": self.missed,
            "bank": self.bank,
            "connected": self.connected,
            "left": self.left,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClassicPlayer:
        return cls(
            seat=int(data["seat"]),
            hand=_cards(data["hand"]),
            total=int(data["total"]),
            in_hand=bool(data["in_hand"]),
            melded=bool(data["melded"]),
            missed=int(data["missed"]),
            bank=float(data["bank"]),
            connected=bool(data["connected"]),
            left=bool(data["left"]),
        )


@dataclass(frozen=True, slots=True)
class HandResult:
    """The result of one hand: ``reason`` as in ``DealEnded`` ("went_out", "rummy",
    "last_player", "exhausted"), ``scores`` as ``(seat, points)`` pairs."""

    number: int
    winner: int | None
    reason: str
    scores: tuple[tuple[int, int], ...]

    @property
    def rummy(self) -> bool:
        return self.reason == "rummy"

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "winner": self.winner,
            "reason": self.reason,
            "scores": [list(pair) for pair in self.scores],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HandResult:
        winner = data["winner"]
        return cls(
            int(data["number"]),
            None if winner is None else int(winner),
            str(data["reason"]),
            tuple((int(seat), int(points)) for seat, points in data["scores"]),
        )


@dataclass(frozen=True, slots=True)
class ClassicState:
    """The whole state of a classic ring game (server-side; ``classic_view`` filters it).

    ``phase``: ``"break"`` (before a hand: the server applies ``StartDeal``), ``"turn"`` or
    ``"ended"``. ``stock[0]`` is the next card drawn; ``discard[-1]`` is the top of the pile.
    ``picked``: whether the player to move has picked this turn; ``turn_melded``: whether they
    laid down or off this turn. ``payouts``/``fee``/``prize`` are set once the game has ended."""

    settings: ClassicSettings
    seats: tuple[int, ...]
    players: tuple[ClassicPlayer, ...]
    phase: Phase
    starter: int
    hand_no: int = 0
    turn: int | None = None
    picked: bool = False
    picked_card: Card | None = None
    picked_from: str | None = None
    turn_melded: bool = False
    turn_started: float | None = None
    stock: tuple[Card, ...] = ()
    discard: tuple[Card, ...] = ()
    melds: tuple[TableMeld, ...] = ()
    next_meld_id: int = 1
    reshuffles: int = 0
    seed: str = ""
    deadline: float | None = None
    deadline_kind: DeadlineKind | None = None
    results: tuple[HandResult, ...] = ()
    payouts: tuple[tuple[int, int], ...] | None = None
    fee: int | None = None
    prize: int | None = None

    def player(self, seat: int) -> ClassicPlayer:
        for player in self.players:
            if player.seat == seat:
                return player
        raise InvalidMove(f"seat {seat} is not at this table")

    @property
    def totals(self) -> dict[int, int]:
        return {player.seat: player.total for player in self.players}

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": "classic",
            "settings": self.settings.to_json(),
            "seats": list(self.seats),
            "players": [player.to_json() for player in self.players],
            "phase": self.phase,
            "starter": self.starter,
            "hand_no": self.hand_no,
            "turn": self.turn,
            "picked": self.picked,
            "picked_card": None if self.picked_card is None else self.picked_card.code,
            "picked_from": self.picked_from,
            "turn_melded": self.turn_melded,
            "turn_started": self.turn_started,
            "stock": _codes(self.stock),
            "discard": _codes(self.discard),
            "melds": [meld.to_json() for meld in self.melds],
            "next_meld_id": self.next_meld_id,
            "reshuffles": self.reshuffles,
            "seed": self.seed,
            "deadline": self.deadline,
            "deadline_kind": self.deadline_kind,
            "results": [result.to_json() for result in self.results],
            "payouts": None if self.payouts is None else [list(p) for p in self.payouts],
            "fee": self.fee,
            "prize": self.prize,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClassicState:
        if data.get("variant") != "classic":
            raise RulesError("not a classic game state")
        phase = data["phase"]
        kind = data["deadline_kind"]
        if phase not in ("break", "turn", "ended") or kind not in (None, "turn", "break"):
            raise RulesError("corrupt classic game state")
        payouts = data["payouts"]

        def opt_float(value: Any) -> float | None:
            return None if value is None else float(value)

        def opt_int(value: Any) -> int | None:
            return None if value is None else int(value)

        return cls(
            settings=ClassicSettings.from_json(data["settings"]),
            seats=tuple(int(seat) for seat in data["seats"]),
            players=tuple(ClassicPlayer.from_json(p) for p in data["players"]),
            phase=phase,
            starter=int(data["starter"]),
            hand_no=int(data["hand_no"]),
            turn=opt_int(data["turn"]),
            picked=bool(data["picked"]),
            picked_card=None if data["picked_card"] is None else parse_card(data["picked_card"]),
            picked_from=None if data["picked_from"] is None else str(data["picked_from"]),
            turn_melded=bool(data["turn_melded"]),
            turn_started=opt_float(data["turn_started"]),
            stock=_cards(data["stock"]),
            discard=_cards(data["discard"]),
            melds=tuple(TableMeld.from_json(m) for m in data["melds"]),
            next_meld_id=int(data["next_meld_id"]),
            reshuffles=int(data["reshuffles"]),
            seed=str(data["seed"]),
            deadline=opt_float(data["deadline"]),
            deadline_kind=kind,
            results=tuple(HandResult.from_json(r) for r in data["results"]),
            payouts=None
            if payouts is None
            else tuple((int(seat), int(amount)) for seat, amount in payouts),
            fee=opt_int(data["fee"]),
            prize=opt_int(data["prize"]),
        )


# --------------------------------------------------------------------------------------------
# The state machine
# --------------------------------------------------------------------------------------------


def classic_new(
    *, settings: ClassicSettings, seats: Sequence[int], now: float, toss: int
) -> ClassicState:
    """A new ring game for ``seats`` (in clockwise order); ``toss`` is the seat that plays
    first in hand 1. The game waits in a ``"break"`` due at ``now`` for the first ``StartDeal``."""
    if not isinstance(settings, ClassicSettings):
        raise InvalidSettings("a classic game needs ClassicSettings")
    seat_list = tuple(seats)
    if len(set(seat_list)) != len(seat_list):
        raise InvalidMove("each seat may appear only once")
    if not settings.seats_min <= len(seat_list) <= settings.seats_max:
        raise InvalidMove(
            f"a classic table needs {settings.seats_min} to {settings.seats_max} players"
        )
    if toss not in seat_list:
        raise InvalidMove(f"the toss winner {toss} is not at the table")
    players = tuple(
        ClassicPlayer(seat=seat, bank=float(settings.extra_time_s)) for seat in seat_list
    )
    return ClassicState(
        settings=settings,
        seats=seat_list,
        players=players,
        phase="break",
        starter=toss,
        deadline=float(now),
        deadline_kind="break",
    )


def new_start_deal(settings: ClassicSettings) -> StartDeal:
    """A ``StartDeal`` with a freshly shuffled shoe and reshuffle seed from ``secrets``
    (Fisher-Yates on the operating system's CSPRNG). The only impure function here."""
    return StartDeal(Shoe(shuffle_cards(classic_shoe(settings))), secrets.token_hex(32))


def deal_due(state: ClassicState, now: float) -> bool:
    """Whether the server should apply ``new_start_deal`` now: the game is in its break (a new
    game starts in a break due at once) and the break has run out."""
    return state.phase == "break" and state.deadline is not None and now >= state.deadline


class _Turn:
    """A mutable scratch copy of a state used inside one ``classic_apply`` call."""

    def __init__(self, state: ClassicState, now: float) -> None:
        self.state = state
        self.now = float(now)
        self.events: list[Event] = []

    @property
    def settings(self) -> ClassicSettings:
        return self.state.settings

    def set(self, **changes: Any) -> None:
        self.state = replace(self.state, **changes)

    def update_player(self, seat: int, **changes: Any) -> None:
        self.set(
            players=tuple(
                replace(player, **changes) if player.seat == seat else player
                for player in self.state.players
            )
        )

    def done(self) -> Transition[ClassicState, Event]:
        return Transition(self.state, tuple(self.events))


def _next_seat(state: ClassicState, after: int, *, eligible: Iterable[int]) -> int | None:
    """The first seat in ``eligible`` clockwise after ``after`` (``after`` itself last)."""
    allowed = set(eligible)
    index = state.seats.index(after)
    for step in range(1, len(state.seats) + 1):
        seat = state.seats[(index + step) % len(state.seats)]
        if seat in allowed:
            return seat
    return None


def _remove(hand: tuple[Card, ...], cards: Iterable[Card]) -> tuple[Card, ...]:
    remaining = list(hand)
    for card in cards:
        if card not in remaining:
            raise InvalidMove(f"{card.code} is not in your hand")
        remaining.remove(card)
    return tuple(remaining)


def _start_turn(work: _Turn, seat: int) -> None:
    player = work.state.player(seat)
    work.set(
        turn=seat,
        picked=False,
        picked_card=None,
        picked_from=None,
        turn_melded=False,
        turn_started=work.now,
        deadline=work.now + work.settings.turn_s + player.bank,
        deadline_kind="turn",
    )
    work.events.append(TurnStarted(seat, work.now + work.settings.turn_s + player.bank))


def _spend_time(work: _Turn, seat: int) -> None:
    """Charge the time of the turn that ends now beyond ``turn_seconds`` to the seat's bank."""
    started = work.state.turn_started
    if started is None:
        return
    player = work.state.player(seat)
    over = max(0.0, work.now - started - work.settings.turn_s)
    work.update_player(seat, bank=max(0.0, player.bank - over))


def _deal(work: _Turn, action: StartDeal) -> None:
    state = work.state
    settings = work.settings
    shoe = tuple(action.shoe.cards)
    if Counter(shoe) != Counter(classic_shoe(settings)):
        raise InvalidMove(f"the shoe must be exactly {settings.packs} packs of 52 cards")
    if not isinstance(action.seed, str) or not action.seed:
        raise InvalidMove("a deal needs a reshuffle seed")
    playing = [p.seat for p in state.players if not p.left]
    starter = state.starter
    index = playing.index(starter)
    order = playing[index:] + playing[:index]
    dealt: dict[int, list[Card]] = {seat: [] for seat in order}
    position = 0
    for _ in range(settings.hand_size):
        for seat in order:
            dealt[seat].append(shoe[position])
            position += 1
    discard_top = shoe[position]
    hand_no = state.hand_no + 1
    work.set(
        phase="turn",
        hand_no=hand_no,
        stock=shoe[position + 1 :],
        discard=(discard_top,),
        melds=(),
        next_meld_id=1,
        reshuffles=0,
        seed=action.seed,
        players=tuple(
            replace(p, hand=tuple(dealt[p.seat]), in_hand=True, melded=False, missed=0)
            if not p.left
            else replace(p, hand=(), in_hand=False, melded=False)
            for p in state.players
        ),
    )
    work.events.append(DealStarted(hand_no, tuple(order), starter, discard_top))
    if settings.disconnect_policy == "drop":
        for seat in order:
            if not work.state.player(seat).connected:
                _drop(work, seat, "disconnect")
    active = [seat for seat in order if work.state.player(seat).in_hand]
    if len(active) < 2:
        _end_short_hand(work, active)
    else:
        _start_turn(work, active[0])


def _require_turn(state: ClassicState, seat: int) -> ClassicPlayer:
    if state.phase != "turn":
        raise InvalidMove("no hand is being played")
    player = state.player(seat)
    if state.turn != seat:
        raise InvalidMove("it is not your turn")
    return player


def _pick(work: _Turn, seat: int, source: Literal["closed", "open"], *, auto: bool) -> Card:
    state = work.state
    if state.picked:
        raise InvalidMove("you have already picked a card this turn")
    if source == "closed":
        if not state.stock:
            raise InvalidMove("the stock is empty")
        card, rest = state.stock[0], state.stock[1:]
        work.set(stock=rest, picked=True)
    else:
        if not state.discard:
            raise InvalidMove("the discard pile is empty")
        card, pile = state.discard[-1], state.discard[:-1]
        work.set(discard=pile, picked=True)
    player = work.state.player(seat)
    work.set(picked_card=card, picked_from=source)
    work.update_player(seat, hand=(*player.hand, card))
    work.events.append(CardPicked(seat, source, card, auto))
    return card


def _check_remaining(work: _Turn, remaining: tuple[Card, ...]) -> None:
    if not remaining and not work.settings.go_out_by_melding:
        raise InvalidMove("keep a card to discard: you go out by discarding your last card")


def _lay_down(work: _Turn, action: LayDown) -> None:
    state = work.state
    player = _require_turn(state, action.seat)
    if not state.picked:
        raise InvalidMove("pick a card first")
    if not action.melds:
        raise InvalidMove("lay down at least one meld")
    new: list[TableMeld] = []
    meld_id = state.next_meld_id
    for group in action.melds:
        cards = tuple(group)
        _check_no_jokers(cards)
        found = classify_meld(cards, work.settings)
        if found is None:
            raise InvalidMove(f"{' '.join(_codes(cards))} is not a set or a run")
        new.append(TableMeld(meld_id, found[0], found[1], action.seat))
        meld_id += 1
    remaining = _remove(player.hand, [card for group in action.melds for card in group])
    _check_remaining(work, remaining)
    work.update_player(action.seat, hand=remaining)
    work.set(melds=(*state.melds, *new), next_meld_id=meld_id, turn_melded=True)
    work.events.append(MeldsLaidDown(action.seat, tuple(new)))
    if not remaining:
        _go_out(work, action.seat, by="meld", rummy=not player.melded)


def _lay_off(work: _Turn, action: LayOff) -> None:
    state = work.state
    player = _require_turn(state, action.seat)
    if not state.picked:
        raise InvalidMove("pick a card first")
    if action.end not in (None, "low", "high"):
        raise InvalidMove(f"unknown run end {action.end!r}")
    target = next((meld for meld in state.melds if meld.id == action.meld_id), None)
    if target is None:
        raise InvalidMove(f"there is no meld {action.meld_id} on the table")
    cards = tuple(action.cards)
    remaining = _remove(player.hand, cards)
    grown = replace(target, cards=lay_off_result(target, cards, work.settings, action.end))
    _check_remaining(work, remaining)
    work.update_player(action.seat, hand=remaining)
    work.set(
        melds=tuple(grown if meld.id == target.id else meld for meld in state.melds),
        turn_melded=True,
    )
    work.events.append(CardsLaidOff(action.seat, cards, grown))
    if not remaining:
        _go_out(work, action.seat, by="meld", rummy=not player.melded)


def _discard(work: _Turn, seat: int, card: Card, *, auto: bool) -> None:
    state = work.state
    player = state.player(seat)
    if not state.picked:
        raise InvalidMove("pick a card before discarding")
    remaining = _remove(player.hand, [card])
    _spend_time(work, seat)
    work.update_player(
        seat,
        hand=remaining,
        melded=player.melded or state.turn_melded,
        missed=player.missed if auto else 0,
    )
    work.set(discard=(*state.discard, card))
    work.events.append(CardDiscarded(seat, card, auto))
    if not remaining:
        _go_out(work, seat, by="discard", rummy=not player.melded)
    else:
        _advance(work, seat)


def _go_out(work: _Turn, seat: int, *, by: Literal["discard", "meld"], rummy: bool) -> None:
    """``seat`` has no card left: it wins the hand; ``rummy`` when it had not laid down or off
    in an earlier turn of the hand."""
    if by == "meld":
        _spend_time(work, seat)
        work.update_player(seat, melded=True)
    work.events.append(WentOut(seat, rummy, by))
    _end_hand(work, winner=seat, reason="rummy" if rummy else "went_out")


def _active(state: ClassicState) -> list[int]:
    return [p.seat for p in state.players if p.in_hand]


def _end_short_hand(work: _Turn, active: list[int]) -> None:
    """Fewer than two players still take turns: the last one wins the hand ("last_player");
    with nobody left the hand has no winner ("exhausted")."""
    if active:
        _end_hand(work, winner=active[0], reason="last_player")
    else:
        _end_hand(work, winner=None, reason="exhausted")


def _advance(work: _Turn, after: int) -> None:
    """Pass the turn clockwise after ``after``; refill the stock first when it is empty."""
    state = work.state
    active = _active(state)
    if len(active) < 2:
        _end_short_hand(work, active)
        return
    if not state.stock:
        limit = work.settings.max_reshuffles
        if len(state.discard) < 2 or (limit is not None and state.reshuffles >= limit):
            _end_hand(work, winner=None, reason="exhausted")
            return
        number = state.reshuffles + 1
        top = state.discard[-1]
        order = seeded_shuffle(state.discard[:-1], state.seed, f"reshuffle:{number}")
        work.set(stock=order, discard=(top,), reshuffles=number)
        work.events.append(DeckReshuffled(number, len(order)))
    nxt = _next_seat(work.state, after, eligible=active)
    assert nxt is not None
    _start_turn(work, nxt)


def _end_hand(work: _Turn, *, winner: int | None, reason: str) -> None:
    """Score the hand. ``reason``: "went_out", "rummy" (losers add the bonus), "last_player"
    (everyone else is out of the hand) or "exhausted" (no winner, nobody adds anything)."""
    state = work.state
    settings = work.settings
    rummy = reason == "rummy"
    scores: dict[int, int] = {}
    for player in state.players:
        if not player.hand and player.seat != winner:
            continue  # not dealt in this hand (left before it)
        if winner is None or player.seat == winner:
            scores[player.seat] = 0
        else:
            bonus = settings.rummy_bonus if rummy else 0
            scores[player.seat] = hand_points(player.hand, settings) + bonus
    players = tuple(
        replace(p, total=p.total + scores.get(p.seat, 0), in_hand=False) for p in state.players
    )
    result = HandResult(state.hand_no, winner, reason, tuple(sorted(scores.items())))
    work.set(
        players=players,
        results=(*state.results, result),
        turn=None,
        picked=False,
        picked_card=None,
        picked_from=None,
        turn_melded=False,
        turn_started=None,
    )
    work.events.append(
        HandsShown(state.hand_no, {p.seat: p.hand for p in players if p.seat in scores})
    )
    work.events.append(
        DealEnded(
            number=state.hand_no,
            winner=winner,
            reason=reason,
            scores=dict(sorted(scores.items())),
            totals={p.seat: p.total for p in players},
        )
    )
    staying = [p.seat for p in players if not p.left]
    if state.hand_no >= settings.hands or len(staying) < 2:
        _end_game(work)
        return
    starter = _next_seat(work.state, state.starter, eligible=staying)
    assert starter is not None
    deadline = work.now + settings.break_s
    work.set(phase="break", starter=starter, deadline=deadline, deadline_kind="break")
    work.events.append(BreakStarted(deadline))


def _end_game(work: _Turn) -> None:
    state = work.state
    settings = work.settings
    pool = prize_pool(settings.entry_fee, len(state.seats), settings.platform_fee_bps)
    placed = {p.seat: p.total for p in state.players if not p.left}
    split = ring_payout(
        placed,
        pool.net,
        gap_limit=settings.payout_gap_limit,
        share_bps=settings.runner_up_share_bps,
    )
    payouts = {seat: amount for seat, amount in sorted(split.items()) if amount > 0}
    work.set(
        phase="ended",
        turn=None,
        picked=False,
        picked_card=None,
        picked_from=None,
        turn_melded=False,
        turn_started=None,
        deadline=None,
        deadline_kind=None,
        players=tuple(replace(p, in_hand=False) for p in state.players),
        payouts=tuple(payouts.items()),
        fee=pool.fee,
        prize=pool.net,
    )
    work.events.append(
        GameEnded(
            reason="ring",
            winners=tuple(payouts),
            payouts=payouts,
            fee=pool.fee,
            gross=pool.gross,
        )
    )


DropReason: TypeAlias = Literal["missed_turns", "disconnect", "leave"]


def _drop(work: _Turn, seat: int, reason: DropReason) -> None:
    """``seat`` takes no more turns in this hand (``Dropped.score``: the points it holds now;
    ``DealEnded.scores`` adds the rummy bonus if the winner goes rummy)."""
    work.update_player(seat, in_hand=False)
    hand = work.state.player(seat).hand
    work.events.append(Dropped(seat, reason, hand_points(hand, work.settings)))


def _remove_from_hand(work: _Turn, seat: int, reason: DropReason) -> None:
    """``seat`` stops taking turns in this hand; pass the turn on if it was theirs."""
    state = work.state
    if state.phase != "turn" or not state.player(seat).in_hand:
        return
    was_turn = state.turn == seat
    if was_turn:
        _spend_time(work, seat)
    _drop(work, seat, reason)
    if was_turn:
        _advance(work, seat)
    else:
        active = _active(work.state)
        if len(active) < 2:
            _end_short_hand(work, active)


def _leave(work: _Turn, seat: int) -> None:
    """``seat`` leaves the ring game: out of the current hand (its cards count against it),
    no further hands, no payout. With fewer than two players left the game ends."""
    if work.state.player(seat).left:
        raise InvalidMove("you have already left")
    work.update_player(seat, left=True, connected=False)
    work.events.append(PlayerLeft(seat))
    _remove_from_hand(work, seat, "leave")
    state = work.state
    staying = [p.seat for p in state.players if not p.left]
    if state.phase == "turn" and len(staying) < 2:
        _end_hand(work, winner=staying[0], reason="last_player")
    elif state.phase == "break" and len(staying) < 2:
        _end_game(work)
    elif state.phase == "break" and state.starter == seat:
        starter = _next_seat(state, seat, eligible=staying)
        assert starter is not None
        work.set(starter=starter)


def _timeout(work: _Turn) -> None:
    """A missed turn: the server picks from the stock (unless the player has picked) and
    discards the card picked this turn (the highest-value card if that was melded)."""
    state = work.state
    if state.deadline is None:
        raise InvalidMove("no timer is running")
    if work.now < state.deadline:
        raise InvalidMove("the timer has not run out yet")
    if state.phase == "break":
        raise InvalidMove("the break is over: start the next hand with StartDeal")
    seat = state.turn
    assert seat is not None
    if not state.picked:
        card = _pick(work, seat, "closed", auto=True)
    else:
        hand = work.state.player(seat).hand
        last = work.state.picked_card
        card = last if last is not None and last in hand else _highest(hand, work.settings)
    missed = work.state.player(seat).missed + 1
    work.update_player(seat, missed=missed)
    work.events.append(TurnMissed(seat, missed))
    hand_before = work.state.hand_no
    _discard(work, seat, card, auto=True)
    after = work.state
    if (
        after.phase == "turn"
        and after.hand_no == hand_before
        and missed >= work.settings.missed_turns_limit
        and after.player(seat).in_hand
    ):
        _drop(work, seat, "missed_turns")
        active = _active(work.state)
        if len(active) < 2:
            _end_short_hand(work, active)


def _highest(hand: tuple[Card, ...], settings: ClassicSettings) -> Card:
    return max(hand, key=lambda card: (card_points(card, settings), card))


def classic_apply(
    state: ClassicState, action: Action, *, now: float
) -> Transition[ClassicState, Event]:
    """Apply one action at time ``now``. Returns the new state and the events; an illegal
    action raises ``InvalidMove`` and changes nothing."""
    work = _Turn(state, now)
    if state.phase == "ended":
        raise InvalidMove("the game is over")
    handler_for(_HANDLERS, action)(work, action)
    return work.done()


def _start_deal(work: _Turn, action: Any) -> None:
    if work.state.phase != "break":
        raise InvalidMove("a hand is already being played")
    _deal(work, action)


def _pick_action(work: _Turn, action: Any) -> None:
    _require_turn(work.state, action.seat)
    _pick(work, action.seat, "closed" if isinstance(action, PickClosed) else "open", auto=False)


def _discard_action(work: _Turn, action: Any) -> None:
    _require_turn(work.state, action.seat)
    _discard(work, action.seat, parse_card(action.card), auto=False)


def _set_connected(work: _Turn, action: Any) -> None:
    player = work.state.player(action.seat)
    if player.left:
        raise InvalidMove("that player has left")
    if player.connected != action.connected:
        work.update_player(action.seat, connected=action.connected)
        work.events.append(ConnectionChanged(action.seat, action.connected))
        if not action.connected and work.settings.disconnect_policy == "drop":
            _remove_from_hand(work, action.seat, "disconnect")


_HANDLERS: dict[type, Callable[[_Turn, Any], None]] = {
    StartDeal: _start_deal,
    PickClosed: _pick_action,
    PickOpen: _pick_action,
    LayDown: _lay_down,
    LayOff: _lay_off,
    Discard: _discard_action,
    Timeout: lambda work, action: _timeout(work),
    Leave: lambda work, action: _leave(work, action.seat),
    SetConnected: _set_connected,
}


# --------------------------------------------------------------------------------------------
# View
# --------------------------------------------------------------------------------------------


def legal_actions(state: ClassicState, seat: int | None) -> tuple[str, ...]:
    """The action types ``seat`` may send now (``None``: the server's own actions). A listed
    action can still be refused for its arguments (a card not held, cards that are no meld)."""
    if state.phase == "ended":
        return ()
    if seat is None:
        if state.phase == "break":
            return (StartDeal.type,)
        return (Timeout.type,) if state.deadline is not None else ()
    player = next((p for p in state.players if p.seat == seat), None)
    if player is None or player.left:
        return ()
    allowed: list[str] = []
    if state.phase == "turn" and state.turn == seat:
        if not state.picked:
            allowed += [PickClosed.type] if state.stock else []
            allowed += [PickOpen.type] if state.discard else []
        else:
            allowed.append(LayDown.type)
            if state.melds:
                allowed.append(LayOff.type)
            allowed.append(Discard.type)
    allowed.append(Leave.type)
    return tuple(allowed)


def _scores_json(scores: Iterable[tuple[int, int]]) -> list[dict[str, int]]:
    return [{"seat": seat, "points": points} for seat, points in scores]


def classic_view(state: ClassicState, viewer: int | None) -> dict[str, Any]:
    """What ``viewer`` (a seat, or ``None`` for a spectator) may see, as a JSON-ready dict, with
    the keys of ``game_view`` where they mean the same (see docs/classic-rummy.md).

    Table melds, the top of the discard pile, counts, totals and results are public; a hand
    only to its owner while the hand is played; after a hand every scored hand is shown in
    ``last_deal``. Never the stock's order nor the reshuffle seed."""
    settings = state.settings
    pool = prize_pool(settings.entry_fee, len(state.seats), settings.platform_fee_bps)
    players = [
        {
            "seat": p.seat,
            "status": "left" if p.left else "in",
            "total": p.total,
            "extra_time": p.bank,
            "connected": p.connected,
            "in_deal": p.in_hand or bool(p.hand),
            "deal_status": "playing" if p.in_hand else ("out" if p.hand else None),
            "card_count": len(p.hand),
            "missed_turns": p.missed,
            "melded": p.melded or (state.turn == p.seat and state.turn_melded),
        }
        for p in state.players
    ]
    deal_view: dict[str, Any] | None = None
    hand_view: dict[str, Any] | None = None
    if state.phase == "turn":
        deal_view = {
            "number": state.hand_no,
            "starter": state.starter,
            "open_top": state.discard[-1].code if state.discard else None,
            "open_count": len(state.discard),
            "closed_count": len(state.stock),
            "reshuffles": state.reshuffles,
            "turn": state.turn,
            "turn_picked": state.picked,
            "picked_open_card": (
                state.picked_card.code
                if state.picked_card is not None and state.picked_from == "open"
                else None
            ),
            "melds": [meld.to_json() for meld in state.melds],
        }
        if viewer is not None and viewer in state.seats:
            own = state.player(viewer)
            if own.hand:
                hand_view = {
                    "cards": _codes(own.hand),
                    "picked": (
                        state.picked_card.code
                        if state.turn == viewer and state.picked_card is not None
                        else None
                    ),
                    "status": "playing" if own.in_hand else "out",
                    "points": hand_points(own.hand, settings),
                }
    last_deal: dict[str, Any] | None = None
    if state.phase != "turn" and state.results:
        last = state.results[-1]
        last_deal = {
            "number": last.number,
            "winner": last.winner,
            "reason": last.reason,
            "results": [
                {"seat": seat, "points": points, "cards": _codes(state.player(seat).hand)}
                for seat, points in last.scores
            ],
            "melds": [meld.to_json() for meld in state.melds],
        }
    result_view: dict[str, Any] | None = None
    if state.payouts is not None:
        result_view = {
            "reason": "ring",
            "winners": [seat for seat, _ in state.payouts],
            "payouts": [{"seat": seat, "amount": amount} for seat, amount in state.payouts],
            "fee": state.fee,
            "gross": pool.gross,
        }
    return {
        "variant": settings.variant,
        "phase": state.phase,
        "deadline": state.deadline,
        "deadline_kind": state.deadline_kind,
        "viewer": viewer,
        "seats": list(state.seats),
        "deal_number": state.hand_no,
        "hands_count": settings.hands,
        "prize": {"gross": pool.gross, "fee": pool.fee, "net": pool.net},
        "players": players,
        "deal": deal_view,
        "hand": hand_view,
        "last_deal": last_deal,
        "history": [
            {
                "number": r.number,
                "winner": r.winner,
                "reason": r.reason,
                "scores": _scores_json(r.scores),
            }
            for r in state.results
        ],
        "result": result_view,
        "allowed": list(legal_actions(state, viewer)) if viewer is not None else [],
    }


def stacked_classic_shoe(
    settings: ClassicSettings,
    *,
    hands: Sequence[Iterable[CardLike]],
    open_card: CardLike,
    stock_top: Iterable[CardLike] = (),
) -> Shoe:
    """A shoe that deals exactly ``hands`` (starter first, then clockwise), turns up
    ``open_card`` and puts ``stock_top`` on top of the stock; the other cards follow in
    ``classic_shoe`` order. For replaying a known hand and for tests."""
    parsed = [_cards(hand) for hand in hands]
    if not parsed or any(len(hand) != settings.hand_size for hand in parsed):
        raise InvalidMove(f"every hand must have {settings.hand_size} cards")
    head = [parsed[p][i] for i in range(settings.hand_size) for p in range(len(parsed))]
    head += [parse_card(open_card), *_cards(stock_top)]
    rest = Counter(classic_shoe(settings))
    rest.subtract(head)
    extra = sorted({card.code for card, n in rest.items() if n < 0})
    if extra:
        raise InvalidMove(f"more copies than the packs hold: {', '.join(extra)}")
    tail: list[Card] = []
    for card in classic_shoe(settings):
        if rest[card] > 0:
            rest[card] -= 1
            tail.append(card)
    return Shoe((*head, *tail))


# --------------------------------------------------------------------------- computer players


def _candidate_melds(hand: Sequence[Card], settings: ClassicSettings) -> list[tuple[Card, ...]]:
    """Sets and runs that can be laid down from ``hand`` (each checked by ``classify_meld``)."""
    found: list[tuple[Card, ...]] = []
    by_rank: dict[int, list[Card]] = {}
    by_suit: dict[str, list[Card]] = {}
    for card in hand:
        by_rank.setdefault(card.rank, []).append(card)
        by_suit.setdefault(card.suit, []).append(card)
    for cards in by_rank.values():
        group = (
            cards if settings.set_suits_may_repeat else list({c.suit: c for c in cards}.values())
        )
        if settings.largest_set is not None:
            group = group[: settings.largest_set]
        if len(group) >= MIN_MELD:
            found.append(tuple(group))
    for suit_cards in by_suit.values():
        ranks = {c.rank: c for c in suit_cards}
        positions = sorted(ranks) + ([KING + 1] if settings.ace_high and ACE in ranks else [])
        if not settings.ace_low and ACE in ranks:
            positions.remove(ACE)
        run: list[int] = []
        for pos in [*positions, -1]:
            if run and pos == run[-1] + 1:
                run.append(pos)
                continue
            if len(run) >= MIN_MELD:
                found.append(tuple(ranks[ACE if p == KING + 1 else p] for p in run))
            run = [pos]
    return [meld for meld in found if classify_meld(meld, settings) is not None]


def bot_meld_action(
    hand: Sequence[CardLike], melds: Sequence[TableMeld], settings: ClassicSettings
) -> tuple[str, Any] | None:
    """A simple computer player's next meld move after drawing, shedding the most penalty points
    first: ``("lay_down", cards)`` or ``("lay_off", (card, meld_id))``, or ``None``. It keeps a
    card to discard unless going out by melding is allowed."""
    cards = _cards(hand)
    keep = 0 if settings.go_out_by_melding else 1
    candidates = [m for m in _candidate_melds(cards, settings) if len(cards) - len(m) >= keep]
    if candidates:
        best = max(candidates, key=lambda m: (hand_points(m, settings), len(m)))
        return ("lay_down", best)
    if len(cards) - 1 < keep:
        return None
    for card in sorted(cards, key=lambda c: (card_points(c, settings), c), reverse=True):
        for meld in melds:
            try:
                lay_off_result(meld, [card], settings)
            except RulesError:
                continue
            return ("lay_off", (card, meld.id))
    return None
