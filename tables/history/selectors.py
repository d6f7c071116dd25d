"""Reads of My games. A player reads only the games they played (``Seat.played``); a deal's
review only once the deal has ended (``reviewable_deal``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.core.cache import cache
from django.db.models import Prefetch, QuerySet

from ledger.selectors import wallet_flows_by_ref
from tables.engines import engine_of
from tables.models import Deal, DealShare, Game, GameStatus, Move, Seat
from tables.rules.errors import RulesError
from tables.rules.game.state import GameState
from tables.rules.replay import replay_moves
from tables.rules.review import deal_review
from tables.rules.settings import GameSettings
from tables.selectors import deal_moves, game_places, game_points, logged_moves
from tables.tournaments.models import RoundGame

if TYPE_CHECKING:
    from accounts.models import User

__all__ = [
    "REVIEW_CACHE_VERSION",
    "DealNotReviewable",
    "PlayerStats",
    "deal_review_data",
    "game_rows",
    "games_of_player",
    "player_stats",
    "reviewable_deal",
    "running_totals",
    "share_of",
    "shared_deal",
]

REVIEW_CACHE_VERSION = 2  # 2: steps are turns
REVIEW_CACHE_S = 24 * 3600


class DealNotReviewable(Exception):
    """The deal is not the viewer's to review: they did not play in it, or it is still live."""


def games_of_player(
    *, user: User, variant: str | None = None, currency: str | None = None
) -> QuerySet[Game]:
    """The finished games ``user`` played, newest first, optionally of one variant and one
    currency ("cash" or "practice"), with their table, played seats and deals."""
    games = (
        Game.objects.filter(status=GameStatus.FINISHED, seats__user=user, seats__played=True)
        .select_related("table")
        .order_by("-ended_at", "-pk")
        .distinct()
    )
    if variant:
        games = games.filter(variant=variant)
    if currency:
        games = games.filter(currency=currency)
    return games.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.filter(played=True).select_related("user")),
        Prefetch("deals", queryset=Deal.objects.order_by("number").defer("shoe", "state_before")),
    )


def _by_seat(mapping: Any) -> dict[int, int]:
    return {int(k): int(v) for k, v in dict(mapping or {}).items()}


def tournament_refs(*, user: User, games: Iterable[Game]) -> dict[int, str]:
    """A tournament's money (the entry paid into its pot, the prize paid out of it) belongs to
    the last of the player's games in it: ``{game id: the tournament's pot reference}`` for the
    games of ``games`` that are the player's last so far in their tournament."""
    ids = [g.pk for g in games]
    tournament_of = dict(
        RoundGame.objects.filter(game_id__in=ids).values_list("game_id", "table__round__tournament")
    )
    if not tournament_of:
        return {}
    last: dict[int, int] = {}
    played = (
        RoundGame.objects.filter(
            table__round__tournament__in=set(tournament_of.values()),
            game__status=GameStatus.FINISHED,
            game__seats__user=user,
            game__seats__played=True,
        )
        .order_by("game__ended_at", "game_id")
        .values_list("table__round__tournament", "game_id")
    )
    for tournament_id, game_id in played:
        last[tournament_id] = game_id  # the newest wins
    return {
        game_id: f"tournament:{tournament_id}"
        for game_id, tournament_id in tournament_of.items()
        if last.get(tournament_id) == game_id
    }


def _money(
    game: Game, flows: dict[str, tuple[int, int]], tournaments: dict[int, str]
) -> tuple[int, int]:
    """What the player's wallet paid into the game (and its tournament, on the player's last
    game of it) and got back from it."""
    paid_in, paid_out = flows.get(game.pot_ref, (0, 0))
    ref = tournaments.get(game.pk)
    if ref is not None:
        more_in, more_out = flows.get(ref, (0, 0))
        paid_in, paid_out = paid_in + more_in, paid_out + more_out
    return paid_in, paid_out


def _flows(user: User, games: list[Game]) -> tuple[dict[str, tuple[int, int]], dict[int, str]]:
    tournaments = tournament_refs(user=user, games=games)
    refs = [g.pot_ref for g in games] + sorted(set(tournaments.values()))
    return wallet_flows_by_ref(user=user, refs=refs), tournaments


