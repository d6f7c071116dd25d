"""The environment of one write: the clock and the randomness (the seams the tests replace),
the transaction, the row locks in their fixed order, and ``Ctx``, the locked rows of one game
with the engine, its settings and its decoded state.

Lock order, always: the table, then its game, then that game's seats by primary key.
"""

from __future__ import annotations

import copy
import math
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, TypeVar, overload

from django.db.models import QuerySet

from ledger.db import retry_on_conflict
from tables.compiled import CompiledRead
from tables.engines import engine_of, game_state
from tables.models import LIVE_GAME_STATUSES, TABLE_NAME_RELATED, Deal, Game, Move, Seat, Table
from tables.rules.engine_view import JsonObject, JsonValue
from tables.rules.game import PointsSettled
from tables.rules.variants import EngineAction, EngineSettings, EngineState, ServerEngine
from tables.services import _saved
from tables.services.errors import NotFound, NotSeated, TableError, TableRefusal

if TYPE_CHECKING:
    from accounts.models import User

T = TypeVar("T")


def in_transaction(work: Callable[[], T]) -> T:
    """Run ``work`` as one database transaction; serialization failures and deadlocks
    (PostgreSQL) or a locked database (SQLite) are retried by the ledger's helper."""
    return retry_on_conflict(_saved.flushed(work))()


def _clock() -> float:
    return time.time()


def now_or_clock(now: float | None) -> float:
    """``now`` as given, else the clock (the tests replace ``_clock``)."""
    return _clock() if now is None else now


@overload
def to_dt(ts: float) -> datetime: ...


@overload
def to_dt(ts: None) -> None: ...


@overload
def to_dt(ts: float | None) -> datetime | None: ...


def to_dt(ts: float | None) -> datetime | None:
    if ts is None:
        return None
    # Rounded up to the microsecond, so a stored deadline is never before the engine's.
    return datetime.fromtimestamp(math.ceil(ts * 1_000_000) / 1_000_000, tz=UTC)


def deal_shoe_new(*, game: Game, settings: EngineSettings) -> EngineAction:
    """The engine's start-deal action for the next deal of ``game``: a freshly shuffled shoe
    (``secrets``, Fisher-Yates). Tests replace this function to plant known hands."""
    return engine_of(game.variant).new_start_deal(settings)


def game_toss(*, game: Game, seats: Sequence[int]) -> int:
    """The seat that starts the first deal, drawn with ``secrets``. Tests replace this."""
    return seats[secrets.randbelow(len(seats))]


@dataclass
class Ctx:
    """The locked rows of one game during one transaction."""

    table: Table
    game: Game
    seats: list[Seat]
    now: float
    changed: bool = False
    _engine: ServerEngine | None = None
    _settings: EngineSettings | None = None
    _state: EngineState | None = None
    _state_stale: bool = False
    # The game's deals as this write knows them, read once by ``open_deal``: the newest deal
    # (kept for the pushes: its shoe commitment) and the one being played (``None`` between
    # deals). ``deals_read`` is false until read.
    deals_read: bool = False
    last_deal: Deal | None = None
    deal_in_play: Deal | None = None
    # What the push after the commit tells about this change ("what just happened").
    moves: list[dict[str, JsonValue]] = field(default_factory=list)
    money_moved: bool = False  # a rejoin fee was paid (the game's end says so by its status)
    points_settled: PointsSettled | None = None  # the points game's settlement, for the payout
    bots_stuck: bool = False  # no computer player could act: the engine's own deadline runs
    start_version: int = -1  # the version the game was at when locked
    _start_state: EngineState | None = None
    _start_captured: bool = False
    _start_lobby: tuple[str, str, int] = ("", "", 0)
    # Moves recorded and not yet written: they are written with the game (``_saved``).
    pending_moves: list[Move] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.start_version = self.game.version
        self._start_lobby = self._lobby_facts()

    def _lobby_facts(self) -> tuple[str, str, int]:
        """What the lobby shows of this table: its status, the game's, the seats taken."""
        taken = sum(1 for s in self.seats if s.left_at is None)
        return (str(self.table.status), str(self.game.status), taken)

    def lobby_changed(self) -> bool:
        """Whether this change moved anything the lobby shows (seating or status)."""
        return self._lobby_facts() != self._start_lobby

    @property
    def start_state(self) -> EngineState | None:
        """The decoded state at ``start_version`` (``None`` before the game began)."""
        if not self._start_captured:
            return self.state
        return self._start_state

    @property
    def engine(self) -> ServerEngine:
        if self._engine is None:
            self._engine = engine_of(self.game.variant)
        return self._engine

    @property
    def settings(self) -> EngineSettings:
        if self._settings is None:
            self._settings = self.engine.settings_from_json(self.game.settings)
        return self._settings

    @property
    def state(self) -> EngineState | None:
        if self._state is None and self.game.state is not None:
            self._state = game_state(self.game)  # decoded once per version in this process
        return self._state

    @state.setter
    def state(self, value: EngineState | None) -> None:
        if not self._start_captured:  # kept for the pushes: what changed for each seat
            self._start_state = self.state
            self._start_captured = True
        self._state = value
        self._state_stale = True  # encoded once, when saved (``state_json``)

    def running_state(self) -> EngineState:
        """The state of a started game (``TableError`` before the start)."""
        state = self.state
        if state is None:
            raise TableError(TableRefusal.GAME_NOT_STARTED)
        return state

    def deal_due(self, now: float) -> bool:
        """Whether a started game's next deal is due at ``now`` (the engine says)."""
        state = self.state
        return state is not None and self.engine.deal_due(state, now)

    def state_json(self) -> JsonObject | None:
        """The game's state as stored: encoded now if the engine moved it since."""
        if self._state_stale and self._state is not None:
            self.game.state = dict(self._state.to_json())
            self._state_stale = False
        stored: JsonObject | None = self.game.state
        return stored

    def active_seats(self) -> list[Seat]:
        """Seats still taken at the table (not left), by seat number."""
        return sorted((s for s in self.seats if s.left_at is None), key=lambda s: s.seat_no)

    def played_seats(self) -> dict[int, Seat]:
        """seat number -> seat, for the players of a started game."""
        return {s.seat_no: s for s in self.seats if s.played}

    def seat_of(self, user: User) -> Seat | None:
        for seat in self.seats:
            if seat.user_id == user.pk and seat.left_at is None:
                return seat
        return None


