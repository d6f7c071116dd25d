"""The rummy rules engine: pure Python, no Django, immutable values, typed errors.

Cards (``cards.py``)
    ``Card`` (frozen: ``rank`` 1-13 or 0 for a printed joker, ``suit`` ``S H D C`` or ``""``),
    ``parse_card(code)``, ``parse_cards(codes)`` (a string of space/comma-separated codes or an
    iterable of codes/cards; case-insensitive, ``TH`` = ``10H``, output canonical).

Melds and counts in 13-card games (``melds.py``, RULES.md sections 2 and 3)
    ``MeldSettings(largest_set=4, allow_joker_only_groups=False)``,
    ``classify_group(group, cut_joker, *, settings=None) -> MeldKind``,
    ``check_declaration(groups, cut_joker, *, settings=None) -> DeclarationVerdict``
    (``.valid``, ``.reason``), ``count_points(groups, cut_joker, *, settings=None) -> int``
    (uncapped), ``card_points(card, cut_joker)``, ``is_joker(card, cut_joker)``.

Hand evaluation (``evaluate.py``)
    ``evaluate_hand(hand, cut_joker, *, settings=None) -> HandEvaluation`` (``.points`` the exact
    lowest count, uncapped; ``.groups``/``.ungrouped`` one arrangement reaching it;
    ``.can_declare``) and ``best_discard(hand, cut_joker, *, settings=None) -> DiscardChoice``
    (``.card``, ``.evaluation`` of the cards kept).

Games (``settings``, ``shoe``, ``scoring``, ``machine``, ``game``, ``classic``, ``variants``)
    ``GameSettings`` (every setting of the rule book, ``GameSettings.for_variant(variant)``),
    ``ClassicSettings``, the shoe (``new_shoe``, ``deal``), the scoring functions, and the two
    state machines behind one abstraction: ``engine_for(variant)`` returns the engine with
    ``new``, ``apply``, ``view``, ``state_from_json`` and friends (docs/game-engine.md,
    docs/classic-rummy.md).

Errors (``errors.py``): ``RulesError`` (a ``ValueError``) and its subclasses ``InvalidCard``,
``InvalidMove``, ``InvalidSettings``.

The cut joker is the turned-up card (a ``Card`` or a code): every card of its rank is wild, all
Aces when it is a printed joker (``"JK"``); printed jokers are always wild.
"""

from .cards import Card, card_codes, parse_card, parse_cards
from .classic import ClassicSettings
from .errors import InvalidCard, InvalidMove, InvalidSettings, RulesError
from .evaluate import DiscardChoice, HandEvaluation, best_discard, evaluate_hand
from .melds import (
    DeclarationVerdict,
    MeldKind,
    MeldSettings,
    card_points,
    check_declaration,
    classify_group,
    count_points,
    is_joker,
)
from .settings import GameSettings
from .variants import engine_for

__all__ = [
    "Card",
    "ClassicSettings",
    "DeclarationVerdict",
    "DiscardChoice",
    "GameSettings",
    "HandEvaluation",
    "InvalidCard",
    "InvalidMove",
    "InvalidSettings",
    "MeldKind",
    "MeldSettings",
    "RulesError",
    "best_discard",
    "card_codes",
    "card_points",
    "check_declaration",
    "classify_group",
    "count_points",
    "engine_for",
    "evaluate_hand",
    "is_joker",
    "parse_card",
    "parse_cards",
]
