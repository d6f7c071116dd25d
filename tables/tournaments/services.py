"""Writes of tournaments: registering and unregistering (the entry held in the tournament's pot
``tournament:<id>``, refunded in full), staff cancelling (every entry refunded, every running
table cancelled), and the money of the start and the end (the guarantee's top-up from the
house; prizes and the fee out of the pot, which ends at exactly 0).

Every write locks the tournament row first (``select_for_update``), then the ledger accounts
it posts to, then (the director) tables and games in the tables' own order. Refusals are
``TournamentRefused`` (a ``ValueError``) with words for the player; nothing changed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import formats, timezone

from accounts.selectors import self_exclusion_active
from ledger import selectors as ledger_selectors
from ledger import services as ledger_services
from ledger.currencies import format_amount, money_games_on
from ledger.errors import InsufficientFunds
from ledger.payments.selectors import deposit_limit_passed
from tables.models import BotProfile, GameStatus
from tables.services import TableError, TableRefusal, bot_users_ensure, game_cancel
from tables.services._context import in_transaction, now_or_clock, to_dt
from tables.tournaments.models import (
    OPEN_STATUSES,
    Registration,
    RegistrationStatus,
    RoundGame,
    Tournament,
    TournamentKind,
    TournamentStatus,
)
from tables.tournaments.wake import tournament_wake

if TYPE_CHECKING:
    from accounts.models import User


def _now() -> Any:
    """The services' clock (the tests replace it) as a datetime."""
    return to_dt(now_or_clock(None))


class TournamentRefused(TableError):
    """A tournament write that is not allowed now (the message says why, for the player)."""


def entry_key(*, tournament: Tournament, registration: Registration) -> str:
    return f"entry:tournament:{tournament.pk}:reg:{registration.pk}"


def refund_key(*, tournament: Tournament, registration: Registration) -> str:
    return f"refund:tournament:{tournament.pk}:reg:{registration.pk}"


def guarantee_key(*, tournament: Tournament, returned: bool = False) -> str:
    return f"guarantee{'-return' if returned else ''}:tournament:{tournament.pk}"


def payout_key(*, tournament: Tournament) -> str:
    return f"prizes:tournament:{tournament.pk}"


def cancel_key(*, tournament: Tournament) -> str:
    return f"cancel:tournament:{tournament.pk}"


def practice_chips_key(*, tournament: Tournament, user: User) -> str:
    return f"practice-chips:tournament:{tournament.pk}:user:{user.pk}"


def tournament_lock(tournament_id: Any) -> Tournament:
    """Lock a tournament row (the first lock of every tournament write)."""
    if not isinstance(tournament_id, int) or isinstance(tournament_id, bool):
        raise TournamentRefused(TableRefusal.NO_SUCH_TOURNAMENT)
    found = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if found is None:
        raise TournamentRefused(TableRefusal.NO_SUCH_TOURNAMENT)
    return found


def registered(tournament: Tournament) -> list[Registration]:
    """The registrations still in, in registration order."""
    return list(
        Registration.objects.filter(
            tournament=tournament, status=RegistrationStatus.REGISTERED
        ).order_by("registered_at", "pk")
    )


def _money_checks(tournament: Tournament, user: User) -> None:
    if tournament.practice:
        return
    if not money_games_on():
        raise TournamentRefused(TableRefusal.CASH_OFF_TOURNAMENT)
    exclusion = self_exclusion_active(user=user)
    if exclusion is not None:
        until = formats.date_format(timezone.localtime(exclusion.ends_at), "DATETIME_FORMAT")
        raise TournamentRefused(TableRefusal.SELF_EXCLUDED_TOURNAMENT, until=until)
    over = deposit_limit_passed(user=user, now=timezone.now())
    if over is not None:
        period, limit = over
        code = (
            TableRefusal.DAILY_LIMIT_TOURNAMENT
            if period == "daily"
            else TableRefusal.MONTHLY_LIMIT_TOURNAMENT
        )
        raise TournamentRefused(code, limit=format_amount(limit, "cash"))


def _hold_entry(tournament: Tournament, registration: Registration, user: User) -> None:
    amount = tournament.entry_fee
    if amount <= 0:
        return
    if tournament.practice:
        have = int(ledger_selectors.wallet_balance(user=user, currency=tournament.currency))
        if have < amount:
            ledger_services.wallet_deposit(
                user=user,
                currency=tournament.currency,
                amount=amount * 10 - have,
                idempotency_key=practice_chips_key(tournament=tournament, user=user),
                memo="Practice chips",
            )
    try:
        ledger_services.pot_hold_entry(
            user=user,
            currency=tournament.currency,
            pot_ref=tournament.pot_ref,
            amount=amount,
            idempotency_key=entry_key(tournament=tournament, registration=registration),
        )
    except InsufficientFunds as exc:
        fee = format_amount(amount, tournament.currency)
        balance = exc.details.get("balance")
        if isinstance(balance, int):
            raise TournamentRefused(
                TableRefusal.FUNDS_FEE_HAVE,
                fee=fee,
                have=format_amount(balance, tournament.currency),
            ) from exc
        raise TournamentRefused(TableRefusal.FUNDS_FEE, fee=fee) from exc
    registration.entry_paid = amount
    registration.save(update_fields=["entry_paid"])


