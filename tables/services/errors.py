"""The errors the tables' services raise. Each is a ``ValueError`` with a ``code``
(``TableRefusal``) and ``params``; its message is worded from them by ``TABLE_MESSAGES`` in the
language active when it is shown (``str(exc)``, ``table_words``). Whenever one is raised,
nothing was changed."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

__all__ = [
    "TABLE_MESSAGES",
    "ActionNotAllowed",
    "NotEnoughFunds",
    "NotFound",
    "NotSeated",
    "SeatUnavailable",
    "StaleAction",
    "TableClosed",
    "TableError",
    "TableRefusal",
    "TimeRanOut",
    "table_words",
]


class TableRefusal(StrEnum):
    """What the tables (and the tournaments above them) refuse, one code per sentence."""

    # finding things
    NO_SUCH_TABLE = "no_such_table"
    NO_SUCH_GAME = "no_such_game"
    NO_SUCH_TEMPLATE = "no_such_template"
    NO_SUCH_INVITE = "no_such_invite"
    NO_SUCH_SEAT = "no_such_seat"
    # sitting down
    SIGN_IN_TO_SIT = "sign_in_to_sit"
    TEMPLATE_CLOSED = "template_closed"
    ALL_TABLES_BUSY = "all_tables_busy"
    CASH_OFF_OPEN = "cash_off_open"
    CASH_OFF_JOIN = "cash_off_join"
    SELF_EXCLUDED = "self_excluded"
    TABLE_NOT_TAKING = "table_not_taking"
    TABLE_IS_CLOSED = "table_is_closed"
    GAME_BEING_PLAYED = "game_being_played"
    BOTS_PLACED = "bots_placed"
    TABLE_FULL = "table_full"
    SEATS_RANGE = "seats_range"
    SEAT_TAKEN = "seat_taken"
    NOT_AT_TABLE = "not_at_table"
    ONE_SEAT_PER_KIND = "one_seat_per_kind"
    TABLES_LIMIT = "tables_limit"
    PRIVATE_TABLE = "private_table"
    PRIVATE_PRACTICE_ONLY = "private_practice_only"
    ALREADY_SEATED_HOST = "already_seated_host"
    HOST_STARTS = "host_starts"
    NOBODY_SEATED = "nobody_seated"
    GAME_STARTED_ALREADY = "game_started_already"
    NOT_ENOUGH_FRIENDS = "not_enough_friends"
    INVITE_CODE_FAILED = "invite_code_failed"
    BLOCKED_AT_TABLE = "blocked_at_table"
    HOST_INVITES = "host_invites"
    TOURNAMENT_TABLE = "tournament_table"
    TOURNAMENT_NO_LEAVING = "tournament_no_leaving"
    # money
    FUNDS_FEE = "funds_fee"
    FUNDS_FEE_HAVE = "funds_fee_have"
    FUNDS_BUY_IN = "funds_buy_in"
    FUNDS_BUY_IN_HAVE = "funds_buy_in_have"
    FUNDS_REJOIN = "funds_rejoin"
    FUNDS_REJOIN_HAVE = "funds_rejoin_have"
    PRACTICE_CHIPS_HINT = "practice_chips_hint"
    NEGATIVE_PAYOUT = "negative_payout"
    # playing
    GAME_NOT_STARTED = "game_not_started"
    GAME_STARTED = "game_started"
    GAME_NEEDS_PLAYERS = "game_needs_players"
    GAME_NOT_PLAYED = "game_not_played"
    NOT_PLAYING = "not_playing"
    NO_DEAL_DUE = "no_deal_due"
    TOSS_NOT_SEATED = "toss_not_seated"
    UNKNOWN_ACTION = "unknown_action"
    MALFORMED_ACTION = "malformed_action"
    UNEXPECTED_FIELDS = "unexpected_fields"
    MISSING_FIELDS = "missing_fields"
    BAD_VERSION = "bad_version"
    PICK_SOURCE = "pick_source"
    SORT_THIRTEEN = "sort_thirteen"
    NO_HAND_TO_SORT = "no_hand_to_sort"
    GROUPS_CODES = "groups_codes"
    STALE = "stale"
    LATE_TURN = "late_turn"
    LATE_MELD = "late_meld"
    LATE_REJOIN = "late_rejoin"
    LATE_SPLIT = "late_split"
    LATE = "late"
    # arranged games (tournaments)
    ARRANGED_SEATS = "arranged_seats"
    ARRANGED_ONCE = "arranged_once"
    ARRANGED_NO_MONEY = "arranged_no_money"
    # staff and support
    CANCEL_REASON = "cancel_reason"
    STAFF_CANCELS = "staff_cancels"
    CANCEL_NOT_LIVE = "cancel_not_live"
    STAFF_CLOSES = "staff_closes"
    NOTE_EMPTY = "note_empty"
    NOTE_TOO_LONG = "note_too_long"
    # tournaments
    NO_SUCH_TOURNAMENT = "no_such_tournament"
    CASH_OFF_TOURNAMENT = "cash_off_tournament"
    SELF_EXCLUDED_TOURNAMENT = "self_excluded_tournament"
    DAILY_LIMIT_TOURNAMENT = "daily_limit_tournament"
    BOT_LEVEL_UNKNOWN = "bot_level_unknown"
    MONTHLY_LIMIT_TOURNAMENT = "monthly_limit_tournament"
    ALREADY_REGISTERED = "already_registered"
    TOURNAMENT_FULL = "tournament_full"
    SIGN_IN_TO_REGISTER = "sign_in_to_register"
    REGISTRATION_NOT_OPEN = "registration_not_open"
    REGISTRATION_CLOSED = "registration_closed"
    BOTS_TOURNAMENT = "bots_tournament"
    NOT_REGISTERED = "not_registered"
    TOURNAMENT_STARTED = "tournament_started"
    TOURNAMENT_OVER = "tournament_over"
    NO_STAFF_USER = "no_staff_user"
    STAFF_CANCELS_TOURNAMENT = "staff_cancels_tournament"
    TOURNAMENT_CANCEL_REASON = "tournament_cancel_reason"
    ENTRIES_MISMATCH = "entries_mismatch"
    DRAW_INCOMPLETE = "draw_incomplete"
    NO_ROUND = "no_round"
    RESET_REASON = "reset_reason"
    RESET_REASON_LONG = "reset_reason_long"
    STAFF_RESETS = "staff_resets"


T = TableRefusal
TABLE_MESSAGES: Mapping[TableRefusal, Promise] = {
    T.NO_SUCH_TABLE: _("There is no such table."),
    T.NO_SUCH_GAME: _("There is no such game."),
    T.NO_SUCH_TEMPLATE: _("There is no such kind of table."),
    T.NO_SUCH_INVITE: _(
        "That invite code or link does not open any table: check it with the friend who "
        "sent it (a code has 6 letters and digits, e.g. K7QM2X)."
    ),
    T.NO_SUCH_SEAT: _("There is no such seat at this table."),
    T.SIGN_IN_TO_SIT: _("Sign in to take a seat."),
    T.TEMPLATE_CLOSED: _("%(name)s tables are not open now."),
    T.ALL_TABLES_BUSY: _(
        "Every %(name)s table is playing (%(most)s at most at once): try again in a minute."
    ),
    T.CASH_OFF_OPEN: _("Money games are off on this site: cash tables cannot be opened."),
    T.CASH_OFF_JOIN: _("Money games are off on this site: cash tables take no players."),
    T.SELF_EXCLUDED: _(
        "You have excluded yourself from money games until %(until)s: cash tables are "
        "closed to you until then. Practice tables are open."
    ),
    T.TABLE_NOT_TAKING: _("This table does not take players now."),
    T.TABLE_IS_CLOSED: _("This table is closed."),
    T.GAME_BEING_PLAYED: _("A game is being played at this table: join when it ends."),
    T.BOTS_PLACED: _("Computer players sit only where the table puts them."),
    T.TABLE_FULL: _("This table is full."),
    T.SEATS_RANGE: _("This table has seats 1 to %(most)s."),
    T.SEAT_TAKEN: _("Seat %(seat)s is taken."),
    T.NOT_AT_TABLE: _("You do not sit at this table."),
    T.ONE_SEAT_PER_KIND: _("You already sit at a %(name)s table: one seat per kind of table."),
    T.TABLES_LIMIT: _(
        "You already play at %(limit)s tables, the most at once: leave one to sit here."
    ),
    T.PRIVATE_TABLE: _(
        "This is a private table: join it with the invite link or code its host shared."
    ),
    T.PRIVATE_PRACTICE_ONLY: _("Private tables are practice tables: pick a practice game."),
    T.ALREADY_SEATED_HOST: _("You already sit at a %(name)s table: leave it to host your own."),
    T.HOST_STARTS: _("Only the host starts a private table."),
    T.NOBODY_SEATED: _("Nobody sits at this table yet."),
    T.GAME_STARTED_ALREADY: _("The game has started already."),
    T.NOT_ENOUGH_FRIENDS: _("Not enough players to start: wait for your friends."),
    T.INVITE_CODE_FAILED: _("Could not make an invite code: try again."),
    T.BLOCKED_AT_TABLE: _(
        "A player at this private table blocked you, or you blocked them: you cannot sit here."
    ),
    T.HOST_INVITES: _("Only the host invites friends to a private table."),
    T.TOURNAMENT_TABLE: _("This is a tournament table: the tournament seats its players."),
    T.TOURNAMENT_NO_LEAVING: _(
        "There is no leaving a running tournament: while you are away your turns run out "
        "and the server plays them."
    ),
    T.FUNDS_FEE: _("Not enough balance: the entry fee is %(fee)s."),
    T.FUNDS_FEE_HAVE: _(
        "Not enough balance: the entry fee is %(fee)s and your balance is %(have)s."
    ),
    T.FUNDS_BUY_IN: _("Not enough balance: the buy-in is %(fee)s."),
    T.FUNDS_BUY_IN_HAVE: _(
        "Not enough balance: the buy-in is %(fee)s and your balance is %(have)s."
    ),
    T.FUNDS_REJOIN: _("Not enough balance: the rejoin fee is %(fee)s."),
    T.FUNDS_REJOIN_HAVE: _(
        "Not enough balance: the rejoin fee is %(fee)s and your balance is %(have)s."
    ),
    T.PRACTICE_CHIPS_HINT: _("Free practice chips are in your wallet, once a day."),
    T.NEGATIVE_PAYOUT: _("The game's payout does not add up: nothing was paid."),
    T.GAME_NOT_STARTED: _("The game has not started yet."),
    T.GAME_STARTED: _("This game has already started."),
    T.GAME_NEEDS_PLAYERS: _("A game needs at least %(count)s players."),
    T.GAME_NOT_PLAYED: _("This game is not being played."),
    T.NOT_PLAYING: _("You are not playing in this game."),
    T.NO_DEAL_DUE: _("No deal is due now."),
    T.TOSS_NOT_SEATED: _("The toss must pick a seated player."),
    T.UNKNOWN_ACTION: _("Unknown action %(action)s."),
    T.MALFORMED_ACTION: _("Malformed %(action)s action."),
    T.UNEXPECTED_FIELDS: _("Unexpected fields for %(action)s: %(fields)s."),
    T.MISSING_FIELDS: _("Missing fields for %(action)s: %(fields)s."),
    T.BAD_VERSION: _("Missing or malformed game version."),
    T.PICK_SOURCE: _("Pick from the closed or the open deck."),
    T.SORT_THIRTEEN: _("Sorting is for the 13-card games."),
    T.NO_HAND_TO_SORT: _("There is no hand to sort now."),
    T.GROUPS_CODES: _("Groups must be a list of groups of card codes."),
    T.STALE: _(
        "The table moved on since your last view: nothing was done. Check the table and try again."
    ),
    T.LATE_TURN: _("Time ran out before your move arrived: the turn has passed on."),
    T.LATE_MELD: _("The meld window closed before your groups arrived."),
    T.LATE_REJOIN: _("The rejoin offer ran out before your answer arrived."),
    T.LATE_SPLIT: _("The split offer ran out before your answer arrived."),
    T.LATE: _("The table moved on before your move arrived."),
    T.ARRANGED_SEATS: _("An arranged game seats 2 to 6 players."),
    T.ARRANGED_ONCE: _("An arranged game seats each player once."),
    T.ARRANGED_NO_MONEY: _("An arranged game takes no money."),
    T.CANCEL_REASON: _("Give a reason for cancelling the game."),
    T.STAFF_CANCELS: _("Only staff may cancel a game."),
    T.CANCEL_NOT_LIVE: _("Only a waiting or running game can be cancelled."),
    T.STAFF_CLOSES: _("Only staff may close a table."),
    T.NOTE_EMPTY: _("Write the note first."),
    T.NOTE_TOO_LONG: _("A note has at most %(count)s characters."),
    T.NO_SUCH_TOURNAMENT: _("There is no such tournament."),
    T.CASH_OFF_TOURNAMENT: _("Money games are off on this site: cash tournaments take no players."),
    T.SELF_EXCLUDED_TOURNAMENT: _(
        "You have excluded yourself from money games until %(until)s: cash tournaments "
        "are closed to you until then. Practice tournaments are open."
    ),
    T.BOT_LEVEL_UNKNOWN: _("Choose the computer players' level: easy, medium or hard."),
    T.DAILY_LIMIT_TOURNAMENT: _(
        "Your deposits of the last 24 hours are over your daily deposit limit of %(limit)s: "
        "cash tournaments are closed to you until they are within it. Practice tournaments "
        "are open."
    ),
    T.MONTHLY_LIMIT_TOURNAMENT: _(
        "Your deposits of the last 30 days are over your monthly deposit limit of %(limit)s: "
        "cash tournaments are closed to you until they are within it. Practice tournaments "
        "are open."
    ),
    T.ALREADY_REGISTERED: _("You are already registered for this tournament."),
    T.TOURNAMENT_FULL: _("This tournament is full."),
    T.SIGN_IN_TO_REGISTER: _("Sign in to register."),
    T.REGISTRATION_NOT_OPEN: _("Registration for this tournament is not open yet."),
    T.REGISTRATION_CLOSED: _("Registration for this tournament is closed."),
    T.BOTS_TOURNAMENT: _("Computer players join only where the site puts them."),
    T.NOT_REGISTERED: _("You are not registered for this tournament."),
    T.TOURNAMENT_STARTED: _(
        "The tournament has started: there is no leaving a running tournament."
    ),
    T.TOURNAMENT_OVER: _("This tournament is over."),
    T.NO_STAFF_USER: _("No staff user to record on the cancelled tables."),
    T.STAFF_CANCELS_TOURNAMENT: _("Only staff can cancel a tournament."),
    T.TOURNAMENT_CANCEL_REASON: _("Give a reason for cancelling."),
    T.ENTRIES_MISMATCH: _("The entries held do not match the entry fee."),
    T.DRAW_INCOMPLETE: _("The draw must seat every player once."),
    T.NO_ROUND: _("A running tournament has no round."),
    T.RESET_REASON: _("Give a reason for resetting the rating."),
    T.RESET_REASON_LONG: _("The reason is longer than %(count)s characters."),
    T.STAFF_RESETS: _("Only staff reset ratings."),
}
del T


def table_words(exc: TableError) -> str:
    """The refusal ``exc`` in the active language: its code's sentence with its params (and,
    when ``practice`` is set, where the free practice chips are)."""
    text = str(TABLE_MESSAGES[exc.code]) % exc.params
    if exc.params.get("practice"):
        text = f"{text} {TABLE_MESSAGES[TableRefusal.PRACTICE_CHIPS_HINT]}"
    return text


class TableError(ValueError):
    """A request the tables refuse: a ``code``, its ``params`` (names, counts, amounts as the
    player reads them) and the HTTP ``status`` a page answers it with (400; 404 for what is not
    there, 409 for a move the table overtook). ``str(exc)`` is the sentence for the player;
    nothing changed."""

    status: int = 400

    def __init__(self, code: TableRefusal, /, **params: Any) -> None:
        self.code = code
        self.params: dict[str, Any] = params
        super().__init__(code.value)

    def __str__(self) -> str:
        return table_words(self)


class NotFound(TableError):
    """No such table or game."""

    status = 404


class StaleAction(TableError):
    """The game moved on since the player's view (a double click, a replayed or late request)."""

    status = 409

    def __init__(self, *, expected: int, current: int) -> None:
        self.expected = expected
        self.current = current
        super().__init__(TableRefusal.STALE)


class NotSeated(TableError):
    """The user has no seat in this game."""


class SeatUnavailable(TableError):
    """The asked seat does not exist or is taken, or the table is full."""


class TableClosed(TableError):
    """The table does not take players now (closed, inactive, or a game is running)."""


class NotEnoughFunds(TableError):
    """The wallet cannot pay the entry fee (or the rejoin fee)."""


class ActionNotAllowed(TableError):
    """An unknown action, or one players may not send (server-only, or malformed)."""


class TimeRanOut(TableError):
    """The deadline the move was for had passed (by more than the grace) when it arrived: the
    timeout was applied first and stands; the move was refused."""

    status = 409

    _REASONS = {
        "turn": TableRefusal.LATE_TURN,
        "meld": TableRefusal.LATE_MELD,
        "rejoin": TableRefusal.LATE_REJOIN,
        "split": TableRefusal.LATE_SPLIT,
    }

    def __init__(self, fired: Iterable[str]) -> None:
        self.fired = list(fired)
        code = next(
            (self._REASONS[kind] for kind in self.fired if kind in self._REASONS),
            TableRefusal.LATE,
        )
        super().__init__(code)
