"""Writes for tables and games: seating, starting, acting, timers, bots, cancelling.

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

Errors meant for the player are ``ValueError`` subclasses: ``TableError`` (and its subclasses)
from here, ``InvalidMove``/``InvalidCard`` from the engine. Either way nothing was changed.
"""

from __future__ import annotations

import dataclasses
import logging
import math
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db import transaction

from .models import (
    LIVE_GAME_STATUSES,
    MELD_FIELDS,
    SETTINGS_FIELDS,
    BotProfile,
    Deal,
    Game,
    GameStatus,
    Move,
    Seat,
    Table,
    TableStatus,
    TableTemplate,
)
from .realtime import table_broadcast
from .rules.errors import InvalidMove, InvalidSettings, RulesError

logger = logging.getLogger(__name__)
T = TypeVar("T")

__all__ = [
    "PLAYER_ACTIONS",
    "ActionNotAllowed",
    "NotEnoughFunds",
    "NotFound",
    "NotSeated",
    "SeatUnavailable",
    "StaleAction",
    "TableClosed",
    "TableError",
    "TimerResult",
    "bot_choose",
    "bot_users_ensure",
    "bots_act",
    "deal_arrange",
    "deal_declare",
    "deal_discard",
    "deal_drop",
    "deal_pick",
    "deal_set_auto_drop",
    "deal_shoe_new",
    "deal_sort",
    "deal_start",
    "deal_submit_meld",
    "game_act",
    "game_cancel",
    "game_rejoin",
    "game_settings",
    "game_split_respond",
    "game_start",
    "game_state",
    "game_toss",
    "seat_set_connected",
    "table_close",
    "table_create",
    "table_join",
    "table_leave",
    "template_settings",
    "timer_fire",
    "timer_schedule",
    "timers_sweep",
]

# ============================================================================================
# Errors
# ============================================================================================


class TableError(ValueError):
    """A request the tables refuse. The message is meant for the player; nothing changed."""


class NotFound(TableError):
    """No such table or game."""


class StaleAction(TableError):
    """The game moved on since the player's view (a double click, a replayed or late request)."""

    def __init__(self, *, expected: int, current: int) -> None:
        self.expected = expected
        self.current = current
        super().__init__(
            f"This action was for version {expected} of the game, which is now at version "
            f"{current}: nothing was done. Refresh and try again."
        )


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


# ============================================================================================
# Engine access (always through ``engine_for``)
# ============================================================================================


def _engine(variant: str) -> Any:
    from .rules.variants import engine_for

    return engine_for(variant)


def _action_type(engine: Any, name: str) -> str:
    """The engine's type name of action ``name``: every engine uses the snake-case names of
    ``PLAYER_ACTIONS`` (``pick_closed``, ``timeout``...)."""
    return name


def _engine_action(ctx: _Ctx, name: str, **values: Any) -> Any:
    return ctx.engine.action_from_json({"type": _action_type(ctx.engine, name), **values})


def settings_field_names(variant: str) -> frozenset[str]:
    """The setting names the engine of ``variant`` knows."""
    engine = _engine(variant)
    return frozenset(f.name for f in dataclasses.fields(engine.settings_for(variant)))


def template_settings(template: TableTemplate) -> Any:
    """The engine settings a template describes: the variant's rule-book defaults, then every
    non-blank rule field of the template, then ``extra_settings``. Validated by the engine
    (raises ``InvalidSettings``, a ``ValueError``)."""
    engine = _engine(template.variant)
    names = settings_field_names(template.variant)
    overrides: dict[str, Any] = {}
    for name in SETTINGS_FIELDS:
        value = getattr(template, name)
        target = _SETTING_ALIASES.get((template.variant, name), name)
        if value is None:
            continue
        if target not in names:
            if name in _ALWAYS_SET_FIELDS:
                continue
            raise InvalidSettings(f"{name} does not apply to {template.get_variant_display()}")
        overrides[target] = value
    meld: dict[str, Any] = {}
    for name in MELD_FIELDS:
        value = getattr(template, name)
        if value is None:
            continue
        if "meld" in names:
            meld[name] = value
        elif name in names:
            overrides[name] = value
        else:
            raise InvalidSettings(f"{name} does not apply to {template.get_variant_display()}")
    if meld:
        overrides["meld"] = meld
    extra = dict(template.extra_settings or {})
    if isinstance(extra.get("meld"), Mapping) and meld:
        extra["meld"] = {**meld, **extra["meld"]}
    overrides.update(extra)
    settings = engine.settings_for(template.variant, **overrides)
    if _stake_of(template.variant, settings) <= 0:
        raise InvalidSettings(
            "a seat must pay something: set the point value"
            if template.variant == "points"
            else "a seat must pay something: set the entry fee"
        )
    if template.variant == "points":
        worst = max(settings.full_count, settings.wrong_show, settings.middle_drop)
        if settings.points_buy_in_multiple < worst:
            raise InvalidSettings(
                f"the points buy-in multiple must cover the worst score ({worst} points)"
            )
    return settings


# (variant, template field) -> engine setting name, where they differ.
_SETTING_ALIASES: dict[tuple[str, str], str] = {("classic", "hands_count"): "hands"}
# Always-filled template fields that some engines do not have (skipped there).
_ALWAYS_SET_FIELDS = frozenset(
    {"seats_min", "seats_max", "entry_fee", "point_value", "platform_fee_bps"}
)


def _stake_of(variant: str, settings: Any) -> int:
    """What each seat pays into the pot: the points buy-in, or the entry fee."""
    if variant == "points":
        return int(settings.points_buy_in)
    return int(settings.entry_fee)


def game_settings(game: Game) -> Any:
    """The settings frozen in ``game``."""
    return _engine(game.variant).settings_from_json(game.settings)


def game_state(game: Game) -> Any:
    """The engine state of a started game (``None`` before the start)."""
    if game.state is None:
        return None
    return _engine(game.variant).state_from_json(game.state)


# ============================================================================================
# Clock and randomness (the tests replace ``deal_shoe_new`` and ``game_toss`` to plant deals)
# ============================================================================================


def _in_transaction(work: Callable[[], T]) -> T:
    """Run ``work`` as one database transaction; serialization failures and deadlocks
    (PostgreSQL) or a locked database (SQLite) are retried by the ledger's helper."""
    from ledger.db import retry_on_conflict

    return retry_on_conflict(work)()


def _clock() -> float:
    return time.time()


def _to_dt(ts: float | None) -> datetime | None:
    if ts is None:
        return None
    # Rounded up to the microsecond, so a stored deadline is never before the engine's.
    return datetime.fromtimestamp(math.ceil(ts * 1_000_000) / 1_000_000, tz=UTC)


