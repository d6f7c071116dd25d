"""Helpers of the tournament tests: a tournament factory, a fixed draw, and playing one table's
deals with planted shoes through the services (as in ``tables_testkit``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tables_testkit import WINNER_GROUPS, Clock, Planter, flatten, loser_groups, reserved_cards

from tables import services
from tables.engines import engine_of
from tables.models import Game, GameStatus, TableTemplate
from tables.tournaments import director
from tables.tournaments import services as tourney
from tables.tournaments.models import RoundGame, RoundTable, Tournament


def deals_template(**fields: Any) -> TableTemplate:
    """A Deals template with long turns (a table waiting while another plays never times out)
    and short breaks between deals."""
    fields.setdefault("name", "Tournament deals")
    fields.setdefault("variant", "deals")
    fields.setdefault("currency", "cash")
    fields.setdefault("entry_fee", 1_000)  # a template's own tables would charge it; unused
    fields.setdefault("is_active", False)  # no lobby tables of it: only the tournament's
    fields.setdefault("turn_s", 3600.0)
    fields.setdefault("extra_time_s", 0.0)
    fields.setdefault("break_s", 1.0)
    template = TableTemplate(**fields)
    template.full_clean()
    template.save()
    return template


def practice_sit_and_go(players: int, seats: int, qualifiers: int, **fields: Any) -> Tournament:
    """A practice sit & go of ``players`` at tables of ``seats`` (``qualifiers`` go through
    from each), computer players filling the places people leave empty, on fast timers."""
    template = deals_template(
        currency="practice",
        practice=True,
        bot_count=1,
        bot_delay_s=0.0,
        turn_s=5.0,
        meld_window_s=5.0,
    )
    return tourney.tournament_create_sit_and_go(
        name=f"Practice {players}",
        template=template,
        currency="practice",
        entry_fee=100,
        fee_bps=0,
        players_min=players,
        players_max=players,
        seats_per_table=seats,
        qualifiers_per_table=qualifiers,
        bots_fill=True,
        human_wait_s=20.0,
        break_s=5.0,
        **fields,
    )


def fixed_draw(monkeypatch: Any, orders: Mapping[int, list[int]] | None = None) -> None:
    """Seat every round in registration order (or the ``orders`` given per round number, as
    indexes into the sorted registration ids)."""

    def draw(*, tournament: Tournament, number: int, registration_ids: list[int]) -> list[int]:
        ids = sorted(registration_ids)
        if orders and number in orders:
            return [ids[i] for i in orders[number]]
        return ids

    monkeypatch.setattr(director, "round_draw", draw)


def table_game(tournament: Tournament, round_no: int, table_no: int) -> Game:
    table = RoundTable.objects.get(
        round__tournament=tournament, round__number=round_no, number=table_no
    )
    return RoundGame.objects.filter(table=table).order_by("-number").first().game


def _fire(game: Game, clock: Clock) -> None:
    game.refresh_from_db()
    assert game.deadline is not None
    clock.t = max(clock.t, game.deadline.timestamp() + 0.001)
    services.timer_fire(game_id=game.pk, version=game.version)


def _view(game: Game, seat: int | None = None) -> dict[str, Any]:
    game.refresh_from_db()
    state = services.game_state(game)
    assert state is not None
    return dict(engine_of(game.variant).view(state, seat).raw)


def game_act(game: Game, user: Any, action: str, **payload: Any) -> None:
    game.refresh_from_db()
    services.game_act(
        game_id=game.pk, user=user, action=action, payload=payload, expected_version=game.version
    )


def _arrangements(added: Mapping[int, int]) -> tuple[int, dict[int, list[list[str]]]]:
    winner = next(seat for seat, points in added.items() if points == 0)
    used = reserved_cards()
    losers: dict[int, list[list[str]]] = {}
    for which, (seat, points) in enumerate((s, p) for s, p in added.items() if p):
        losers[seat] = loser_groups(points, which, used)
    return winner, losers


def plant(planter: Planter, added: Mapping[int, int]) -> None:
    """Queue a deal in which the seat adding 0 can show and every other seat counts exactly
    ``added[seat]``."""
    winner, losers = _arrangements(added)
    hands = {winner: flatten(WINNER_GROUPS)} | {s: flatten(g) for s, g in losers.items()}
    planter.add(hands=hands, open_card="JC", cut_card="QC")


def play_deal(game: Game, planter: Planter, clock: Clock, added: Mapping[int, int]) -> None:
    """Play one deal of ``game``: the seat adding 0 shows, every other seat counts
    ``added[seat]``. When the game is between deals the deal is planted and the break run; a
    deal already dealt (a game's first, dealt when it opened) must have been planted (``plant``)
    before."""
    users = seat_users(game)
    for _ in range(10):
        if _view(game)["phase"] == "turn":
            break
        assert game.status == GameStatus.RUNNING, "the game is over"
        if not planter.queue:
            plant(planter, added)
        _fire(game, clock)
    else:  # pragma: no cover
        raise AssertionError("no deal started")
    winner, losers = _arrangements(added)
    had_turn: set[int] = set()
    playing = set(_view(game)["deal"]["seats"])
    for _ in range(40):
        seat = _view(game)["deal"]["turn"]
        game_act(game, users[seat], "pick_closed")
        picked = _view(game, seat)["hand"]["picked"]
        if seat == winner and had_turn >= playing - {winner}:
            game_act(game, users[seat], "declare", finish_card=picked, groups=WINNER_GROUPS)
            break
        game_act(game, users[seat], "discard", card=picked)
        had_turn.add(seat)
    else:  # pragma: no cover
        raise AssertionError("the winner never showed")
    for seat, groups in losers.items():
        if _view(game)["phase"] == "meld":
            game_act(game, users[seat], "submit_meld", groups=groups)
    result = _view(game)["last_deal"]
    assert {r["seat"]: r["points"] for r in result["results"]} == dict(added)


def chips(game: Game) -> dict[int, int]:
    return {p["seat"]: p["chips"] for p in _view(game)["players"]}


def seat_users(game: Game) -> dict[int, Any]:
    return {s.seat_no: s.user for s in game.seats.select_related("user")}


def advance(tournament: Tournament, clock: Clock) -> int:
    return director.tournament_advance(tournament_id=tournament.pk, now=clock.t)


def drive(tournament: Tournament, clock: Clock, *, steps: int = 20_000) -> int:
    """Run the clock from deadline to deadline (turns, computer players, breaks, the director)
    until the tournament is over. Returns how many sweeps it took."""
    from django.db.models import Min

    from tables.models import LIVE_GAME_STATUSES

    for n in range(steps):
        # The director directly: the wake-ups it gets on commit do not run inside a test.
        director.tournament_advance(tournament_id=tournament.pk, now=clock.t)
        tournament.refresh_from_db()
        if tournament.status in ("finished", "cancelled"):
            return n
        due = [
            Game.objects.filter(status__in=LIVE_GAME_STATUSES, deadline__isnull=False).aggregate(
                at=Min("deadline")
            )["at"],
            tournament.next_step_at,
        ]
        at = min(d.timestamp() for d in due if d is not None)
        clock.t = max(clock.t, at + 0.001)
        services.timers_sweep(now=clock.t)
    raise AssertionError("the tournament did not end")
