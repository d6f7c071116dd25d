"""Money of the tables: the idempotency keys every posting takes from the domain, holding entry
and rejoin fees in a game's pot, paying the pot out exactly when the game ends, refunds, and
free practice chips. Money moves only through ``ledger.services``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ledger import selectors as ledger_selectors
from ledger import services as ledger_services
from ledger.currencies import format_amount
from ledger.errors import InsufficientFunds
from tables.models import DeadlineKind, Game, GameStatus, Seat, TableStatus
from tables.rules.game import GameEnded, GameState, Rejoined
from tables.services import hooks
from tables.services._context import Ctx, open_deal, to_dt
from tables.services.errors import NotEnoughFunds, TableError, TableRefusal

if TYPE_CHECKING:
    from accounts.models import User


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


def practice_chips_key(*, game: Game, user: User) -> str:
    return f"practice-chips:game:{game.pk}:user:{user.pk}"


def pot_hold(*, game: Game, user: User, amount: int, key: str, rejoin: bool = False) -> None:
    """Move ``amount`` from the user's wallet into the game's pot (entry fee or rejoin fee)."""
    if amount <= 0:
        return
    post = ledger_services.pot_hold_rejoin if rejoin else ledger_services.pot_hold_entry
    try:
        post(
            user=user,
            currency=game.currency,
            pot_ref=game.pot_ref,
            amount=amount,
            idempotency_key=key,
        )
    except InsufficientFunds as exc:
        fee = format_amount(amount, game.currency)
        have = exc.details.get("balance")
        balance = format_amount(have, game.currency) if isinstance(have, int) else None
        known = balance is not None
        if rejoin:
            code = TableRefusal.FUNDS_REJOIN_HAVE if known else TableRefusal.FUNDS_REJOIN
        elif game.variant == "points":
            code = TableRefusal.FUNDS_BUY_IN_HAVE if known else TableRefusal.FUNDS_BUY_IN
        else:
            code = TableRefusal.FUNDS_FEE_HAVE if known else TableRefusal.FUNDS_FEE
        raise NotEnoughFunds(
            code, fee=fee, have=balance, practice=game.currency == "practice"
        ) from exc


def rejoin_paid(ctx: Ctx, event: Rejoined) -> None:
    seat_no = int(event.seat)
    seat = ctx.played_seats()[seat_no]
    amount = int(event.amount)
    state = ctx.running_state()
    if not isinstance(state, GameState):  # only pool games rejoin
        raise TableError(TableRefusal.GAME_NOT_STARTED)
    number = int(state.player(seat_no).rejoins)
    pot_hold(
        game=ctx.game,
        user=seat.user,
        amount=amount,
        key=rejoin_key(game=ctx.game, seat_no=seat_no, number=number),
        rejoin=True,
    )
    seat.entry_paid += amount
    seat.save(update_fields=["entry_paid"])


def _settlement(ctx: Ctx, event: GameEnded) -> tuple[dict[int, int], int]:
    """(payouts by seat, fee) that empty the pot exactly."""
    settled = ctx.points_settled
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


def settle(ctx: Ctx, event: GameEnded) -> None:
    """The game ended: pay the pot out exactly (payouts and fee), then free the table."""
    payouts_by_seat, fee = _settlement(ctx, event)
    seats = ctx.played_seats()
    payouts: dict[int, int] = {}
    for seat_no, amount in payouts_by_seat.items():
        if amount < 0:
            raise TableError(TableRefusal.NEGATIVE_PAYOUT, amount=amount, seat=seat_no)
        if amount:
            user_id = seats[seat_no].user_id
            payouts[user_id] = payouts.get(user_id, 0) + amount
    if ctx.game.stake == 0 and not payouts and fee == 0:
        pass  # a game that took no money (a tournament's table) has no pot to pay out
    elif ctx.game.variant == "points":
        ledger_services.pot_settle(
            pot_ref=ctx.game.pot_ref,
            currency=ctx.game.currency,
            returns=payouts,
            fee=fee,
            idempotency_key=settle_key(game=ctx.game),
        )
    else:
        ledger_services.pot_payout(
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
    finish(ctx, status=GameStatus.FINISHED)


def finish(ctx: Ctx, *, status: str) -> None:
    hooks.game_ended(ctx.game)
    now_dt = to_dt(ctx.now)
    ctx.game.status = status
    ctx.game.ended_at = now_dt
    ctx.game.deadline = None
    ctx.game.deadline_kind = DeadlineKind.NONE
    for seat in ctx.seats:
        if seat.left_at is None:
            seat.left_at = now_dt
            seat.save(update_fields=["left_at"])
    deal = open_deal(ctx)
    if deal is not None:
        deal.ended_at = now_dt
        if deal.result is None:
            deal.result = {"type": status}
        deal.save(update_fields=["ended_at", "result"])
        ctx.deal_in_play = None
    if ctx.table.status != TableStatus.CLOSED:
        ctx.table.status = TableStatus.WAITING
        ctx.table.save(update_fields=["status"])


def refund_entry(ctx: Ctx, seat: Seat) -> None:
    """Give a seat of a waiting game its paid entry back."""
    if seat.entry_paid > 0:
        ledger_services.pot_refund_entry(
            user=seat.user,
            currency=ctx.game.currency,
            pot_ref=ctx.game.pot_ref,
            amount=seat.entry_paid,
            idempotency_key=refund_key(game=ctx.game, seat=seat),
        )


def practice_chips_top_up(ctx: Ctx, *, user: User) -> None:
    """A computer player's practice chips: topped up so that it can pay this table. (People
    play from their own practice chips: the welcome grant at sign-up and the daily top-up;
    nothing is credited to them behind their back when they sit down.)"""
    rejoins = int(getattr(ctx.settings, "rejoins_per_player", 0) or 0)
    need = ctx.game.stake * (1 + rejoins)
    balance = int(ledger_selectors.wallet_balance(user=user, currency=ctx.game.currency))
    if balance >= need:
        return
    ledger_services.wallet_deposit(
        user=user,
        currency=ctx.game.currency,
        amount=need * 10 - balance,
        idempotency_key=practice_chips_key(game=ctx.game, user=user),
        memo="Practice chips",
    )
