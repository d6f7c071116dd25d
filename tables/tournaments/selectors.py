"""Reads of tournaments for the pages: the lobby's Tournaments tab, a tournament's page (its
structure, prize table, players, live standings, your table, the wait between rounds, your
final rank and prize), the support page and the results export."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Count, Q

from ledger.currencies import format_amount, money_games_on
from tables.engines import game_state
from tables.models import GameStatus
from tables.rules import tournament as rules
from tables.tournaments.models import (
    LIVE_STATUSES,
    Registration,
    RegistrationStatus,
    Round,
    RoundGame,
    RoundSeat,
    RoundTable,
    Tournament,
    TournamentStatus,
)

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User


def _pool_now(t: Tournament, entries: int) -> rules.Pool:
    if t.frozen:
        f = t.frozen
        return rules.Pool(gross=f["gross"], fee=f["fee"], top_up=f["top_up"], prizes=f["pool"])
    return rules.prize_pool(
        entries=entries, entry_fee=t.entry_fee, fee_bps=t.fee_bps, guarantee=t.guarantee
    )


def my_registration(t: Tournament, user: User | AnonymousUser | None) -> Registration | None:
    if user is None or not user.is_authenticated:
        return None
    mine = Registration.objects.filter(tournament=t, user_id=user.pk)
    return mine.filter(status=RegistrationStatus.REGISTERED).first() or mine.order_by("-pk").first()


def tournaments_for_lobby(*, user: User | AnonymousUser) -> list[dict[str, Any]]:
    """Upcoming and running tournaments (cash ones only while money games are on), with the
    start time or "when full", entry, prize pool, registered / max and the viewer's status."""
    qs = Tournament.objects.filter(status__in=LIVE_STATUSES).annotate(
        registered=Count("registrations", filter=Q(registrations__status="registered"))
    )
    if not money_games_on():
        qs = qs.filter(currency="practice")
    rows = []
    for t in qs.order_by("status", "starts_at", "pk"):
        mine = my_registration(t, user)
        rows.append(
            {
                "tournament": t,
                "entry": format_amount(t.entry_fee, t.currency) if t.entry_fee else None,
                "pool": format_amount(_pool_now(t, t.registered).prizes, t.currency),
                "registered": t.registered,
                "mine": mine if mine is not None and mine.status == "registered" else None,
            }
        )
    return rows


def _prize_rows(t: Tournament, entries: int) -> list[dict[str, Any]]:
    n = max(entries, 2)
    shares = t.frozen["shares"] if t.frozen else list(rules.shares_for(n, t.prize_rows()))
    pool = _pool_now(t, entries).prizes
    amounts = rules.rank_amounts(pool, shares)
    return [
        {"rank": i, "share": share, "amount": format_amount(amount, t.currency)}
        for i, (share, amount) in enumerate(zip(shares, amounts, strict=True), start=1)
    ]


def _live_chips(round_game: RoundGame) -> dict[int, int]:
    state = game_state(round_game.game)
    if state is None:
        return {}
    by_seat = {p.seat: int(p.chips) for p in state.players}
    return {reg: by_seat.get(n, 0) for n, reg in enumerate(round_game.players, start=1)}


def standings(round_: Round) -> list[dict[str, Any]]:
    """The round's tables with their players by chips (live while a game is on)."""
    out = []
    for table in round_.tables.order_by("number").prefetch_related("seats__registration__user"):
        games = list(table.games.select_related("game").order_by("number"))
        main = next((g for g in games if g.kind == "round"), None)
        live = _live_chips(main) if main is not None else {}
        playing = any(g.game.status in (GameStatus.WAITING, GameStatus.RUNNING) for g in games)
        seats: list[dict[str, Any]] = []
        for seat in table.seats.all():
            chip_count = seat.chips if seat.chips is not None else live.get(seat.registration_id)
            seats.append(
                {
                    "name": seat.registration.user.display_name or seat.registration.user.username,
                    "user_id": seat.registration.user_id,
                    "chips": chip_count,
                    "place": seat.place,
                    "went_through": seat.went_through,
                }
            )
        seats.sort(key=lambda s: -(s["chips"] or 0))
        out.append(
            {
                "table": table,
                "seats": seats,
                "playing": playing,
                "tiebreak": any(g.kind == "tiebreak" for g in games),
            }
        )
    return out


def tournament_page(*, tournament: Tournament, user: User | AnonymousUser) -> dict[str, Any]:
    t = tournament
    regs = list(
        Registration.objects.filter(tournament=t, status=RegistrationStatus.REGISTERED)
        .select_related("user")
        .order_by("registered_at", "pk")
    )
    entries = len(regs)
    mine = my_registration(t, user)
    current = t.rounds.order_by("-number").first()
    table_rows = standings(current) if current is not None else []
    my_table = None
    if mine is not None and current is not None:
        seat = RoundSeat.objects.filter(table__round=current, registration=mine).first()
        if seat is not None and seat.table.table_id is not None and seat.went_through is None:
            my_table = seat.table.table
    waiting = sum(1 for row in table_rows if row["playing"])
    try:
        plan = rules.round_plan(
            max(entries, t.players_min, 2), t.seats_per_table, t.qualifiers_per_table
        )
    except rules.TournamentError:
        plan = []
    return {
        "tournament": t,
        "entry": format_amount(t.entry_fee, t.currency) if t.entry_fee else None,
        "pool": format_amount(_pool_now(t, entries).prizes, t.currency),
        "prizes": _prize_rows(t, entries),
        "registrations": regs,
        "registered": entries,
        "mine": mine,
        "is_registered": mine is not None and mine.status == "registered",
        "can_register": t.status == TournamentStatus.REGISTERING,
        "can_unregister": t.status in (TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING),
        "round": current,
        "tables": table_rows,
        "my_table": my_table,
        "waiting_tables": waiting if current is not None and current.status == "playing" else 0,
        "plan": plan,
        "chips_per_deal": rules.CHIPS_PER_DEAL,
        "final_ranks": [r for r in _ranked(t)] if t.status == TournamentStatus.FINISHED else [],
        "my_prize": format_amount(mine.prize, t.currency) if mine and mine.prize else None,
    }


