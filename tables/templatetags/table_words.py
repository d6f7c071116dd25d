"""Template filters of the table page: a refusal in the words a player uses."""

from __future__ import annotations

from typing import Any

from django import template

from tables.messages import refusal_words

register = template.Library()


@register.filter
def player_words(message: Any) -> str:
    """``{{ error|player_words }}``: no seat numbers or card codes, a capital and a full stop
    (a Hindi sentence keeps its own full stop, ।)."""
    return refusal_words(message)
