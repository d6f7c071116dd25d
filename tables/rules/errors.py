"""Typed errors raised by the rules engine. All are ``ValueError`` subclasses.

Every error carries a ``code`` (a ``Refusal``) and ``params`` (``RefusalParams``: the card, the
cards, a count, a seat...). Its message (``str(exc)``) is the English sentence ``ENGLISH`` builds
from them, for logs, tests and the exported deal checker; the site translates by ``code``
(``tables/web/messages.py``), never by the English text."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, TypedDict

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = [
    "ENGLISH",
    "InvalidCard",
    "InvalidMove",
    "InvalidSettings",
    "InvalidShoe",
    "Refusal",
    "RefusalParams",
    "RulesError",
    "english",
]


class Refusal(StrEnum):
    """What the engine refuses, one code per sentence of ``ENGLISH``."""

    # cards and records
    NOT_A_CARD = "not_a_card"
    NOT_A_CARD_JOKER_SUIT = "not_a_card_joker_suit"
    NOT_A_CARD_TEXT = "not_a_card_text"
    MALFORMED_RECORD = "malformed_record"
    MALFORMED_ACTION = "malformed_action"
    RECORD_NOT_OBJECT = "record_not_object"
    UNKNOWN_RECORD = "unknown_record"
    UNKNOWN_ACTION = "unknown_action"
    NO_CLASSIC_ACTION = "no_classic_action"
    EXPECTED_INTEGER = "expected_integer"
    GROUPS_NOT_LIST = "groups_not_list"
    CARD_PLACE = "card_place"
    UNKNOWN_RUN_END = "unknown_run_end"
    # turns
    NOT_SEATS_TURN = "not_seats_turn"
    NOT_YOUR_TURN = "not_your_turn"
    NOBODYS_TURN = "nobodys_turn"
    ALREADY_PICKED = "already_picked"
    CLOSED_DECK_EMPTY = "closed_deck_empty"
    OPEN_DECK_EMPTY = "open_deck_empty"
    STOCK_EMPTY = "stock_empty"
    DISCARD_PILE_EMPTY = "discard_pile_empty"
    OPEN_JOKER = "open_joker"
    PICK_BEFORE_DISCARD = "pick_before_discard"
    PICK_BEFORE_DISCARDING = "pick_before_discarding"
    PICK_FIRST = "pick_first"
    PICK_BEFORE_DECLARE = "pick_before_declare"
    NOT_HELD = "not_held"
    NOT_IN_HAND = "not_in_hand"
    GROUPS_NOT_THIRTEEN = "groups_not_thirteen"
    GROUPS_NOT_YOUR_CARDS = "groups_not_your_cards"
    DROP_BEFORE_PICK = "drop_before_pick"
    DROPS_NOT_ALLOWED = "drops_not_allowed"
    AUTO_DROP_NOT_NOW = "auto_drop_not_now"
    NOT_PLAYING = "not_playing"
    NO_HAND_TO_ARRANGE = "no_hand_to_arrange"
    ALREADY_LEFT = "already_left"
    PLAYER_LEFT = "player_left"
    NO_TIMER = "no_timer"
    TIMER_NOT_OUT = "timer_not_out"
    UNKNOWN_TIMER = "unknown_timer"
    DEAL_NOT_DUE = "deal_not_due"
    DEAL_NEEDS_TWO = "deal_needs_two"
    NO_DEAL = "no_deal"
    NO_HAND_PLAYED = "no_hand_played"
    HAND_IN_PLAY = "hand_in_play"
    BREAK_OVER = "break_over"
    GAME_OVER = "game_over"
    NOT_IN_GAME = "not_in_game"
    NOT_AT_TABLE = "not_at_table"
    # the meld window, rejoin and split
    NO_MELD_WINDOW = "no_meld_window"
    NOT_MELDING = "not_melding"
    ALREADY_SUBMITTED = "already_submitted"
    NO_REJOIN = "no_rejoin"
    MAY_NOT_REJOIN = "may_not_rejoin"
    NO_SPLIT = "no_split"
    NOT_IN_SPLIT = "not_in_split"
    ALREADY_ACCEPTED = "already_accepted"
    # classic melds
    KEEP_A_CARD = "keep_a_card"
    LAY_DOWN_A_MELD = "lay_down_a_meld"
    NOT_A_MELD = "not_a_meld"
    NO_SUCH_MELD = "no_such_meld"
    LAY_OFF_A_CARD = "lay_off_a_card"
    SET_RANK_ONLY = "set_rank_only"
    SET_HAS_SUIT = "set_has_suit"
    SET_TOO_BIG = "set_too_big"
    NOT_EXTENDING_RUN = "not_extending_run"
    NOT_EXTENDING_RUN_END = "not_extending_run_end"
    CLASSIC_NO_JOKERS = "classic_no_jokers"
    UNKNOWN_MELD_KIND = "unknown_meld_kind"
    # starting a game and its state
    ENGINE_NOT_VARIANT = "engine_not_variant"
    SEATS_DISTINCT = "seats_distinct"
    SEAT_TWICE = "seat_twice"
    SEATS_RANGE = "seats_range"
    CLASSIC_SEATS_RANGE = "classic_seats_range"
    TOSS_NOT_A_SEAT = "toss_not_a_seat"
    TOSS_NOT_SEATED = "toss_not_seated"
    CLASSIC_NEEDS_SETTINGS = "classic_needs_settings"
    NOT_GAME_STATE = "not_game_state"
    NOT_CLASSIC_STATE = "not_classic_state"
    CORRUPT_CLASSIC_STATE = "corrupt_classic_state"
    NO_SEAT_TO_MOVE = "no_seat_to_move"
    NO_PLAYER_LEFT = "no_player_left"
    PAYOUTS_NOT_POT = "payouts_not_pot"
    REVIEW_THIRTEEN_ONLY = "review_thirteen_only"
    NO_BOT_MOVE = "no_bot_move"
    DEAL_DID_NOT_END = "deal_did_not_end"
    EMPTY_HAND = "empty_hand"
    # shoes
    NOT_A_SHOE = "not_a_shoe"
    RESHUFFLE_KEY_PERMUTATION = "reshuffle_key_permutation"
    RESHUFFLE_KEYS_COUNT = "reshuffle_keys_count"
    RESHUFFLE_KEYS_SHORT = "reshuffle_keys_short"
    NO_RESHUFFLE_SEED = "no_reshuffle_seed"
    TOSS_NEEDS_SEAT = "toss_needs_seat"
    SHOE_PACKS = "shoe_packs"
    CLASSIC_SHOE_PACKS = "classic_shoe_packs"
    DEAL_NEEDS_PLAYERS = "deal_needs_players"
    CARDS_CANNOT_DEAL = "cards_cannot_deal"
    HANDS_SAME_SIZE = "hands_same_size"
    HAND_SIZE_EACH = "hand_size_each"
    TOO_MANY_COPIES = "too_many_copies"
    # settings
    UNKNOWN_VARIANT = "unknown_variant"
    UNKNOWN_CLASSIC_VARIANT = "unknown_classic_variant"
    VARIANT_AS_OVERRIDE = "variant_as_override"
    UNKNOWN_SETTINGS = "unknown_settings"
    UNKNOWN_CLASSIC_SETTINGS = "unknown_classic_settings"
    UNKNOWN_MELD_SETTINGS = "unknown_meld_settings"
    MELD_NOT_SETTINGS = "meld_not_settings"
    MELD_SETTINGS_OBJECT = "meld_settings_object"
    CLASSIC_SETTINGS_ONLY = "classic_settings_only"
    SETTING_NOT_INTEGER = "setting_not_integer"
    SETTING_NOT_NUMBER = "setting_not_number"
    SETTING_NOT_BOOL = "setting_not_bool"
    SETTING_NOT_BOOL_VALUE = "setting_not_bool_value"
    SETTING_NOT_STRING = "setting_not_string"
    SETTING_INTEGER_AT_LEAST = "setting_integer_at_least"
    SETTING_AT_LEAST = "setting_at_least"
    SETTING_AT_MOST = "setting_at_most"
    SETTING_ABOVE = "setting_above"
    SETTING_BELOW = "setting_below"
    SETTING_NOT_ABOVE = "setting_not_above"
    SETTING_WITHIN = "setting_within"
    SETTING_POSITIVE = "setting_positive"
    SETTING_MORE_THAN_ZERO = "setting_more_than_zero"
    SETTING_SECONDS = "setting_seconds"
    SETTING_NOT_NEGATIVE = "setting_not_negative"
    SETTING_ONE_OF = "setting_one_of"
    SETTING_NOT_FOR_VARIANT = "setting_not_for_variant"
    SEATS_MIN_MAX = "seats_min_max"
    DROPS_ORDER = "drops_order"
    DEAL_SHOW_ORDER = "deal_show_order"
    PACKS_TOO_FEW = "packs_too_few"
    CLASSIC_PACKS_TOO_FEW = "classic_packs_too_few"
    POOL_FIRST_DROP = "pool_first_drop"
    REJOIN_MAX_BELOW = "rejoin_max_below"
    TOURNAMENT_DEALS_COUNT = "tournament_deals_count"
    STAKE_ENTRY_FEE = "stake_entry_fee"
    STAKE_POINT_VALUE = "stake_point_value"
    BUY_IN_TOO_LOW = "buy_in_too_low"
    # scoring and money arithmetic
    COUNT_NEGATIVE = "count_negative"
    DEAL_SCORE_NEGATIVE = "deal_score_negative"
    SCORES_WITHOUT_TOTAL = "scores_without_total"
    FIRST_DROP_POSITIVE = "first_drop_positive"
    DROPS_NEGATIVE = "drops_negative"
    REJOIN_NEEDS_PLAYERS = "rejoin_needs_players"
    PRIZE_NEGATIVE = "prize_negative"
    SPLIT_NEEDS_SEAT = "split_needs_seat"
    UNKNOWN_SPLIT_WEIGHTING = "unknown_split_weighting"
    PLATFORM_FEE_RANGE = "platform_fee_range"
    ENTRY_FEE_NEGATIVE = "entry_fee_negative"
    ENTRIES_NEGATIVE = "entries_negative"
    SEAT_NO_CHIPS = "seat_no_chips"
    WINNER_NO_SCORE = "winner_no_score"
    PAYOUT_NEEDS_SEAT = "payout_needs_seat"
    # tournaments
    TOURNAMENT_SEATS = "tournament_seats"
    ROUND_NEEDS_PLAYER = "round_needs_player"
    DRAW_TWICE = "draw_twice"
    FIELD_DOES_NOT_SHRINK = "field_does_not_shrink"
    TABLE_SENDS_ONE = "table_sends_one"
    RANKED_TWICE = "ranked_twice"
    POOL_INPUTS_NEGATIVE = "pool_inputs_negative"
    FEE_RANGE = "fee_range"
    TOURNAMENT_TWO_PLAYERS = "tournament_two_players"
    PRIZE_POOL_NEGATIVE = "prize_pool_negative"
    PRIZE_SHARES = "prize_shares"
    PLACES_SHARED = "places_shared"


class RefusalParams(TypedDict, total=False):
    """What a refusal names. Cards are card codes (``"QH"``); ``value`` is a bad input as Python
    writes it (``repr``); ``name`` and ``other`` are setting names."""

    seat: int
    card: str
    cards: tuple[str, ...]
    count: int
    meld: int
    end: str
    low: int
    high: int
    first: int
    last: int
    packs: int
    players: int
    hand_size: int
    name: str
    other: str
    names: tuple[str, ...]
    choices: tuple[str, ...]
    value: str
    kind: str
    type: str
    variant: str
    detail: str


R = Refusal
ENGLISH: Final[Mapping[Refusal, str]] = MappingProxyType(
    {
        R.NOT_A_CARD: "not a card code: {value}",
        R.NOT_A_CARD_JOKER_SUIT: "not a card code: {value} (a printed joker has no suit)",
        R.NOT_A_CARD_TEXT: "not a card code: {value} (expected a string)",
        R.MALFORMED_RECORD: "malformed {type} {kind}: {detail}",
        R.MALFORMED_ACTION: "malformed {type} action",
        R.RECORD_NOT_OBJECT: "an {kind} must be an object",
        R.UNKNOWN_RECORD: "unknown {kind} {value}",
        R.UNKNOWN_ACTION: "unknown action {value}",
        R.NO_CLASSIC_ACTION: "classic rummy has no {value} action",
        R.EXPECTED_INTEGER: "expected an integer, got {value}",
        R.GROUPS_NOT_LIST: "groups must be a list of groups of cards",
        R.CARD_PLACE: "the card's place must be a small whole number, not {value}",
        R.UNKNOWN_RUN_END: "unknown run end {value}",
        R.NOT_SEATS_TURN: "it is not seat {seat}'s turn",
        R.NOT_YOUR_TURN: "it is not your turn",
        R.NOBODYS_TURN: "it is nobody's turn now",
        R.ALREADY_PICKED: "you have already picked a card this turn",
        R.CLOSED_DECK_EMPTY: "the closed deck is empty",
        R.OPEN_DECK_EMPTY: "the open deck is empty",
        R.STOCK_EMPTY: "the stock is empty",
        R.DISCARD_PILE_EMPTY: "the discard pile is empty",
        R.OPEN_JOKER: "a joker on the open deck cannot be picked",
        R.PICK_BEFORE_DISCARD: "pick a card before you discard",
        R.PICK_BEFORE_DISCARDING: "pick a card before discarding",
        R.PICK_FIRST: "pick a card first",
        R.PICK_BEFORE_DECLARE: "pick a card before you declare: a show needs 14 cards",
        R.NOT_HELD: "you do not hold {card}",
        R.NOT_IN_HAND: "{card} is not in your hand",
        R.GROUPS_NOT_THIRTEEN: (
            "your groups must hold exactly the 13 cards of your hand other than the finish card"
        ),
        R.GROUPS_NOT_YOUR_CARDS: "your groups must hold exactly your cards",
        R.DROP_BEFORE_PICK: "you can drop only before you pick a card",
        R.DROPS_NOT_ALLOWED: "drops are not allowed in this deal",
        R.AUTO_DROP_NOT_NOW: "auto drop can be set only while a deal is being played",
        R.NOT_PLAYING: "you are not playing this deal",
        R.NO_HAND_TO_ARRANGE: "there is no hand to arrange now",
        R.ALREADY_LEFT: "you have already left",
        R.PLAYER_LEFT: "that player has left",
        R.NO_TIMER: "no timer is running",
        R.TIMER_NOT_OUT: "the timer has not run out yet",
        R.UNKNOWN_TIMER: "unknown timer {value}",
        R.DEAL_NOT_DUE: "a deal can start only when one is due",
        R.DEAL_NEEDS_TWO: "a deal needs at least two players",
        R.NO_DEAL: "there is no deal in progress",
        R.NO_HAND_PLAYED: "no hand is being played",
        R.HAND_IN_PLAY: "a hand is already being played",
        R.BREAK_OVER: "the break is over: start the next hand with StartDeal",
        R.GAME_OVER: "the game is over",
        R.NOT_IN_GAME: "seat {seat} is not in this game",
        R.NOT_AT_TABLE: "seat {seat} is not at this table",
        R.NO_MELD_WINDOW: "there is no meld window open",
        R.NOT_MELDING: "you are not melding this deal",
        R.ALREADY_SUBMITTED: "you have already submitted your cards",
        R.NO_REJOIN: "no rejoin is open",
        R.MAY_NOT_REJOIN: "seat {seat} may not rejoin now",
        R.NO_SPLIT: "no split is offered",
        R.NOT_IN_SPLIT: "seat {seat} is not part of this split",
        R.ALREADY_ACCEPTED: "you have already accepted",
        R.KEEP_A_CARD: "keep a card to discard: you go out by discarding your last card",
        R.LAY_DOWN_A_MELD: "lay down at least one meld",
        R.NOT_A_MELD: "{cards} is not a set or a run",
        R.NO_SUCH_MELD: "there is no meld {meld} on the table",
        R.LAY_OFF_A_CARD: "lay off at least one card",
        R.SET_RANK_ONLY: "only cards of the set's rank fit meld {meld}",
        R.SET_HAS_SUIT: "meld {meld} already has that suit",
        R.SET_TOO_BIG: "a set may have at most {count} cards",
        R.NOT_EXTENDING_RUN: "{cards} does not extend run {meld}",
        R.NOT_EXTENDING_RUN_END: "{cards} does not extend run {meld} at the {end} end",
        R.CLASSIC_NO_JOKERS: "classic rummy is played without jokers",
        R.UNKNOWN_MELD_KIND: "unknown meld kind {value}",
        R.ENGINE_NOT_VARIANT: "the 13-card engine does not play {value}",
        R.SEATS_DISTINCT: "seats must be distinct seat numbers",
        R.SEAT_TWICE: "each seat may appear only once",
        R.SEATS_RANGE: "this table plays with {low} to {high} players",
        R.CLASSIC_SEATS_RANGE: "a classic table needs {low} to {high} players",
        R.TOSS_NOT_A_SEAT: "the toss must pick one of the seats",
        R.TOSS_NOT_SEATED: "the toss winner {seat} is not at the table",
        R.CLASSIC_NEEDS_SETTINGS: "a classic game needs ClassicSettings",
        R.NOT_GAME_STATE: "not a game state: {detail}",
        R.NOT_CLASSIC_STATE: "not a classic game state",
        R.CORRUPT_CLASSIC_STATE: "corrupt classic game state",
        R.NO_SEAT_TO_MOVE: "no seat to move to",
        R.NO_PLAYER_LEFT: "no player is left in the game",
        R.PAYOUTS_NOT_POT: "payouts and fee must add up to the gross pot",
        R.REVIEW_THIRTEEN_ONLY: "the review reads 13-card deals only",
        R.NO_BOT_MOVE: "no bot can move",
        R.DEAL_DID_NOT_END: "the deal did not end",
        R.EMPTY_HAND: "an empty hand has nothing to discard",
        R.NOT_A_SHOE: "not a shoe: {detail}",
        R.RESHUFFLE_KEY_PERMUTATION: "each reshuffle key list must be a permutation of the shoe",
        R.RESHUFFLE_KEYS_COUNT: "the shoe needs {count} reshuffle key lists",
        R.RESHUFFLE_KEYS_SHORT: "not enough reshuffle keys for the open deck",
        R.NO_RESHUFFLE_SEED: "a deal needs a reshuffle seed",
        R.TOSS_NEEDS_SEAT: "a toss needs at least one seat",
        R.SHOE_PACKS: "the shoe must hold exactly {packs} pack(s) of {count} cards",
        R.CLASSIC_SHOE_PACKS: "the shoe must be exactly {packs} packs of 52 cards",
        R.DEAL_NEEDS_PLAYERS: "need at least one player and one card each",
        R.CARDS_CANNOT_DEAL: "{count} cards cannot deal {hand_size} to {players} players",
        R.HANDS_SAME_SIZE: "every hand must have the same number of cards",
        R.HAND_SIZE_EACH: "every hand must have {count} cards",
        R.TOO_MANY_COPIES: "more copies than the packs hold: {names}",
        R.UNKNOWN_VARIANT: "unknown variant {value}; expected one of {choices}",
        R.UNKNOWN_CLASSIC_VARIANT: "unknown classic variant {value}",
        R.VARIANT_AS_OVERRIDE: "give the variant as the first argument, not as an override",
        R.UNKNOWN_SETTINGS: "unknown settings: {names}",
        R.UNKNOWN_CLASSIC_SETTINGS: "unknown classic settings: {names}",
        R.UNKNOWN_MELD_SETTINGS: "unknown meld settings: {names}",
        R.MELD_NOT_SETTINGS: "meld must be a MeldSettings",
        R.MELD_SETTINGS_OBJECT: "meld settings must be an object",
        R.CLASSIC_SETTINGS_ONLY: "ClassicSettings are for the classic variant only",
        R.SETTING_NOT_INTEGER: "{name} must be an integer, not {value}",
        R.SETTING_NOT_NUMBER: "{name} must be a number, not {value}",
        R.SETTING_NOT_BOOL: "{name} must be true or false",
        R.SETTING_NOT_BOOL_VALUE: "{name} must be true or false, not {value}",
        R.SETTING_NOT_STRING: "{name} must be a string, not {value}",
        R.SETTING_INTEGER_AT_LEAST: "{name} must be an integer of at least {low}",
        R.SETTING_AT_LEAST: "{name} must be at least {low}",
        R.SETTING_AT_MOST: "{name} must be at most {high}",
        R.SETTING_ABOVE: "{name} must be above {low}",
        R.SETTING_BELOW: "{name} must be below {other}",
        R.SETTING_NOT_ABOVE: "{name} cannot exceed {other}",
        R.SETTING_WITHIN: "{name} must be within {low}..{high}",
        R.SETTING_POSITIVE: "{name} must be positive",
        R.SETTING_MORE_THAN_ZERO: "{name} must be more than 0",
        R.SETTING_SECONDS: "{name} must be a number of seconds, 0 or more",
        R.SETTING_NOT_NEGATIVE: "{name} cannot be negative",
        R.SETTING_ONE_OF: "{name}: one of {choices}",
        R.SETTING_NOT_FOR_VARIANT: "{name} does not apply to {variant}",
        R.SEATS_MIN_MAX: "need 2 <= seats_min <= seats_max",
        R.DROPS_ORDER: "need 0 <= first_drop <= middle_drop",
        R.DEAL_SHOW_ORDER: "need 0 <= deal_show_min <= deal_show_max",
        R.PACKS_TOO_FEW: "{packs} pack(s) cannot deal 13 cards to {players} players",
        R.CLASSIC_PACKS_TOO_FEW: (
            "{packs} pack(s) cannot deal {hand_size} cards to {players} players and leave a "
            "stock and a discard pile"
        ),
        R.POOL_FIRST_DROP: "first_drop must be at least 1 in pool games",
        R.REJOIN_MAX_BELOW: "rejoin_max_total must be below pool_limit - 1",
        R.TOURNAMENT_DEALS_COUNT: "deals_count: 1 to 6 at a tournament table",
        R.STAKE_ENTRY_FEE: "a seat must pay something: set the entry fee",
        R.STAKE_POINT_VALUE: "a seat must pay something: set the point value",
        R.BUY_IN_TOO_LOW: "the points buy-in multiple must cover the worst score ({count} points)",
        R.COUNT_NEGATIVE: "a count cannot be negative",
        R.DEAL_SCORE_NEGATIVE: "a deal score cannot be negative",
        R.SCORES_WITHOUT_TOTAL: "scores for seats without a total: {names}",
        R.FIRST_DROP_POSITIVE: "drops available needs a positive first_drop",
        R.DROPS_NEGATIVE: "drops available cannot be negative",
        R.REJOIN_NEEDS_PLAYERS: "a rejoin needs players still in",
        R.PRIZE_NEGATIVE: "a prize cannot be negative",
        R.SPLIT_NEEDS_SEAT: "a split needs at least one seat",
        R.UNKNOWN_SPLIT_WEIGHTING: "unknown split weighting {value}",
        R.PLATFORM_FEE_RANGE: (
            "platform fee needs a non-negative amount and 0..10000 basis points"
        ),
        R.ENTRY_FEE_NEGATIVE: "entry fee and paid entries cannot be negative",
        R.ENTRIES_NEGATIVE: "entries cannot be negative",
        R.SEAT_NO_CHIPS: "seat {seat} has no chips",
        R.WINNER_NO_SCORE: "the winner {seat} has no score",
        R.PAYOUT_NEEDS_SEAT: "a payout needs at least one seat",
        R.TOURNAMENT_SEATS: "seats per table must be {low} to {high}",
        R.ROUND_NEEDS_PLAYER: "a round needs at least one player",
        R.DRAW_TWICE: "the draw names a player twice",
        R.FIELD_DOES_NOT_SHRINK: "the field does not shrink",
        R.TABLE_SENDS_ONE: "a table sends at least one player through",
        R.RANKED_TWICE: "player {value} is ranked twice",
        R.POOL_INPUTS_NEGATIVE: "entries, entry fee and guarantee cannot be negative",
        R.FEE_RANGE: "the fee is 0 to 100 % (0 to 10,000 basis points)",
        R.TOURNAMENT_TWO_PLAYERS: "a tournament has at least 2 players",
        R.PRIZE_POOL_NEGATIVE: "the prize pool cannot be negative",
        R.PRIZE_SHARES: "prize shares must be at least 0 and add up to 100",
        R.PLACES_SHARED: "places {first}-{last} are shared by {count} players",
    }
)
del R


def english(code: Refusal, params: Mapping[str, object]) -> str:
    """The English sentence of ``code`` with ``params``: cards joined by spaces, other lists by
    commas."""
    words = {
        key: (" " if key == "cards" else ", ").join(map(str, value))
        if isinstance(value, tuple)
        else value
        for key, value in params.items()
    }
    return ENGLISH[code].format(**words)


class RulesError(ValueError):
    """Base class of every error the rules engine raises: a ``code``, its ``params`` and the
    English sentence built from them (``str(exc)``). ``status``: the HTTP status a page
    answers it with (a move or an input the rules refuse: 400)."""

    status: int = 400

    def __init__(self, code: Refusal, /, **params: Unpack[RefusalParams]) -> None:
        self.code: Refusal = code
        self.params: RefusalParams = params
        super().__init__(english(code, params))


class InvalidCard(RulesError):
    """A card code that is not a card. ``value`` is the bad input; the message names it."""

    def __init__(self, value: object, code: Refusal = Refusal.NOT_A_CARD) -> None:
        self.value = value
        super().__init__(code, value=repr(value))


class InvalidMove(RulesError):
    """A move that the rules do not allow in the current state."""


class InvalidSettings(RulesError):
    """A settings object whose values break the rule book's constraints."""


class InvalidShoe(RulesError):
    """A shoe whose cards are not exactly the packs the settings call for, or that cannot be
    dealt as asked."""
