"""Tables and seats: opening a table, taking and leaving a seat (entry fee held, refunded
before the start), computer players filling a practice table, connections going and coming."""

from __future__ import annotations

import hmac
from typing import TYPE_CHECKING

from django.utils import formats, timezone

from accounts.selectors import self_exclusion_active
from ledger.currencies import money_games_on
from tables.engines import stake_of, template_settings
from tables.models import BotProfile, Game, GameStatus, Seat, Table, TableStatus, TableTemplate
from tables.services import hooks
from tables.services._context import (
    Ctx,
    check_user,
    engine_action,
    in_transaction,
    live_game_id,
    lock_context,
    lock_table,
    now_or_clock,
    player_status,
    record_move,
    to_dt,
)
from tables.services._pipeline import apply_action, begin_game, continue_play, save_game
from tables.services.bots import bot_users_ensure
from tables.services.errors import NotSeated, SeatUnavailable, TableClosed, TableRefusal
from tables.services.friends import private_blocked_check
from tables.services.limits import player_lock, seat_limits_check, template_lock_for_table
from tables.services.settlement import entry_key, pot_hold, practice_chips_top_up, refund_entry

if TYPE_CHECKING:
    from accounts.models import User


def table_create(*, template: TableTemplate, name: str = "") -> Table:
    """A new table from ``template`` (staff). No cash table while money games are off."""
    if not template.is_active:
        raise TableClosed(TableRefusal.TEMPLATE_CLOSED, name=template.name)
    if template.currency == "cash" and not money_games_on():
        raise TableClosed(TableRefusal.CASH_OFF_OPEN)
    template_settings(template)  # refuse unplayable settings early
    table = Table.objects.create(template=template, name=name or template.name)
    if not name:
        table.name = f"{template.name} #{table.pk}"
        table.save(update_fields=["name"])
    return table


def _game_open(table: Table, now: float) -> int:
    """The id of the live game of ``table``; a new waiting game, with the template's settings
    frozen in it, when none is live."""
    game_id = live_game_id(table)
    if game_id is not None:
        return game_id
    template = table.template
    if not template.is_active:
        raise TableClosed(TableRefusal.TABLE_NOT_TAKING)
    settings = template_settings(template)
    game = Game.objects.create(
        table=table,
        variant=template.variant,
        currency=template.currency,
        stake=stake_of(template.variant, settings),
        settings=settings.to_json(),
        status=GameStatus.WAITING,
    )
    return int(game.pk)


def _check_seat_no(seat_no: object) -> None:
    if seat_no is not None and (
        not isinstance(seat_no, int) or isinstance(seat_no, bool) or not 1 <= seat_no <= 6
    ):
        raise SeatUnavailable(TableRefusal.NO_SUCH_SEAT)


def _cash_join_check(user: User) -> None:
    """Cash tables refuse everyone while money games are off, and a self-excluded player."""
    if not money_games_on():
        raise TableClosed(TableRefusal.CASH_OFF_JOIN)
    exclusion = self_exclusion_active(user=user)
    if exclusion is not None:
        until = formats.date_format(timezone.localtime(exclusion.ends_at), "DATETIME_FORMAT")
        raise SeatUnavailable(TableRefusal.SELF_EXCLUDED, until=until)


def _private_join_check(table: Table, user: User, invite: str | None) -> None:
    """A private table seats its host, a player who sat at it before (Play again) and whoever
    brings its invite (the link's token); nobody by its number alone."""
    if table.host_id == user.pk:
        return
    token = str(table.invite_token or "")
    if invite and token and hmac.compare_digest(str(invite).encode(), token.encode()):
        return
    if Seat.objects.filter(table_id=table.pk, user_id=user.pk).exists():
        return
    raise SeatUnavailable(TableRefusal.PRIVATE_TABLE)


