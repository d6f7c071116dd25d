"""Cards and card codes.

A card is an immutable value. Codes are case-insensitive on input (``"th"``, ``"10H"``,
``"jk"``) and canonical on output (``"10H"``, ``"JK"``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from .errors import InvalidCard, Refusal

SUITS: Final[tuple[str, ...]] = ("S", "H", "D", "C")
RANK_CODES: Final[tuple[str, ...]] = (
    "",
    "A",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "J",
    "Q",
    "K",
)
ACE: Final = 1
JACK: Final = 11
QUEEN: Final = 12
KING: Final = 13
JOKER_RANK: Final = 0
JOKER_CODE: Final = "JK"

_RANK_BY_CODE: Final[dict[str, int]] = {code: rank for rank, code in enumerate(RANK_CODES) if code}
_RANK_BY_CODE["T"] = 10
_SUIT_SYMBOLS: Final[dict[str, str]] = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
_SPLIT: Final = re.compile(r"[\s,]+")


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """One playing card. ``rank`` is 1 (Ace) to 13 (King), or 0 for a printed joker
    (whose ``suit`` is ``""``)."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if self.rank == JOKER_RANK:
            if self.suit != "":
                raise InvalidCard(f"{self.rank}{self.suit}", Refusal.NOT_A_CARD_JOKER_SUIT)
        elif not (ACE <= self.rank <= KING) or self.suit not in SUITS:
            raise InvalidCard(f"{self.rank}{self.suit}")

    @property
    def is_printed_joker(self) -> bool:
        return self.rank == JOKER_RANK

    @property
    def code(self) -> str:
        if self.rank == JOKER_RANK:
            return JOKER_CODE
        return RANK_CODES[self.rank] + self.suit

    @property
    def label(self) -> str:
        """A human label with the suit symbol, e.g. ``10♥``; ``Joker`` for a printed joker."""
        if self.rank == JOKER_RANK:
            return "Joker"
        return RANK_CODES[self.rank] + _SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"


PRINTED_JOKER: Final = Card(JOKER_RANK, "")

CardLike = Card | str


def parse_card(code: CardLike) -> Card:
    """Parse one card code (or return a ``Card`` unchanged). Raises ``InvalidCard``."""
    if isinstance(code, Card):
        return code
    if not isinstance(code, str):
        raise InvalidCard(code, Refusal.NOT_A_CARD_TEXT)
    text = code.strip().upper()
    if text == JOKER_CODE:
        return PRINTED_JOKER
    if len(text) < 2:
        raise InvalidCard(code)
    rank = _RANK_BY_CODE.get(text[:-1])
    suit = text[-1]
    if rank is None or suit not in SUITS:
        raise InvalidCard(code)
    return _CARDS[(rank, suit)]


def parse_cards(codes: str | Iterable[CardLike]) -> list[Card]:
    """Parse a space- or comma-separated string of codes, or an iterable of codes/cards."""
    if isinstance(codes, str):
        parts = [part for part in _SPLIT.split(codes.strip()) if part]
        return [parse_card(part) for part in parts]
    return [parse_card(code) for code in codes]


def card_codes(cards: Iterable[Card]) -> list[str]:
    return [card.code for card in cards]


_CARDS: Final[dict[tuple[int, str], Card]] = {
    (rank, suit): Card(rank, suit) for rank in range(ACE, KING + 1) for suit in SUITS
}

STANDARD_PACK: Final[tuple[Card, ...]] = tuple(_CARDS[(r, s)] for s in SUITS for r in range(1, 14))