def _ranked(t: Tournament) -> list[dict[str, Any]]:
    rows = (
        Registration.objects.filter(tournament=t, rank_first__isnull=False)
        .select_related("user")
        .order_by("rank_first", "registered_at")
    )
    return [
        {
            "first": r.rank_first,
            "last": r.rank_last,
            "name": r.user.display_name or r.user.username,
            "user_id": r.user_id,
            "prize": format_amount(r.prize or 0, t.currency) if r.prize else "",
        }
        for r in rows
    ]


def tournament_support(*, tournament: Tournament) -> dict[str, Any]:
    """Every round, table, game, deal and payment of a tournament (support)."""
    from ledger.models import Entry

    rounds = []
    for round_ in tournament.rounds.order_by("number"):
        tables = []
        for table in RoundTable.objects.filter(round=round_).order_by("number"):
            games = []
            for rg in table.games.select_related("game").order_by("number"):
                games.append(
                    {
                        "round_game": rg,
                        "game": rg.game,
                        "deals": list(rg.game.deals.order_by("number")),
                    }
                )
            tables.append(
                {
                    "table": table,
                    "seats": list(table.seats.select_related("registration__user")),
                    "games": games,
                }
            )
        names = dict(
            Registration.objects.filter(pk__in=round_.draw or []).values_list(
                "pk", "user__username"
            )
        )
        draw_names = [names.get(pk, f"#{pk}") for pk in round_.draw or []]
        rounds.append({"round": round_, "tables": tables, "draw_names": draw_names})
    payments = list(
        Entry.objects.filter(transaction__ref=tournament.pot_ref)
        .select_related("transaction", "account", "account__user")
        .order_by("transaction_id", "pk")
    )
    return {
        "tournament": tournament,
        "fee_percent": f"{tournament.fee_bps / 100:g}",
        "rounds": rounds,
        "payments": payments,
        "registrations": list(
            Registration.objects.filter(tournament=tournament)
            .select_related("user")
            .order_by("registered_at", "pk")
        ),
    }


def tournament_results_export(*, tournament: Tournament) -> dict[str, Any]:
    """The tournament's results as JSON-ready data: settings frozen at the start, every round
    with its draw, tables, seats, games and deals (with their shoe commitments), ranks, prizes
    and the ledger postings of its pot."""
    data = tournament_support(tournament=tournament)
    t = tournament
    return {
        "tournament": {
            "id": t.pk,
            "name": t.name,
            "kind": t.kind,
            "status": t.status,
            "currency": t.currency,
            "entry_fee": t.entry_fee,
            "fee_bps": t.fee_bps,
            "guarantee": t.guarantee,
            "seats_per_table": t.seats_per_table,
            "qualifiers_per_table": t.qualifiers_per_table,
            "frozen": t.frozen,
            "started_at": t.started_at.isoformat() if t.started_at else None,
            "ended_at": t.ended_at.isoformat() if t.ended_at else None,
        },
        "registrations": [
            {
                "id": r.pk,
                "user_id": r.user_id,
                "username": r.user.username,
                "is_bot": r.is_bot,
                "status": r.status,
                "entry_paid": r.entry_paid,
                "rank": [r.rank_first, r.rank_last] if r.rank_first else None,
                "prize": r.prize,
            }
            for r in data["registrations"]
        ],
        "rounds": [
            {
                "number": row["round"].number,
                "final": row["round"].is_final,
                "draw": row["round"].draw,
                "tables": [
                    {
                        "number": tr["table"].number,
                        "bye": tr["table"].is_bye,
                        "deals": tr["table"].deals,
                        "table_id": tr["table"].table_id,
                        "seats": [
                            {
                                "seat": s.seat_no,
                                "registration": s.registration_id,
                                "chips": s.chips,
                                "place": s.place,
                                "went_through": s.went_through,
                            }
                            for s in tr["seats"]
                        ],
                        "games": [
                            {
                                "game_id": g["game"].pk,
                                "kind": g["round_game"].kind,
                                "players": g["round_game"].players,
                                "status": g["game"].status,
                                "result": g["game"].result,
                                "deals": [
                                    {
                                        "deal_id": d.pk,
                                        "number": d.number,
                                        "shoe_commitment": d.shoe_commitment,
                                        "result": d.result,
                                    }
                                    for d in g["deals"]
                                ],
                            }
                            for g in tr["games"]
                        ],
                    }
                    for tr in row["tables"]
                ],
            }
            for row in data["rounds"]
        ],
        "payments": [
            {
                "transaction": e.transaction_id,
                "kind": e.transaction.kind,
                "key": e.transaction.idempotency_key,
                "account": e.account.kind,
                "user_id": e.account.user_id,
                "amount": e.amount,
            }
            for e in data["payments"]
        ],
    }


def tournament_for_table(*, table_id: int) -> Tournament | None:
    """The tournament a table belongs to (``None`` for an ordinary table): for the table page's
    link back to its tournament."""
    return Tournament.objects.filter(rounds__tables__table_id=table_id).order_by("pk").first()
