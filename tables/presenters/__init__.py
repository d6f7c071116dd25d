"""Template helpers: turn a per-viewer table view (a ``tables.readmodel.TableRead`` from the
selectors) into what the templates show. Presentation only: no rule is decided here.

- ``cards``: card faces, money (rupees or chips, never minor units) and a player's words
- ``table``: ``present_felt`` (the felt every viewer shares) and ``present_seat`` (one
  player's own fragment)
- ``page``: what they return, typed and frozen (``FeltView``, ``SeatView`` and their parts)
- ``results``: result sheets, the game-over block, drop costs and wrong-show reasons
"""

from __future__ import annotations

from tables.presenters.cards import (
    MINUS,
    CardFace,
    card_face,
    card_words,
    cards_words,
    faces,
    format_seconds_left,
    groups_faces,
    money,
    player_words,
    signed_money,
    sort_codes,
    variant_label,
)
from tables.presenters.results import wrong_show_reason
from tables.presenters.table import present_felt, present_seat, seat_hand_key, seat_keys

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
    "present_felt",
    "present_seat",
    "seat_hand_key",
    "seat_keys",
    "signed_money",
    "sort_codes",
    "variant_label",
    "wrong_show_reason",
]
