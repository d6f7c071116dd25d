"""How the search's melds become the groups of a hand (for ``evaluate``): the cards of each
meld, the jokers handed out (the leftover ones to a group of their own, an impure sequence, a
pure one or the sets' room) and sequences put in rank order for display."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Protocol

from .cards import ACE, Card
from .melds import MeldSettings

# A search meld: (mask of naturals, jokers taken, is a sequence, is pure, room in a set).
_Meld = tuple[int, int, int, int, int]


class _Solver(Protocol):
    """What ``build_groups`` reads of the search (``evaluate._Solver``)."""

    @property
    def n(self) -> int: ...
    @property
    def full(self) -> int: ...
    @property
    def naturals(self) -> Sequence[Card]: ...
    @property
    def wilds(self) -> Sequence[Card]: ...
    @property
    def printed(self) -> Sequence[Card]: ...
    @property
    def settings(self) -> MeldSettings: ...


_SUIT_INDEX: Final[dict[str, int]] = {"S": 0, "H": 1, "D": 2, "C": 3}


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _sequence_order(cards: list[Card], jokers: list[Card]) -> tuple[Card, ...]:
    """Cards of a sequence in rank order with the jokers in the gaps (for display)."""
    ranks = [c.rank for c in cards]
    high_ace = ACE in ranks and (
        max((14 if r == ACE else r) for r in ranks) - min((14 if r == ACE else r) for r in ranks)
        < max(ranks) - min(ranks)
    )
    placed = sorted(cards, key=lambda c: 14 if high_ace and c.rank == ACE else c.rank)
    positions = [14 if high_ace and c.rank == ACE else c.rank for c in placed]
    spare = list(jokers)
    out: list[Card] = []
    for index, card in enumerate(placed):
        if index:
            for _ in range(positions[index] - positions[index - 1] - 1):
                out.append(spare.pop())
        out.append(card)
    low, high = (positions[0], positions[-1]) if positions else (2, 1)
    while spare and high < 14 and not (low == ACE and high == 13):
        out.append(spare.pop())
        high += 1
    return tuple(spare) + tuple(out)


def build_groups(
    solver: _Solver, melds: list[_Meld], loose: int, left: int, declare: bool
) -> tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """Turn search melds (bit masks and joker counts) into groups of the hand's cards."""
    n = solver.n
    naturals = solver.naturals
    used_wilds = 0
    for meld in melds:
        used_wilds |= meld[0] >> n
    pure_count = sum(meld[3] for meld in melds)
    seq_count = sum(meld[2] for meld in melds)
    generic_wilds = [w for b, w in enumerate(solver.wilds) if not used_wilds >> b & 1]
    group_ok = left >= 3 and (solver.settings.allow_joker_only_groups or bool(generic_wilds))
    impure = any(meld[2] and not meld[3] for meld in melds)
    # Where the leftover jokers go: a group of their own when it is the second sequence (or
    # nothing else takes them), else an impure sequence, a pure one (when there are two), sets.
    if left and group_ok and pure_count >= 1 and seq_count < 2:
        plan = "group"
    elif left and impure:
        plan = "impure"
    elif left and pure_count >= 2:
        plan = "pure"
    elif left and group_ok and declare:
        plan = "group"
    else:
        plan = "sets"
    pool = list(solver.printed) + generic_wilds  # printed jokers are handed out first
    joker_group: list[Card] = []
    if plan == "group" and not solver.settings.allow_joker_only_groups:
        joker_group.append(generic_wilds[-1])
        pool.remove(generic_wilds[-1])
    groups: list[tuple[int, list[Card], list[Card], int]] = []  # (order, naturals, jokers, room)
    for mask, need, seq, is_pure, room in melds:
        cards = [naturals[b] for b in _bits(mask & solver.full)]
        standing = [solver.wilds[b] for b in _bits(mask >> n)]
        cards += standing
        jokers = [pool.pop(0) for _ in range(need - len(standing))]
        groups.append((0 if is_pure else 1 if seq else 2, cards, jokers, room))
    spare = pool
    if plan == "group":
        joker_group += spare
        spare = []
    elif plan in ("impure", "pure"):
        kind = 1 if plan == "impure" else 0
        targets = [g for g in groups if g[0] == kind and len(g[1]) + len(g[2]) + len(spare) <= 13]
        if targets:
            targets[-1][2].extend(spare)
            spare = []
    if spare:
        for order, _cards, jokers, room in groups:
            if order == 2:
                while room and spare:
                    jokers.append(spare.pop())
                    room -= 1
    out: list[tuple[Card, ...]] = []
    for order, cards, jokers, _room in sorted(groups, key=lambda g: g[0]):
        if order == 2:
            out.append(tuple(sorted(cards, key=lambda c: _SUIT_INDEX[c.suit])) + tuple(jokers))
        else:
            out.append(_sequence_order(cards, jokers))
    if joker_group:
        out.append(tuple(joker_group))
    rest = [naturals[b] for b in _bits(loose)] + spare
    return tuple(out), tuple(rest)
