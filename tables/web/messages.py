"""The pure rules engine's refusals in the player's language.

``tables/rules`` imports no Django, so its messages (``InvalidMove``) are English. They are
translated at the edge, here: each engine message pattern maps to a marked string with the same
placeholders. ``engine_words`` is applied to a ``RulesError``'s message before it is shown
(``tables/web/views.py``); a message no pattern knows is shown as a general refusal in any language
but English (tests/site/test_i18n.py checks that every player-reachable engine message of
``tables/rules`` has a pattern here)."""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

__all__ = ["ENGINE_MESSAGES", "engine_words", "refusal_words"]

_CARD = r"(?P<card>(?:10|[2-9AJQKT])[SHDC]|JK)"
_CARDS = r"(?P<cards>(?:(?:10|[2-9AJQKT])[SHDC]|JK)(?: (?:(?:10|[2-9AJQKT])[SHDC]|JK))*)"

ENGINE_MESSAGES: list[tuple[re.Pattern[str], Any]] = [
    (re.compile(p), words)
    for p, words in [
        (r"it is not (?:seat \d+'s|your) turn", _("it is not your turn")),
        (r"it is nobody's turn now", _("it is nobody's turn now")),
        (
            r"you have already picked a card this turn",
            _("you have already picked a card this turn"),
        ),
        (
            r"pick a card before you declare: a show needs 14 cards",
            _("pick a card before you declare: a show needs 14 cards"),
        ),
        (r"pick a card (?:before you discard|before discarding|first)", _("pick a card first")),
        (
            r"your groups must hold exactly the 13 cards of your hand other than the finish card",
            _("your groups must hold exactly the 13 cards of your hand other than the finish card"),
        ),
        (
            r"your groups must hold exactly your cards",
            _("your groups must hold exactly your cards"),
        ),
        (rf"you do not hold {_CARD}", _("you do not hold %(card)s")),
        (rf"{_CARD} is not in your hand", _("%(card)s is not in your hand")),
        (
            r"a joker on the open deck cannot be picked",
            _("a joker on the open deck cannot be picked"),
        ),
        (r"drops are not allowed in this deal", _("drops are not allowed in this deal")),
        (
            r"you can drop only before you pick a card",
            _("you can drop only before you pick a card"),
        ),
        (
            r"auto drop can be set only while a deal is being played",
            _("auto drop can be set only while a deal is being played"),
        ),
        (r"the closed deck is empty", _("the closed deck is empty")),
        (r"the open deck is empty", _("the open deck is empty")),
        (r"the stock is empty", _("the stock is empty")),
        (r"the discard pile is empty", _("the discard pile is empty")),
        (r"there is no hand to arrange now", _("there is no hand to arrange now")),
        (r"there is no meld window open", _("there is no meld window open")),
        (r"you are not melding this deal", _("you are not melding this deal")),
        (r"you are not playing this deal", _("you are not playing this deal")),
        (r"you have already submitted your cards", _("you have already submitted your cards")),
        (r"you have already accepted", _("you have already accepted")),
        (r"you have already left", _("you have already left")),
        (r"no rejoin is open", _("no rejoin is open")),
        (r"seat \d+ may not rejoin now", _("you may not rejoin now")),
        (r"no split is offered", _("no split is offered")),
        (r"seat \d+ is not part of this split", _("you are not part of this split")),
        (r"seat \d+ is not (?:in this game|at this table)", _("you are not playing in this game")),
        (r"the game is over", _("the game is over")),
        (r"there is no deal in progress", _("there is no deal in progress")),
        (r"no hand is being played", _("no hand is being played")),
        (r"a hand is already being played", _("a hand is already being played")),
        (
            r"keep a card to discard: you go out by discarding your last card",
            _("keep a card to discard: you go out by discarding your last card"),
        ),
        (r"lay down at least one meld", _("lay down at least one meld")),
        (rf"{_CARDS} is not a set or a run", _("%(cards)s is not a set or a run")),
        (r"there is no meld (?P<meld>\d+) on the table", _("there is no such meld on the table")),
        (r"lay off at least one card", _("lay off at least one card")),
        (
            r"only cards of the set's rank fit meld \d+",
            _("only cards of the set's rank fit that meld"),
        ),
        (r"meld \d+ already has that suit", _("that meld already has that suit")),
        (
            r"a set may have at most (?P<count>\d+) cards",
            _("a set may have at most %(count)s cards"),
        ),
        (rf"{_CARDS} does not extend run \d+.*", _("%(cards)s does not extend that run")),
        (r"classic rummy is played without jokers", _("classic rummy is played without jokers")),
        (
            r"groups must be a list of groups of cards",
            _("groups must be a list of groups of cards"),
        ),
        (r"the card's place must be a small whole number.*", _("that card is not in your hand")),
        (r"no timer is running", _("no timer is running")),
        (r"the timer has not run out yet", _("the timer has not run out yet")),
        (r"that player has left", _("that player has left")),
        (r"a deal needs at least two players", _("a deal needs at least two players")),
        (r"a deal can start only when one is due", _("a deal can start only when one is due")),
    ]
]


def engine_words(message: Any) -> str:
    """An engine refusal in the active language (English: as the engine said it)."""
    text = str(message or "").strip()
    for pattern, words in ENGINE_MESSAGES:
        match = pattern.fullmatch(text)
        if match:
            return str(words) % match.groupdict() if match.groupdict() else str(words)
    if (get_language() or "en").split("-")[0] == "en":
        return text
    return str(_("That move is not allowed now."))


def refusal_words(message: Any) -> str:
    """A refusal as a player reads it (``presenters.player_words``: no seat numbers, cards as
    faces, a capital and a full stop), keeping a Hindi sentence's own full stop (।)."""
    from tables.presenters import player_words

    text = player_words(message)
    return text[:-1] if text.endswith("।.") else text
