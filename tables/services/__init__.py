"""Writes for tables and games: seating, starting, acting, timers, bots, cancelling.

One module per concern, all above one private pipeline:

* ``seating``: ``table_create``, ``table_join``, ``table_leave``, ``seat_set_connected``
* ``matching``: ``template_play_now`` (Play now), private tables (``table_private_create``,
  ``table_join_by_code``, ``table_private_start``), ``template_tables_ensure``
* ``limits``: one seat per template's tables, ``seats_per_player_max`` tables at once
* ``play``: ``game_act`` and the named moves (``deal_pick``, ``deal_discard``, ...),
  ``deal_sort``, ``game_start``, ``deal_start``
* ``timers``: ``timer_fire``, ``timers_sweep``, ``timer_reschedule``
* ``bots``: ``bot_users_ensure``, ``bot_choose``, ``bots_act``
* ``staff``: ``game_cancel``, ``table_close``
* ``arranged``: ``game_arranged`` (a game whose players a tournament's director chose)
* ``hooks``: listeners for a game's end and guards on joining and leaving a table
* ``settlement``: money (idempotency keys, holds, the pay-out, refunds, practice chips)
* ``_pipeline`` / ``_context``: the machinery every write runs through

Every public function is keyword-only and runs as one database transaction that

1. locks the rows in a fixed order (the table, then its live game, then that game's seats by
   primary key) with ``select_for_update``;
2. checks the acting seat and, for player actions, the ``expected_version`` (a stale, duplicate
   or replayed request raises ``StaleAction`` and changes nothing);
3. calls the rules engine (through ``engine_for``: the 13-card games and classic rummy run on
   the same machinery), saves the new state, bumps ``Game.version`` and appends one ``Move``
   per applied action;
4. posts money through the ledger for the money events (entry fees, rejoins, the settlement,
   refunds);
5. on commit, pushes the new version to the table's sockets and schedules the timer.

Errors meant for the player are ``ValueError`` subclasses with a code and params:
``TableError`` (and its subclasses, a ``TableRefusal``) from here, ``InvalidMove``/``InvalidCard``
(a ``tables.rules.errors.Refusal``) from the engine; ``tables.web.messages.refusal_text`` words
either. Either way nothing was changed.
"""

from tables.engines import PLAYER_ACTIONS, game_settings, game_state, template_settings
from tables.services._context import deal_shoe_new, game_toss
from tables.services._pipeline import timer_schedule
from tables.services.arranged import game_arranged
from tables.services.bots import BOT_USERNAME_PREFIX, bot_choose, bot_users_ensure, bots_act
from tables.services.errors import (
    ActionNotAllowed,
    NotEnoughFunds,
    NotFound,
    NotSeated,
    SeatUnavailable,
    StaleAction,
    TableClosed,
    TableError,
    TableRefusal,
    TimeRanOut,
)
from tables.services.limits import seats_per_player_max
from tables.services.matching import (
    table_by_code,
    table_by_token,
    table_join_by_code,
    table_private_create,
    table_private_start,
    template_play_now,
    template_tables_ensure,
)
from tables.services.play import (
    INDEPENDENT_ACTIONS,
    deal_arrange,
    deal_discard,
    deal_pick,
    deal_sort,
    deal_start,
    game_act,
    game_rejoin,
    game_start,
)
from tables.services.seating import seat_set_connected, table_create, table_join, table_leave
from tables.services.settlement import (
    cancel_key,
    entry_key,
    practice_chips_key,
    refund_key,
    rejoin_key,
    settle_key,
)
from tables.services.staff import game_cancel, table_close
from tables.services.timers import TimerResult, timer_fire, timer_reschedule, timers_sweep

__all__ = [
    "BOT_USERNAME_PREFIX",
    "INDEPENDENT_ACTIONS",
    "PLAYER_ACTIONS",
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
    "TimerResult",
    "bot_choose",
    "bot_users_ensure",
    "bots_act",
    "cancel_key",
    "deal_arrange",
    "deal_discard",
    "deal_pick",
    "deal_shoe_new",
    "deal_sort",
    "deal_start",
    "entry_key",
    "game_act",
    "game_arranged",
    "game_cancel",
    "game_rejoin",
    "game_settings",
    "game_start",
    "game_state",
    "game_toss",
    "practice_chips_key",
    "refund_key",
    "rejoin_key",
    "seat_set_connected",
    "seats_per_player_max",
    "settle_key",
    "table_by_code",
    "table_by_token",
    "table_close",
    "table_create",
    "table_join",
    "table_join_by_code",
    "table_leave",
    "table_private_create",
    "table_private_start",
    "template_play_now",
    "template_settings",
    "template_tables_ensure",
    "timer_fire",
    "timer_reschedule",
    "timer_schedule",
    "timers_sweep",
]
