"""Classic rummy's cards, melds and points: sets, runs, table melds and laying off."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeAlias

from ..cards import ACE, JACK, KING, Card, CardLike, card_codes, parse_card
from ..errors import InvalidMove, Refusal, RulesError
from .settings import MIN_MELD, ClassicSettings

_RANKS: Final = 13

MeldType: TypeAlias = Literal["set", "run"]
End: TypeAlias = Literal["low", "high"]


def to_cards(codes: Iterable[CardLike]) -> tuple[Card, ...]:
    return tuple(parse_card(code) for code in codes)


def check_no_jokers(cards: Iterable[Card]) -> None:
    for card in cards:
        if card.is_printed_joker:
            raise InvalidMove(Refusal.CLASSIC_NO_JOKERS)


def card_points(card: CardLike, settings: ClassicSettings) -> int:
    """Penalty value of one card: 2-10 at face value, J Q K ``court_points``, A ``ace_points``."""
    card = parse_card(card)
    check_no_jokers([card])
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
    group = to_cards(cards)
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
        return {
            "id": self.id,
            "kind": self.kind,
            "cards": card_codes(self.cards),
            "owner": self.owner,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableMeld:
        kind = data["kind"]
        if kind not in ("set", "run"):
            raise RulesError(Refusal.UNKNOWN_MELD_KIND, value=repr(kind))
        return cls(int(data["id"]), kind, to_cards(data["cards"]), int(data["owner"]))


def lay_off_result(
    meld: TableMeld,
    cards: Iterable[CardLike],
    settings: ClassicSettings,
    end: End | None = None,
) -> tuple[Card, ...]:
    """The meld's cards after laying off ``cards`` on it. A run grows at its ``low`` or ``high``
    end (``None``: whichever fits; both at once when several cards are laid off); a set takes
    cards of its rank (``end`` does not apply). Raises ``InvalidMove`` when they do not fit."""
    added = to_cards(cards)
    if not added:
        raise InvalidMove(Refusal.LAY_OFF_A_CARD)
    check_no_jokers(added)
    if meld.kind == "set":
        combined = meld.cards + added
        if _is_set(combined, settings):
            return combined
        if len({card.rank for card in combined}) != 1:
            raise InvalidMove(Refusal.SET_RANK_ONLY, meld=meld.id)
        if not settings.set_suits_may_repeat and len({c.suit for c in combined}) != len(combined):
            raise InvalidMove(Refusal.SET_HAS_SUIT, meld=meld.id)
        most = settings.largest_set if settings.largest_set is not None else len(meld.cards)
        raise InvalidMove(Refusal.SET_TOO_BIG, count=most)
    length = len(meld.cards)
    for order in _run_orderings(meld.cards + added, settings):
        for start in range(len(order) - length + 1):
            if order[start : start + length] != meld.cards:
                continue
            after = len(order) - start - length
            if (end == "low" and after == 0) or (end == "high" and start == 0) or end is None:
                return order
    codes = tuple(card_codes(added))
    if end:
        raise InvalidMove(Refusal.NOT_EXTENDING_RUN_END, cards=codes, meld=meld.id, end=end)
    raise InvalidMove(Refusal.NOT_EXTENDING_RUN, cards=codes, meld=meld.id)
