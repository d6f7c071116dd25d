"""The pipeline every write runs through, after its own checks:

lock (``_context``) -> apply the engine (``apply_action``: record the move, handle its money events)
-> continue (``continue_play``: deal when a deal is due; ``begin_game`` begins a game) -> save
(``save_game``: set the deadline from the engine, the start countdown or a computer player's think
time, save the game) -> on commit (push the new version, schedule the timer).

``game_write`` and ``table_write`` run a body through it as one transaction.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import TYPE_CHECKING, TypeVar

from celery import current_app
from django.conf import settings as django_settings
from django.db import transaction

from tables.engines import game_state_remember, state_key
from tables.events import UNKNOWN_DEAL, TableMoved, table_moved_publish
from tables.models import LIVE_GAME_STATUSES, DeadlineKind, Deal, GameStatus, TableStatus
from tables.rules import classic, fairness
from tables.rules.game import DealEnded, DealStarted, GameEnded, PointsSettled, Rejoined
from tables.rules.variants import EngineAction, EngineEvent
from tables.services import _context
from tables.services._context import (
    Ctx,
    bot_seats,
    deal_known,
    deal_remember,
    engine_action,
    in_transaction,
    lock_game,
    lock_live_game,
    open_deal,
    record_move,
    to_dt,
)
from tables.services._saved import game_save
from tables.services.errors import TableError, TableRefusal
from tables.services.settlement import rejoin_paid, settle
from tables.signals import push_observed

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)
T = TypeVar("T")

# The Celery task that fires a deadline (``tables.timers.tasks.game_timeout``), named rather than
# imported: the task calls the timers service, which runs through this pipeline.
GAME_TIMEOUT_TASK = "tables.tasks.game_timeout"
# What a write changes of a game row (never its table, variant, currency, stake or settings).
GAME_MOVING_FIELDS = [
    "state",
    "version",
    "status",
    "deadline",
    "deadline_kind",
    "started_at",
    "ended_at",
    "result",
    "cancelled_by",
    "cancel_reason",
]
# Deadlines a player beats by acting (turn and extra time, the meld window, the rejoin and split
# offers): they fire ``deadline_grace()`` seconds late, so a move sent just before the deadline
# and delayed by the network still counts.
GRACE_KINDS = frozenset(
    {DeadlineKind.TURN, DeadlineKind.MELD, DeadlineKind.REJOIN, DeadlineKind.SPLIT}
)
# Actions that make a computer player act (others it never takes: it never rejoins).
_BOT_TRIGGERS = frozenset({"pick_closed", "discard", "submit_meld", "split_accept"})


def apply_action(
    ctx: Ctx, action: EngineAction, *, actor: User | None = None, deal: Deal | None = None
) -> list[EngineEvent]:
    """Apply one engine action, record it as a move, and handle its events."""
    state = ctx.state
    if state is None:
        raise TableError(TableRefusal.GAME_NOT_STARTED)
    transition = ctx.engine.apply(state, action, now=ctx.now)
    ctx.state = transition.state
    events = list(transition.events)
    payload = action.to_json()
    name = str(payload.get("type", type(action).__name__))
    if deal is not None:  # the start-deal action: its shoe is stored in the Deal row
        payload = {"type": name, "deal": deal.number}
    record_move(
        ctx,
        action=name,
        payload=payload,
        actor=actor,
        seat_no=getattr(action, "seat", None),
        events=[e.to_json() for e in events],
        deal=deal if deal is not None else open_deal(ctx),
    )
    _handle_events(ctx, events)
    return events


def _handle_events(ctx: Ctx, events: Iterable[EngineEvent]) -> None:
    """What the server does on the engine's events (both engines share all but ``DealStarted``;
    the others change nothing outside the game's state)."""
    for event in events:
        match event:
            case DealStarted() | classic.DealStarted():
                deal = open_deal(ctx)
                if deal is not None:
                    deal.starter = int(event.starter)
                    # the classic game has no cut joker
                    deal.cut_joker = event.cut_card.code if isinstance(event, DealStarted) else ""
                    deal.save(update_fields=["starter", "cut_joker"])
            case DealEnded():
                deal = open_deal(ctx)
                if deal is not None:
                    deal.result = event.to_json()
                    deal.ended_at = to_dt(ctx.now)
                    deal.save(update_fields=["result", "ended_at"])
                    ctx.deal_in_play = None
            case Rejoined():
                rejoin_paid(ctx, event)
                ctx.money_moved = True
            case PointsSettled():
                ctx.points_settled = event
            case GameEnded():
                settle(ctx, event)


