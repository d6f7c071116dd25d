"""Ratings (issue 35): a finished game rates its people from their places with openskill's
Plackett-Luce model (the expected values computed by the library itself here), computer
players as fixed anchors; a game is rated once, never twice, even when the listener runs
twice or a rating dies half-way and runs again; casual tables and cancelled games are not
rated; a new rating is provisional ("?")."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.urls import reverse
from openskill.models import PlackettLuce
from tables_testkit import Clock, TableDriver, with_welcome_chips

from tables import services as table_services
from tables.models import Game, GameStatus, Seat, Table
from tables.ratings import selectors, services, skill
from tables.ratings.models import GameRating, Rating, RatingChange
from tables.services import hooks

pytestmark = pytest.mark.django_db


def _expected(entrants: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """openskill's own ``rate`` on one player a team."""
    model = PlackettLuce()
    teams = [[model.rating(mu=mu, sigma=sigma)] for mu, sigma in entrants]
    after = model.rate(teams, ranks=[float(r) for r in ranks])
    return [(team[0].mu, team[0].sigma) for team in after]


def _rating(user: Any, family: str = "points") -> tuple[float, float, int]:
    r = Rating.objects.get(user=user, family=family)
    return r.mu, r.sigma, r.games


def _drops_game(
    seated: Callable[..., TableDriver], toss: Callable[[int], None], n: int, **fields: Any
) -> TableDriver:
    """A Points game of ``n`` players in which seats 1..n-1 drop at their first turn (20
    points each: a tie) and seat ``n`` wins. The game ends uncommitted (the test's
    transaction): its rating has not run."""
    toss(1)
    t = seated(n, variant="points", point_value=10, platform_fee_bps=0, **fields)
    for seat in range(1, n):
        t.act(seat, "drop")
    assert t.game().status == GameStatus.FINISHED
    return t


START = (skill.MODEL.mu, skill.MODEL.sigma)


def test_two_players_are_rated_as_openskill_rates_them(
    seated: Callable[..., TableDriver], toss: Callable[[int], None]
) -> None:
    t = _drops_game(seated, toss, 2)
    assert services.game_rate(game_id=t.game().pk) == "rated"
    (loser, winner) = _expected([START, START], [2, 1])
    assert _rating(t.users[1]) == pytest.approx((*loser, 1))
    assert _rating(t.users[2]) == pytest.approx((*winner, 1))
    assert winner[0] > START[0] > loser[0]


def test_three_players_with_a_tie_from_their_own_ratings(
    seated: Callable[..., TableDriver], toss: Callable[[int], None], players: list[Any]
) -> None:
    """Seats 1 and 2 drop (20 points each: tied second), seat 3 wins; each starts from a
    rating of its own."""
    before = [(31.0, 4.0), (22.5, 6.0), (25.0, 8.333)]
    for user, (mu, sigma) in zip(players[:3], before, strict=True):
        Rating.objects.create(user=user, family="points", mu=mu, sigma=sigma, games=12)
    t = _drops_game(seated, toss, 3)
    assert services.game_rate(game_id=t.game().pk) == "rated"
    expected = _expected(before, [2, 2, 1])
    for seat, (mu, sigma) in enumerate(expected, start=1):
        assert _rating(t.users[seat]) == pytest.approx((mu, sigma, 13))
    places = dict(RatingChange.objects.values_list("user_id", "place"))
    assert places == {t.users[1].pk: 2, t.users[2].pk: 2, t.users[3].pk: 1}


def test_six_players_rated_together(
    seated: Callable[..., TableDriver], toss: Callable[[int], None], players: list[Any]
) -> None:
    before = [(20.0 + 2 * i, 8.333 - i) for i in range(6)]
    for user, (mu, sigma) in zip(players, before, strict=True):
        Rating.objects.create(user=user, family="points", mu=mu, sigma=sigma, games=3)
    t = _drops_game(seated, toss, 6)
    assert services.game_rate(game_id=t.game().pk) == "rated"
    expected = _expected(before, [2, 2, 2, 2, 2, 1])
    for seat, (mu, sigma) in enumerate(expected, start=1):
        assert _rating(t.users[seat]) == pytest.approx((mu, sigma, 4))
    assert RatingChange.objects.filter(game=t.game()).count() == 6