def deal_shoe_new(*, game: Game, settings: Any) -> Any:
    """The engine's start-deal action for the next deal of ``game``: a freshly shuffled shoe
    (``secrets``, Fisher-Yates). Tests replace this function to plant known hands."""
    return _engine(game.variant).new_start_deal(settings)


def game_toss(*, game: Game, seats: Sequence[int]) -> int:
    """The seat that starts the first deal, drawn with ``secrets``. Tests replace this."""
    return seats[secrets.randbelow(len(seats))]


# ============================================================================================
# Ledger (money moves only through ledger.services; idempotency keys come from the domain)
# ============================================================================================


def entry_key(*, game: Game, seat: Seat) -> str:
    """One entry per seat taken: the seat row's id tells apart two players who took the same
    seat number of a waiting game one after the other."""
    return f"entry:game:{game.pk}:seat:{seat.seat_no}:{seat.pk}"


def refund_key(*, game: Game, seat: Seat) -> str:
    return f"refund:game:{game.pk}:seat:{seat.seat_no}:{seat.pk}"


def rejoin_key(*, game: Game, seat_no: int, number: int) -> str:
    return f"rejoin:game:{game.pk}:seat:{seat_no}:{number}"


def settle_key(*, game: Game) -> str:
    return f"settle:game:{game.pk}"


def cancel_key(*, game: Game) -> str:
    return f"cancel:game:{game.pk}"


def practice_chips_key(*, game: Game, user: Any) -> str:
    return f"practice-chips:game:{game.pk}:user:{user.pk}"


def _ledger() -> Any:
    from ledger import services as ledger_services

    return ledger_services


def _hold(*, game: Game, user: Any, amount: int, key: str, rejoin: bool = False) -> None:
    """Move ``amount`` from the user's wallet into the game's pot (entry fee or rejoin fee)."""
    from ledger.errors import InsufficientFunds

    if amount <= 0:
        return
    post = _ledger().pot_hold_rejoin if rejoin else _ledger().pot_hold_entry
    try:
        post(
            user=user,
            currency=game.currency,
            pot_ref=game.pot_ref,
            amount=amount,
            idempotency_key=key,
        )
    except InsufficientFunds as exc:
        raise NotEnoughFunds(
            f"Your balance cannot pay {amount} ({game.currency}) for this table."
        ) from exc


# ============================================================================================
# Locking and the per-action context
# ============================================================================================


@dataclass
class _Ctx:
    """The locked rows of one game during one transaction."""

    table: Table
    game: Game
    seats: list[Seat]
    now: float
    changed: bool = False
    _engine: Any = None
    _settings: Any = None
    _state: Any = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def engine(self) -> Any:
        if self._engine is None:
            self._engine = _engine(self.game.variant)
        return self._engine

    @property
    def settings(self) -> Any:
        if self._settings is None:
            self._settings = self.engine.settings_from_json(self.game.settings)
        return self._settings

    @property
    def state(self) -> Any:
        if self._state is None and self.game.state is not None:
            self._state = self.engine.state_from_json(self.game.state)
        return self._state

    @state.setter
    def state(self, value: Any) -> None:
        self._state = value
        self.game.state = value.to_json()

    def active_seats(self) -> list[Seat]:
        """Seats still taken at the table (not left), by seat number."""
        return sorted((s for s in self.seats if s.left_at is None), key=lambda s: s.seat_no)

    def played_seats(self) -> dict[int, Seat]:
        """seat number -> seat, for the players of a started game."""
        return {s.seat_no: s for s in self.seats if s.played}

    def seat_of(self, user: Any) -> Seat | None:
        for seat in self.seats:
            if seat.user_id == user.pk and seat.left_at is None:
                return seat
        return None


def _lock_table(table_id: Any) -> Table:
    if not isinstance(table_id, int) or isinstance(table_id, bool) or table_id <= 0:
        raise NotFound(f"There is no table {table_id!r}.")
    try:
        return Table.objects.select_for_update().select_related("template").get(pk=table_id)
    except Table.DoesNotExist:
        raise NotFound(f"There is no table {table_id}.") from None


def _lock_context(*, table: Table, game_id: int, now: float) -> _Ctx:
    """Lock a game (its table already locked) and its seats, by primary key."""
    game = Game.objects.select_for_update().get(pk=game_id)
    seats = list(
        Seat.objects.select_for_update().filter(game=game).select_related("user").order_by("pk")
    )
    return _Ctx(table=table, game=game, seats=seats, now=now)


def _live_game_id(table: Table) -> int | None:
    game_id: int | None = (
        Game.objects.filter(table=table, status__in=LIVE_GAME_STATUSES)
        .order_by("-pk")
        .values_list("pk", flat=True)
        .first()
    )
    return game_id


def _lock_game(game_id: Any, now: float) -> _Ctx:
    """Lock a game's table, the game and its seats (in that order)."""
    if not isinstance(game_id, int) or isinstance(game_id, bool) or game_id <= 0:
        raise NotFound(f"There is no game {game_id!r}.")
    table_id = Game.objects.filter(pk=game_id).values_list("table_id", flat=True).first()
    if table_id is None:
        raise NotFound(f"There is no game {game_id}.")
    table = _lock_table(table_id)
    return _lock_context(table=table, game_id=game_id, now=now)


# ============================================================================================
# Applying actions, recording moves, money events
# ============================================================================================