def _allowed(ctx: Ctx, seat_no: int) -> tuple[str, ...]:
    return ctx.engine.view(ctx.running_state(), seat_no).allowed


def _bots_pending(ctx: Ctx) -> bool:
    """Whether a computer player has something to do now."""
    if ctx.state is None:
        return False
    return any(_BOT_TRIGGERS & set(_allowed(ctx, seat_no)) for seat_no in bot_seats(ctx))


def deadline_grace() -> float:
    """Seconds a player's deadline is held open for network delay (``DEADLINE_GRACE_S``)."""
    return float(django_settings.DEADLINE_GRACE_S)


def sync_deadline(ctx: Ctx) -> None:
    """Set ``Game.deadline`` from the engine state (running), the start countdown (waiting),
    or a computer player's think time, whichever comes first."""
    game = ctx.game
    if game.status == GameStatus.RUNNING:
        state = ctx.running_state()
        deadline: float | None = state.deadline
        kind = DeadlineKind(state.deadline_kind or DeadlineKind.NONE)
        if deadline is not None and kind in GRACE_KINDS:
            deadline += deadline_grace()  # a move sent just before the deadline still counts
        if ctx.engine.deal_due(state, ctx.now):
            deadline, kind = ctx.now, DeadlineKind.DEAL
        elif not ctx.bots_stuck and _bots_pending(ctx):
            bot_at = ctx.now + float(ctx.table.template.bot_delay_s)
            running = game.deadline if game.deadline_kind == DeadlineKind.BOT else None
            if running is not None and running.timestamp() > ctx.now:
                bot_at = min(bot_at, running.timestamp())  # a think time already running
            if deadline is None or bot_at < deadline:
                deadline, kind = bot_at, DeadlineKind.BOT
        game.deadline = to_dt(deadline)
        game.deadline_kind = kind if deadline is not None else DeadlineKind.NONE
    elif game.status == GameStatus.WAITING:
        wait_kind, wait_s = waiting_deadline(ctx)
        if wait_kind:
            if game.deadline_kind != wait_kind or game.deadline is None:
                game.deadline = to_dt(ctx.now + wait_s)
                game.deadline_kind = wait_kind
        else:
            game.deadline = None
            game.deadline_kind = DeadlineKind.NONE
    else:
        game.deadline = None
        game.deadline_kind = DeadlineKind.NONE


def waiting_deadline(ctx: Ctx) -> tuple[DeadlineKind, float]:
    """What a waiting game waits for, and for how long from now if that wait begins now:

    * ``fill``: at a practice table, people wait ``human_wait_s`` for other people from the
      moment the first sits; then computer players fill the empty seats and the game starts;
    * ``start``: at the minimum number of players, the start countdown;
    * nothing (``NONE``): below the minimum, and at a private table (its host starts it).
    """
    table, template = ctx.table, ctx.table.template
    seats = ctx.active_seats()
    if table.is_private:
        return DeadlineKind.NONE, 0.0
    if template.practice and float(template.human_wait_s or 0) > 0:
        people = any(not s.is_bot for s in seats)
        if people and not any(s.is_bot for s in seats):
            return DeadlineKind.FILL, float(template.human_wait_s)
    if len(seats) >= ctx.settings.seats_min:
        return DeadlineKind.START, float(template.start_countdown_s)
    return DeadlineKind.NONE, 0.0


def save_game(ctx: Ctx) -> None:
    """Save the game and arrange the push and the timer for after the commit."""
    sync_deadline(ctx)
    ctx.state_json()
    game_save(ctx, GAME_MOVING_FIELDS)  # with the moves recorded, one statement on PostgreSQL
    game_id, version, key = ctx.game.pk, ctx.game.version, state_key(ctx.game)
    deadline = ctx.game.deadline if ctx.game.status in LIVE_GAME_STATUSES else None
    known, deal = deal_known(ctx)
    moved = TableMoved(
        table=ctx.table,
        game=ctx.game,
        seats=tuple(ctx.seats),
        state=ctx.state,
        state_before=ctx.start_state,
        from_version=ctx.start_version,
        deal=deal if known else UNKNOWN_DEAL,
        moves=tuple(ctx.moves),
        money_moved=ctx.money_moved or ctx.game.status != GameStatus.RUNNING,
        lobby_changed=ctx.lobby_changed(),
    )

    def after_commit() -> None:
        game_state_remember(key=key, state=moved.state)
        if known:
            deal_remember(game=moved.game, version=version, deal=deal)
        push_observed(table_moved_publish, moved)
        if deadline is not None and _eta_timers():
            timer_schedule(game_id=game_id, version=version, deadline=deadline)

    transaction.on_commit(after_commit)