def lock_table(table_id: object) -> Table:
    if not isinstance(table_id, int) or isinstance(table_id, bool) or table_id <= 0:
        raise NotFound(TableRefusal.NO_SUCH_TABLE)
    try:
        return _tables_for_update().get(pk=table_id)
    except Table.DoesNotExist:
        raise NotFound(TableRefusal.NO_SUCH_TABLE) from None


def _tables_for_update() -> QuerySet[Table]:
    """Tables with their template, locking the table row only: the template is read, not
    locked, so the tables of one template never wait for each other."""
    return Table.objects.select_for_update(of=("self",)).select_related(*TABLE_NAME_RELATED)


# A game read with its table and what names the table (the template, a tournament table's round
# and tournament).
_GAME_TABLE_RELATED = ("table", *(f"table__{name}" for name in TABLE_NAME_RELATED))


def _games_for_update() -> QuerySet[Game]:
    """Games with their table, locking the table's row and then the game's in one statement:
    ``FOR UPDATE OF`` the table, then the game locks them in the order it names them (the lock
    order). The template and a tournament table's round are read, not locked."""
    return Game.objects.select_for_update(of=("table", "self")).select_related(*_GAME_TABLE_RELATED)


# The locks of every game write, compiled once (``_compiled``): the game with its table, the
# game's seats with their users.
_GAME_LOCKED: CompiledRead[Game] = CompiledRead(lambda pk: _games_for_update().filter(pk=pk))
_SEATS_LOCKED: CompiledRead[Seat] = CompiledRead(
    lambda game_id: (
        Seat.objects.select_for_update(of=("self",))
        .filter(game_id=game_id)
        .select_related("user")
        .order_by("pk")
    )
)


_LIVE_GAME_LOCKED: CompiledRead[Game] = CompiledRead(
    lambda table_id: (
        _games_for_update()
        .filter(table_id=table_id, status__in=LIVE_GAME_STATUSES)
        .order_by("-pk")[:1]
    )
)


def lock_context(*, table: Table, game_id: int, now: float) -> Ctx:
    """Lock a game (its table already locked) and its seats, by primary key."""
    game = Game.objects.select_for_update().get(pk=game_id)
    return _seats_locked(table=table, game=game, now=now)


def _seats_locked(*, table: Table, game: Game, now: float) -> Ctx:
    """Lock the seats of a game whose table and game rows are locked, by primary key. The
    seats' users are read, not locked: a player's row is locked only first, by a seating write
    (``limits.player_lock``)."""
    return Ctx(table=table, game=game, seats=_SEATS_LOCKED.rows(game.pk), now=now)


def live_game_id(table: Table) -> int | None:
    game_id: int | None = (
        Game.objects.filter(table=table, status__in=LIVE_GAME_STATUSES)
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
    )
    return game_id


def lock_game(game_id: object, now: float) -> Ctx:
    """Lock a game's table, the game (one statement, in that order) and its seats."""
    if not isinstance(game_id, int) or isinstance(game_id, bool) or game_id <= 0:
        raise NotFound(TableRefusal.NO_SUCH_GAME)
    found = _GAME_LOCKED.rows(game_id)
    if not found:
        raise NotFound(TableRefusal.NO_SUCH_GAME)
    return _seats_locked(table=found[0].table, game=found[0], now=now)


def lock_live_game(table_id: object, now: float) -> Ctx:
    """Lock a table's game being played or waiting (its newest) with the table, in one
    statement as ``lock_game`` does, and its seats. ``NotFound`` (``NO_SUCH_GAME``) when the
    table has none, or there is no such table."""
    if not isinstance(table_id, int) or isinstance(table_id, bool) or table_id <= 0:
        raise NotFound(TableRefusal.NO_SUCH_GAME)
    found = _LIVE_GAME_LOCKED.rows(table_id)
    if not found:
        raise NotFound(TableRefusal.NO_SUCH_GAME)
    return _seats_locked(table=found[0].table, game=found[0], now=now)