def game_rows(*, user: User, games: Iterable[Game]) -> list[dict[str, Any]]:
    """A row per game for the list: the game, its players, the player's seat, place, points or
    chips, what the player's wallet paid into the game's pot and got back (the ledger), and
    each deal with the player's points in it."""
    games = list(games)
    flows, tournaments = _flows(user, games)
    rows = []
    for game in games:
        seats = sorted(game.seats.all(), key=lambda s: s.seat_no)
        mine = next((s for s in seats if s.user_id == user.pk), None)
        if mine is None:
            continue
        seat_nos = [s.seat_no for s in seats]
        points = game_points(game, seat_nos)  # None for Deals: chips
        place = game_places(game, seat_nos, points)[mine.seat_no]
        players = {p["seat"]: p for p in ((game.state or {}).get("players") or [])}
        me = players.get(mine.seat_no, {})
        paid_in, paid_out = _money(game, flows, tournaments)
        deals = []
        for deal in game.deals.all():
            result = deal.result if isinstance(deal.result, dict) else {}
            scores = _by_seat(result.get("scores"))
            deals.append(
                {
                    "deal": deal,
                    "number": deal.number,
                    "ended": deal.ended_at is not None,
                    "won": result.get("winner") == mine.seat_no,
                    "points": scores.get(mine.seat_no),
                }
            )
        rows.append(
            {
                "game": game,
                "seat": mine.seat_no,
                "players": [s.user.public_name for s in seats],
                "place": place,
                "total": None if points is None else points.get(mine.seat_no),
                "chips": me.get("chips") if game.variant == "deals" else None,
                "tournament": game.pk in tournaments,
                "paid_in": paid_in,
                "paid_out": paid_out,
                "net": paid_out - paid_in,
                "deals": deals,
            }
        )
    return rows


# --------------------------------------------------------------------------- the review


def reviewable_deal(*, user: User, deal_id: int) -> tuple[Deal, int]:
    """The deal and ``user``'s seat in it, when ``user`` played in its game and the deal has
    ended; ``DealNotReviewable`` otherwise (the view answers 403), ``Deal.DoesNotExist`` when
    there is no such deal."""
    deal = Deal.objects.select_related("game", "game__table").get(pk=deal_id)
    seat = (
        Seat.objects.filter(game_id=deal.game_id, user=user, played=True)
        .values_list("seat_no", flat=True)
        .first()
        if getattr(user, "is_authenticated", False)
        else None
    )
    if seat is None or deal.ended_at is None:
        raise DealNotReviewable
    return deal, int(seat)


def shared_deal(*, token: str) -> tuple[Deal, int] | None:
    """The deal and seat a shared link (still on) shows, or ``None``."""
    share = (
        DealShare.objects.filter(token=token, active=True)
        .select_related("deal", "deal__game", "deal__game__table")
        .first()
    )
    if share is None or share.deal.ended_at is None:
        return None
    seat = (
        Seat.objects.filter(game_id=share.deal.game_id, user_id=share.user_id, played=True)
        .values_list("seat_no", flat=True)
        .first()
    )
    return (share.deal, int(seat)) if seat is not None else None


def share_of(*, user: User, deal: Deal) -> DealShare | None:
    return DealShare.objects.filter(deal=deal, user=user).first()


def _review_key(deal: Deal, seat: int) -> str:
    return f"history:review:v{REVIEW_CACHE_VERSION}:{deal.pk}:{seat}"


def deal_review_data(*, deal: Deal, seat: int) -> dict[str, Any] | None:
    """The review of an ended deal for ``seat`` as JSON (``DealReview.to_json``), computed on
    demand from the deal's stored moves by the pure replay (the one ``verify_deal`` checks) and
    cached. ``None`` for a deal that is no 13-card deal. Never reads a live deal."""
    if deal.ended_at is None:
        raise DealNotReviewable
    key = _review_key(deal, seat)
    data: dict[str, Any] | None = cache.get(key)
    if data is not None:
        return data
    game = deal.game
    engine = engine_of(game.variant)
    before = engine.state_from_json(deal.state_before)
    if not isinstance(before, GameState):
        return None
    settings = engine.settings_from_json(game.settings)
    if not isinstance(settings, GameSettings):
        return None
    try:
        replayed = replay_moves(engine, before, deal.shoe, logged_moves(deal_moves(deal=deal)))
        review = deal_review(replayed, seat=seat, settings=settings, before=before)
    except RulesError:
        return None
    data = review.to_json()
    cache.set(key, data, REVIEW_CACHE_S)
    return data


