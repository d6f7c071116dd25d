"""Reads for tables and games.

Player-facing selectors (``lobby_templates``, ``table_for_viewer``) return only what the viewer may
see: the engine's per-viewer view (never another player's cards during a deal, the closed deck
order or the shoe). The support selectors (``deal_replay``, ``deals_find``, ``game_ledger``)
show everything and are for staff with the ``accounts.review_deals`` permission.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.db.models import Case, Count, Prefetch, Q, QuerySet, Subquery, Value, When

from ledger.selectors import transactions_for_ref
from tables.compiled import CompiledRead
from tables.engines import PLAYER_ACTIONS, engine_of, game_state
from tables.models import (
    LIVE_GAME_STATUSES,
    TABLE_NAME_RELATED,
    Deal,
    Game,
    GameStatus,
    Move,
    Seat,
    Table,
    TableStatus,
    TableTemplate,
)
from tables.readmodel import (
    Commitment,
    SeatRead,
    Settlement,
    TableRead,
)
from tables.rules import fairness
from tables.rules.engine_view import EngineView
from tables.rules.replay import LoggedMove, events_match, replay_moves

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User

__all__ = [
    "ReplayStep",
    "deal_moves",
    "deal_replay",
    "deals_find",
    "game_ledger",
    "game_places",
    "game_points",
    "lobby_templates",
    "table_for_viewer",
    "table_view_data",
    "table_views",
    "tables_of_user",
]


def lobby_templates(*, money_games: bool = True) -> list[dict[str, Any]]:
    """A row per active template for the lobby's Play now: the template, players seated (people,
    not computer players) and games running at its public tables, and how many of its tables
    wait with a free seat. Cash templates only while money games are on."""
    templates = TableTemplate.objects.filter(is_active=True).order_by(
        "-practice", "variant", "entry_fee", "point_value", "name"
    )
    if not money_games:
        templates = templates.filter(currency="practice")
    template_list = list(templates)
    public = Q(table__is_private=False, table__template__in=template_list)
    running = dict(
        Game.objects.filter(public, status=GameStatus.RUNNING)
        .values_list("table__template_id")
        .annotate(n=Count("pk"))
        .values_list("table__template_id", "n")
    )
    seated = dict(
        Seat.objects.filter(
            public,
            left_at__isnull=True,
            is_bot=False,
            game__status__in=LIVE_GAME_STATUSES,
        )
        .values_list("table__template_id")
        .annotate(n=Count("pk"))
        .values_list("table__template_id", "n")
    )
    waiting_people = dict(
        Seat.objects.filter(
            public, left_at__isnull=True, is_bot=False, game__status=GameStatus.WAITING
        )
        .values_list("table__template_id")
        .annotate(n=Count("pk"))
        .values_list("table__template_id", "n")
    )
    return [
        {
            "template": t,
            "id": t.pk,
            "name": t.name,
            "variant": t.variant,
            "practice": t.practice,
            "currency": t.currency,
            "entry_fee": t.entry_fee,
            "point_value": t.point_value,
            "seats_max": t.seats_max,
            "players": seated.get(t.pk, 0),
            "waiting": waiting_people.get(t.pk, 0),
            "games_running": running.get(t.pk, 0),
        }
        for t in template_list
    ]


@dataclass(frozen=True)
class SocketSeat:
    """A player's seat in a table's live game, as a table socket needs it."""

    seat_no: int
    connected: bool


@dataclass(frozen=True)
class SocketTable:
    """What a table socket reads when it opens: the version of the table's newest game (0: no
    game yet) and the user's seat in its live game (``None``: a spectator)."""

    version: int
    seat: SocketSeat | None


# Compiled once (``tables/compiled.py``): every socket that opens runs them, and building them
# from the querysets cost more than running them.
_NEWEST_GAME: CompiledRead[Game] = CompiledRead(
    lambda table_id: (
        Game.objects.filter(table_id=table_id).only("id", "table_id", "version").order_by("-pk")[:1]
    )
)
_LIVE_SEATS: CompiledRead[Seat] = CompiledRead(
    lambda table_id: Seat.objects.filter(
        table_id=table_id, left_at__isnull=True, game__status__in=LIVE_GAME_STATUSES
    ).only("id", "table_id", "user_id", "seat_no", "connected")
)