def check_user(user: User) -> None:
    if user is None or getattr(user, "is_anonymous", True) or getattr(user, "pk", None) is None:
        raise NotSeated(TableRefusal.SIGN_IN_TO_SIT)


def engine_action(ctx: Ctx, name: str, **values: object) -> EngineAction:
    """The engine action ``name`` (a ``PLAYER_ACTIONS`` name, or ``timeout``...) with ``values``."""
    return ctx.engine.action_from_json({"type": name, **values})


def record_move(
    ctx: Ctx,
    *,
    action: str,
    payload: JsonObject,
    actor: User | None = None,
    seat_no: int | None = None,
    events: Sequence[JsonObject] = (),
    deal: Deal | None = None,
) -> Move:
    ctx.game.version += 1
    ctx.changed = True
    move = Move(
        game=ctx.game,
        deal=deal,
        version=ctx.game.version,
        actor=actor,
        seat_no=seat_no,
        action=action,
        payload=dict(payload),
        events=list(events),
        clock=ctx.now,
    )
    _saved.move_pending(ctx, move)  # written with the game, or before the commit
    ctx.moves.append(
        {"version": move.version, "seat_no": seat_no, "action": action, "events": move.events}
    )
    return move


def open_deal(ctx: Ctx) -> Deal | None:
    """The game's deal being played (``None`` between deals). The newest deal, open or not, is
    kept as ``ctx.last_deal`` for the pushes (its shoe commitment). Read once per write, and
    not at all when this process committed the version the game was locked at
    (``deal_remember``)."""
    if not ctx.deals_read:
        known, newest = _deal_recalled(ctx)
        if not known:
            # The state before the deal is read by the replays, never by a write.
            deals = Deal.objects.filter(game=ctx.game).defer("state_before")
            newest = deals.order_by("-number").first()
        ctx.deals_read = True
        ctx.last_deal = newest
        ctx.deal_in_play = newest if newest is not None and newest.ended_at is None else None
    return ctx.deal_in_play


def deal_known(ctx: Ctx) -> tuple[bool, Deal | None]:
    """The game's newest deal, if known without a query: read by this write, remembered at the
    version the game was locked at, or none before the game began (a deal is dealt only once
    the game has its state). ``(False, None)`` when unknown."""
    if ctx.deals_read:
        return True, ctx.last_deal
    if ctx.state is None:
        return True, None
    return _deal_recalled(ctx)


# The newest deal of each game as this process last committed it, with the game's version
# then. Every write that changes a game's deals (a new deal, its start, its end) bumps the
# game's version in the same transaction, so a game still at that version still has that
# newest deal, as it was: a write that locks it there reads no deal. Kept after the commit
# only (a version rolled back could be taken again with another deal), as a copy without the
# state before the deal (read from the database if ever asked for), least recently used first.
_DEALS: OrderedDict[tuple[object, object], tuple[int, Deal | None]] = OrderedDict()
_DEALS_LOCK = threading.Lock()
_DEALS_MAX = 4096


def _game_key(game: Game) -> tuple[object, object]:
    """A game's identity for ``_DEALS``: its id and when it was created (an id can come back
    after a rollback, as in the tests)."""
    return (game.pk, game.created_at)


def _deal_copy(deal: Deal | None) -> Deal | None:
    """A copy of ``deal`` for one write or for ``_DEALS``: no related row cached with it, the
    state before the deal left out."""
    if deal is None:
        return None
    copied = copy.copy(deal)
    copied._state.fields_cache = {}
    copied.__dict__.pop("state_before", None)
    return copied


def deal_remember(*, game: Game, version: int, deal: Deal | None) -> None:
    """Remember ``deal`` as the newest deal of ``game`` at ``version`` (after the commit)."""
    entry = (version, _deal_copy(deal))
    key = _game_key(game)
    with _DEALS_LOCK:
        _DEALS[key] = entry
        _DEALS.move_to_end(key)
        while len(_DEALS) > _DEALS_MAX:
            _DEALS.popitem(last=False)


def _deal_recalled(ctx: Ctx) -> tuple[bool, Deal | None]:
    """The remembered newest deal of the game at the version it was locked at (a copy),
    ``(False, None)`` when none is remembered at that version."""
    key = _game_key(ctx.game)
    with _DEALS_LOCK:
        entry = _DEALS.get(key)
        if entry is None or entry[0] != ctx.start_version:
            return False, None
        _DEALS.move_to_end(key)
    return True, _deal_copy(entry[1])


def player_status(ctx: Ctx, seat_no: int) -> str:
    state = ctx.state
    return "unknown" if state is None else ctx.engine.player_status(state, seat_no)


def bot_seats(ctx: Ctx) -> list[int]:
    return sorted(s.seat_no for s in ctx.seats if s.played and s.is_bot and s.left_at is None)
