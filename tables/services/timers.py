"""Deadlines: firing a game's timer (start countdown, the practice wait for people, next deal,
computer players' think time, or the engine's ``Timeout`` for turns, meld, rejoin and split
windows) and the sweep that fires every overdue one. A timer that lost a race with a move finds
the game moved on and does nothing.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from tables.models import LIVE_GAME_STATUSES, DeadlineKind, Game, GameStatus
from tables.rules.game import ExtraTimeStarted
from tables.services._context import (
    Ctx,
    engine_action,
    in_transaction,
    lock_game,
    now_or_clock,
    to_dt,
)
from tables.services._pipeline import (
    apply_action,
    begin_game,
    continue_play,
    deal_next,
    save_game,
    sync_deadline,
    timer_schedule,
)
from tables.services.bots import bots_play
from tables.services.seating import bots_fill_and_begin

logger = logging.getLogger(__name__)


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


@dataclass(frozen=True)
class Fired:
    """One deadline fired: its kind, and whether it moved the game on (a timeout that only
    opened the player's extra-time bank leaves the turn, and the player's view, where it was).
    """

    kind: DeadlineKind
    moved_on: bool = True


def fire_due(ctx: Ctx) -> Fired | None:
    """Fire the game's stored deadline if it has passed at ``ctx.now``: start the game (start
    countdown), deal (break over), let the computer players act, or apply the engine's
    ``Timeout`` (turn, meld, rejoin and split windows). Returns what fired, or ``None`` when
    nothing was due. The caller saves."""
    game = ctx.game
    if game.status not in LIVE_GAME_STATUSES or game.deadline is None:
        return None
    if to_dt(ctx.now) < game.deadline:
        return None
    kind = DeadlineKind(game.deadline_kind)
    moved_on = True
    if game.status == GameStatus.WAITING:
        if kind == DeadlineKind.START and len(ctx.active_seats()) >= ctx.settings.seats_min:
            begin_game(ctx)
        elif kind == DeadlineKind.FILL:  # nobody else came: computer players take the empty seats
            bots_fill_and_begin(ctx)
    elif ctx.deal_due(ctx.now):
        deal_next(ctx)
    elif kind == DeadlineKind.BOT:
        if bots_play(ctx) == 0:
            # Nothing a bot could do: let the engine's own deadline (a missed turn) run.
            ctx.bots_stuck = True
    else:
        state = ctx.running_state()
        if state.deadline is not None:
            # the stored deadline is rounded up to the microsecond: never before the engine's
            ctx.now = max(ctx.now, float(state.deadline))
        events = apply_action(ctx, engine_action(ctx, "timeout"))
        moved_on = any(not isinstance(e, ExtraTimeStarted) for e in events)
    continue_play(ctx)
    sync_deadline(ctx)
    return Fired(kind=kind, moved_on=moved_on)


def fire_overdue(ctx: Ctx, *, limit: int = 16) -> list[Fired]:
    """Fire every deadline that has passed at ``ctx.now``, in order (a missed turn, then the
    extra time that it opened, ...): a move is judged against the game as the clock left it,
    whether or not the timer worker has run. Returns what fired, in order."""
    fired: list[Fired] = []
    for _ in range(limit):
        one = fire_due(ctx)
        if one is None:
            break
        fired.append(one)
    return fired


def timer_fire(*, game_id: int, version: int, now: float | None = None) -> str:
    """Fire the deadline of ``game_id`` if the game is still at ``version`` and the deadline has
    passed (see ``fire_due``). Idempotent: a timer that lost a race with a move is a no-op.
    Returns a ``TimerResult`` value."""
    now = now_or_clock(now)

    def work() -> str:
        ctx = lock_game(game_id, now)
        game = ctx.game
        if game.version != version or game.status not in LIVE_GAME_STATUSES:
            return TimerResult.STALE
        if game.deadline is None:
            return TimerResult.STALE
        if fire_due(ctx) is None:
            return TimerResult.EARLY
        save_game(ctx)
        return TimerResult.FIRED

    return in_transaction(work)


def timers_sweep(*, now: float | None = None, limit: int = 200) -> int:
    """Fire every overdue deadline (after a restart, a lost task, or in the loop backend).
    Returns how many fired."""
    now = now_or_clock(now)
    due = list(
        Game.objects.filter(
            status__in=LIVE_GAME_STATUSES, deadline__isnull=False, deadline__lte=to_dt(now)
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