def table_join(
    *,
    table: Table,
    user: User,
    seat_no: int | None = None,
    now: float | None = None,
    invite: str | None = None,
) -> Seat:
    """Sit ``user`` at ``table`` for its next game and hold the entry fee (the points buy-in at
    points tables) in the game's pot. A private table needs its ``invite`` token (unless the
    user is its host or sat at it before). Idempotent: a user already seated gets the same
    seat back.
    At practice tables the computer players take the other seats. A full table starts at once;
    at the minimum the start countdown runs."""
    now = now_or_clock(now)
    _check_seat_no(seat_no)
    check_user(user)

    def work() -> Seat:
        player_lock(user)  # player, template, table, game, seats: the fixed order
        template_lock_for_table(getattr(table, "pk", None))
        locked = lock_table(getattr(table, "pk", None))
        if locked.status == TableStatus.CLOSED:
            raise TableClosed(TableRefusal.TABLE_IS_CLOSED)
        hooks.table_guard_check(locked, "join")
        if locked.template.currency == "cash":
            _cash_join_check(user)
        ctx = lock_context(table=locked, game_id=_game_open(locked, now), now=now)
        existing = ctx.seat_of(user)
        if existing is not None:
            return existing
        if locked.is_private:
            _private_join_check(locked, user, invite)
            private_blocked_check(ctx, user)  # nobody blocked either way sits with you
        if ctx.game.status != GameStatus.WAITING:
            raise TableClosed(TableRefusal.GAME_BEING_PLAYED)
        if BotProfile.objects.filter(user_id=user.pk).exists():
            raise SeatUnavailable(TableRefusal.BOTS_PLACED)
        seat_limits_check(table=locked, user=user)
        seat = _seat_take(ctx, user=user, seat_no=seat_no, is_bot=False)
        if bots_fill_at_once(locked):
            _bots_fill(ctx)
        if len(ctx.active_seats()) >= ctx.settings.seats_max:
            begin_game(ctx)
        save_game(ctx)
        return seat

    return in_transaction(work)


def _seat_take(ctx: Ctx, *, user: User, seat_no: int | None, is_bot: bool) -> Seat:
    seats_max = int(ctx.settings.seats_max)
    taken = {s.seat_no for s in ctx.active_seats()}
    if len(taken) >= seats_max:
        raise SeatUnavailable(TableRefusal.TABLE_FULL)
    if seat_no is None:
        seat_no = min(n for n in range(1, seats_max + 1) if n not in taken)
    elif seat_no > seats_max:
        raise SeatUnavailable(TableRefusal.SEATS_RANGE, most=seats_max)
    elif seat_no in taken:
        raise SeatUnavailable(TableRefusal.SEAT_TAKEN, seat=seat_no)
    if ctx.table.template.practice and is_bot:
        practice_chips_top_up(ctx, user=user)
    seat = Seat.objects.create(
        table=ctx.table, game=ctx.game, seat_no=seat_no, user=user, is_bot=is_bot
    )
    ctx.seats.append(seat)
    pot_hold(
        game=ctx.game, user=user, amount=ctx.game.stake, key=entry_key(game=ctx.game, seat=seat)
    )
    seat.entry_paid = ctx.game.stake
    seat.save(update_fields=["entry_paid"])
    record_move(ctx, action="seat_join", payload={"seat": seat_no}, actor=user, seat_no=seat_no)
    return seat


def table_leave(*, table: Table, user: User, now: float | None = None) -> None:
    """``user`` leaves ``table``. Before the game starts the entry is refunded; during a game it
    counts as leaving the game (a drop in the current deal, no refund)."""
    now = now_or_clock(now)
    check_user(user)

    def work() -> None:
        locked = lock_table(getattr(table, "pk", None))
        hooks.table_guard_check(locked, "leave")
        game_id = live_game_id(locked)
        ctx = lock_context(table=locked, game_id=game_id, now=now) if game_id else None
        seat = ctx.seat_of(user) if ctx is not None else None
        if ctx is None or seat is None:
            raise NotSeated(TableRefusal.NOT_AT_TABLE)
        if ctx.game.status == GameStatus.WAITING:
            _seat_release(ctx, seat)
            if locked.template.practice and not any(not s.is_bot for s in ctx.active_seats()):
                for bot_seat in ctx.active_seats():
                    _seat_release(ctx, bot_seat)
        else:
            leave_game(ctx, seat)
        save_game(ctx)

    return in_transaction(work)