def table_socket_state(*, table_id: int, user_id: int) -> SocketTable | None:
    """What a socket of ``user_id`` at ``table_id`` starts from (``None``: no such table): two
    statements compiled once, the newest game's version and the live game's seats (the user's
    newest one is theirs)."""
    newest = _NEWEST_GAME.rows(table_id)
    if not newest:
        if not Table.objects.filter(pk=table_id).exists():
            return None
        return SocketTable(version=0, seat=None)
    mine = max(
        (s for s in _LIVE_SEATS.rows(table_id) if s.user_id == user_id),
        key=lambda s: s.pk,
        default=None,
    )
    seat = SocketSeat(seat_no=mine.seat_no, connected=mine.connected) if mine else None
    return SocketTable(version=int(newest[0].version), seat=seat)


def tables_of_user(*, user: User | AnonymousUser) -> list[Table]:
    """The tables ``user`` sits at now (waiting or running games), for the lobby."""
    if not user.is_authenticated:
        return []
    ids = Seat.objects.filter(
        user=user, left_at__isnull=True, game__status__in=LIVE_GAME_STATUSES
    ).values_list("table_id", flat=True)
    return list(Table.objects.filter(pk__in=list(ids)).select_related("template").order_by("pk"))


def _normalise_allowed(allowed: Iterable[str]) -> list[str]:
    """The engine's allowed action types as ``PLAYER_ACTIONS`` names."""
    return [a for a in allowed if a in PLAYER_ACTIONS]


def table_for_viewer(*, table: Table | int, user: User | AnonymousUser) -> TableRead:
    """What ``user`` sees of ``table`` (a table or its id; see ``table_views``), without the
    public view. ``Table.DoesNotExist`` for an unknown id."""
    return table_view_data(user=user, **_table_rows(table))


def table_views(*, table: Table | int, user: User | AnonymousUser) -> tuple[TableRead, TableRead]:
    """The public view of ``table`` (a table or its id: the felt's, as a spectator sees it) and
    what ``user`` (or an anonymous spectator) sees of it, from the same rows (``TableRead``).
    ``Table.DoesNotExist`` for an unknown id."""
    rows = _table_rows(table)
    public = table_view_data(user=None, **rows)
    if not getattr(user, "is_authenticated", False):
        return public, public
    return public, table_view_data(user=user, **rows)


RECENT_MOVES = 10


def _current_games(table_id: int) -> QuerySet[Game]:
    """The table's games, its current one first: the newest live game, else the newest."""
    live_first = Case(When(status__in=LIVE_GAME_STATUSES, then=Value(0)), default=Value(1))
    return Game.objects.filter(table_id=table_id).order_by(live_first, "-pk")


def _newest_deal(table_id: int, *related: str) -> QuerySet[Deal]:
    """The newest deal of the table's current game, with ``related`` rows joined."""
    return (
        Deal.objects.filter(game_id=Subquery(_current_games(table_id).values("pk")[:1]))
        .select_related(*related)
        .defer("state_before", "result")  # only the shoe commitment is shown
        .order_by("-number")[:1]
    )


# The reads of every table page and view, compiled once (``tables/compiled.py``): building them
# from their querysets cost more than running them.
_NEWEST_DEAL: CompiledRead[Deal] = CompiledRead(
    lambda table_id: _newest_deal(table_id, *(f"game__table__{n}" for n in TABLE_NAME_RELATED))
)
_NEWEST_DEAL_WITH_GAME: CompiledRead[Deal] = CompiledRead(
    lambda table_id: _newest_deal(table_id, "game")
)
_SEATS_WITH_USERS: CompiledRead[Seat] = CompiledRead(
    lambda game_id: Seat.objects.filter(game_id=game_id).select_related("user")
)