def _record(
    ctx: _Ctx,
    *,
    action: str,
    payload: Mapping[str, Any],
    actor: Any = None,
    seat_no: int | None = None,
    events: Sequence[Mapping[str, Any]] = (),
    deal: Deal | None = None,
) -> Move:
    ctx.game.version += 1
    ctx.changed = True
    return Move.objects.create(
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


def _open_deal(ctx: _Ctx) -> Deal | None:
    if "open_deal" not in ctx.extra:
        ctx.extra["open_deal"] = (
            Deal.objects.filter(game=ctx.game, ended_at__isnull=True).order_by("-number").first()
        )
    deal: Deal | None = ctx.extra["open_deal"]
    return deal


def _apply(ctx: _Ctx, action: Any, *, actor: Any = None, deal: Deal | None = None) -> list[Any]:
    """Apply one engine action, record it as a move, and handle its events."""
    state = ctx.state
    if state is None:
        raise TableError("The game has not started yet.")
    transition = ctx.engine.apply(state, action, now=ctx.now)
    ctx.state = transition.state
    events = list(transition.events)
    payload = action.to_json()
    name = str(payload.get("type", type(action).__name__))
    if deal is not None:  # the start-deal action: its shoe is stored in the Deal row
        payload = {"type": name, "deal": deal.number}
    _record(
        ctx,
        action=name,
        payload=payload,
        actor=actor,
        seat_no=getattr(action, "seat", None),
        events=[e.to_json() for e in events],
        deal=deal if deal is not None else _open_deal(ctx),
    )
    _handle_events(ctx, events)
    return events


def _handle_events(ctx: _Ctx, events: Iterable[Any]) -> None:
    for event in events:
        kind = type(event).__name__
        if kind == "DealStarted":
            deal = _open_deal(ctx)
            if deal is not None:
                deal.starter = int(event.starter)
                cut = getattr(event, "cut_card", None)
                deal.cut_joker = cut.code if cut is not None else ""
                deal.save(update_fields=["starter", "cut_joker"])
        elif kind == "DealEnded":
            deal = _open_deal(ctx)
            if deal is not None:
                deal.result = event.to_json()
                deal.ended_at = _to_dt(ctx.now)
                deal.save(update_fields=["result", "ended_at"])
                ctx.extra["open_deal"] = None
        elif kind == "Rejoined":
            _rejoin_paid(ctx, event)
        elif kind == "PointsSettled":
            ctx.extra["points_settled"] = event
        elif kind == "GameEnded":
            _settle(ctx, event)


def _rejoin_paid(ctx: _Ctx, event: Any) -> None:
    seat_no = int(event.seat)
    seat = ctx.played_seats()[seat_no]
    amount = int(event.amount)
    number = int(ctx.state.player(seat_no).rejoins)
    _hold(
        game=ctx.game,
        user=seat.user,
        amount=amount,
        key=rejoin_key(game=ctx.game, seat_no=seat_no, number=number),
        rejoin=True,
    )
    seat.entry_paid += amount
    seat.save(update_fields=["entry_paid"])


def _settlement(ctx: _Ctx, event: Any) -> tuple[dict[int, int], int]:
    """(payouts by seat, fee) that empty the pot exactly."""
    settled = ctx.extra.get("points_settled")
    if settled is not None:
        # Points: every seat held the buy-in; it gets it back plus its net (losers' nets are
        # negative, the winner's is after the fee), and the fee goes to the house.
        payouts = {
            seat_no: seat.entry_paid + int(dict(settled.nets).get(seat_no, 0))
            for seat_no, seat in ctx.played_seats().items()
        }
        return payouts, int(settled.fee)
    payouts = {int(k): int(v) for k, v in dict(event.payouts).items()}
    fee = int(event.fee)
    if ctx.game.variant == "points" and not payouts and fee == 0:
        # A points game that ended before its deal: everyone gets the buy-in back.
        payouts = {n: s.entry_paid for n, s in ctx.played_seats().items()}
    return payouts, fee


def _settle(ctx: _Ctx, event: Any) -> None:
    """The game ended: pay the pot out exactly (payouts and fee), then free the table."""
    payouts_by_seat, fee = _settlement(ctx, event)
    seats = ctx.played_seats()
    payouts: dict[int, int] = {}
    for seat_no, amount in payouts_by_seat.items():
        if amount < 0:
            raise TableError(f"negative payout {amount} for seat {seat_no}")
        if amount:
            user_id = seats[seat_no].user_id
            payouts[user_id] = payouts.get(user_id, 0) + amount
    if ctx.game.variant == "points":
        _ledger().pot_settle(
            pot_ref=ctx.game.pot_ref,
            currency=ctx.game.currency,
            returns=payouts,
            fee=fee,
            idempotency_key=settle_key(game=ctx.game),
        )
    else:
        _ledger().pot_payout(
            pot_ref=ctx.game.pot_ref,
            currency=ctx.game.currency,
            payouts=payouts,
            fee=fee,
            idempotency_key=settle_key(game=ctx.game),
        )
    result = event.to_json()
    result["settlement"] = {
        "payouts": {str(k): v for k, v in sorted(payouts_by_seat.items())},
        "fee": fee,
    }
    ctx.game.result = result
    _finish(ctx, status=GameStatus.FINISHED)


def _finish(ctx: _Ctx, *, status: str) -> None:
    now_dt = _to_dt(ctx.now)
    ctx.game.status = status
    ctx.game.ended_at = now_dt
    ctx.game.deadline = None
    ctx.game.deadline_kind = ""
    for seat in ctx.seats:
        if seat.left_at is None:
            seat.left_at = now_dt
            seat.save(update_fields=["left_at"])
    deal = _open_deal(ctx)
    if deal is not None:
        deal.ended_at = now_dt
        if deal.result is None:
            deal.result = {"type": status}
        deal.save(update_fields=["ended_at", "result"])
        ctx.extra["open_deal"] = None
    if ctx.table.status != TableStatus.CLOSED:
        ctx.table.status = TableStatus.WAITING
        ctx.table.save(update_fields=["status"])


# ============================================================================================
# Deadlines, commit hooks, timers
# ============================================================================================


def _bot_seats(ctx: _Ctx) -> list[int]:
    return sorted(s.seat_no for s in ctx.seats if s.played and s.is_bot and s.left_at is None)


def _sync_deadline(ctx: _Ctx) -> None:
    """Set ``Game.deadline`` from the engine state (running), the start countdown (waiting),
    or a computer player's think time, whichever comes first."""
    game = ctx.game
    if game.status == GameStatus.RUNNING:
        state = ctx.state
        deadline: float | None = state.deadline
        kind: str = state.deadline_kind or ""
        if ctx.engine.deal_due(state, ctx.now):
            deadline, kind = ctx.now, "deal"
        elif not ctx.extra.get("bots_stuck") and _bots_pending(ctx):
            bot_at = ctx.now + float(ctx.table.template.bot_delay_s)
            running = game.deadline_kind == "bot" and game.deadline is not None
            if running and game.deadline.timestamp() > ctx.now:  # type: ignore[union-attr]
                bot_at = min(bot_at, game.deadline.timestamp())  # a think time already running
            if deadline is None or bot_at < deadline:
                deadline, kind = bot_at, "bot"
        game.deadline = _to_dt(deadline)
        game.deadline_kind = kind if deadline is not None else ""
    elif game.status == GameStatus.WAITING:
        if len(ctx.active_seats()) >= ctx.settings.seats_min:
            if game.deadline_kind != "start" or game.deadline is None:
                game.deadline = _to_dt(ctx.now + float(ctx.table.template.start_countdown_s))
                game.deadline_kind = "start"
        else:
            game.deadline = None
            game.deadline_kind = ""
    else:
        game.deadline = None
        game.deadline_kind = ""


def _save(ctx: _Ctx) -> None:
    """Save the game and arrange the push and the timer for after the commit."""
    _sync_deadline(ctx)
    ctx.game.save()
    game_id, table_id, version = ctx.game.pk, ctx.table.pk, ctx.game.version
    deadline = ctx.game.deadline if ctx.game.status in LIVE_GAME_STATUSES else None

    def after_commit() -> None:
        table_broadcast(table_id=table_id, version=version)
        if deadline is not None and django_settings.TIMERS_BACKEND == "celery":
            timer_schedule(game_id=game_id, version=version, deadline=deadline)

    transaction.on_commit(after_commit)


def timer_schedule(*, game_id: int, version: int, deadline: datetime) -> None:
    """Queue the Celery task that fires ``deadline`` (best effort: the sweep catches misses)."""
    from .tasks import game_timeout

    try:
        game_timeout.apply_async(args=(game_id, version), eta=deadline)
    except Exception:  # a broker outage must not fail the move; the sweep fires it later
        logger.exception("could not schedule the timer of game %s v%s", game_id, version)


def timer_reschedule(*, game_id: int, version: int) -> None:
    """Queue the timer of ``game_id`` again for its stored deadline (a task that ran early)."""
    game = Game.objects.filter(pk=game_id, version=version).first()
    if game is not None and game.deadline is not None and game.status in LIVE_GAME_STATUSES:
        timer_schedule(game_id=game_id, version=version, deadline=game.deadline)


class TimerResult:
    """What ``timer_fire`` did."""

    FIRED = "fired"
    STALE = "stale"  # the game moved on (or ended): nothing to do
    EARLY = "early"  # the deadline has not passed yet


def timer_fire(*, game_id: int, version: int, now: float | None = None) -> str:
    """Fire the deadline of ``game_id`` if the game is still at ``version`` and the deadline has
    passed: start the game (start countdown), deal (break over), let the computer players act,
    or apply the engine's ``Timeout`` (turn, meld, rejoin and split windows). Idempotent: a
    timer that lost a race with a move is a no-op. Returns a ``TimerResult`` value."""
    now = _clock() if now is None else now

    def work() -> Any:
        ctx = _lock_game(game_id, now)
        game = ctx.game
        if game.version != version or game.status not in LIVE_GAME_STATUSES:
            return TimerResult.STALE
        if game.deadline is None:
            return TimerResult.STALE
        if _to_dt(now) < game.deadline:  # type: ignore[operator]
            return TimerResult.EARLY
        if game.status == GameStatus.WAITING:
            if game.deadline_kind == "start" and len(ctx.active_seats()) >= ctx.settings.seats_min:
                _start(ctx)
        elif ctx.engine.deal_due(ctx.state, now):
            _deal_start(ctx)
        elif game.deadline_kind == "bot":
            if _bots_play(ctx) == 0:
                # Nothing a bot could do: let the engine's own deadline (a missed turn) run.
                ctx.extra["bots_stuck"] = True
        else:
            state = ctx.state
            if state.deadline is not None:
                # the stored deadline is rounded up to the microsecond: never before the engine's
                ctx.now = max(ctx.now, float(state.deadline))
            _apply(ctx, _engine_action(ctx, "timeout"))
        _continue(ctx)
        _save(ctx)
        return TimerResult.FIRED

    return _in_transaction(work)


def timers_sweep(*, now: float | None = None, limit: int = 200) -> int:
    """Fire every overdue deadline (after a restart, a lost task, or in the loop backend).
    Returns how many fired."""
    now = _clock() if now is None else now
    due = list(
        Game.objects.filter(
            status__in=LIVE_GAME_STATUSES, deadline__isnull=False, deadline__lte=_to_dt(now)
        )
        .order_by("deadline")
        .values_list("pk", "version")[:limit]
    )
    fired = 0
    for game_id, version in due:
        try:
            if timer_fire(game_id=game_id, version=version, now=now) == TimerResult.FIRED:
                fired += 1
        except Exception:  # one broken game must not stop the others
            logger.exception("timer of game %s v%s failed", game_id, version)
    return fired


def _continue(ctx: _Ctx) -> None:
    """What the server does at once after an action: deal when a deal is due (a new game, a
    break already over)."""
    for _ in range(8):
        if ctx.game.status != GameStatus.RUNNING or not ctx.engine.deal_due(ctx.state, ctx.now):
            return
        _deal_start(ctx)


# ============================================================================================
# Tables and seating
# ============================================================================================


def table_create(*, template: TableTemplate, name: str = "") -> Table:
    """A new table from ``template`` (staff)."""
    if not template.is_active:
        raise TableClosed(f"The template {template} is not active.")
    template_settings(template)  # refuse unplayable settings early
    table = Table.objects.create(template=template, name=name or template.name)
    if not name:
        table.name = f"{template.name} #{table.pk}"
        table.save(update_fields=["name"])
    return table


def _game_open(table: Table, now: float) -> int:
    """The id of the live game of ``table``; a new waiting game, with the template's settings
    frozen in it, when none is live."""
    game_id = _live_game_id(table)
    if game_id is not None:
        return game_id
    template = table.template
    if not template.is_active:
        raise TableClosed("This table does not take players now.")
    settings = template_settings(template)
    game = Game.objects.create(
        table=table,
        variant=template.variant,
        currency=template.currency,
        stake=_stake_of(template.variant, settings),
        settings=settings.to_json(),
        status=GameStatus.WAITING,
    )
    return int(game.pk)


def _check_seat_no(seat_no: Any) -> None:
    if seat_no is not None and (
        not isinstance(seat_no, int) or isinstance(seat_no, bool) or not 1 <= seat_no <= 6
    ):
        raise SeatUnavailable(f"There is no seat {seat_no!r} at this table.")


def _check_user(user: Any) -> None:
    if user is None or getattr(user, "is_anonymous", True) or getattr(user, "pk", None) is None:
        raise NotSeated("Sign in to take a seat.")


def table_join(
    *, table: Table, user: Any, seat_no: int | None = None, now: float | None = None
) -> Seat:
    """Sit ``user`` at ``table`` for its next game and hold the entry fee (the points buy-in at
    points tables) in the game's pot. Idempotent: a user already seated gets the same seat back.
    At practice tables the computer players take the other seats. A full table starts at once;
    at the minimum the start countdown runs."""
    now = _clock() if now is None else now
    _check_seat_no(seat_no)
    _check_user(user)

    def work() -> Any:
        locked = _lock_table(getattr(table, "pk", None))
        if locked.status == TableStatus.CLOSED:
            raise TableClosed("This table is closed.")
        ctx = _lock_context(table=locked, game_id=_game_open(locked, now), now=now)
        existing = ctx.seat_of(user)
        if existing is not None:
            return existing
        if ctx.game.status != GameStatus.WAITING:
            raise TableClosed("A game is being played at this table: join when it ends.")
        if BotProfile.objects.filter(user_id=user.pk).exists():
            raise SeatUnavailable("Computer players sit only where the table puts them.")
        seat = _seat_take(ctx, user=user, seat_no=seat_no, is_bot=False)
        if locked.template.practice:
            _bots_fill(ctx)
        if len(ctx.active_seats()) >= ctx.settings.seats_max:
            _start(ctx)
        _save(ctx)
        return seat

    return _in_transaction(work)


def _seat_take(ctx: _Ctx, *, user: Any, seat_no: int | None, is_bot: bool) -> Seat:
    seats_max = int(ctx.settings.seats_max)
    taken = {s.seat_no for s in ctx.active_seats()}
    if len(taken) >= seats_max:
        raise SeatUnavailable("This table is full.")
    if seat_no is None:
        seat_no = min(n for n in range(1, seats_max + 1) if n not in taken)
    elif seat_no > seats_max:
        raise SeatUnavailable(f"This table has seats 1 to {seats_max}.")
    elif seat_no in taken:
        raise SeatUnavailable(f"Seat {seat_no} is taken.")
    if ctx.table.template.practice:
        _practice_chips(ctx, user=user)
    seat = Seat.objects.create(
        table=ctx.table, game=ctx.game, seat_no=seat_no, user=user, is_bot=is_bot
    )
    ctx.seats.append(seat)
    _hold(game=ctx.game, user=user, amount=ctx.game.stake, key=entry_key(game=ctx.game, seat=seat))
    seat.entry_paid = ctx.game.stake
    seat.save(update_fields=["entry_paid"])
    _record(ctx, action="seat_join", payload={"seat": seat_no}, actor=user, seat_no=seat_no)
    return seat


def _practice_chips(ctx: _Ctx, *, user: Any) -> None:
    """Practice chips are free: top a wallet up so that it can pay this table."""
    from ledger import selectors as ledger_selectors

    rejoins = int(getattr(ctx.settings, "rejoins_per_player", 0) or 0)
    need = ctx.game.stake * (1 + rejoins)
    balance = int(ledger_selectors.wallet_balance(user=user, currency=ctx.game.currency))
    if balance >= need:
        return
    _ledger().wallet_deposit(
        user=user,
        currency=ctx.game.currency,
        amount=need * 10 - balance,
        idempotency_key=practice_chips_key(game=ctx.game, user=user),
        memo="Practice chips",
    )


def table_leave(*, table: Table, user: Any, now: float | None = None) -> None:
    """``user`` leaves ``table``. Before the game starts the entry is refunded; during a game it
    counts as leaving the game (a drop in the current deal, no refund)."""
    now = _clock() if now is None else now
    _check_user(user)

    def work() -> Any:
        locked = _lock_table(getattr(table, "pk", None))
        game_id = _live_game_id(locked)
        ctx = _lock_context(table=locked, game_id=game_id, now=now) if game_id else None
        seat = ctx.seat_of(user) if ctx is not None else None
        if ctx is None or seat is None:
            raise NotSeated("You do not sit at this table.")
        if ctx.game.status == GameStatus.WAITING:
            _seat_release(ctx, seat)
            if locked.template.practice and not any(not s.is_bot for s in ctx.active_seats()):
                for bot_seat in ctx.active_seats():
                    _seat_release(ctx, bot_seat)
        else:
            _leave_game(ctx, seat)
        _save(ctx)

    return _in_transaction(work)


def _seat_release(ctx: _Ctx, seat: Seat) -> None:
    """A seat of a waiting game is given up: refund its entry."""
    seat.left_at = _to_dt(ctx.now)
    seat.refunded = True
    seat.save(update_fields=["left_at", "refunded"])
    if seat.entry_paid > 0:
        _ledger().pot_refund_entry(
            user=seat.user,
            currency=ctx.game.currency,
            pot_ref=ctx.game.pot_ref,
            amount=seat.entry_paid,
            idempotency_key=refund_key(game=ctx.game, seat=seat),
        )
    seat_no = seat.seat_no
    _record(ctx, action="seat_leave", payload={"seat": seat_no}, actor=seat.user, seat_no=seat_no)


def _leave_game(ctx: _Ctx, seat: Seat) -> None:
    """``seat`` leaves the running game (the engine's ``Leave``). At a practice table the
    computer players leave with the last person, which ends the game."""
    player_status = _player_status(ctx, seat.seat_no)
    if player_status != "left":
        _apply(ctx, _engine_action(ctx, "leave", seat=seat.seat_no), actor=seat.user)
    if ctx.game.status == GameStatus.RUNNING:
        seat.left_at = _to_dt(ctx.now)
        seat.save(update_fields=["left_at"])
    _continue(ctx)
    if (
        ctx.game.status == GameStatus.RUNNING
        and ctx.table.template.practice
        and not any(s.played and not s.is_bot for s in ctx.active_seats())
    ):
        for bot_seat in ctx.active_seats():
            if ctx.game.status == GameStatus.RUNNING and bot_seat.is_bot:
                _leave_game(ctx, bot_seat)


def _player_status(ctx: _Ctx, seat_no: int) -> str:
    state = ctx.state
    try:
        player = state.player(seat_no)
    except (InvalidMove, ValueError):
        return "unknown"
    status = getattr(player, "status", None)
    if status is None:  # the classic engine keeps a flag
        status = "left" if getattr(player, "left", False) else "in"
    return str(status)


def seat_set_connected(
    *, table: Table, user: Any, connected: bool, now: float | None = None
) -> bool:
    """Record that ``user``'s connection to ``table`` went away or came back (the WebSocket
    consumer calls this). In a running game the engine applies its disconnection policy.
    Returns whether anything changed."""
    now = _clock() if now is None else now
    if user is None or getattr(user, "is_anonymous", True):
        return False

    def work() -> Any:
        locked = _lock_table(getattr(table, "pk", None))
        game_id = _live_game_id(locked)
        if game_id is None:
            return False
        ctx = _lock_context(table=locked, game_id=game_id, now=now)
        seat = ctx.seat_of(user)
        if seat is None or seat.connected == bool(connected):
            return False
        seat.connected = bool(connected)
        seat.save(update_fields=["connected"])
        playing = ctx.game.status == GameStatus.RUNNING and seat.played
        if playing and _player_status(ctx, seat.seat_no) != "left":
            _apply(
                ctx,
                _engine_action(ctx, "set_connected", seat=seat.seat_no, connected=bool(connected)),
                actor=user,
            )
            _continue(ctx)
        if ctx.changed:
            _save(ctx)
        return True

    return _in_transaction(work)


# ============================================================================================
# Starting games and deals
# ============================================================================================


def game_start(*, game: Game, now: float | None = None) -> Game:
    """Start the waiting ``game`` now with the seated players (at least the minimum). A full
    table or the start countdown normally does this."""
    now = _clock() if now is None else now

    def work() -> Any:
        ctx = _lock_game(getattr(game, "pk", None), now)
        if ctx.game.status != GameStatus.WAITING:
            raise TableError("This game has already started.")
        if len(ctx.active_seats()) < ctx.settings.seats_min:
            raise TableError(f"A game needs at least {ctx.settings.seats_min} players.")
        _start(ctx)
        _save(ctx)
        return ctx.game

    return _in_transaction(work)


def _start(ctx: _Ctx) -> None:
    seats = ctx.active_seats()
    seat_nos = [s.seat_no for s in seats]
    for seat in seats:
        seat.played = True
        seat.save(update_fields=["played"])
    toss = game_toss(game=ctx.game, seats=seat_nos)
    if toss not in seat_nos:
        raise TableError("the toss must pick a seated player")
    ctx.state = ctx.engine.new(settings=ctx.settings, seats=seat_nos, now=ctx.now, toss=toss)
    ctx.game.status = GameStatus.RUNNING
    ctx.game.started_at = _to_dt(ctx.now)
    ctx.game.deadline = None
    ctx.game.deadline_kind = ""
    ctx.table.status = TableStatus.PLAYING
    ctx.table.save(update_fields=["status"])
    _record(ctx, action="game_start", payload={"seats": seat_nos, "toss": toss})
    for seat in seats:
        if not seat.connected:
            _apply(ctx, _engine_action(ctx, "set_connected", seat=seat.seat_no, connected=False))
    _continue(ctx)


def deal_start(*, game: Game, now: float | None = None) -> Deal:
    """Deal the next deal of ``game`` now, if one is due (a started game awaiting a deal, or a
    break that has run out). The timers normally do this."""
    now = _clock() if now is None else now

    def work() -> Deal:
        ctx = _lock_game(getattr(game, "pk", None), now)
        if ctx.game.status != GameStatus.RUNNING or not ctx.engine.deal_due(ctx.state, now):
            raise TableError("No deal is due now.")
        deal = _deal_start(ctx)
        _save(ctx)
        return deal

    return _in_transaction(work)


def _deal_start(ctx: _Ctx) -> Deal:
    """Store the next deal's shoe (a ``Deal`` row), then deal it, in this transaction."""
    start = deal_shoe_new(game=ctx.game, settings=ctx.settings)
    number = Deal.objects.filter(game=ctx.game).count() + 1
    deal = Deal.objects.create(
        game=ctx.game,
        number=number,
        shoe=start.to_json(),
        state_before=ctx.game.state,
        version_before=ctx.game.version,
    )
    ctx.extra["open_deal"] = deal
    _apply(ctx, start, deal=deal)
    return deal


# ============================================================================================
# Player actions
# ============================================================================================

# What a player may send: action name -> the payload fields it takes. The acting seat always
# comes from the signed-in user, never from the request.
PLAYER_ACTIONS: dict[str, frozenset[str]] = {
    "pick_closed": frozenset(),
    "pick_open": frozenset(),
    "discard": frozenset({"card"}),
    "declare": frozenset({"finish_card", "groups"}),
    "drop": frozenset(),
    "set_auto_drop": frozenset({"on"}),
    "arrange": frozenset({"groups"}),
    "submit_meld": frozenset({"groups"}),
    "rejoin": frozenset(),
    "split_accept": frozenset(),
    "split_decline": frozenset(),
    "lay_down": frozenset({"melds"}),
    "lay_off": frozenset({"cards", "meld_id", "end"}),
    "leave": frozenset(),
}


def _player_action(ctx: _Ctx, *, seat_no: int, action: Any, payload: Any) -> Any:
    keys = PLAYER_ACTIONS.get(action) if isinstance(action, str) else None
    if keys is None:
        raise ActionNotAllowed(f"Unknown action {action!r}.")
    if not isinstance(payload, Mapping):
        raise ActionNotAllowed(f"Malformed {action} action.")
    extra = set(payload) - keys
    if extra:
        raise ActionNotAllowed(f"Unexpected fields for {action}: {', '.join(sorted(extra))}.")
    missing = keys - set(payload) - {"end"}
    if missing:
        raise ActionNotAllowed(f"Missing fields for {action}: {', '.join(sorted(missing))}.")
    return _engine_action(ctx, action, seat=seat_no, **payload)


def game_act(
    *,
    game_id: int,
    user: Any,
    action: str,
    expected_version: int,
    payload: Mapping[str, Any] | None = None,
    now: float | None = None,
) -> Game:
    """Apply one player action for ``user``'s seat if the game is still at
    ``expected_version``. ``action`` is a name of ``PLAYER_ACTIONS``, ``payload`` its fields
    (card codes as text), e.g. ``action="discard", payload={"card": "QH"}``.

    Raises ``StaleAction`` when the game has moved on (a double click, a replayed or late
    request), ``InvalidMove``/``InvalidCard`` (engine) for an illegal move or a bad card code,
    and ``TableError`` subclasses for the rest. Nothing changes on any error."""
    now = _clock() if now is None else now
    _check_user(user)
    if not isinstance(expected_version, int) or isinstance(expected_version, bool):
        raise ActionNotAllowed("Missing or malformed game version.")

    def work() -> Any:
        ctx = _lock_game(game_id, now)
        if ctx.game.version != expected_version:
            raise StaleAction(expected=expected_version, current=ctx.game.version)
        if ctx.game.status != GameStatus.RUNNING:
            raise TableClosed("This game is not being played.")
        seat = ctx.seat_of(user)
        if seat is None or not seat.played:
            raise NotSeated("You are not playing in this game.")
        engine_action = _player_action(
            ctx, seat_no=seat.seat_no, action=action, payload=payload or {}
        )
        if action == "leave":
            _leave_game(ctx, seat)
        else:
            _apply(ctx, engine_action, actor=user)
            _continue(ctx)
        _save(ctx)
        return ctx.game

    return _in_transaction(work)


def deal_pick(
    *, game_id: int, user: Any, source: str, expected_version: int, now: float | None = None
) -> Game:
    """Pick from the ``"closed"`` or the ``"open"`` deck."""
    if source not in ("closed", "open"):
        raise ActionNotAllowed("Pick from the closed or the open deck.")
    return game_act(
        game_id=game_id,
        user=user,
        action=f"pick_{source}",
        expected_version=expected_version,
        now=now,
    )


def deal_discard(
    *, game_id: int, user: Any, card: str, expected_version: int, now: float | None = None
) -> Game:
    return game_act(
        game_id=game_id,
        user=user,
        action="discard",
        payload={"card": card},
        expected_version=expected_version,
        now=now,
    )


def deal_declare(
    *,
    game_id: int,
    user: Any,
    finish_card: str,
    groups: Sequence[Sequence[str]],
    expected_version: int,
    now: float | None = None,
) -> Game:
    return game_act(
        game_id=game_id,
        user=user,
        action="declare",
        payload={"finish_card": finish_card, "groups": _groups_payload(groups)},
        expected_version=expected_version,
        now=now,
    )


def deal_drop(*, game_id: int, user: Any, expected_version: int, now: float | None = None) -> Game:
    return game_act(
        game_id=game_id, user=user, action="drop", expected_version=expected_version, now=now
    )


def deal_set_auto_drop(
    *, game_id: int, user: Any, on: bool, expected_version: int, now: float | None = None
) -> Game:
    return game_act(
        game_id=game_id,
        user=user,
        action="set_auto_drop",
        payload={"on": bool(on)},
        expected_version=expected_version,
        now=now,
    )


def deal_arrange(
    *,
    game_id: int,
    user: Any,
    groups: Sequence[Sequence[str]],
    expected_version: int,
    now: float | None = None,
) -> Game:
    return game_act(
        game_id=game_id,
        user=user,
        action="arrange",
        payload={"groups": _groups_payload(groups)},
        expected_version=expected_version,
        now=now,
    )


def deal_submit_meld(
    *,
    game_id: int,
    user: Any,
    groups: Sequence[Sequence[str]],
    expected_version: int,
    now: float | None = None,
) -> Game:
    return game_act(
        game_id=game_id,
        user=user,
        action="submit_meld",
        payload={"groups": _groups_payload(groups)},
        expected_version=expected_version,
        now=now,
    )


def deal_sort(*, game_id: int, user: Any, expected_version: int, now: float | None = None) -> Game:
    """Auto-sort: arrange ``user``'s hand into its best arrangement (the lowest count; a valid
    show when there is one), the loose cards last. 13-card games only."""
    now = _clock() if now is None else now
    _check_user(user)
    if not isinstance(expected_version, int) or isinstance(expected_version, bool):
        raise ActionNotAllowed("Missing or malformed game version.")
    from .rules.evaluate import evaluate_hand

    def work() -> Game:
        ctx = _lock_game(game_id, now)
        if ctx.game.version != expected_version:
            raise StaleAction(expected=expected_version, current=ctx.game.version)
        seat = ctx.seat_of(user)
        if ctx.game.status != GameStatus.RUNNING or seat is None or not seat.played:
            raise NotSeated("You are not playing in this game.")
        if ctx.engine.name == "classic":
            raise ActionNotAllowed("Sorting is for the 13-card games.")
        view = ctx.engine.view(ctx.state, seat.seat_no)
        hand = view.get("hand") or {}
        if "arrange" not in view.get("allowed", ()) or not hand.get("cards"):
            raise ActionNotAllowed("There is no hand to sort now.")
        meld = getattr(ctx.settings, "meld", None)
        best = evaluate_hand(hand["cards"], view["deal"]["cut_joker"], settings=meld)
        groups = [[c.code for c in g] for g in best.groups]
        if best.ungrouped:
            groups.append([c.code for c in best.ungrouped])
        _apply(ctx, _engine_action(ctx, "arrange", seat=seat.seat_no, groups=groups), actor=user)
        _save(ctx)
        return ctx.game

    return _in_transaction(work)


def game_rejoin(
    *, game_id: int, user: Any, expected_version: int, now: float | None = None
) -> Game:
    """Buy back in after an elimination (pool): the entry fee is paid into the pot again."""
    return game_act(
        game_id=game_id, user=user, action="rejoin", expected_version=expected_version, now=now
    )


def game_split_respond(
    *, game_id: int, user: Any, accept: bool, expected_version: int, now: float | None = None
) -> Game:
    """Accept or decline the manual split on offer."""
    return game_act(
        game_id=game_id,
        user=user,
        action="split_accept" if accept else "split_decline",
        expected_version=expected_version,
        now=now,
    )


def _groups_payload(groups: Any) -> Any:
    if isinstance(groups, str) or not isinstance(groups, Iterable):
        raise ActionNotAllowed("Groups must be a list of groups of card codes.")
    out = []
    for group in groups:
        if isinstance(group, str):
            out.append(group)
        elif isinstance(group, Iterable):
            out.append(list(group))
        else:
            raise ActionNotAllowed("Groups must be a list of groups of card codes.")
    return out


# ============================================================================================
# Staff
# ============================================================================================


def game_cancel(*, game: Game, staff_user: Any, reason: str, now: float | None = None) -> Game:
    """Cancel a waiting or running game (staff): every paid entry, rejoins included, is refunded
    by reversing entries; no fee is kept. The table is free for a new game."""
    now = _clock() if now is None else now
    reason = (reason or "").strip()
    if not reason:
        raise TableError("Give a reason for cancelling the game.")
    if not getattr(staff_user, "is_staff", False):
        raise TableError("Only staff may cancel a game.")

    def work() -> Any:
        ctx = _lock_game(getattr(game, "pk", None), now)
        if ctx.game.status not in LIVE_GAME_STATUSES:
            raise TableError("Only a waiting or running game can be cancelled.")
        _ledger().pot_cancel_refund(
            pot_ref=ctx.game.pot_ref,
            currency=ctx.game.currency,
            idempotency_key=cancel_key(game=ctx.game),
        )
        ctx.game.cancelled_by = staff_user
        ctx.game.cancel_reason = reason
        ctx.game.result = {"type": "cancelled", "reason": reason}
        _record(ctx, action="game_cancel", payload={"reason": reason}, actor=staff_user)
        _finish(ctx, status=GameStatus.CANCELLED)
        _save(ctx)
        return ctx.game

    return _in_transaction(work)


def table_close(*, table: Table, staff_user: Any, reason: str = "") -> Table:
    """Close a table (staff): a waiting game is cancelled (entries refunded); a running game
    plays on to its end, after which the table takes nobody."""
    if not getattr(staff_user, "is_staff", False):
        raise TableError("Only staff may close a table.")

    def work() -> int | None:
        locked = _lock_table(getattr(table, "pk", None))
        locked.status = TableStatus.CLOSED
        locked.save(update_fields=["status"])
        return _live_game_id(locked)

    game_id = _in_transaction(work)
    if game_id is not None:
        game = Game.objects.get(pk=game_id)
        if game.status == GameStatus.WAITING:
            game_cancel(game=game, staff_user=staff_user, reason=reason or "Table closed")
    return Table.objects.get(pk=table.pk)


# ============================================================================================
# Computer players (practice tables)
# ============================================================================================

BOT_USERNAME_PREFIX = "bot-"
# Actions that make a computer player act (others it never takes: it never rejoins).
_BOT_TRIGGERS = frozenset({"pick_closed", "discard", "submit_meld", "split_accept"})


def bot_users_ensure(*, count: int) -> list[Any]:
    """The first ``count`` computer players (created on first use, unusable passwords)."""
    user_model = get_user_model()
    bots: list[Any] = []
    for n in range(1, count + 1):
        user, created = user_model.objects.get_or_create(
            username=f"{BOT_USERNAME_PREFIX}{n}", defaults={"display_name": f"Bot {n}"}
        )
        if created:
            user.set_unusable_password()
            user.save(update_fields=["password"])
        BotProfile.objects.get_or_create(user=user)
        bots.append(user)
    return bots


def _bots_fill(ctx: _Ctx) -> None:
    template = ctx.table.template
    seated = ctx.active_seats()
    wanted = min(template.bot_count, int(ctx.settings.seats_max) - len(seated))
    wanted -= sum(1 for s in seated if s.is_bot)
    if wanted <= 0:
        return
    seated_users = {s.user_id for s in seated}
    for bot in bot_users_ensure(count=template.bot_count + len(seated_users)):
        if wanted <= 0:
            break
        if bot.pk not in seated_users:
            _seat_take(ctx, user=bot, seat_no=None, is_bot=True)
            wanted -= 1


def _allowed(ctx: _Ctx, seat_no: int) -> list[str]:
    view = ctx.engine.view(ctx.state, seat_no)
    return list(view.get("allowed", ()))


def _bots_pending(ctx: _Ctx) -> bool:
    if ctx.state is None:
        return False
    return any(_BOT_TRIGGERS & set(_allowed(ctx, seat_no)) for seat_no in _bot_seats(ctx))


def bot_choose(*, engine: Any, state: Any, seat: int) -> dict[str, Any] | None:
    """The action (as engine JSON, without the seat) a computer player takes now, or ``None``.

    13-card games: pick the open card when it lowers the hand's best count, else the closed
    deck; drop on the first turn only when the hand is hopeless (no joker, and even its best
    arrangement counts the full count); after picking, declare when the
    hand can be shown, else throw the card whose loss leaves the lowest count; in a meld window
    submit the best arrangement; accept a split; never rejoin. Classic: draw from the stock, lay
    down the melds it holds and lay off what fits (highest penalty first, keeping a card to
    throw), then throw the highest card."""
    from .rules.evaluate import best_discard, evaluate_hand
    from .rules.melds import is_joker

    view = engine.view(state, seat)
    if engine.name == "classic":
        allowed_classic = set(view.get("allowed", ()))
        hand = (view.get("hand") or {}).get("cards") or []
        if "pick_closed" in allowed_classic:
            return {"type": "pick_closed"}
        if "pick_open" in allowed_classic:
            return {"type": "pick_open"}
        if "lay_down" in allowed_classic and hand:
            from .rules.classic import TableMeld, bot_meld_action

            table_melds = [
                TableMeld.from_json(m) for m in (view.get("deal") or {}).get("melds", [])
            ]
            move = bot_meld_action(hand, table_melds, state.settings)
            if move is not None and move[0] == "lay_down":
                return {"type": "lay_down", "melds": [[c.code for c in move[1]]]}
            if move is not None and "lay_off" in allowed_classic:
                card, meld_id = move[1]
                return {"type": "lay_off", "cards": [card.code], "meld_id": meld_id}
        if "discard" in allowed_classic and hand:
            picked = (view.get("deal") or {}).get("picked_open_card")
            candidates = [c for c in hand if c != picked] or hand
            return {"type": "discard", "card": max(candidates, key=_classic_order)}
        return None
    allowed = set(view.get("allowed", ()))
    hand_view = view.get("hand") or {}
    deal_view = view.get("deal") or {}
    cards: list[str] = list(hand_view.get("cards", []))
    cut = deal_view.get("cut_joker")
    meld = getattr(state.settings, "meld", None)
    if "pick_closed" in allowed:
        current = evaluate_hand(cards, cut, settings=meld)
        me = next(p for p in view["players"] if p["seat"] == seat)
        hopeless = current.points >= state.settings.full_count and not any(
            is_joker(card, cut) for card in cards
        )
        if "drop" in allowed and me.get("turns", 0) == 0 and hopeless:
            return {"type": "drop"}
        top = deal_view.get("open_top")
        if "pick_open" in allowed and top:
            choice = best_discard([*cards, top], cut, settings=meld)
            if choice.card.code != top and choice.evaluation.points < current.points:
                return {"type": "pick_open"}
        return {"type": "pick_closed"}
    if "discard" in allowed:
        choice = best_discard(cards, cut, settings=meld)
        picked = hand_view.get("picked")
        evaluation = choice.evaluation
        if evaluation.can_declare and "declare" in allowed:
            return {
                "type": "declare",
                "finish_card": choice.card.code,
                "groups": [[c.code for c in g] for g in evaluation.groups],
            }
        card = choice.card.code
        if deal_view.get("picked_open_card") and card == picked and len(cards) > 1:
            card = next(c for c in sorted(cards, reverse=True) if c != picked)
        return {"type": "discard", "card": card}
    if "submit_meld" in allowed:
        evaluation = evaluate_hand(cards, cut, settings=meld)
        groups = [[c.code for c in g] for g in evaluation.groups]
        if evaluation.ungrouped:
            groups.append([c.code for c in evaluation.ungrouped])
        return {"type": "submit_meld", "groups": groups}
    if "split_accept" in allowed:
        return {"type": "split_accept"}
    return None


def _classic_order(code: str) -> tuple[int, str]:
    """Highest-scoring card first (A 11, court cards 10, others at face) for a classic bot."""
    rank = code[:-1]
    value = 11 if rank == "A" else 10 if rank in ("J", "Q", "K") else int(rank)
    return value, code


def _bots_play(ctx: _Ctx) -> int:
    """Every computer player with something to do does it (a whole turn: pick, then declare or
    discard). Returns the number of actions taken."""
    played = 0
    seats = ctx.played_seats()
    for seat_no in _bot_seats(ctx):
        for _ in range(12):  # a whole turn: pick, lay down / lay off (classic), then discard
            if ctx.game.status != GameStatus.RUNNING or ctx.engine.deal_due(ctx.state, ctx.now):
                break
            choice = bot_choose(engine=ctx.engine, state=ctx.state, seat=seat_no)
            if choice is None:
                break
            try:
                action = ctx.engine.action_from_json({**choice, "seat": seat_no})
                _apply(ctx, action, actor=seats[seat_no].user)
            except RulesError:
                logger.exception("computer player at seat %s chose an illegal move", seat_no)
                break
            played += 1
            if choice["type"] not in ("pick_closed", "pick_open", "lay_down", "lay_off"):
                break
        _continue(ctx)
    return played


def bots_act(*, game_id: int, now: float | None = None) -> int:
    """Let the computer players of ``game_id`` act now (normally their think-time deadline does
    this through ``timer_fire``). Returns the number of actions they took."""
    now = _clock() if now is None else now

    def work() -> Any:
        ctx = _lock_game(game_id, now)
        if ctx.game.status != GameStatus.RUNNING:
            return 0
        played = _bots_play(ctx)
        if ctx.changed:
            _save(ctx)
        return played

    return _in_transaction(work)
