"""Helpers of the classic (10-card) engine's tests."""

from __future__ import annotations

from collections import Counter

from tables.rules.cards import Card
from tables.rules.classic import ClassicState


def cards_in_play(state: ClassicState) -> Counter[Card]:
    """Every card of the game where it lies: the stock, the discard pile, the melds on the
    table and the hands."""
    total: Counter[Card] = Counter(state.stock) + Counter(state.discard)
    for meld in state.melds:
        total += Counter(meld.cards)
    for player in state.players:
        total += Counter(player.hand)
    return total
