"""The tournament director: runs a tournament from registration to prizes in small steps.

``tournament_advance(tournament_id=...)`` takes steps until none is due; each step is one
database transaction that locks the tournament row first, looks at what is recorded, and does
the one thing due next:

* announced, and registration opens -> registering;
* registering: a scheduled tournament at its start time, a sit & go once full (a practice one
  filled with computer players after the people-first wait) -> cancelled below the minimum
  (every entry refunded) or started (the pool frozen, the house's guarantee top-up paid in,
  round 1 seated);
* running: a table whose game finished -> its cut (a tie-breaker game at the same table when
  the Q-th and (Q+1)-th are equal, else who goes through); every table done -> the round done
  (the break begins); the break over -> the next round seated afresh at random, or after the
  final the ranks and the prizes paid (the pot ends at 0).

A step reads only committed rows and writes its outcome in the same transaction, so running a
step twice, or again after a worker died in the middle of one (its transaction rolled back), does
it once: nothing is seated, opened or paid twice (the ledger's idempotency keys guard the money
too). ``tournaments_sweep()`` (Celery beat, or the embedded timer loop) advances every
tournament due; a table's game ending wakes its tournament at once (``tables.services.hooks``).
"""

from __future__ import annotations

import logging
import secrets
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction

from tables.engines import game_state
from tables.models import Game, GameStatus
from tables.rules import tournament as rules
from tables.rules.game import GameState
from tables.services import TableRefusal, game_arranged
from tables.services._context import in_transaction, now_or_clock, to_dt
from tables.tournaments import services
from tables.tournaments.models import (
    LIVE_STATUSES,
    Registration,
    Round,
    RoundGame,
    RoundGameKind,
    RoundSeat,
    RoundStatus,
    RoundTable,
    Tournament,
    TournamentKind,
    TournamentStatus,
)
from tables.tournaments.push import tournament_push
from tables.tournaments.signals import tournament_finished
from tables.tournaments.wake import tournament_wake

logger = logging.getLogger(__name__)

# While a tournament runs the director looks at it at least this often (a lost wake-up, a
# worker restarted): its tables' games end on their own, the director only has to notice.
HEARTBEAT_S = 30.0
MAX_STEPS = 200