def _table_rows(table: Table | int) -> dict[str, Any]:
    """The rows a table's views read, in three plain statements: the newest deal of the
    current game (the live one, or the last) with the game (and, given only the table's id,
    the table with its template) joined; that game's seats with their users; its newest moves
    (a live game's only). A game without a deal yet is read alone, and so is a table without a
    game."""
    given: Table | None = None
    if isinstance(table, int):
        table_id = table
    else:
        given, table_id = table, table.pk
    # The table and what its name reads come with the game, unless the table is given.
    newest = _NEWEST_DEAL_WITH_GAME if given is not None else _NEWEST_DEAL
    deal: Deal | None = next(iter(newest.rows(table_id)), None)
    game: Game | None = deal.game if deal is not None else None
    if game is None:
        current = _current_games(table_id)
        if given is None:
            current = current.select_related(*(f"table__{n}" for n in TABLE_NAME_RELATED))
        game = current.first()
    if given is not None:
        found = given
    elif game is not None:
        found = game.table
    else:
        found = Table.objects.select_related(*TABLE_NAME_RELATED).get(pk=table_id)
    seats: list[Seat] = []
    moves: tuple[dict[str, Any], ...] = ()
    if game is not None:
        seats = _SEATS_WITH_USERS.rows(game.pk)
        if game.status in LIVE_GAME_STATUSES:
            moves = recent_moves_of(game)
    return {"table": found, "game": game, "seats": seats, "deal": deal, "moves": moves}


def recent_moves_of(game: Game) -> tuple[dict[str, Any], ...]:
    """The game's newest moves up to its version (``RECENT_MOVES`` of them, oldest first), as
    ``{"version", "events"}``: what "what just happened" and the open deck's history read (only
    the presenter's public lines of their events ever reach a page: a card picked from the
    closed deck is never shown)."""
    newest = (
        Move.objects.filter(game=game, version__lte=game.version)
        .order_by("-version")
        .values("version", "events")[:RECENT_MOVES]
    )
    return tuple(reversed([{"version": m["version"], "events": m["events"]} for m in newest]))


def newest_deal(game: Game | None) -> Deal | None:
    """The newest deal of ``game`` with what its commitment shows (``None`` before the first)."""
    if game is None:
        return None
    return Deal.objects.filter(game=game).order_by("-number").first()


def commitment_view(*, game: Game | None, deal: Deal | None, is_player: bool) -> Commitment | None:
    """The shoe commitment of the game's newest deal for one of its players: the commitment
    from the first card on; the shoe and the secret once the deal has ended (docs/fairness.md).
    ``None`` for anyone else, or before the first deal."""
    if game is None or deal is None or not is_player or not deal.shoe_commitment:
        return None
    ended = deal.ended_at is not None
    shoe = deal.shoe.get("shoe", {}) if isinstance(deal.shoe, dict) else {}
    return Commitment(
        number=deal.number,
        word=engine_of(game.variant).traits.deal_word,
        commitment=deal.shoe_commitment,
        revealed=ended,
        secret=deal.shoe_secret if ended else "",
        cards=" ".join(shoe.get("cards", [])) if ended else "",
        # The exact text the commitment hashes (docs/fairness.md): the page shows it and checks
        # its SHA-256 in the browser.
        preimage=_preimage(deal) if ended else "",
    )


def _preimage(deal: Deal) -> str:
    try:
        return fairness.shoe_message(deal.shoe or {}, deal.shoe_secret or "")
    except ValueError:
        return ""


