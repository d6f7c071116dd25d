"""The rummy rules engine (placeholder: see the package modules)."""

from .cards import Card, card_codes, parse_card, parse_cards
from .errors import InvalidCard, InvalidMove, InvalidSettings, RulesError

__all__ = [
    "Card",
    "InvalidCard",
    "InvalidMove",
    "InvalidSettings",
    "RulesError",
    "card_codes",
    "parse_card",
    "parse_cards",
]