def round_draw(*, tournament: Tournament, number: int, registration_ids: list[int]) -> list[int]:
    """The random order that seats a round (CSPRNG: ``secrets``, Fisher-Yates). The tests
    replace this function to seat known tables."""
    order = list(registration_ids)
    for i in range(len(order) - 1, 0, -1):
        j = secrets.randbelow(i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def table_overrides(*, players: int, deals: int, final: bool) -> dict[str, Any]:
    """The engine settings of a tournament table (section 10) on top of its template's rules.
    Only the final plays off a tie for the most chips; a round table's tie stays (the director
    plays the cut's own tie-breaker)."""
    return {
        "seats_min": 2,
        "seats_max": players,
        "deals_count": deals,
        "chips_per_deal": rules.CHIPS_PER_DEAL,
        "entry_fee": 0,
        "point_value": 0,
        "platform_fee_bps": 0,
        "drops_with_two_players": False,
        "disconnect_policy": "missed_turns",
        "deal_show_rule": "flat",
        "deal_show_flat": 20,
        "tournament_table": True,
        "play_off_ties": final,
    }


# --------------------------------------------------------------------------- waking up


def game_ended(game: Game) -> None:
    """A game ended (``tables.services.hooks``): wake its tournament, if it has one."""
    tournament_id = (
        RoundGame.objects.filter(game_id=game.pk)
        .values_list("table__round__tournament_id", flat=True)
        .first()
    )
    if tournament_id is not None:
        tournament_wake(tournament_id=tournament_id)


def tournaments_sweep(*, now: float | None = None, limit: int = 50) -> int:
    """Advance every tournament that is due. Returns how many steps were taken."""
    now = now_or_clock(now)
    due = list(
        Tournament.objects.filter(
            status__in=LIVE_STATUSES, next_step_at__isnull=False, next_step_at__lte=to_dt(now)
        )
        .order_by("next_step_at")
        .values_list("pk", flat=True)[:limit]
    )
    steps = 0
    for tournament_id in due:
        try:
            steps += tournament_advance(tournament_id=tournament_id, now=now)
        except Exception:  # one broken tournament must not stop the others
            logger.exception("director of tournament %s failed", tournament_id)
    return steps


def tournament_advance(*, tournament_id: int, now: float | None = None) -> int:
    """Take every step that is due now, one transaction each. Returns how many were taken."""
    now = now_or_clock(now)
    for count in range(MAX_STEPS):
        if not in_transaction(lambda: _step(tournament_id, now)):
            if count:
                tournament_push(tournament_id)  # committed: its pages re-fetch at once
            return count
    tournament_push(tournament_id)
    return MAX_STEPS


# --------------------------------------------------------------------------- one step


def _step(tournament_id: int, now: float) -> bool:
    tournament = services.tournament_lock(tournament_id)
    at = to_dt(now)
    assert at is not None
    status = tournament.status
    if status == TournamentStatus.ANNOUNCED:
        opens = tournament.registration_opens_at
        if opens is None or opens <= at:
            tournament.status = TournamentStatus.REGISTERING
            _save(tournament, at, due=_registration_due(tournament))
            return True
        return _due(tournament, opens)
    if status == TournamentStatus.REGISTERING:
        return _registering(tournament, at, now)
    if status == TournamentStatus.RUNNING:
        return _running(tournament, at, now)
    return False


def _save(tournament: Tournament, at: datetime, *, due: datetime | None) -> None:
    tournament.next_step_at = due
    tournament.save()


def _due(tournament: Tournament, due: datetime | None) -> bool:
    """Record when the director is next due (no step taken)."""
    if tournament.next_step_at != due:
        Tournament.objects.filter(pk=tournament.pk).update(next_step_at=due)
    return False


def _registration_due(tournament: Tournament) -> datetime | None:
    if tournament.kind == TournamentKind.SCHEDULED:
        return tournament.starts_at
    if tournament.bots_fill:
        first = services.registered(tournament)[:1]
        if first:
            return first[0].registered_at + timedelta(seconds=float(tournament.human_wait_s))
    return None


def _registering(tournament: Tournament, at: datetime, now: float) -> bool:
    regs = services.registered(tournament)
    if tournament.kind == TournamentKind.SCHEDULED:
        if tournament.starts_at is not None and tournament.starts_at <= at:
            if len(regs) < tournament.players_min:
                services.tournament_cancel_locked(
                    tournament, reason="Too few players registered by the start time."
                )
            else:
                _start(tournament, regs, at, now)
            return True
        return _due(tournament, tournament.starts_at)
    if len(regs) >= tournament.players_max:
        _start(tournament, regs, at, now)
        return True
    due = _registration_due(tournament)
    people = any(not r.is_bot for r in regs)
    if tournament.bots_fill and due is not None and due <= at and people:
        services.bots_register(tournament, count=tournament.players_max - len(regs))
        _start(tournament, services.registered(tournament), at, now)
        return True
    return _due(tournament, due)


def _start(tournament: Tournament, regs: list[Registration], at: datetime, now: float) -> None:
    pool = rules.prize_pool(
        entries=len(regs),
        entry_fee=tournament.entry_fee,
        fee_bps=tournament.fee_bps,
        guarantee=tournament.guarantee,
    )
    gross = sum(r.entry_paid for r in regs)
    if gross != pool.gross:
        raise services.TournamentRefused(TableRefusal.ENTRIES_MISMATCH)
    shares = rules.shares_for(len(regs), tournament.prize_rows())
    tournament.frozen = {
        "entries": len(regs),
        "gross": pool.gross,
        "fee": pool.fee,
        "top_up": pool.top_up,
        "pool": pool.prizes,
        "shares": list(shares),
        "amounts": rules.rank_amounts(pool.prizes, shares),
        "seats": tournament.seats_per_table,
        "qualifiers": tournament.qualifiers_per_table,
        "deals_per_round": tournament.deals_per_round,
        "break_s": tournament.break_s,
    }
    services.guarantee_pay_in(tournament, pool.top_up)
    if tournament.repeat:
        services.tournament_repeat(tournament)
    tournament.status = TournamentStatus.RUNNING
    tournament.started_at = at
    _round_open(tournament, 1, regs, now)
    _save(tournament, at, due=at + timedelta(seconds=HEARTBEAT_S))


def _round_open(tournament: Tournament, number: int, regs: list[Registration], now: float) -> Round:
    frozen = tournament.frozen or {}
    seats, qualifiers = int(frozen["seats"]), int(frozen["qualifiers"])
    deals_setting = frozen.get("deals_per_round")
    by_id = {r.pk: r for r in regs}
    draw = round_draw(tournament=tournament, number=number, registration_ids=sorted(by_id))
    if sorted(draw) != sorted(by_id):
        raise services.TournamentRefused(TableRefusal.DRAW_INCOMPLETE)
    final = rules.is_final(len(draw), seats)
    round_ = Round.objects.create(
        tournament=tournament, number=number, is_final=final, draw=draw, started_at=to_dt(now)
    )
    for table_no, members in enumerate(rules.seat_round(draw, seats), start=1):
        bye = rules.is_bye(len(members), qualifiers, final=final)
        deals = 0 if bye else rules.deals_for(len(members), deals_setting, final=final)
        table = RoundTable.objects.create(
            round=round_,
            number=table_no,
            is_bye=bye,
            deals=deals,
            status=RoundStatus.DONE if bye else RoundStatus.PLAYING,
        )
        for seat_no, reg_id in enumerate(members, start=1):
            RoundSeat.objects.create(
                table=table,
                registration_id=reg_id,
                seat_no=seat_no,
                went_through=True if bye else None,
                place=1 if bye else None,
            )
        if not bye:
            _game_open(
                tournament,
                table,
                [by_id[r] for r in members],
                deals=deals,
                kind=RoundGameKind.ROUND,
                now=now,
            )
    return round_


def _game_open(
    tournament: Tournament,
    table: RoundTable,
    players: list[Registration],
    *,
    deals: int,
    kind: str,
    now: float,
) -> RoundGame:
    round_ = table.round
    name = f"{tournament.name} · R{round_.number} T{table.number}"
    game = game_arranged(
        template=tournament.template,
        players=[(r.user, r.is_bot) for r in players],
        overrides=table_overrides(players=len(players), deals=deals, final=round_.is_final),
        table=table.table,
        name=name,
        now=now,
    )
    if table.table_id is None:
        table.table_id = game.table_id
        table.save(update_fields=["table"])
    number = table.games.count() + 1
    return RoundGame.objects.create(
        table=table, game=game, kind=kind, number=number, players=[r.pk for r in players]
    )


def _game_chips(round_game: RoundGame) -> dict[int, int]:
    """Registration id -> chips at the end of a finished game."""
    state = game_state(round_game.game)
    if not isinstance(state, GameState):  # tournaments play 13-card deals
        return {}
    chips = {p.seat: int(p.chips) for p in state.players}
    return {reg_id: chips[n] for n, reg_id in enumerate(round_game.players, start=1)}


def _game_won(round_game: RoundGame) -> dict[int, int]:
    """Registration id -> chips won (negative: lost) in a finished game: its chips at the end
    less the chips every player started it with (a tie-breaker's count in the round)."""
    settings = round_game.game.settings
    start = int(settings["deals_count"]) * int(settings["chips_per_deal"])
    return {reg_id: chips - start for reg_id, chips in _game_chips(round_game).items()}


def _game_winner(round_game: RoundGame) -> int | None:
    winners = list((round_game.game.result or {}).get("winners") or [])
    if len(winners) != 1:
        return None
    return int(round_game.players[int(winners[0]) - 1])


def _running(tournament: Tournament, at: datetime, now: float) -> bool:
    round_ = tournament.rounds.order_by("-number").first()
    if round_ is None:  # pragma: no cover - a tournament starts with its first round
        raise services.TournamentRefused(TableRefusal.NO_ROUND)
    if round_.status == RoundStatus.PLAYING:
        for table in round_.tables.filter(status=RoundStatus.PLAYING).order_by("number"):
            if _table_check(tournament, round_, table, now):
                return True
        if not round_.tables.filter(status=RoundStatus.PLAYING).exists():
            _round_close(tournament, round_, at)
            return True
        return _due(tournament, at + timedelta(seconds=HEARTBEAT_S))
    if round_.is_final:  # pragma: no cover - the final's close finishes the tournament
        return False
    due = round_.next_round_at
    if due is None or due <= at:
        survivors = Registration.objects.filter(
            round_seats__table__round=round_, round_seats__went_through=True
        ).order_by("registered_at", "pk")
        _round_open(tournament, round_.number + 1, list(survivors), now)
        _save(tournament, at, due=at + timedelta(seconds=HEARTBEAT_S))
        return True
    return _due(tournament, due)


def _table_check(tournament: Tournament, round_: Round, table: RoundTable, now: float) -> bool:
    """A playing table whose newest game ended: replay a cancelled game, play a tie-breaker at
    the cut, or record the table's result. ``False`` while its game is still on."""
    games = list(table.games.select_related("game").order_by("number"))
    newest = games[-1]
    if newest.game.status in (GameStatus.WAITING, GameStatus.RUNNING):
        return False
    by_id = {s.registration_id: s for s in table.seats.select_related("registration__user")}
    if newest.game.status == GameStatus.CANCELLED:
        # A table's game cancelled by staff alone: that game is played again.
        players = [by_id[r].registration for r in newest.players]
        _game_open(
            tournament,
            table,
            players,
            deals=newest.game.settings["deals_count"],
            kind=newest.kind,
            now=now,
        )
        return True
    played = [g for g in games if g.game.status == GameStatus.FINISHED]
    main = next(g for g in played if g.kind == RoundGameKind.ROUND)
    chips = _game_chips(main)
    tiebreaks = [_game_won(g) for g in played if g.kind == RoundGameKind.TIEBREAK]
    places = rules.places(chips, tiebreaks)
    totals = rules.round_chips(chips, tiebreaks)
    if round_.is_final:
        winner = _game_winner(main)
        final_places = rules.places(chips, [{winner: 1}] if winner is not None else [])
        for reg_id, seat in by_id.items():
            seat.chips = chips[reg_id]
            seat.place = final_places[reg_id]
            seat.went_through = reg_id == winner
            seat.save(update_fields=["chips", "place", "went_through"])
        table.status = RoundStatus.DONE
        table.save(update_fields=["status"])
        return True
    cut = rules.table_cut(chips, int((tournament.frozen or {})["qualifiers"]), tiebreaks)
    if cut.tied:
        players = [by_id[r].registration for r in cut.tied]
        _game_open(tournament, table, players, deals=1, kind=RoundGameKind.TIEBREAK, now=now)
        return True
    through = set(cut.through)
    for reg_id, seat in by_id.items():
        seat.chips = totals[reg_id]
        seat.place = places[reg_id]
        seat.went_through = reg_id in through
        seat.save(update_fields=["chips", "place", "went_through"])
    table.status = RoundStatus.DONE
    table.save(update_fields=["status"])
    return True


def _round_close(tournament: Tournament, round_: Round, at: datetime) -> None:
    round_.status = RoundStatus.DONE
    round_.ended_at = at
    if round_.is_final:
        round_.save(update_fields=["status", "ended_at"])
        _finish(tournament, round_, at)
        return
    round_.next_round_at = at + timedelta(seconds=float((tournament.frozen or {})["break_s"]))
    round_.save(update_fields=["status", "ended_at", "next_round_at"])
    Registration.objects.filter(
        round_seats__table__round=round_, round_seats__went_through=False
    ).update(knocked_out_round=round_.number)
    _save(tournament, at, due=round_.next_round_at)


def _finish(tournament: Tournament, final: Round, at: datetime) -> None:
    frozen = tournament.frozen or {}
    seats = RoundSeat.objects.filter(table__round__tournament=tournament)
    knockouts = [
        rules.Knockout(
            player=s.registration_id,
            round=s.table.round.number,
            place=int(s.place or 0),
            chips=int(s.chips or 0),
        )
        for s in seats.filter(went_through=False)
        .exclude(table__round=final)
        .select_related("table__round")
    ]
    final_seats = list(seats.filter(table__round=final))
    final_chips = {s.registration_id: int(s.chips or 0) for s in final_seats}
    winner = next((s.registration_id for s in final_seats if s.went_through), None)
    ranked = rules.rank_field(final=final_chips, final_winner=winner, knockouts=knockouts)
    regs = {r.pk: r for r in services.registered(tournament)}
    paid = rules.prizes(
        pool=int(frozen["pool"]),
        shares=[int(s) for s in frozen["shares"]],
        ranked=ranked,
        registered_order=list(regs),
    )
    by_user: dict[int, int] = {}
    for rank in ranked:
        reg = regs[int(str(rank.player))]
        reg.rank_first, reg.rank_last = rank.first, rank.last
        reg.prize = int(paid[rank.player])
        reg.save(update_fields=["rank_first", "rank_last", "prize"])
        if reg.prize:
            by_user[reg.user_id] = by_user.get(reg.user_id, 0) + reg.prize
    services.prizes_pay_out(tournament, prizes=by_user, fee=int(frozen["fee"]))
    finalists = Registration.objects.filter(
        tournament=tournament, pk__in=[s.registration_id for s in final_seats]
    )
    if winner is not None:  # (no winner: nobody to keep in, nobody to leave out)
        Registration.objects.filter(pk=winner).update(knocked_out_round=None)
        finalists = finalists.exclude(pk=winner)
    finalists.update(knocked_out_round=final.number)
    tournament.status = TournamentStatus.FINISHED
    tournament.ended_at = at
    _save(tournament, at, due=None)
    finished_id = int(tournament.pk)
    transaction.on_commit(
        lambda: tournament_finished.send_robust(sender=Tournament, tournament_id=finished_id)
    )