@pytest.mark.parametrize("level", ["easy", "hard"])
def test_a_computer_player_is_a_fixed_anchor_of_its_level(
    practice_table: Callable[..., Table],
    user_factory: Callable[..., Any],
    clock: Clock,
    toss: Callable[[int], None],
    level: str,
) -> None:
    toss(1)
    table = practice_table(seats_max=2, bot_count=1, bot_strength=level)
    person = with_welcome_chips(user_factory)()
    table_services.table_join(table=table, user=person)
    game = Game.objects.get(table=table)
    assert game.status == GameStatus.RUNNING
    mine = Seat.objects.get(game=game, user=person)
    bot = Seat.objects.get(game=game, is_bot=True)
    table_services.game_act(
        game_id=game.pk, user=person, action="drop", payload={}, expected_version=game.version
    )
    assert services.game_rate(game_id=game.pk) == "rated"
    anchor = (skill.ANCHOR_MU["points"][level], skill.ANCHOR_SIGMA)
    ranks = [2, 1] if mine.seat_no < bot.seat_no else [1, 2]
    entrants = [START, anchor] if mine.seat_no < bot.seat_no else [anchor, START]
    expected = _expected(entrants, ranks)[0 if mine.seat_no < bot.seat_no else 1]
    assert _rating(person) == pytest.approx((*expected, 1))
    # The computer player has no rating to move; its anchor is the same after the game.
    assert not Rating.objects.filter(user_id=bot.user_id).exists()
    assert skill.anchor_skill("points", level) == skill.Skill(*anchor)
    assert skill.ANCHOR_MU["points"]["easy"] < skill.ANCHOR_MU["points"]["medium"]
    assert skill.ANCHOR_MU["points"]["medium"] < skill.ANCHOR_MU["points"]["hard"]


def test_a_game_is_rated_once_when_its_end_is_heard_twice(
    seated: Callable[..., TableDriver],
    toss: Callable[[int], None],
    django_capture_on_commit_callbacks: Any,
) -> None:
    """The listener runs after the game's commit; a second call (a double settlement's
    wake-up, a rerun task, the sweep) rates nothing."""
    toss(1)
    t = seated(2, variant="points", point_value=10, platform_fee_bps=0)
    with django_capture_on_commit_callbacks(execute=True):
        t.act(1, "drop")
    game = t.game()
    assert GameRating.objects.get(game=game).outcome == "rated"
    once = [_rating(u) for u in t.users.values()]
    with django_capture_on_commit_callbacks(execute=True):
        hooks.game_ended(game)  # the end heard again
    assert services.game_rate(game_id=game.pk) == "already"
    assert services.games_unrated_rate() == {}
    assert [_rating(u) for u in t.users.values()] == once
    assert RatingChange.objects.filter(game=game).count() == 2
    assert [g for _mu, _s, g in once] == [1, 1]


