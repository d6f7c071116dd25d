"""Refusals in the player's language, translated by their code.

``tables/rules`` imports no Django, so its errors carry a ``code`` (``tables.rules.errors.
Refusal``) and ``params`` besides their English message. They are translated at the edge, here:
``ENGINE_MESSAGES`` maps every code to a marked string with ``%(name)s`` placeholders, filled
from the params (cards shown as the player reads them, ``Q♥``). The tables' own refusals
(``tables.services.TableError``) carry a code too and are worded by their catalogue
(``tables/services/errors.py``). ``refusal_text`` is the one entry for any refusal
(``tables/web/views.py``, the tournaments' views); tests/site/test_i18n.py checks that every
code has a translation in English and Hindi and renders with its params."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from tables.presenters import card_words, cards_words, player_words, variant_label
from tables.rules.errors import Refusal, RulesError
from tables.services.errors import TableError, table_words

__all__ = ["ENGINE_MESSAGES", "engine_words", "refusal_text", "refusal_words"]

R = Refusal
# Refusals only the server's own requests (timers, dealing, replays) or a forged form can meet,
# and broken invariants: a player who meets one is told no more than this.
_NOT_NOW = _("That move is not allowed now.")
_NOT_A_CARD = _("not a card code: %(value)s")

ENGINE_MESSAGES: Mapping[Refusal, Promise] = {
    # cards and records
    R.NOT_A_CARD: _NOT_A_CARD,
    R.NOT_A_CARD_JOKER_SUIT: _NOT_A_CARD,
    R.NOT_A_CARD_TEXT: _NOT_A_CARD,
    R.MALFORMED_RECORD: _NOT_NOW,
    R.MALFORMED_ACTION: _NOT_NOW,
    R.RECORD_NOT_OBJECT: _NOT_NOW,
    R.UNKNOWN_RECORD: _NOT_NOW,
    R.UNKNOWN_ACTION: _NOT_NOW,
    R.NO_CLASSIC_ACTION: _NOT_NOW,
    R.EXPECTED_INTEGER: _NOT_NOW,
    R.GROUPS_NOT_LIST: _("groups must be a list of groups of cards"),
    R.CARD_PLACE: _("that card is not in your hand"),
    R.UNKNOWN_RUN_END: _NOT_NOW,
    # turns
    R.NOT_SEATS_TURN: _("it is not your turn"),
    R.NOT_YOUR_TURN: _("it is not your turn"),
    R.NOBODYS_TURN: _("it is nobody's turn now"),
    R.ALREADY_PICKED: _("you have already picked a card this turn"),
    R.CLOSED_DECK_EMPTY: _("the closed deck is empty"),
    R.OPEN_DECK_EMPTY: _("the open deck is empty"),
    R.STOCK_EMPTY: _("the stock is empty"),
    R.DISCARD_PILE_EMPTY: _("the discard pile is empty"),
    R.OPEN_JOKER: _("a joker on the open deck cannot be picked"),
    R.PICK_BEFORE_DISCARD: _("pick a card first"),
    R.PICK_BEFORE_DISCARDING: _("pick a card first"),
    R.PICK_FIRST: _("pick a card first"),
    R.PICK_BEFORE_DECLARE: _("pick a card before you declare: a show needs 14 cards"),
    R.NOT_HELD: _("you do not hold %(card)s"),
    R.NOT_IN_HAND: _("%(card)s is not in your hand"),
    R.GROUPS_NOT_THIRTEEN: _(
        "your groups must hold exactly the 13 cards of your hand other than the finish card"
    ),
    R.GROUPS_NOT_YOUR_CARDS: _("your groups must hold exactly your cards"),
    R.DROP_BEFORE_PICK: _("you can drop only before you pick a card"),
    R.DROPS_NOT_ALLOWED: _("drops are not allowed in this deal"),
    R.AUTO_DROP_NOT_NOW: _("auto drop can be set only while a deal is being played"),
    R.NOT_PLAYING: _("you are not playing this deal"),
    R.NO_HAND_TO_ARRANGE: _("there is no hand to arrange now"),
    R.ALREADY_LEFT: _("you have already left"),
    R.PLAYER_LEFT: _("that player has left"),
    R.NO_TIMER: _("no timer is running"),
    R.TIMER_NOT_OUT: _("the timer has not run out yet"),
    R.UNKNOWN_TIMER: _NOT_NOW,
    R.DEAL_NOT_DUE: _("a deal can start only when one is due"),
    R.DEAL_NEEDS_TWO: _("a deal needs at least two players"),
    R.NO_DEAL: _("there is no deal in progress"),
    R.NO_HAND_PLAYED: _("no hand is being played"),
    R.HAND_IN_PLAY: _("a hand is already being played"),
    R.BREAK_OVER: _NOT_NOW,
    R.GAME_OVER: _("the game is over"),
    R.NOT_IN_GAME: _("you are not playing in this game"),
    R.NOT_AT_TABLE: _("you are not playing in this game"),
    # the meld window, rejoin and split
    R.NO_MELD_WINDOW: _("there is no meld window open"),
    R.NOT_MELDING: _("you are not melding this deal"),
    R.ALREADY_SUBMITTED: _("you have already submitted your cards"),
    R.NO_REJOIN: _("no rejoin is open"),
    R.MAY_NOT_REJOIN: _("you may not rejoin now"),
    R.NO_SPLIT: _("no split is offered"),
    R.NOT_IN_SPLIT: _("you are not part of this split"),
    R.ALREADY_ACCEPTED: _("you have already accepted"),
    # classic melds
    R.KEEP_A_CARD: _("keep a card to discard: you go out by discarding your last card"),
    R.LAY_DOWN_A_MELD: _("lay down at least one meld"),
    R.NOT_A_MELD: _("%(cards)s is not a set or a run"),
    R.NO_SUCH_MELD: _("there is no such meld on the table"),
    R.LAY_OFF_A_CARD: _("lay off at least one card"),
    R.SET_RANK_ONLY: _("only cards of the set's rank fit that meld"),
    R.SET_HAS_SUIT: _("that meld already has that suit"),
    R.SET_TOO_BIG: _("a set may have at most %(count)s cards"),
    R.NOT_EXTENDING_RUN: _("%(cards)s does not extend that run"),
    R.NOT_EXTENDING_RUN_END: _("%(cards)s does not extend that run"),
    R.CLASSIC_NO_JOKERS: _("classic rummy is played without jokers"),
    R.UNKNOWN_MELD_KIND: _NOT_NOW,
    # starting a game and its state: the server's own requests
    R.ENGINE_NOT_VARIANT: _NOT_NOW,
    R.SEATS_DISTINCT: _NOT_NOW,
    R.SEAT_TWICE: _NOT_NOW,
    R.SEATS_RANGE: _("this table plays with %(low)s to %(high)s players"),
    R.CLASSIC_SEATS_RANGE: _("this table plays with %(low)s to %(high)s players"),
    R.TOSS_NOT_A_SEAT: _NOT_NOW,
    R.TOSS_NOT_SEATED: _NOT_NOW,
    R.CLASSIC_NEEDS_SETTINGS: _NOT_NOW,
    R.NOT_GAME_STATE: _NOT_NOW,
    R.NOT_CLASSIC_STATE: _NOT_NOW,
    R.CORRUPT_CLASSIC_STATE: _NOT_NOW,
    R.NO_SEAT_TO_MOVE: _NOT_NOW,
    R.NO_PLAYER_LEFT: _NOT_NOW,
    R.PAYOUTS_NOT_POT: _NOT_NOW,
    R.REVIEW_THIRTEEN_ONLY: _NOT_NOW,
    R.NO_BOT_MOVE: _NOT_NOW,
    R.DEAL_DID_NOT_END: _NOT_NOW,
    R.EMPTY_HAND: _NOT_NOW,
    # shoes: the server deals them
    R.NOT_A_SHOE: _NOT_NOW,
    R.RESHUFFLE_KEY_PERMUTATION: _NOT_NOW,
    R.RESHUFFLE_KEYS_COUNT: _NOT_NOW,
    R.RESHUFFLE_KEYS_SHORT: _NOT_NOW,
    R.NO_RESHUFFLE_SEED: _NOT_NOW,
    R.TOSS_NEEDS_SEAT: _NOT_NOW,
    R.SHOE_PACKS: _NOT_NOW,
    R.CLASSIC_SHOE_PACKS: _NOT_NOW,
    R.DEAL_NEEDS_PLAYERS: _NOT_NOW,
    R.CARDS_CANNOT_DEAL: _NOT_NOW,
    R.HANDS_SAME_SIZE: _NOT_NOW,
    R.HAND_SIZE_EACH: _NOT_NOW,
    R.TOO_MANY_COPIES: _NOT_NOW,
    # settings: what staff read when a table's settings cannot be played
    R.UNKNOWN_VARIANT: _("unknown variant %(value)s; expected one of %(choices)s"),
    R.UNKNOWN_CLASSIC_VARIANT: _("unknown variant %(value)s"),
    R.VARIANT_AS_OVERRIDE: _("give the variant as the first argument, not as an override"),
    R.UNKNOWN_SETTINGS: _("unknown settings: %(names)s"),
    R.UNKNOWN_CLASSIC_SETTINGS: _("unknown settings: %(names)s"),
    R.UNKNOWN_MELD_SETTINGS: _("unknown meld settings: %(names)s"),
    R.MELD_NOT_SETTINGS: _("meld settings must be an object"),
    R.MELD_SETTINGS_OBJECT: _("meld settings must be an object"),
    R.CLASSIC_SETTINGS_ONLY: _NOT_NOW,
    R.SETTING_NOT_INTEGER: _("%(name)s must be a whole number, not %(value)s"),
    R.SETTING_NOT_NUMBER: _("%(name)s must be a number, not %(value)s"),
    R.SETTING_NOT_BOOL: _("%(name)s must be true or false"),
    R.SETTING_NOT_BOOL_VALUE: _("%(name)s must be true or false"),
    R.SETTING_NOT_STRING: _("%(name)s must be text, not %(value)s"),
    R.SETTING_INTEGER_AT_LEAST: _("%(name)s must be a whole number of at least %(low)s"),
    R.SETTING_AT_LEAST: _("%(name)s must be at least %(low)s"),
    R.SETTING_AT_MOST: _("%(name)s must be at most %(high)s"),
    R.SETTING_ABOVE: _("%(name)s must be above %(low)s"),
    R.SETTING_BELOW: _("%(name)s must be below %(other)s"),
    R.SETTING_NOT_ABOVE: _("%(name)s cannot exceed %(other)s"),
    R.SETTING_WITHIN: _("%(name)s must be within %(low)s to %(high)s"),
    R.SETTING_POSITIVE: _("%(name)s must be more than 0"),
    R.SETTING_MORE_THAN_ZERO: _("%(name)s must be more than 0"),
    R.SETTING_SECONDS: _("%(name)s must be a number of seconds, 0 or more"),
    R.SETTING_NOT_NEGATIVE: _("%(name)s cannot be negative"),
    R.SETTING_ONE_OF: _("%(name)s: one of %(choices)s"),
    R.SETTING_NOT_FOR_VARIANT: _("%(name)s does not apply to %(variant)s"),
    R.SEATS_MIN_MAX: _("seats_min must be at least 2 and at most seats_max"),
    R.DROPS_ORDER: _("first_drop must be at least 0 and at most middle_drop"),
    R.DEAL_SHOW_ORDER: _("deal_show_min must be at least 0 and at most deal_show_max"),
    R.PACKS_TOO_FEW: _("%(packs)s pack(s) cannot deal 13 cards to %(players)s players"),
    R.CLASSIC_PACKS_TOO_FEW: _(
        "%(packs)s pack(s) cannot deal %(hand_size)s cards to %(players)s players and leave a "
        "stock and a discard pile"
    ),
    R.POOL_FIRST_DROP: _("first_drop must be at least 1 in pool games"),
    R.REJOIN_MAX_BELOW: _("rejoin_max_total must be below pool_limit - 1"),
    R.TOURNAMENT_DEALS_COUNT: _("deals_count: 1 to 6 at a tournament table"),
    R.STAKE_ENTRY_FEE: _("a seat must pay something: set the entry fee"),
    R.STAKE_POINT_VALUE: _("a seat must pay something: set the point value"),
    R.BUY_IN_TOO_LOW: _("the points buy-in multiple must cover the worst score (%(count)s points)"),
    # scoring, money and tournament arithmetic: broken invariants
    R.COUNT_NEGATIVE: _NOT_NOW,
    R.DEAL_SCORE_NEGATIVE: _NOT_NOW,
    R.SCORES_WITHOUT_TOTAL: _NOT_NOW,
    R.FIRST_DROP_POSITIVE: _NOT_NOW,
    R.DROPS_NEGATIVE: _NOT_NOW,
    R.REJOIN_NEEDS_PLAYERS: _NOT_NOW,
    R.PRIZE_NEGATIVE: _NOT_NOW,
    R.SPLIT_NEEDS_SEAT: _NOT_NOW,
    R.UNKNOWN_SPLIT_WEIGHTING: _NOT_NOW,
    R.PLATFORM_FEE_RANGE: _NOT_NOW,
    R.ENTRY_FEE_NEGATIVE: _NOT_NOW,
    R.ENTRIES_NEGATIVE: _NOT_NOW,
    R.SEAT_NO_CHIPS: _NOT_NOW,
    R.WINNER_NO_SCORE: _NOT_NOW,
    R.PAYOUT_NEEDS_SEAT: _NOT_NOW,
    R.TOURNAMENT_SEATS: _NOT_NOW,
    R.ROUND_NEEDS_PLAYER: _NOT_NOW,
    R.DRAW_TWICE: _NOT_NOW,
    R.FIELD_DOES_NOT_SHRINK: _NOT_NOW,
    R.TABLE_SENDS_ONE: _NOT_NOW,
    R.RANKED_TWICE: _NOT_NOW,
    R.POOL_INPUTS_NEGATIVE: _NOT_NOW,
    R.FEE_RANGE: _NOT_NOW,
    R.TOURNAMENT_TWO_PLAYERS: _NOT_NOW,
    R.PRIZE_POOL_NEGATIVE: _NOT_NOW,
    R.PRIZE_SHARES: _NOT_NOW,
    R.PLACES_SHARED: _NOT_NOW,
}
del R


def _shown(params: Mapping[str, Any]) -> dict[str, Any]:
    """The params as a player reads them: cards as faces (``Q♥``), a variant by its name,
    lists joined by commas."""
    shown: dict[str, Any] = {}
    for key, value in params.items():
        if key == "card":
            shown[key] = card_words(value)
        elif key == "cards":
            shown[key] = cards_words(value)
        elif key == "variant":
            shown[key] = variant_label(value)
        elif isinstance(value, tuple):
            shown[key] = ", ".join(map(str, value))
        else:
            shown[key] = value
    return shown


def engine_words(exc: RulesError) -> str:
    """An engine refusal in the active language, by its code."""
    words = ENGINE_MESSAGES.get(exc.code, _NOT_NOW)
    return str(words) % _shown(exc.params)


def refusal_text(exc: BaseException) -> str:
    """Any refusal in the active language: the engine's and the tables' by their codes, any
    other (a form's own words, already translated) as it is."""
    if isinstance(exc, RulesError):
        return engine_words(exc)
    if isinstance(exc, TableError):
        return table_words(exc)
    return str(exc)


def refusal_words(message: Any) -> str:
    """A refusal as a player reads it (``presenters.player_words``: no seat numbers, cards as
    faces, a capital and a full stop), keeping a Hindi sentence's own full stop (।)."""
    text = player_words(message)
    return text[:-1] if text.endswith("।.") else text
