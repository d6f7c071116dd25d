"""A slow, literal brute-force evaluator used only to check ``tables.rules.evaluate``.

It shares no code with the engine's search: every card (jokers too) is a separate item, every
subset of the hand is tested against the rule book's definitions by trying each window of ranks
in each suit (or each rank for a set), and the arrangements are all collections of disjoint
melds, searched with a memo over the cards still free.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from tables.rules.cards import Card

SUITS = ("S", "H", "D", "C")
NOT_FOUND = 10**9


@dataclass(frozen=True)
class Rules:
    wild: int  # the wild rank (1 = Aces when the cut card is a printed joker)
    largest_set: int = 4
    allow_joker_only_groups: bool = False


def _positions(rank: int) -> tuple[int, ...]:
    """Where a card of this rank may sit in a sequence (an Ace low or high)."""
    return (1, 14) if rank == 1 else (rank,)


def _wild(card: Card, rules: Rules) -> bool:
    return card.rank == 0 or card.rank == rules.wild


def _as_sequence(cards: Sequence[Card], rules: Rules, pure: bool) -> bool:
    """Try every suit and every window of ``len(cards)`` ranks (1 = low Ace ... 14 = high Ace,
    never both). Each card must fill a different place: non-jokers their own place, a wild-rank
    card its own place or (not when ``pure``) any place, a printed joker (not when ``pure``) any.
    """
    size = len(cards)
    if size < 3 or size > 13:
        return False
    natural_suits = {card.suit for card in cards if not _wild(card, rules)}
    for suit in natural_suits or SUITS:
        for low in range(1, 16 - size):
            window = set(range(low, low + size))
            if 1 in window and 14 in window:
                continue
            taken: set[int] = set()
            stand_ins = 0
            itself = 0
            ok = True
            # Cards that must stand as themselves first.
            for card in cards:
                if not _wild(card, rules):
                    spots = [p for p in _positions(card.rank) if p in window and p not in taken]
                    if card.suit != suit or not spots:
                        ok = False
                        break
                    taken.add(spots[0])
                    itself += 1
            if not ok:
                continue
            for card in cards:
                if _wild(card, rules):
                    spots = [
                        p
                        for p in _positions(card.rank)
                        if card.rank != 0 and card.suit == suit and p in window and p not in taken
                    ]
                    if spots and (pure or itself == 0):
                        taken.add(spots[0])
                        itself += 1
                    elif pure:
                        ok = False
                        break
                    else:
                        stand_ins += 1
            if not ok:
                continue
            if itself == 0 and not rules.allow_joker_only_groups:
                continue
            if itself + stand_ins == size:
                return True
    return False


def _as_set(cards: Sequence[Card], rules: Rules) -> bool:
    size = len(cards)
    if size < 3 or size > rules.largest_set:
        return False
    for rank in range(1, 14):
        suits: list[str] = []
        ok = True
        for card in cards:
            if not _wild(card, rules):
                if card.rank != rank or card.suit in suits:
                    ok = False
                    break
                suits.append(card.suit)
        if not ok:
            continue
        # Only jokers: one wild-rank card of this rank must stand as itself (or the setting).
        if (
            not suits
            and not rules.allow_joker_only_groups
            and not any(card.rank == rank and card.rank != 0 for card in cards)
        ):
            continue
        return True
    return False


def meld_kind(cards: Sequence[Card], rules: Rules) -> str | None:
    """ "pure", "sequence", "set", or None, read in that order of preference."""
    if _as_sequence(cards, rules, pure=True):
        return "pure"
    if _as_sequence(cards, rules, pure=False):
        return "sequence"
    if _as_set(cards, rules):
        return "set"
    return None


def card_value(card: Card, rules: Rules) -> int:
    if _wild(card, rules):
        return 0
    return 10 if card.rank in (1, 11, 12, 13) else card.rank


@dataclass(frozen=True)
class OracleResult:
    points: int
    can_declare: bool


def _all_melds(
    hand: Sequence[Card], rules: Rules
) -> tuple[list[Card], list[int], list[list[tuple[int, str]]]]:
    """The hand sorted, each card's value, and every meld (a mask over the sorted hand and its
    kind) filed under its lowest card."""
    # Non-jokers sorted by suit then rank, jokers last: subsets grow in that order.
    hand = sorted(hand, key=lambda c: (_wild(c, rules), c.suit, c.rank))
    jokers = sum(1 for card in hand if _wild(card, rules))
    n = len(hand)
    values = [card_value(card, rules) for card in hand]

    # Every subset that is a meld, filed under its lowest card. Subsets are grown card by card
    # and abandoned when no superset can be a meld: non-jokers sharing neither one suit nor one
    # rank, a card twice, or (no Ace, which would come first) more gaps than the hand has jokers.
    melds: list[list[tuple[int, str]]] = [[] for _ in range(n)]

    def grow(start: int, mask: int, members: list[Card]) -> None:
        naturals = [c for c in members if not _wild(c, rules)]
        suits = {c.suit for c in naturals}
        ranks = {c.rank for c in naturals}
        if len(suits) > 1 and len(ranks) > 1:
            return
        if len(set(naturals)) < len(naturals):
            return
        if len(suits) == 1 and 1 not in ranks and max(ranks) - min(ranks) + 1 - len(ranks) > jokers:
            return
        if len(members) >= 3:
            kind = meld_kind(members, rules)
            if kind is not None:
                melds[(mask & -mask).bit_length() - 1].append((mask, kind))
        for j in range(start, n):
            members.append(hand[j])
            grow(j + 1, mask | 1 << j, members)
            members.pop()

    grow(0, 0, [])
    return hand, values, melds


def least_loose(hand: Sequence[Card], rules: Rules, kinds: frozenset[str]) -> int:
    """The fewest points the cards outside melds can count, melds only of these ``kinds``
    ("pure", "sequence", "set") and nothing else required."""
    hand, values, melds = _all_melds(hand, rules)

    @functools.cache
    def lowest(free: int) -> int:
        if not free:
            return 0
        first = (free & -free).bit_length() - 1
        best = values[first] + lowest(free & ~(1 << first))
        for mask, kind in melds[first]:
            if kind in kinds and mask & free == mask:
                best = min(best, lowest(free & ~mask))
        return best

    return lowest((1 << len(hand)) - 1)


def brute_force(hand: Sequence[Card], rules: Rules) -> OracleResult:
    """The lowest count of any arrangement of ``hand`` and whether it can be declared."""
    hand, values, melds = _all_melds(hand, rules)
    n = len(hand)
    total = sum(values)

    def mask_value(mask: int) -> int:
        return sum(values[i] for i in range(n) if mask >> i & 1)

    best_pure = max(
        (mask_value(mask) for group in melds for mask, kind in group if kind == "pure"),
        default=-1,
    )

    @functools.cache
    def lowest(free: int, pure: bool, sequences: int) -> int:
        """Least loose points among arrangements of ``free`` completing the requirements."""
        if not free:
            return 0 if pure and sequences >= 2 else NOT_FOUND
        first = (free & -free).bit_length() - 1
        best = values[first] + lowest(free & ~(1 << first), pure, sequences)
        for mask, kind in melds[first]:
            if mask & free == mask:
                best = min(
                    best,
                    lowest(
                        free & ~mask,
                        pure or kind == "pure",
                        min(2, sequences + (kind != "set")),
                    ),
                )
        return best

    @functools.cache
    def declarable(free: int, pure: bool, sequences: int) -> bool:
        if not free:
            return pure and sequences >= 2
        first = (free & -free).bit_length() - 1
        return any(
            declarable(free & ~mask, pure or kind == "pure", min(2, sequences + (kind != "set")))
            for mask, kind in melds[first]
            if mask & free == mask
        )

    full = (1 << n) - 1
    points = min(total, total - best_pure if best_pure >= 0 else total, lowest(full, False, 0))
    return OracleResult(points, n == 13 and declarable(full, False, 0))