def _eta_timers() -> bool:
    """Whether each change queues its own timer task (``TIMERS_SCHEDULE = "eta"``); else beat's
    sweep fires the deadlines (``"sweep"``, and always on the loop backend)."""
    return bool(
        django_settings.TIMERS_BACKEND == "celery"
        and getattr(django_settings, "TIMERS_SCHEDULE", "sweep") == "eta"
    )


def timer_schedule(*, game_id: int, version: int, deadline: datetime) -> None:
    """Queue the Celery task that fires ``deadline`` (best effort: the sweep catches misses)."""
    try:
        current_app.tasks[GAME_TIMEOUT_TASK].apply_async(args=(game_id, version), eta=deadline)
    except Exception:  # a broker outage must not fail the move; the sweep fires it later
        logger.exception("could not schedule the timer of game %s v%s", game_id, version)


def continue_play(ctx: Ctx) -> None:
    """What the server does at once after an action: deal when a deal is due (a new game, a
    break already over)."""
    for _attempt in range(8):
        if ctx.game.status != GameStatus.RUNNING or not ctx.deal_due(ctx.now):
            return
        deal_next(ctx)


def begin_game(ctx: Ctx) -> None:
    seats = ctx.active_seats()
    seat_nos = [s.seat_no for s in seats]
    for seat in seats:
        seat.played = True
        seat.save(update_fields=["played"])
    toss = _context.game_toss(game=ctx.game, seats=seat_nos)
    if toss not in seat_nos:
        raise TableError(TableRefusal.TOSS_NOT_SEATED)
    ctx.state = ctx.engine.new(settings=ctx.settings, seats=seat_nos, now=ctx.now, toss=toss)
    ctx.game.status = GameStatus.RUNNING
    ctx.game.started_at = to_dt(ctx.now)
    ctx.game.deadline = None
    ctx.game.deadline_kind = DeadlineKind.NONE
    ctx.table.status = TableStatus.PLAYING
    ctx.table.save(update_fields=["status"])
    record_move(ctx, action="game_start", payload={"seats": seat_nos, "toss": toss})
    for seat in seats:
        if not seat.connected:
            apply_action(
                ctx, engine_action(ctx, "set_connected", seat=seat.seat_no, connected=False)
            )
    continue_play(ctx)


def deal_next(ctx: Ctx) -> Deal:
    """Store the next deal's shoe (a ``Deal`` row) with its commitment (SHA-256 of the shoe
    and a fresh secret, docs/fairness.md), then deal it, in this transaction."""
    ctx.state_json()  # the game row as it stands before the deal (stored with the deal)
    start = _context.deal_shoe_new(game=ctx.game, settings=ctx.settings)
    number = Deal.objects.filter(game=ctx.game).count() + 1
    shoe = start.to_json()
    secret = fairness.new_secret()
    deal = Deal.objects.create(
        game=ctx.game,
        number=number,
        shoe=shoe,
        shoe_secret=secret,
        shoe_commitment=fairness.commitment_of(shoe, secret),
        state_before=ctx.state_json(),
        version_before=ctx.game.version,
    )
    ctx.deals_read = True
    ctx.last_deal = ctx.deal_in_play = deal
    apply_action(ctx, start, deal=deal)
    return deal


def game_write(
    *,
    game_id: object,
    now: float,
    body: Callable[[Ctx], T],
    save: bool = True,
    table_id: int | None = None,
) -> T:
    """One transaction on a game: lock its table, the game and its seats, run ``body``, then
    save (always, or with ``save=False`` only when ``body`` changed something). With
    ``game_id`` ``None``, the game is the live one of the table ``table_id``, found as it is
    locked."""

    def work() -> T:
        if game_id is None and table_id is not None:
            ctx = lock_live_game(table_id, now)
        else:
            ctx = lock_game(game_id, now)
        result = body(ctx)
        if save or ctx.changed:
            save_game(ctx)
        return result

    return in_transaction(work)
