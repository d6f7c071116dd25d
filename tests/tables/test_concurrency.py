"""Real concurrency on PostgreSQL: threads acting on one game at the same expected version."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tables_testkit import WINNER_GROUPS, Planter, TableDriver, assert_reconciled, plant

from tables import services
from tables.models import Game, Move
from tests.threads import race as race_threads

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def race(workers: list[Callable[[], Any]]) -> list[Any]:
    """Run every worker in its own thread, released together; returns results or exceptions."""
    return race_threads(len(workers), lambda i: workers[i](), timeout=60)


@pytest.fixture
def t(timed_three: TableDriver) -> TableDriver:
    return timed_three


def test_same_version_from_many_threads_acts_once(t: TableDriver) -> None:
    game = t.game()

    def pick() -> Any:
        return services.game_act(
            game_id=game.pk, user=t.users[1], action="pick_closed", expected_version=game.version
        )

    results = race([pick] * 6)
    won = [r for r in results if isinstance(r, Game)]
    stale = [r for r in results if isinstance(r, services.StaleAction)]
    assert len(won) == 1 and len(stale) == 5, results
    assert len(t.view(1)["hand"]["cards"]) == 14
    assert Move.objects.filter(game=game, action="pick_closed").count() == 1
    assert t.game().version == game.version + 1


def test_timer_racing_a_late_move_applies_the_timeout_once(t: TableDriver) -> None:
    for _ in range(4):
        game = t.game()
        seat = t.turn()
        assert seat is not None
        timeouts = Move.objects.filter(game=game, action="timeout").count()
        t.clock.t = game.deadline.timestamp() + 0.01  # the deadline has passed: both fire it

        def timer(game: Game = game) -> Any:
            return services.timer_fire(game_id=game.pk, version=game.version)

        def move(game: Game = game, seat: int = seat) -> Any:
            return services.game_act(
                game_id=game.pk,
                user=t.users[seat],
                action="pick_closed",
                expected_version=game.version,
            )

        results = race([timer, move])
        assert results[0] in (services.TimerResult.FIRED, services.TimerResult.STALE), results
        # Whoever locked first applied the timeout; the late pick is refused either way.
        assert isinstance(results[1], services.StaleAction | services.TimeRanOut), results
        assert Move.objects.filter(game=game, action="timeout").count() == timeouts + 1
        assert t.game().version == game.version + 1
        assert t.turn() != seat


def test_every_seat_submits_its_groups_at_once_and_none_is_refused(
    seated: Callable[..., TableDriver], planter: Planter, toss: Callable[[int], None]
) -> None:
    toss(1)
    added: dict[int, int | None] = {1: 0, 2: 20, 3: 30, 4: 40}
    _, losers = plant(planter, added)
    t = seated(4, variant="pool201", turn_s=30, extra_time_s=0)
    for seat in range(1, 5):  # everyone takes a turn, then seat 1 shows
        assert t.turn() == seat
        t.act(seat, "pick_closed")
        t.act(seat, "discard", card=t.view(seat)["hand"]["picked"])
    t.act(1, "pick_closed")
    t.act(1, "declare", finish_card=t.view(1)["hand"]["picked"], groups=WINNER_GROUPS)
    assert t.phase() == "meld"
    game = t.game()

    def submit(seat: int) -> Callable[[], Any]:
        return lambda: services.game_act(
            game_id=game.pk,
            user=t.users[seat],
            action="submit_meld",
            payload={"groups": losers[seat]},
            expected_version=game.version,  # every page saw the same version
        )

    results = race([submit(seat) for seat in range(2, 5)])
    assert all(isinstance(r, Game) for r in results), results
    last = t.view()["last_deal"]
    assert {r["seat"]: r["points"] for r in last["results"]} == added
    assert Move.objects.filter(game=game, action="submit_meld").count() == 3
    assert_reconciled()


def test_joins_from_many_threads_fill_the_table_exactly(
    table_factory: Callable[..., Any], players: list[Any], clock: Any
) -> None:
    table = table_factory(seats_max=4, seats_min=4)

    def join(user: Any) -> Callable[[], Any]:
        return lambda: services.table_join(table=table, user=user)

    results = race([join(u) for u in players])
    seated = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(seated) == 4, results
    assert all(isinstance(r, services.TableError) for r in refused)
    assert sorted(s.seat_no for s in seated) == [1, 2, 3, 4]
    assert Game.objects.get(table=table).status == "running"
    assert_reconciled()