def _wake_after_commit(tournament_id: int) -> None:
    transaction.on_commit(lambda: tournament_wake(tournament_id=tournament_id))


def _register(tournament: Tournament, user: User, *, is_bot: bool) -> Registration:
    if Registration.objects.filter(
        tournament=tournament, user_id=user.pk, status=RegistrationStatus.REGISTERED
    ).exists():
        raise TournamentRefused(TableRefusal.ALREADY_REGISTERED)
    if len(registered(tournament)) >= tournament.players_max:
        raise TournamentRefused(TableRefusal.TOURNAMENT_FULL)
    registration = Registration.objects.create(
        tournament=tournament, user=user, is_bot=is_bot, registered_at=_now()
    )
    _hold_entry(tournament, registration, user)
    return registration


def tournament_register(*, tournament: Tournament, user: User) -> Registration:
    """Register ``user``: the entry fee goes into the tournament's pot. Refused in words when
    registration is not open, the tournament is full, the player is registered already, is
    self-excluded (cash), money games are off (cash) or the balance is short. A sit & go starts
    when its last place is taken."""
    if user is None or getattr(user, "is_anonymous", True) or getattr(user, "pk", None) is None:
        raise TournamentRefused(TableRefusal.SIGN_IN_TO_REGISTER)

    def work() -> Registration:
        locked = tournament_lock(getattr(tournament, "pk", None))
        if locked.status == TournamentStatus.ANNOUNCED:
            raise TournamentRefused(TableRefusal.REGISTRATION_NOT_OPEN)
        if locked.status != TournamentStatus.REGISTERING:
            raise TournamentRefused(TableRefusal.REGISTRATION_CLOSED)
        if BotProfile.objects.filter(user_id=user.pk).exists():
            raise TournamentRefused(TableRefusal.BOTS_TOURNAMENT)
        _money_checks(locked, user)
        registration = _register(locked, user, is_bot=False)
        _wake_after_commit(int(locked.pk))
        return registration

    return in_transaction(work)


def tournament_unregister(*, tournament: Tournament, user: User) -> Registration:
    """Take ``user`` out before the start: the entry fee is refunded in full."""
    if user is None or getattr(user, "is_anonymous", True):
        raise TournamentRefused(TableRefusal.SIGN_IN_TO_REGISTER)

    def work() -> Registration:
        locked = tournament_lock(getattr(tournament, "pk", None))
        registration = Registration.objects.filter(
            tournament=locked, user_id=user.pk, status=RegistrationStatus.REGISTERED
        ).first()
        if registration is None:
            raise TournamentRefused(TableRefusal.NOT_REGISTERED)
        if locked.status not in OPEN_STATUSES:
            raise TournamentRefused(TableRefusal.TOURNAMENT_STARTED)
        _refund(locked, registration, status=RegistrationStatus.UNREGISTERED)
        return registration

    return in_transaction(work)


def _refund(tournament: Tournament, registration: Registration, *, status: str) -> None:
    if registration.entry_paid > 0:
        ledger_services.pot_refund_entry(
            user=registration.user,
            currency=tournament.currency,
            pot_ref=tournament.pot_ref,
            amount=registration.entry_paid,
            idempotency_key=refund_key(tournament=tournament, registration=registration),
        )
    registration.status = status
    registration.left_at = _now()
    registration.save(update_fields=["status", "left_at"])


def bots_register(tournament: Tournament, *, count: int) -> list[Registration]:
    """Computer players take ``count`` places of a locked practice sit & go."""
    if count <= 0:
        return []
    taken = {r.user_id for r in registered(tournament)}
    made: list[Registration] = []
    for bot in bot_users_ensure(count=count + len(taken)):
        if len(made) >= count:
            break
        if bot.pk not in taken:
            made.append(_register(tournament, bot, is_bot=True))
    return made


