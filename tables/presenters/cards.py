"""Cards, money and words as a player reads them: card faces for the templates, amounts in
rupees or chips (never minor units), and refusals without seat numbers or card codes."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Any

from django.utils.translation import get_language, gettext, gettext_lazy, pgettext_lazy

from ledger.currencies import format_amount
from tables.presenters.shown import Shown
from tables.rules.cards import parse_card

__all__ = [
    "MINUS",
    "CardFace",
    "card_face",
    "card_words",
    "cards_words",
    "faces",
    "format_seconds_left",
    "groups_faces",
    "money",
    "player_words",
    "signed_money",
    "sort_codes",
    "variant_label",
]

_SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
_SUIT_NAMES = {
    "S": gettext_lazy("spades"),
    "H": gettext_lazy("hearts"),
    "D": gettext_lazy("diamonds"),
    "C": gettext_lazy("clubs"),
}
# One phrase per rank (Hindi needs the rank's gender: "पान की बेगम", "पान का बादशाह").
_RANK_PHRASES = {
    "A": gettext_lazy("Ace of %(suit)s"),
    "J": gettext_lazy("Jack of %(suit)s"),
    "Q": gettext_lazy("Queen of %(suit)s"),
    "K": gettext_lazy("King of %(suit)s"),
}
_RED = {"H", "D"}


@dataclass(frozen=True)
class CardFace(Shown):
    code: str
    rank: str
    suit: str
    symbol: str
    red: bool
    joker: bool
    wild: bool
    picked: bool = False

    @property
    def label(self) -> str:
        return gettext("Joker") if self.joker else f"{self.rank}{self.symbol}"

    @property
    def name(self) -> str:
        """The card in words, as a screen reader says it: ``Queen of hearts``, ``10 of
        spades``, ``Joker``."""
        return _card_words(self.rank, self.suit, self.joker, False, False, get_language())

    @property
    def words(self) -> str:
        """The card's name with what marks it on the table: ``Queen of hearts, wild``,
        ``10 of spades, just drawn`` (the page's ``aria-label``)."""
        return _card_words(self.rank, self.suit, self.joker, self.wild, self.picked, get_language())


@functools.lru_cache(maxsize=8192)
def _card_words(
    rank: str, suit: str, joker: bool, wild: bool, picked: bool, language: str | None
) -> str:
    """A card's words in ``language`` (the active one: part of the key), worded once."""
    if joker:
        marks = [gettext("Joker")]
    else:
        phrase = _RANK_PHRASES.get(rank) or gettext_lazy("%(rank)s of %(suit)s")
        marks = [str(phrase) % {"rank": rank, "suit": _SUIT_NAMES[suit]}]
    if wild:
        marks.append(gettext("wild"))
    if picked:
        marks.append(gettext("just drawn"))
    return ", ".join(marks)


def card_face(code: str | None, cut_joker: str | None = None) -> CardFace | None:
    if not code:
        return None
    card = parse_card(code)
    wild = False
    if cut_joker:
        cut = parse_card(cut_joker)
        wild_rank = 1 if cut.is_printed_joker else cut.rank
        wild = card.is_printed_joker or card.rank == wild_rank
    if card.is_printed_joker:
        return CardFace(card.code, "JK", "", "★", False, True, True)
    rank = card.code[:-1]
    return CardFace(
        card.code, rank, card.suit, _SUIT_SYMBOL[card.suit], card.suit in _RED, False, wild
    )


def faces(codes: list[str] | None, cut_joker: str | None = None) -> list[CardFace]:
    return [face for face in (card_face(code, cut_joker) for code in codes or []) if face]


def format_seconds_left(deadline: float | None, now: float) -> int | None:
    if deadline is None:
        return None
    return max(0, round(deadline - now))


def money(amount: int | None, currency: str) -> str:
    if amount is None:
        return ""
    return str(format_amount(amount, currency))


def sort_codes(codes: list[str]) -> list[str]:
    """Cards in suit then rank order, for showing a hand that has no arrangement."""
    order = {"S": 0, "H": 1, "C": 2, "D": 3, "": 4}
    cards = [parse_card(code) for code in codes]
    cards.sort(key=lambda c: (order[c.suit], c.rank))
    return [c.code for c in cards]


def groups_faces(groups: Any, cut_joker: str | None) -> list[list[CardFace]]:
    return [faces(list(group), cut_joker) for group in groups or []]


# "variant": "Points" the game is not "Points" the column of a result sheet.
_VARIANT_LABELS = {
    "pool101": pgettext_lazy("variant", "Pool 101"),
    "pool201": pgettext_lazy("variant", "Pool 201"),
    "deals": pgettext_lazy("variant", "Deals"),
    "points": pgettext_lazy("variant", "Points"),
    "classic": pgettext_lazy("variant", "Classic 10-card"),
}
MINUS = "\N{MINUS SIGN}"


def variant_label(variant: str) -> str:
    return str(_VARIANT_LABELS.get(variant, variant))


def signed_money(amount: int, currency: str, *, plus: bool = True) -> str:
    """``+₹6.21``, ``-₹6.90`` (with a minus sign) or ``₹0.00``: money won or lost. Without
    ``plus`` a positive amount has no sign (``₹6.21``), a negative one keeps its minus sign."""
    if amount > 0:
        return f"+{money(amount, currency)}" if plus else money(amount, currency)
    if amount < 0:
        return f"{MINUS}{money(-amount, currency)}"
    return money(0, currency)


def card_words(code: str) -> str:
    """A card as players write it: ``Q♥``, ``10♠``, ``Joker``."""
    face = card_face(code)
    return face.label if face is not None else code


def cards_words(codes: Any) -> str:
    return " ".join(card_words(code) for code in codes)


_CARD_CODE = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b")


def player_words(message: Any) -> str:
    """A refusal as a player reads it: card codes as cards (``Q♥``), a capital and a full stop
    (the words themselves come by code, already said to the player who acted)."""
    text = str(message or "").strip()
    if not text:
        return ""
    text = _CARD_CODE.sub(lambda m: card_words(m.group(0)), text)
    text = text[0].upper() + text[1:]
    if text[-1] not in ".!?":
        text += "."
    return text