# --------------------------------------------------------------------------- statistics


@dataclass
class PlayerStats:
    """One player's numbers for one variant and currency."""

    variant: str
    currency: str
    games: int = 0
    deals: int = 0
    deals_won: int = 0
    lost_points: list[int] = field(default_factory=list)
    first_drops: int = 0
    middle_drops: int = 0
    wrong_shows: int = 0
    money_won: int = 0
    money_lost: int = 0

    @property
    def deals_lost(self) -> int:
        return len(self.lost_points)

    @property
    def average_lost(self) -> float | None:
        """Average points of the deals the player did not win (``None``: none)."""
        return sum(self.lost_points) / len(self.lost_points) if self.lost_points else None


def player_stats(*, user: User) -> list[PlayerStats]:
    """``user``'s statistics per variant and currency over their finished games: games, deals
    (deals they were dealt in), deals won, the points of the deals not won, first and middle
    drops and wrong shows (from the move log), money won and lost (each game's net in the
    ledger: what the wallet got back less what it paid in)."""
    games = list(games_of_player(user=user))
    flows, tournaments = _flows(user, games)
    seat_of = {g.pk: next(s.seat_no for s in g.seats.all() if s.user_id == user.pk) for g in games}
    drops = _first_drop_scores(games)
    stats: dict[tuple[str, str], PlayerStats] = {}
    events_by_game: dict[int, list[dict[str, Any]]] = defaultdict(list)
    moves = Move.objects.filter(game_id__in=list(seat_of)).order_by("game_id", "version")
    for game_id, events in moves.values_list("game_id", "events"):
        events_by_game[game_id].extend(events or ())
    for game in games:
        row = stats.setdefault(
            (game.variant, game.currency), PlayerStats(game.variant, game.currency)
        )
        seat = seat_of[game.pk]
        row.games += 1
        paid_in, paid_out = _money(game, flows, tournaments)
        net = paid_out - paid_in
        if net > 0:
            row.money_won += net
        else:
            row.money_lost += -net
        for event in events_by_game[game.pk]:
            if event.get("seat") != seat and event.get("type") != "deal_ended":
                continue
            kind = event.get("type")
            if kind == "deal_ended":
                scores = _by_seat(event.get("scores"))
                if seat not in scores:
                    continue
                row.deals += 1
                if event.get("winner") == seat:
                    row.deals_won += 1
                else:
                    row.lost_points.append(scores[seat])
            elif kind == "dropped" and event.get("reason") not in ("leave", "missed_turns"):
                if int(event.get("score", -1)) == drops.get(game.pk):
                    row.first_drops += 1
                else:
                    row.middle_drops += 1
            elif kind == "declared" and not event.get("valid"):
                row.wrong_shows += 1
    return sorted(stats.values(), key=lambda s: (s.currency, s.variant))


def _first_drop_scores(games: Iterable[Game]) -> dict[int, int | None]:
    scores: dict[int, int | None] = {}
    for game in games:
        try:
            scores[game.pk] = getattr(
                engine_of(game.variant).settings_from_json(game.settings), "first_drop", None
            )
        except RulesError:
            scores[game.pk] = None
    return scores


def running_totals(*, user: User, currency: str, last: int = 30) -> list[dict[str, Any]]:
    """The running total of ``user``'s money in ``currency`` over their last ``last`` finished
    games, oldest first: ``{"game", "net", "total"}`` (from the ledger)."""
    games = list(games_of_player(user=user, currency=currency)[:last])
    games.reverse()
    flows, tournaments = _flows(user, games)
    total = 0
    points = []
    for game in games:
        paid_in, paid_out = _money(game, flows, tournaments)
        total += paid_out - paid_in
        points.append({"game": game, "net": paid_out - paid_in, "total": total})
    return points
