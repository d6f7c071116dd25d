"""A simple computer player's meld moves."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..cards import ACE, KING, Card, CardLike
from ..errors import RulesError
from .melds import TableMeld, card_points, classify_meld, hand_points, lay_off_result, to_cards
from .settings import MIN_MELD, ClassicSettings


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
    cards = to_cards(hand)
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
