"""Helpers for the 13-card game tests: planted shoes with known hands and scripted deals.

A planted deal gives the winner a valid declaration (spades Ace to Queen and a wild King) and
each loser an arrangement whose count is exactly the wanted number: pure sequences of the
loser's own suit, the rest loose cards (one card a group) whose points add up to the number.
The turned-up card is ``KD``, so every King is wild and no loser card is a joker.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from tables.rules.cards import Card, parse_card, parse_cards
from tables.rules.game import (
    Declare,
    Discard,
    Event,
    GameState,
    Groups,
    PickClosed,
    StartDeal,
    SubmitMeld,
    Timeout,
    Transition,
    game_apply,
)
from tables.rules.melds import count_points
from tables.rules.settings import GameSettings
from tables.rules.shoe import Shoe, build_cards, new_shoe, stacked_shoe

CUT = "KD"
OPEN = "5C"
WINNER_GROUPS: Groups = tuple(
    tuple(parse_cards(group)) for group in ("AS 2S 3S 4S", "5S 6S 7S", "8S 9S 10S", "JS QS KH")
)
MELD_RANKS = ((10, 11, 12), (7, 8, 9), (4, 5, 6), (1, 2, 3))
LOSER_SUITS = ("H", "D", "C", "S")
_VALUE_RANKS = {v: (v,) for v in range(2, 10)} | {10: (10, 11, 12, 1)}


def _rng_zero(_: int) -> int:
    return 0


def any_shoe(settings: GameSettings) -> Shoe:
    """A valid shoe in a fixed order (to discover a deal's seat order)."""
    return new_shoe(settings, randbelow=_rng_zero)


def _meld_count(target: int) -> int:
    if 14 <= target <= 70:
        return 2
    if 8 <= target < 14:
        return 3
    if 2 <= target < 8:
        return 4
    if 71 <= target <= 130:
        return 0
    raise ValueError(f"cannot plant a count of {target}")


def _take_melds(target: int, suit: str, pool: Counter[Card]) -> list[tuple[Card, ...]]:
    groups = []
    for ranks in MELD_RANKS[: _meld_count(target)]:
        cards = tuple(Card(rank, suit) for rank in ranks)
        for card in cards:
            _take(pool, card)
        groups.append(cards)
    return groups


def _add_loose(target: int, melds: list[tuple[Card, ...]], pool: Counter[Card]) -> Groups:
    loose = 13 - 3 * len(melds)
    values = _loose_values(target, loose, {v: _free(v, pool) for v in _VALUE_RANKS})
    if values is None:
        raise ValueError(f"not enough cards left for a count of {target}")
    return (*melds, *((_loose_card(value, pool),) for value in values))


def loser_arrangement(target: int, suit: str, pool: Counter[Card]) -> Groups:
    """13 cards whose count (uncapped) is exactly ``target`` (2..130), taken out of ``pool``:
    pure sequences of ``suit`` and loose cards, one a group."""
    return _add_loose(target, _take_melds(target, suit, pool), pool)


def _loose_values(target: int, slots: int, free: dict[int, int]) -> list[int] | None:
    """``slots`` card values (2..10) adding up to ``target`` within the copies ``free``."""
    if slots == 0:
        return [] if target == 0 else None
    mean = target / slots
    for value in sorted(_VALUE_RANKS, key=lambda v: abs(v - mean)):
        left = target - value
        if free[value] <= 0 or not 2 * (slots - 1) <= left <= 10 * (slots - 1):
            continue
        free[value] -= 1
        rest = _loose_values(left, slots - 1, free)
        free[value] += 1
        if rest is not None:
            return [value, *rest]
    return None


def _free(value: int, pool: Counter[Card]) -> int:
    return sum(pool[Card(rank, suit)] for rank in _VALUE_RANKS[value] for suit in "CDHS")


def _take(pool: Counter[Card], card: Card) -> None:
    if pool[card] <= 0:
        raise ValueError(f"no copy of {card.code} left")
    pool[card] -= 1


def _loose_card(value: int, pool: Counter[Card]) -> Card:
    for rank in _VALUE_RANKS[value]:
        for suit in ("C", "D", "H", "S"):
            card = Card(rank, suit)
            if pool[card] > 0:
                pool[card] -= 1
                return card
    raise ValueError(f"no card worth {value} left")


@dataclass
class DealPlan:
    shoe: Shoe
    order: tuple[int, ...]
    groups: dict[int, Groups]


def plan_deal(
    settings: GameSettings,
    order: Sequence[int],
    *,
    winner: int | None,
    counts: Mapping[int, int],
    closed_top: Sequence[str] = (),
) -> DealPlan:
    """A shoe dealing ``order`` (starter first): ``winner`` gets a valid declaration, each seat of
    ``counts`` an arrangement counting exactly that much. Seats in neither get a count of 50."""
    pool: Counter[Card] = Counter(build_cards(settings))
    for code in (CUT, OPEN, *closed_top):
        _take(pool, parse_card(code))
    groups: dict[int, Groups] = {}
    if winner is not None:
        for group in WINNER_GROUPS:
            for card in group:
                _take(pool, card)
        groups[winner] = WINNER_GROUPS
    losers = [seat for seat in order if seat != winner]
    melds = {
        seat: _take_melds(counts.get(seat, 50), LOSER_SUITS[i], pool)
        for i, seat in enumerate(losers)
    }
    for seat in losers:
        groups[seat] = _add_loose(counts.get(seat, 50), melds[seat], pool)
    hands = [[card for group in groups[seat] for card in group] for seat in order]
    shoe = stacked_shoe(
        settings, hands=hands, open_card=OPEN, cut_card=CUT, closed_top=list(closed_top)
    )
    return DealPlan(shoe, tuple(order), groups)


def deal_order(state: GameState, now: float) -> tuple[int, ...]:
    """The seat order (starter first) the next deal will have."""
    probe = game_apply(state, StartDeal(any_shoe(state.settings)), now=now).state
    assert probe.deal is not None
    return probe.deal.seats


@dataclass
class Played:
    state: GameState
    events: list[Event] = field(default_factory=list)
    now: float = 0.0

    def apply(self, action: object) -> Transition:
        result = game_apply(self.state, action, now=self.now)  # type: ignore[arg-type]
        self.state = result.state
        self.events.extend(result.events)
        self.now += 1.0
        return result

    def of_type(self, kind: type) -> list[Event]:
        return [event for event in self.events if isinstance(event, kind)]

    def timeout(self) -> Transition:
        assert self.state.deadline is not None
        self.now = max(self.now, self.state.deadline)
        return self.apply(Timeout())

    def pass_turn(self) -> None:
        """The player on turn picks from the closed deck and throws the same card."""
        deal = self.state.deal
        assert deal is not None and deal.turn is not None
        seat = deal.turn
        self.apply(PickClosed(seat))
        assert self.state.deal is not None and self.state.deal.picked is not None
        self.apply(Discard(seat, self.state.deal.picked))


def start_planned_deal(
    played: Played,
    *,
    winner: int | None,
    counts: Mapping[int, int],
    closed_top: Sequence[str] = (),
) -> DealPlan:
    """Start the next deal of ``played`` with a planted shoe (ending a running break first)."""
    if played.state.phase == "break":
        played.timeout()
    order = deal_order(played.state, played.now)
    plan = plan_deal(
        played.state.settings, order, winner=winner, counts=counts, closed_top=closed_top
    )
    played.apply(StartDeal(plan.shoe))
    return plan


def play_planned_deal(
    played: Played,
    *,
    winner: int,
    counts: Mapping[int, int],
    deal_show: bool = False,
) -> DealPlan:
    """Play a whole deal: everybody passes until ``winner`` (after everyone has had a turn, or
    at once with ``deal_show``) picks and declares; the losers submit their planted groups."""
    plan = start_planned_deal(played, winner=winner, counts=counts)
    while played.state.phase == "turn":
        deal = played.state.deal
        assert deal is not None and deal.turn is not None
        everyone_played = all(h.turns > 0 for h in deal.hands if h.seat != winner)
        if deal.turn == winner and (deal_show or everyone_played):
            played.apply(PickClosed(winner))
            assert played.state.deal is not None and played.state.deal.picked is not None
            played.apply(Declare(winner, played.state.deal.picked, plan.groups[winner]))
            break
        played.pass_turn()
    assert played.state.phase == "meld", played.state.phase
    deal = played.state.deal
    assert deal is not None
    for hand in deal.hands:
        if hand.status == "playing":
            played.apply(SubmitMeld(hand.seat, plan.groups[hand.seat]))
    return plan


def test_planted_arrangements_count_exactly() -> None:
    settings = GameSettings.for_variant("pool101")
    for target in (2, 7, 8, 13, 14, 34, 48, 70, 71, 80, 99, 130):
        pool: Counter[Card] = Counter(build_cards(settings))
        groups = loser_arrangement(target, "H", pool)
        assert sum(len(g) for g in groups) == 13
        assert count_points(groups, CUT) == target


def test_planted_deal_hands_are_dealt_as_planned() -> None:
    settings = GameSettings.for_variant("pool101")
    plan = plan_deal(settings, (2, 3, 1), winner=3, counts={1: 34, 2: 48})
    state = Played(state=_new(settings, (1, 2, 3), toss=2)).state
    state = game_apply(state, StartDeal(plan.shoe), now=0).state
    assert state.deal is not None
    assert state.deal.seats == (2, 3, 1)
    for hand in state.deal.hands:
        assert Counter(hand.cards) == Counter(c for g in plan.groups[hand.seat] for c in g)


def _new(settings: GameSettings, seats: Sequence[int], toss: int) -> GameState:
    from tables.rules.game import game_new

    return game_new(settings=settings, seats=list(seats), now=0.0, toss=toss)