def test_a_rating_that_dies_half_way_leaves_nothing_and_the_rerun_rates_once(
    seated: Callable[..., TableDriver],
    toss: Callable[[int], None],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    t = _drops_game(seated, toss, 3)
    game = t.game()
    real_write = services._change_write
    written: list[int] = []

    def dies_after_the_first_write(change: RatingChange) -> None:
        real_write(change)
        written.append(change.user_id)
        raise RuntimeError("worker killed")

    monkeypatch.setattr(services, "_change_write", dies_after_the_first_write)
    with pytest.raises(RuntimeError):
        services.game_rate(game_id=game.pk)
    assert len(written) == 1  # it did write, then died
    assert not RatingChange.objects.exists()
    assert not GameRating.objects.filter(game=game).exists()
    assert not Rating.objects.filter(games__gt=0).exists()

    monkeypatch.setattr(services, "_change_write", real_write)
    assert services.game_rate(game_id=game.pk) == "rated"
    assert services.game_rate(game_id=game.pk) == "already"
    assert RatingChange.objects.filter(game=game).count() == 3
    expected = _expected([START, START, START], [2, 2, 1])
    for seat, (mu, sigma) in enumerate(expected, start=1):
        assert _rating(t.users[seat]) == pytest.approx((mu, sigma, 1))


def test_the_sweep_rates_a_game_whose_rating_was_lost_once(
    seated: Callable[..., TableDriver], toss: Callable[[int], None]
) -> None:
    t = _drops_game(seated, toss, 2)
    call_command("ratings_sweep")
    assert RatingChange.objects.filter(game=t.game()).count() == 2
    call_command("ratings_sweep")
    assert RatingChange.objects.filter(game=t.game()).count() == 2
    assert _rating(t.users[1])[2] == 1


def test_a_casual_private_table_is_not_rated(
    template_factory: Callable[..., Any],
    user_factory: Callable[..., Any],
    clock: Clock,
    toss: Callable[[int], None],
) -> None:
    toss(1)
    template = template_factory(
        variant="points",
        currency="practice",
        practice=True,
        point_value=1,
        seats_min=2,
        seats_max=2,
        bot_count=1,
        human_wait_s=20,
    )
    welcomed = with_welcome_chips(user_factory)
    host, friend = welcomed(), welcomed()
    table = table_services.table_private_create(template=template, user=host, casual=True)
    assert table.casual
    table_services.table_join_by_code(code=table.invite_code, user=friend)
    game = Game.objects.get(table=table)
    assert game.status == GameStatus.RUNNING
    first = Seat.objects.get(game=game, seat_no=1).user
    table_services.game_act(
        game_id=game.pk, user=first, action="drop", payload={}, expected_version=game.version
    )
    assert services.game_rate(game_id=game.pk) == "skipped"
    assert GameRating.objects.get(game=game).why == "casual"
    assert not RatingChange.objects.exists() and not Rating.objects.exists()


def test_a_private_table_is_rated_unless_its_host_chose_casual(
    template_factory: Callable[..., Any], user_factory: Callable[..., Any], client: Any
) -> None:
    template = template_factory(
        variant="points", currency="practice", practice=True, point_value=1, bot_count=1
    )
    welcomed = with_welcome_chips(user_factory)
    host, other = welcomed(), welcomed()
    client.force_login(host)
    client.post(reverse("private_create", args=[template.pk]))
    assert Table.objects.get(host=host).casual is False
    client.force_login(other)
    client.post(reverse("private_create", args=[template.pk]), {"casual": "1"})
    assert Table.objects.get(host=other).casual is True
    forger = welcomed()
    client.force_login(forger)
    answer = client.post(reverse("private_create", args=[template.pk]), {"casual": "x" * 10_000})
    assert answer.status_code == 302 and Table.objects.get(host=forger).casual is False


def test_a_cancelled_game_is_not_rated(
    seated: Callable[..., TableDriver], user_factory: Callable[..., Any]
) -> None:
    t = seated(2, variant="points", point_value=10)
    staff = user_factory(is_staff=True)
    table_services.game_cancel(game=t.game(), staff_user=staff, reason="test")
    assert services.game_rate(game_id=t.game().pk) == "skipped"
    assert GameRating.objects.get(game=t.game()).why == "cancelled"
    assert not RatingChange.objects.exists()


def test_a_new_rating_is_provisional_until_enough_games(
    seated: Callable[..., TableDriver], toss: Callable[[int], None], settings: Any
) -> None:
    t = _drops_game(seated, toss, 2)
    services.game_rate(game_id=t.game().pk)
    winner = t.users[2]
    shown = skill.display(_rating(winner)[0])
    settings.RATINGS_PROVISIONAL_GAMES = 10
    assert selectors.seat_badges(user_ids=[winner.pk], variant="points") == {winner.pk: f"{shown}?"}
    change = selectors.change_of_game(user_id=winner.pk, game_id=t.game().pk)
    assert change is not None and change.figure == f"{shown}?" and change.before == 1500
    settings.RATINGS_PROVISIONAL_GAMES = 1
    cache.clear()
    assert selectors.seat_badges(user_ids=[winner.pk], variant="points") == {winner.pk: str(shown)}
    assert selectors.ratings_of_player(user_id=winner.pk)[0].figure == str(shown)


def test_the_rating_task_rates_once_however_often_it_runs(
    seated: Callable[..., TableDriver], toss: Callable[[int], None]
) -> None:
    from tables.ratings.tasks import game_rate

    t = _drops_game(seated, toss, 2)
    assert game_rate.apply(args=(t.game().pk,)).get() == "rated"
    assert game_rate.apply(args=(t.game().pk,)).get() == "already"
    assert RatingChange.objects.filter(game=t.game()).count() == 2


def test_a_queued_rating_lost_with_its_worker_is_rated_by_the_sweep(
    seated: Callable[..., TableDriver],
    toss: Callable[[int], None],
    settings: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """With Celery, the end queues the task (here on the in-memory broker no worker reads: a
    task lost); the sweep rates the game, once."""
    settings.TIMERS_BACKEND = "celery"
    toss(1)
    t = seated(2, variant="points", point_value=10, platform_fee_bps=0)
    with django_capture_on_commit_callbacks(execute=True):
        t.act(1, "drop")
    assert not GameRating.objects.filter(game=t.game()).exists()
    assert services.games_unrated_rate() == {"rated": 1}
    assert services.games_unrated_rate() == {}
    assert RatingChange.objects.filter(game=t.game()).count() == 2


def test_a_tournament_table_is_rated_by_its_final_places(
    players: list[Any], clock: Any, planter: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sit & go's first-round table of 3 plays its one deal: 140, 50 and 50 chips, so 1st
    and a tie for 2nd; the game is rated from those places."""
    from tourney_kit import advance, chips, deals_template, fixed_draw, plant, play_deal, table_game

    from tables.tournaments import services as tourney

    fixed_draw(monkeypatch)
    t = tourney.tournament_create_sit_and_go(
        name="Rated sit & go",
        players_min=5,
        players_max=5,
        template=deals_template(),
        fee_bps=0,
        entry_fee=999,
        seats_per_table=4,
        qualifiers_per_table=2,
        deals_per_round=1,
        prize_table=[{"players": [5, 5], "shares": [50, 30, 20]}],
    )
    for user in players[:5]:
        tourney.tournament_register(tournament=t, user=user)
    plant(planter, {1: 0, 2: 30, 3: 30})
    advance(t, clock)
    game = table_game(t, 1, 1)
    play_deal(game, planter, clock, {1: 0, 2: 30, 3: 30})
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED and chips(game) == {1: 140, 2: 50, 3: 50}
    assert services.game_rate(game_id=game.pk) == "rated"
    expected = _expected([START, START, START], [1, 2, 2])
    seats = {s.seat_no: s.user for s in Seat.objects.filter(game=game, played=True)}
    for seat, (mu, sigma) in enumerate(expected, start=1):
        assert _rating(seats[seat], "deals") == pytest.approx((mu, sigma, 1))
