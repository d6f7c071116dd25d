"""Reads of tournaments for the pages: the lobby's Tournaments tab, a tournament's page (its
structure, prize table, players, live standings, your table, the wait between rounds, your
final rank and prize), the support page and the results export."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db.models import Count, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from ledger.currencies import format_amount, money_games_on
from ledger.models import Entry
from tables.engines import game_state
from tables.models import GameStatus, Table
from tables.presenters.results import names_and
from tables.rules import tournament as rules
from tables.rules.game import GameState
from tables.tournaments.models import (
    LIVE_STATUSES,
    Registration,
    RegistrationStatus,
    Round,
    RoundGame,
    RoundSeat,
    RoundStatus,
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
    if not isinstance(state, GameState):  # not started (tournaments play 13-card deals)
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
                    "name": seat.registration.user.public_name,
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


def _plan_words(plan: list[list[int]]) -> list[str]:
    """Each round of ``rules.round_plan`` in words: "Round 1: 2 tables, of 4 and 3 players",
    then "The final: one table of 4 players"."""
    words: list[str] = []
    for number, sizes in enumerate(plan, start=1):
        players = sum(sizes)
        if number == len(plan):
            words.append(
                ngettext(
                    "The final: one table of %(n)s player",
                    "The final: one table of %(n)s players",
                    players,
                )
                % {"n": players}
            )
            continue
        words.append(
            ngettext(
                "Round %(round)s: %(count)s table of %(sizes)s players",
                "Round %(round)s: %(count)s tables, of %(sizes)s players",
                len(sizes),
            )
            % {"round": number, "count": len(sizes), "sizes": names_and([str(n) for n in sizes])}
        )
    return words


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
    plan_players = int((t.frozen or {}).get("entries") or max(entries, t.players_min, 2))
    try:
        plan = _plan_words(
            rules.round_plan(plan_players, t.seats_per_table, t.qualifiers_per_table)
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
        # A cash tournament while money games are off takes nobody: said instead of a button.
        "cash_off": not t.practice and not money_games_on(),
        # Entries follow the cash tables' rule: no identity check to play; withdrawing needs it.
        "identity_note": not t.practice
        and money_games_on()
        and t.status in LIVE_STATUSES
        and user.is_authenticated
        and not getattr(user, "identity_verified", False),
        "can_unregister": t.status in (TournamentStatus.ANNOUNCED, TournamentStatus.REGISTERING),
        "round": current,
        "tables": table_rows,
        "my_table": my_table,
        "waiting_tables": waiting if current is not None and current.status == "playing" else 0,
        "next_round_in": seconds_until(current.next_round_at, timezone.now())
        if current is not None and current.status == "done" and not current.is_final
        else None,
        "plan": plan,
        "plan_players": plan_players,
        "chips_per_deal": rules.CHIPS_PER_DEAL,
        "final_ranks": [r for r in _ranked(t)] if t.status == TournamentStatus.FINISHED else [],
        "my_prize": format_amount(mine.prize, t.currency) if mine and mine.prize else None,
    }


def _how(seat: RoundSeat | None, shared: bool) -> str:
    """What decided a player's rank (section 10): the final's chips, or the round the player
    went out in, the place at their own table there and then the chips; shared when still
    equal."""
    if seat is None:
        return ""
    round_ = seat.table.round
    if round_.is_final and seat.went_through:
        words = gettext("Won the final with %(chips)s chips") % {"chips": seat.chips}
    elif round_.is_final:
        words = gettext("The final: %(chips)s chips") % {"chips": seat.chips}
    else:
        words = gettext(
            "Out in round %(round)s: place %(place)s at table %(table)s, %(chips)s chips"
        ) % {
            "round": round_.number,
            "place": seat.place,
            "table": seat.table.number,
            "chips": seat.chips,
        }
    if shared:
        words = gettext("%(how)s (equal: the places are shared)") % {"how": words}
    return str(words)


def _ranked(t: Tournament) -> list[dict[str, Any]]:
    rows = (
        Registration.objects.filter(tournament=t, rank_first__isnull=False)
        .select_related("user")
        .order_by("rank_first", "registered_at")
    )
    last_seat: dict[int, RoundSeat] = {}
    seats = RoundSeat.objects.filter(table__round__tournament=t).select_related("table__round")
    for seat in seats.order_by("table__round__number"):
        last_seat[seat.registration_id] = seat  # the round the player went out in (or the final)
    return [
        {
            "first": r.rank_first,
            "last": r.rank_last,
            "name": r.user.public_name,
            "user_id": r.user_id,
            "prize": format_amount(r.prize or 0, t.currency) if r.prize else "",
            "how": _how(last_seat.get(r.pk), r.rank_first != r.rank_last),
        }
        for r in rows
    ]


def tournaments_find(
    *, query: str = "", player: User | None = None, status: str = ""
) -> QuerySet[Tournament]:
    """Support's tournament search, newest first: by name (or number), by a player who
    registered, by status; each with its count of entries."""
    found = Tournament.objects.annotate(
        entries=Count("registrations", filter=Q(registrations__status="registered"))
    )
    if query:
        by_name = Q(name__icontains=query)
        found = found.filter(by_name | Q(pk=int(query)) if query.isdigit() else by_name)
    if player is not None:
        found = found.filter(registrations__user=player).distinct()
    if status:
        found = found.filter(status=status)
    return found.order_by("-pk")


def tournament_support(*, tournament: Tournament) -> dict[str, Any]:
    """Every round, table, game, deal and payment of a tournament (support)."""
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


def seconds_until(moment: datetime | None, now: datetime) -> int | None:
    if moment is None:
        return None
    return max(0, int((moment - now).total_seconds() + 0.999))


def tournament_table_result(
    *, table_id: int, user: User | AnonymousUser, now: datetime
) -> dict[str, Any] | None:
    """What a tournament table's finished game means in the tournament, for ``user``: the
    table's places and chips, who goes through (the winner, at the final), the viewer's own
    verdict, when the next round starts (or how many tables it waits for), and at the end the
    viewer's rank and prize. ``None`` for a table that is not a tournament's."""
    table = (
        RoundTable.objects.filter(table_id=table_id)
        .select_related("round__tournament")
        .prefetch_related("seats__registration__user")
        .first()
    )
    if table is None:
        return None
    round_, t = table.round, table.round.tournament
    decided = table.status == RoundStatus.DONE
    seats = sorted(table.seats.all(), key=lambda s: (s.place or 99, -(s.chips or 0), s.seat_no))
    rows = [
        {
            "name": s.registration.user.public_name,
            "user_id": s.registration.user_id,
            "place": s.place,
            "chips": s.chips,
            "went_through": s.went_through,
            "winner": round_.is_final and s.went_through is True,
        }
        for s in seats
    ]
    viewer = user.pk if user.is_authenticated else None
    mine = next((s for s in seats if s.registration.user_id == viewer), None)
    waiting = 0
    if round_.status == RoundStatus.PLAYING:
        waiting = round_.tables.filter(status=RoundStatus.PLAYING).exclude(pk=table.pk).count()
    finished = t.status in (TournamentStatus.FINISHED, TournamentStatus.CANCELLED)
    registration = mine.registration if mine is not None else None
    if registration is not None and finished:
        registration.refresh_from_db(fields=["rank_first", "rank_last", "prize"])
    return {
        "table_id": table_id,
        "tournament": t,
        "round": round_,
        "decided": decided,
        "rows": rows,
        "through": [r["name"] for r in rows if r["went_through"] and not r["winner"]],
        "mine": mine,
        "registration": registration,
        "my_prize": format_amount(registration.prize, t.currency)
        if registration is not None and registration.prize
        else "",
        "waiting_tables": waiting,
        "next_round_in": seconds_until(round_.next_round_at, now)
        if round_.status == RoundStatus.DONE and not round_.is_final
        else None,
        "finished": finished,
        # Re-fetched every few seconds until there is nothing more to tell.
        "polling": not finished,
    }


def tournament_of_table(*, table: Table) -> Tournament | None:
    """The tournament ``table`` belongs to (``None`` for an ordinary table): for the table
    page's link back to its tournament. No query when the table's tournament place came with
    it (``TABLE_NAME_RELATED``), as the table page reads it."""
    try:
        place = table.tournament_table
    except RoundTable.DoesNotExist:
        return None
    return place.round.tournament