def table_view_data(
    *,
    table: Table,
    game: Game | None,
    seats: Iterable[Seat],
    user: User | AnonymousUser | None,
    state: Any = None,
    deal: Deal | None = None,
    moves: Iterable[dict[str, Any]] | None = None,
    moves_partial: bool = False,
    views: Mapping[int | None, EngineView] | None = None,
) -> TableRead:
    """``table_for_viewer`` from rows already loaded (the table with its template, its latest
    game, that game's seats with their users) and, when given, the game's decoded ``state``:
    no query. The push after a move builds every seat's view from what the move holds.

    ``moves``: the newest entries of the move log (``recent_moves_of``), oldest first, for "what
    just happened"; a push passes only the moves its own change recorded
    (``moves_partial``) and the page adds them to what it shows.

    ``views``: the engine's views of ``state`` already worked out, by viewer (a seat, ``None``
    for a spectator: ``engine.views``); a viewer not among them is shown ``engine.view``."""
    user_id = getattr(user, "pk", None) if getattr(user, "is_authenticated", False) else None
    live = game is not None and game.status in LIVE_GAME_STATUSES
    seats = sorted(
        (s for s in seats if s.played or s.left_at is None), key=lambda s: (s.seat_no, s.pk)
    )
    my_seat = next(
        (s for s in seats if s.user_id == user_id and (s.left_at is None or not live)), None
    )
    if my_seat is not None and live and my_seat.left_at is not None:
        my_seat = None
    view: EngineView | None = None
    allowed: tuple[str, ...] = ()
    rules: Any = None
    if game is not None and game.state is not None:
        engine = engine_of(game.variant)
        if state is None:
            state = game_state(game)
        rules = state.settings
        viewer = my_seat.seat_no if my_seat is not None and my_seat.played else None
        found = views.get(viewer) if views is not None else None
        view = found if found is not None else engine.view(state, viewer)
        if viewer is not None and live and game.status == GameStatus.RUNNING:
            allowed = tuple(_normalise_allowed(view.allowed))
    waiting = game is None or game.status != GameStatus.RUNNING
    seats_max = table.template.seats_max
    if game is not None and isinstance(game.settings, dict):
        seats_max = int(game.settings.get("seats_max", seats_max))
    join_open = (
        table.status != TableStatus.CLOSED
        and table.template.is_active
        and waiting
        and sum(1 for s in seats if s.left_at is None and live) < seats_max
    )
    result = game.result if game is not None and not live else None
    return TableRead(
        table=table,
        game=game,
        live=live,
        version=game.version if game is not None else 0,
        deadline=game.deadline if live and game is not None else None,
        deadline_kind=game.deadline_kind if live and game is not None else "",
        stake=game.stake if game is not None else None,
        currency=game.currency if game is not None else table.template.currency,
        seats_max=seats_max,
        seats=tuple(
            SeatRead(
                seat_no=s.seat_no,
                user_id=s.user_id,
                name=s.user.public_name,
                is_bot=s.is_bot,
                connected=s.connected,
                left=s.left_at is not None and live,
                me=s.user_id == user_id,
                entry_paid=s.entry_paid,
            )
            for s in seats
        ),
        my_seat=my_seat.seat_no if my_seat is not None else None,
        view=view,
        rules=rules,
        allowed=allowed,
        user_id=user_id,
        join_open=join_open,
        can_join=user_id is not None and (my_seat is None or not live) and join_open,
        can_leave=my_seat is not None and live,
        result=result,
        settlement=_settlement(result),
        commitment=commitment_view(
            game=game, deal=deal, is_player=my_seat is not None and my_seat.played
        ),
        moves=tuple(moves or ()) if live else (),
        moves_partial=moves_partial,
    )


def _settlement(result: Any) -> Settlement | None:
    """What a finished game paid (``None`` before the pot is paid out, or for a cancelled
    game)."""
    if not isinstance(result, dict) or not isinstance(result.get("settlement"), dict):
        return None
    settled = result["settlement"]
    payouts = {int(seat): int(amount) for seat, amount in (settled.get("payouts") or {}).items()}
    return Settlement(payouts=payouts, fee=int(settled.get("fee") or 0))


# --------------------------------------------------------------------------------- support


@dataclass(frozen=True)
class ReplayStep:
    """One move of a deal replayed: the move as logged and the full state after it."""

    version: int
    action: str
    seat_no: int | None
    actor: str
    payload: dict[str, Any]
    events: list[dict[str, Any]]
    logged_events: list[dict[str, Any]]
    created_at: datetime
    state: dict[str, Any]
    clock: float
    """The engine clock the move ran at (epoch seconds)."""

    @property
    def matches_log(self) -> bool:
        """Whether replaying produced the events the log recorded."""
        return events_match(self.events, self.logged_events)


def deal_moves(*, deal: Deal) -> list[Move]:
    """The deal's part of the move log, oldest first: its start-deal move, every move of the
    deal and the moves after it up to the next deal (the break, rejoins, splits, the game's
    end). Consecutive deals' parts join up: the next deal's ``state_before`` is the state
    after the last of these moves."""
    following = (
        Deal.objects.filter(game_id=deal.game_id, number__gt=deal.number)
        .order_by("number")
        .values_list("version_before", flat=True)
        .first()
    )
    moves = Move.objects.filter(game_id=deal.game_id, version__gt=deal.version_before)
    if following is not None:
        moves = moves.filter(version__lte=following)
    return list(moves.select_related("actor").order_by("version"))


