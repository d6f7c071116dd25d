"""Typed errors raised by the rules engine. All are ``ValueError`` subclasses."""

from __future__ import annotations


class RulesError(ValueError):
    """Base class of every error the rules engine raises."""


class InvalidCard(RulesError):
    """A card code that is not a card. The message names the bad code."""

    def __init__(self, code: object, detail: str = "") -> None:
        self.code = code
        text = f"not a card code: {code!r}"
        if detail:
            text = f"{text} ({detail})"
        super().__init__(text)


class InvalidMove(RulesError):
    """A move that the rules do not allow in the current state."""


class InvalidSettings(RulesError):
    """A settings object whose values break the rule book's constraints."""


class InvalidShoe(RulesError):
    """A shoe whose cards are not exactly the packs the settings call for, or that cannot be
    dealt as asked."""
