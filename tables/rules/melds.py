"""Melds, valid declarations and a loser's count in 13-card games (RULES.md sections 2 and 3).

Every function takes the turned-up wild-joker card (``cut_joker``, a ``Card`` or a code): every
card of its rank is wild, all Aces when it is a printed joker; printed jokers are always wild.
Groups are sequences of ``Card`` objects or card codes (a single string of space- or
comma-separated codes is accepted for a group too).

* ``classify_group`` tells what one group is: a pure sequence, an impure sequence, a set or not a
  meld. When a group can be read several ways it gets the most useful reading (pure sequence,
  then impure sequence, then set).
* ``check_declaration`` judges a show on the declarer's own grouping of 13 cards.
* ``count_points`` counts a loser's arrangement (uncapped; the caller applies the full-count cap).
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from .cards import ACE, JOKER_RANK, Card, CardLike, parse_card, parse_cards
from .errors import InvalidSettings, Refusal

__all__ = [
    "DECLARATION_SIZE",
    "DeclarationVerdict",
    "GroupLike",
    "MeldKind",
    "MeldSettings",
    "card_points",
    "check_declaration",
    "classify_group",
    "count_points",
    "is_joker",
    "wild_rank",
]

DECLARATION_SIZE: Final = 13
"""Cards a declarer arranges into melds (the 14th goes in the finish slot)."""

MIN_MELD: Final = 3
MAX_SEQUENCE: Final = 13
"""A sequence never has both a low and a high Ace, so it has at most 13 cards."""

GroupLike = str | Iterable[CardLike]


@dataclass(frozen=True, slots=True)
class MeldSettings:
    """The meld settings of RULES.md section 2, with the rule book's defaults.

    ``largest_set``: the most cards a set may have (at least 3).
    ``allow_joker_only_groups``: whether a group in which no card stands as itself (printed
    jokers only) is a meld; such a group then counts as an impure sequence.
    """

    largest_set: int = 4
    allow_joker_only_groups: bool = False

    def __post_init__(self) -> None:
        if (
            not isinstance(self.largest_set, int)
            or isinstance(self.largest_set, bool)
            or self.largest_set < MIN_MELD
        ):
            raise InvalidSettings(
                Refusal.SETTING_INTEGER_AT_LEAST, name="largest_set", low=MIN_MELD
            )
        if not isinstance(self.allow_joker_only_groups, bool):
            raise InvalidSettings(Refusal.SETTING_NOT_BOOL, name="allow_joker_only_groups")


DEFAULT_SETTINGS: Final = MeldSettings()


class MeldKind(enum.Enum):
    """What a group of cards is."""

    PURE_SEQUENCE = "pure_sequence"
    IMPURE_SEQUENCE = "impure_sequence"
    SET = "set"
    INVALID = "invalid"

    @property
    def is_meld(self) -> bool:
        return self is not MeldKind.INVALID

    @property
    def is_sequence(self) -> bool:
        return self is MeldKind.PURE_SEQUENCE or self is MeldKind.IMPURE_SEQUENCE


@dataclass(frozen=True, slots=True)
class DeclarationVerdict:
    """The judgement of a show: ``valid``, and ``reason``, a sentence for the players."""

    valid: bool
    reason: str


def wild_rank(cut_joker: CardLike) -> int:
    """The rank made wild by the turned-up card: its own rank, or Aces for a printed joker."""
    cut = parse_card(cut_joker)
    return ACE if cut.rank == JOKER_RANK else cut.rank


def is_joker(card: CardLike, cut_joker: CardLike) -> bool:
    """Whether ``card`` is a joker (printed, or of the wild rank) in a deal with ``cut_joker``."""
    rank = parse_card(card).rank
    return rank == JOKER_RANK or rank == wild_rank(cut_joker)


def _points(rank: int, wild: int) -> int:
    if rank in (JOKER_RANK, wild):
        return 0
    if rank == ACE or rank > 10:
        return 10
    return rank


def card_points(card: CardLike, cut_joker: CardLike) -> int:
    """A card's points in a loser's count: jokers 0, A K Q J 10, 2 to 10 face value."""
    return _points(parse_card(card).rank, wild_rank(cut_joker))


def _parse_group(group: GroupLike) -> list[Card]:
    return parse_cards(group)


def _fits_window(ranks: Sequence[int], size: int) -> bool:
    """Whether distinct ``ranks`` fit in ``size`` consecutive ranks (Ace low or high)."""
    if size > MAX_SEQUENCE:
        return False
    low, high = min(ranks), max(ranks)
    if high - low + 1 <= size:
        return True
    if low == ACE:
        high_ace = [14 if rank == ACE else rank for rank in ranks]
        return max(high_ace) - min(high_ace) + 1 <= size
    return False


def _classify(cards: Sequence[Card], wild: int, settings: MeldSettings) -> MeldKind:
    size = len(cards)
    if size < MIN_MELD:
        return MeldKind.INVALID
    printed = 0
    wild_cards: list[Card] = []
    others: list[Card] = []
    for card in cards:
        if card.rank == JOKER_RANK:
            printed += 1
        elif card.rank == wild:
            wild_cards.append(card)
        else:
            others.append(card)

    other_suits = {card.suit for card in others}
    other_ranks = [card.rank for card in others]
    distinct_other_ranks = len(set(other_ranks)) == len(other_ranks)

    # Pure sequence: no printed joker, every card standing as itself.
    if printed == 0 and len(wild_cards) <= 1:
        suits = {card.suit for card in cards}
        ranks = [card.rank for card in cards]
        if len(suits) == 1 and len(set(ranks)) == size and _fits_window(ranks, size):
            return MeldKind.PURE_SEQUENCE

    # Impure sequence: the non-wild cards stand as themselves, jokers fill the rest.
    if others:
        if len(other_suits) == 1 and distinct_other_ranks and _fits_window(other_ranks, size):
            return MeldKind.IMPURE_SEQUENCE
    elif size <= MAX_SEQUENCE and (wild_cards or settings.allow_joker_only_groups):
        # One wild-rank card stands as itself (or the setting allows jokers only).
        return MeldKind.IMPURE_SEQUENCE

    # Set: one rank, every suit different among the cards standing as themselves.
    if size <= settings.largest_set:
        if others:
            if len(set(other_ranks)) == 1 and len(other_suits) == len(others):
                return MeldKind.SET
        elif wild_cards or settings.allow_joker_only_groups:
            return MeldKind.SET
    return MeldKind.INVALID


def classify_group(
    group: GroupLike, cut_joker: CardLike, *, settings: MeldSettings | None = None
) -> MeldKind:
    """What ``group`` is with this cut joker: a pure or impure sequence, a set, or ``INVALID``."""
    return _classify(_parse_group(group), wild_rank(cut_joker), settings or DEFAULT_SETTINGS)


def _classified(
    groups: Iterable[GroupLike], cut_joker: CardLike, settings: MeldSettings | None
) -> tuple[int, list[tuple[list[Card], MeldKind]]]:
    wild = wild_rank(cut_joker)
    chosen = settings or DEFAULT_SETTINGS
    result: list[tuple[list[Card], MeldKind]] = []
    for group in groups:
        cards = _parse_group(group)
        if cards:
            result.append((cards, _classify(cards, wild, chosen)))
    return wild, result


def count_points(
    groups: Iterable[GroupLike], cut_joker: CardLike, *, settings: MeldSettings | None = None
) -> int:
    """A loser's count for this arrangement (RULES.md section 3), uncapped.

    Cards outside valid melds count. With no pure sequence every card counts; with a pure
    sequence but no second sequence, every card except those of the pure sequence counts.
    """
    wild, classified = _classified(groups, cut_joker, settings)
    pure = sum(1 for _, kind in classified if kind is MeldKind.PURE_SEQUENCE)
    sequences = sum(1 for _, kind in classified if kind.is_sequence)
    total = 0
    for cards, kind in classified:
        if pure == 0:
            counts = True
        elif sequences < 2:
            counts = kind is not MeldKind.PURE_SEQUENCE
        else:
            counts = kind is MeldKind.INVALID
        if counts:
            total += sum(_points(card.rank, wild) for card in cards)
    return total


def check_declaration(
    groups: Iterable[GroupLike], cut_joker: CardLike, *, settings: MeldSettings | None = None
) -> DeclarationVerdict:
    """Judge a show: all 13 cards in valid melds, at least two sequences, one of them pure."""
    _, classified = _classified(groups, cut_joker, settings)
    cards = sum(len(group) for group, _ in classified)
    if cards != DECLARATION_SIZE:
        return DeclarationVerdict(
            False,
            f"A declaration groups exactly {DECLARATION_SIZE} cards; these groups hold {cards}.",
        )
    if not any(kind is MeldKind.PURE_SEQUENCE for _, kind in classified):
        return DeclarationVerdict(False, "You need at least one pure sequence.")
    if sum(1 for _, kind in classified if kind.is_sequence) < 2:
        return DeclarationVerdict(False, "You need a second sequence (pure or with jokers).")
    for group, kind in classified:
        if kind is MeldKind.INVALID:
            codes = " ".join(card.code for card in group)
            return DeclarationVerdict(False, f"{codes} is not a valid sequence or set.")
    return DeclarationVerdict(True, "Valid declaration: every card is in a valid meld.")