def deal_replay(*, deal: Deal, moves: Iterable[Move] | None = None) -> list[ReplayStep]:
    """The deal's move log step by step, each with the whole state after it, rebuilt from the
    state stored before the deal and the stored shoe (support only: shows every card).
    ``moves``: the moves to replay, oldest first (default: those logged with the deal; support's
    review passes the deal's whole part of the log, ``deal_moves``)."""
    game = deal.game
    engine = engine_of(game.variant)
    if moves is None:
        moves = (
            Move.objects.filter(game=game, deal=deal).select_related("actor").order_by("version")
        )
    rows = list(moves)
    replayed = replay_moves(
        engine, engine.state_from_json(deal.state_before), deal.shoe, logged_moves(rows)
    )
    return [
        ReplayStep(
            version=move.version,
            action=move.action,
            seat_no=move.seat_no,
            actor=move.actor.public_name if move.actor is not None else "server",
            payload=move.payload,
            events=[dict(e) for e in step.events],
            logged_events=list(move.events),
            created_at=move.created_at,
            state=dict(step.state.to_json()),
            clock=move.clock,
        )
        for move, step in zip(rows, replayed, strict=True)
    ]


def logged_moves(moves: Iterable[Move]) -> list[LoggedMove]:
    """Move rows as the pure replay (``tables.rules.replay``) reads them."""
    return [
        LoggedMove(
            version=m.version,
            action=m.action,
            payload=m.payload,
            clock=m.clock,
            seat=m.seat_no,
        )
        for m in moves
    ]


def deals_find(*, user: User | None = None, table: Table | None = None) -> QuerySet[Deal]:
    """Deals, newest first, optionally of games ``user`` played in and/or at ``table``."""
    deals = Deal.objects.select_related("game", "game__table").order_by("-started_at", "-pk")
    if user is not None:
        deals = deals.filter(game__seats__user=user, game__seats__played=True)
    if table is not None:
        deals = deals.filter(game__table=table)
    return deals.distinct().prefetch_related(
        Prefetch("game__seats", queryset=Seat.objects.filter(played=True).select_related("user"))
    )


def game_ledger(*, game: Game) -> Any:
    """The ledger transactions of the game's pot (``"game:<id>"``), oldest first."""
    return transactions_for_ref(ref=game.pot_ref)


# --------------------------------------------------------------------------- a game's places


def _by_seat(mapping: Any) -> dict[int, int]:
    return {int(k): int(v) for k, v in dict(mapping or {}).items()}


def game_points(game: Game, seat_nos: Iterable[int]) -> dict[int, int] | None:
    """Each played seat's points in the finished ``game``: the sum of its deals' points
    (Points) or its total (Pool, Classic; a seat the state gives none is left out); ``None``
    for Deals, whose result is chips. ``seat_nos``: the game's played seats."""
    if game.variant == "deals":
        return None
    if game.variant == "points":
        points = dict.fromkeys(seat_nos, 0)
        for deal in game.deals.all():
            result = deal.result if isinstance(deal.result, dict) else {}
            for seat, score in _by_seat(result.get("scores")).items():
                points[seat] = points.get(seat, 0) + score
        return points
    players = ((game.state or {}).get("players")) or []
    return {int(p["seat"]): int(p["total"]) for p in players if p.get("total") is not None}


def game_places(
    game: Game, seat_nos: Iterable[int], points: dict[int, int] | None
) -> dict[int, int]:
    """Each played seat's place in the game by its result, not by money (1 = best; equal
    results share the better place): the winners first; then by chips (Deals, a tournament's
    table too), or by ``points`` (``game_points``), the lower the better. My games shows it;
    the ratings rate by it."""
    players = {int(p["seat"]): p for p in ((game.state or {}).get("players") or [])}
    winners = {int(w) for w in ((game.result or {}).get("winners") or [])}
    seats = list(seat_nos)
    if points is None:
        key = {s: (s in winners, int(players.get(s, {}).get("chips") or 0)) for s in seats}
    else:
        key = {s: (s in winners, -points.get(s, 0)) for s in seats}
    return {s: 1 + sum(1 for other in seats if key[other] > key[s]) for s in seats}