def _seat_release(ctx: Ctx, seat: Seat) -> None:
    """A seat of a waiting game is given up: refund its entry."""
    seat.left_at = to_dt(ctx.now)
    seat.refunded = True
    seat.save(update_fields=["left_at", "refunded"])
    refund_entry(ctx, seat)
    seat_no = seat.seat_no
    record_move(
        ctx, action="seat_leave", payload={"seat": seat_no}, actor=seat.user, seat_no=seat_no
    )


def leave_game(ctx: Ctx, seat: Seat) -> None:
    """``seat`` leaves the running game (the engine's ``Leave``). At a practice table the
    computer players leave with the last person, which ends the game."""
    status = player_status(ctx, seat.seat_no)
    if status != "left":
        apply_action(ctx, engine_action(ctx, "leave", seat=seat.seat_no), actor=seat.user)
    if ctx.game.status == GameStatus.RUNNING:
        seat.left_at = to_dt(ctx.now)
        seat.save(update_fields=["left_at"])
    continue_play(ctx)
    if (
        ctx.game.status == GameStatus.RUNNING
        and ctx.table.template.practice
        and not any(s.played and not s.is_bot for s in ctx.active_seats())
    ):
        for bot_seat in ctx.active_seats():
            if ctx.game.status == GameStatus.RUNNING and bot_seat.is_bot:
                leave_game(ctx, bot_seat)


def seat_set_connected(
    *, table: Table, user: User, connected: bool, now: float | None = None
) -> bool:
    """Record that ``user``'s connection to ``table`` went away or came back (the WebSocket
    consumer calls this). In a running game the engine applies its disconnection policy.
    Returns whether anything changed."""
    now = now_or_clock(now)
    if user is None or getattr(user, "is_anonymous", True):
        return False

    def work() -> bool:
        locked = lock_table(getattr(table, "pk", None))
        game_id = live_game_id(locked)
        if game_id is None:
            return False
        ctx = lock_context(table=locked, game_id=game_id, now=now)
        seat = ctx.seat_of(user)
        if seat is None or seat.connected == bool(connected):
            return False
        seat.connected = bool(connected)
        seat.save(update_fields=["connected"])
        playing = ctx.game.status == GameStatus.RUNNING and seat.played
        if playing and player_status(ctx, seat.seat_no) != "left":
            apply_action(
                ctx,
                engine_action(ctx, "set_connected", seat=seat.seat_no, connected=bool(connected)),
                actor=user,
            )
            continue_play(ctx)
        if ctx.changed:
            save_game(ctx)
        return True

    return in_transaction(work)


def _bots_fill(ctx: Ctx) -> None:
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


def bots_fill_at_once(table: Table) -> bool:
    """Whether computer players take the empty seats as soon as a person sits: at a practice
    table whose template waits no time for people. Otherwise they fill when the wait for people
    runs out (``bots_fill_and_begin``), and at a private table when its host starts it."""
    template = table.template
    return bool(
        template.practice and not table.is_private and float(template.human_wait_s or 0) <= 0
    )


def bots_fill_and_begin(ctx: Ctx) -> bool:
    """Fill the empty seats of a waiting practice game with computer players and start it when
    that reaches the minimum. Returns whether the game started."""
    if ctx.game.status != GameStatus.WAITING or not ctx.table.template.practice:
        return False
    if not any(not s.is_bot for s in ctx.active_seats()):
        return False
    _bots_fill(ctx)
    if len(ctx.active_seats()) >= ctx.settings.seats_min:
        begin_game(ctx)
        return True
    return False