def tournament_cancel_locked(
    tournament: Tournament, *, reason: str, staff_user: User | None = None
) -> None:
    """Cancel a locked tournament: every running table of it cancelled, a guarantee top-up given
    back to the house, every entry refunded in full (no fee kept); the pot ends at 0."""
    if tournament.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED):
        raise TournamentRefused(TableRefusal.TOURNAMENT_OVER)
    for round_game in RoundGame.objects.filter(
        table__round__tournament=tournament,
        game__status__in=[GameStatus.WAITING, GameStatus.RUNNING],
    ).select_related("game"):
        game_cancel(
            game=round_game.game,
            staff_user=staff_user or _system_staff(),
            reason=reason or "Tournament cancelled",
        )
    frozen = tournament.frozen or {}
    top_up = int(frozen.get("top_up", 0))
    if top_up > 0:
        ledger_services.pot_guarantee_top_up(
            pot_ref=tournament.pot_ref,
            currency=tournament.currency,
            amount=top_up,
            idempotency_key=guarantee_key(tournament=tournament, returned=True),
            returned=True,
        )
    ledger_services.pot_cancel_refund(
        pot_ref=tournament.pot_ref,
        currency=tournament.currency,
        idempotency_key=cancel_key(tournament=tournament),
    )
    now = _now()
    Registration.objects.filter(tournament=tournament, status=RegistrationStatus.REGISTERED).update(
        status=RegistrationStatus.REFUNDED, left_at=now
    )
    tournament.status = TournamentStatus.CANCELLED
    tournament.ended_at = now
    tournament.next_step_at = None
    tournament.cancel_reason = reason
    tournament.cancelled_by = staff_user
    tournament.save(
        update_fields=["status", "ended_at", "next_step_at", "cancel_reason", "cancelled_by"]
    )


def _system_staff() -> Any:
    """The staff user recorded on tables the director cancels (the first superuser)."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.filter(is_staff=True, is_active=True).order_by("pk").first()
    if user is None:
        raise TournamentRefused(TableRefusal.NO_STAFF_USER)
    return user


def tournament_cancel(*, tournament: Tournament, staff_user: User, reason: str) -> Tournament:
    """Staff cancel a tournament at any time before its end (see ``tournament_cancel_locked``)."""
    if not getattr(staff_user, "is_staff", False) or not getattr(staff_user, "is_active", False):
        raise TournamentRefused(TableRefusal.STAFF_CANCELS_TOURNAMENT)
    if not isinstance(reason, str) or not reason.strip():
        raise TournamentRefused(TableRefusal.TOURNAMENT_CANCEL_REASON)

    def work() -> Tournament:
        locked = tournament_lock(getattr(tournament, "pk", None))
        tournament_cancel_locked(locked, reason=reason.strip(), staff_user=staff_user)
        return locked

    return in_transaction(work)


def guarantee_pay_in(tournament: Tournament, top_up: int) -> None:
    if top_up > 0:
        ledger_services.pot_guarantee_top_up(
            pot_ref=tournament.pot_ref,
            currency=tournament.currency,
            amount=top_up,
            idempotency_key=guarantee_key(tournament=tournament),
        )


def prizes_pay_out(tournament: Tournament, *, prizes: Mapping[int, int], fee: int) -> None:
    """Prizes by user id and the fee out of the pot, which ends at 0 (one ``payout``)."""
    if sum(prizes.values()) + fee == 0:
        ledger_services.pot_cancel_refund(  # nothing was ever paid in: close the pot if any
            pot_ref=tournament.pot_ref,
            currency=tournament.currency,
            idempotency_key=cancel_key(tournament=tournament),
        )
        return
    ledger_services.pot_payout(
        pot_ref=tournament.pot_ref,
        currency=tournament.currency,
        payouts=dict(prizes),
        fee=fee,
        idempotency_key=payout_key(tournament=tournament),
    )


def tournament_create_sit_and_go(**fields: Any) -> Tournament:
    """A sit & go open for registration at once (staff, the demo seeding, the tests)."""
    fields.setdefault("kind", TournamentKind.SIT_AND_GO)
    tournament = Tournament(status=TournamentStatus.REGISTERING, **fields)
    tournament.full_clean()
    tournament.save()
    return tournament


# The settings a repeated sit & go copies (everything staff set, nothing of its run).
REPEATED_FIELDS = (
    "name",
    "name_hi",
    "kind",
    "template",
    "currency",
    "entry_fee",
    "fee_bps",
    "guarantee",
    "players_min",
    "players_max",
    "seats_per_table",
    "qualifiers_per_table",
    "deals_per_round",
    "prize_table",
    "break_s",
    "bots_fill",
    "repeat",
    "human_wait_s",
)


def series_name(name: str) -> str:
    """A repeated sit & go's name without its number in the series ("Practice sit & go #3")."""
    base, sep, number = name.rpartition(" #")
    return base if sep and number.isdigit() else name


def tournament_repeat(tournament: Tournament) -> Tournament:
    """A repeating sit & go has started (the director, in the start's transaction): an
    identical one opens for registration, so the lobby always offers one. Each carries its
    number in the series ("Practice sit & go #2"), so no two have the same name."""
    base = series_name(tournament.name)
    named = Tournament.objects.filter(name__startswith=f"{base} #").values_list("name", flat=True)
    taken = [
        int(number)
        for other in named
        for prefix, _sep, number in [other.rpartition(" #")]
        if prefix == base and number.isdigit()
    ]
    settings = {name: getattr(tournament, name) for name in REPEATED_FIELDS}
    number = max(taken, default=1) + 1
    settings["name"] = f"{base} #{number}"
    if tournament.name_hi:
        settings["name_hi"] = f"{series_name(tournament.name_hi)} #{number}"
    return Tournament.objects.create(status=TournamentStatus.REGISTERING, **settings)
