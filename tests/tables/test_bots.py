"""Practice tables: computer players take the empty seats and play from their deadlines."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest
from tables_testkit import (
    WINNER_GROUPS,
    Clock,
    Planter,
    TableDriver,
    assert_reconciled,
    balance,
    flatten,
    with_welcome_chips,
)

from tables import services
from tables.models import BotProfile, Game, GameStatus, Move, Seat, Table
from tables.services import bots


@pytest.fixture
def user_factory(user_factory: Callable[..., Any]) -> Callable[..., Any]:
    """People here signed up: they hold the welcome practice chips."""
    return with_welcome_chips(user_factory)


def run_until_over(game: Game, clock: Clock, limit: int = 400) -> int:
    """Jump from deadline to deadline (the sweep) until the game ends; returns the sweeps."""
    for n in range(limit):
        game.refresh_from_db()
        if game.status != GameStatus.RUNNING:
            return n
        assert game.deadline is not None
        clock.t = max(clock.t, game.deadline.timestamp() + 0.001)
        services.timers_sweep()
    raise AssertionError("the practice game did not end")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_bots_fill_the_table_and_play_a_points_game_to_the_end(
    practice_table: Callable[..., Table],
    user_factory: Callable[..., Any],
    clock: Clock,
    planter: Planter,
    caplog: pytest.LogCaptureFixture,
    toss: Callable[[int], None],
    seed: int,
) -> None:
    toss(1)
    planter.add_shuffled(seed)
    table = practice_table(max_reshuffles=0)
    human = user_factory()
    services.table_join(table=table, user=human)
    game = Game.objects.get(table=table)
    assert game.status == GameStatus.RUNNING  # two bots sat down: the table is full
    seats = list(Seat.objects.filter(game=game).order_by("seat_no"))
    assert [s.is_bot for s in seats] == [False, True, True]
    assert all(BotProfile.objects.filter(user=s.user).exists() for s in seats if s.is_bot)
    assert balance(human, "practice") >= 0
    # The person does nothing: its turns run out, the bots play the deal out.
    with caplog.at_level(logging.ERROR, logger="tables.services"):
        sweeps = run_until_over(game, clock)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    bot_moves = Move.objects.filter(game=game, actor__bot_profile__isnull=False)
    assert bot_moves.filter(action__in=["pick_closed", "pick_open"]).count() >= 2
    assert bot_moves.filter(action__in=["discard", "declare"]).exists()
    assert sweeps >= 1
    assert_reconciled()


def test_the_bots_leave_with_the_last_person(
    practice_table: Callable[..., Table],
    user_factory: Callable[..., Any],
    clock: Clock,
    toss: Callable[[int], None],
) -> None:
    toss(1)
    table = practice_table(variant="pool101", entry_fee=50)
    human = user_factory()
    services.table_join(table=table, user=human)
    services.table_leave(table=table, user=human)
    game = Game.objects.get(table=table)
    assert game.status == GameStatus.FINISHED  # the bots left too: the last one won
    assert game.result["winners"] and game.result["winners"][0] in (2, 3)
    assert not Seat.objects.filter(table=table, left_at__isnull=True).exists()
    assert_reconciled()


def test_bots_wait_their_think_time(
    practice_table: Callable[..., Table],
    user_factory: Callable[..., Any],
    clock: Clock,
    toss: Callable[[int], None],
) -> None:
    toss(2)  # a bot starts
    table = practice_table(bot_delay_s=2.0)
    services.table_join(table=table, user=user_factory())
    game = Game.objects.get(table=table)
    assert game.deadline_kind == "bot"
    assert game.deadline.timestamp() == pytest.approx(clock.t + 2.0, abs=1e-3)
    version = game.version
    clock.advance(1.9)
    assert services.timers_sweep() == 0
    clock.advance(0.2)
    assert services.timers_sweep() == 1
    game.refresh_from_db()
    # The bot took its whole turn: a pick and a throw (or a show).
    actions = list(
        Move.objects.filter(game=game, version__gt=version).values_list("action", flat=True)
    )
    assert actions[0] in ("pick_closed", "pick_open", "drop")
    if actions[0] != "drop":
        assert actions[1] in ("discard", "declare")
    assert services.bots_act(game_id=game.pk) == 0 or game.deadline_kind == "bot"


def test_bots_submit_their_best_arrangement_after_a_show(
    practice_table: Callable[..., Table],
    user_factory: Callable[..., Any],
    clock: Clock,
    planter: Planter,
    toss: Callable[[int], None],
) -> None:
    toss(1)
    planter.add(hands={1: flatten(WINNER_GROUPS)}, open_card="JC", cut_card="QC")
    table = practice_table(point_value=2, platform_fee_bps=0)
    human = user_factory()
    services.table_join(table=table, user=human)
    t = TableDriver(table, {1: human}, clock)
    t.act(1, "pick_closed")
    t.act(1, "declare", finish_card=t.view(1)["hand"]["picked"], groups=WINNER_GROUPS)
    game = t.game()
    assert game.deadline_kind == "bot"  # the bots meld before the meld window ends
    t.fire()
    game = t.game()
    assert game.status == GameStatus.FINISHED
    submitted = Move.objects.filter(game=game, action="submit_meld")
    assert submitted.count() == 2 and all(m.actor.bot_profile for m in submitted)
    # The bots were counted on their best arrangement, halved as a deal show.
    last = t.view()["last_deal"]
    outcomes = {r["seat"]: r["outcome"] for r in last["results"]}
    assert outcomes == {1: "won", 2: "deal_show", 3: "deal_show"}
    assert_reconciled()


def test_bot_users_are_reused_and_cannot_sit_down_themselves(
    practice_table: Callable[..., Table], user_factory: Callable[..., Any], clock: Clock
) -> None:
    first = services.bot_users_ensure(count=2)
    again = services.bot_users_ensure(count=3)
    assert [u.pk for u in again[:2]] == [u.pk for u in first]
    assert not again[0].has_usable_password()
    table = practice_table()
    with pytest.raises(services.SeatUnavailable):
        services.table_join(table=table, user=first[0])


def test_the_bots_leave_with_the_last_person_before_the_start(
    practice_table: Callable[..., Table], user_factory: Callable[..., Any], clock: Clock
) -> None:
    table = practice_table(seats_max=4, seats_min=3, bot_count=2)
    human = user_factory()
    services.table_join(table=table, user=human)
    game = Game.objects.get(table=table)
    assert game.status == GameStatus.WAITING and game.deadline_kind == "start"
    assert Seat.objects.filter(game=game, left_at__isnull=True).count() == 3
    services.table_leave(table=table, user=human)
    assert not Seat.objects.filter(game=game, left_at__isnull=True).exists()
    game.refresh_from_db()
    assert game.deadline is None
    assert_reconciled()


def test_a_bot_that_cannot_act_falls_back_to_the_turn_timer(
    practice_table: Callable[..., Table],
    user_factory: Callable[..., Any],
    clock: Clock,
    toss: Callable[[int], None],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    toss(2)  # a bot starts
    monkeypatch.setattr(bots, "bot_choose", lambda **kw: {"type": "discard", "card": "ZZ"})
    table = practice_table(turn_s=20, extra_time_s=0, bot_delay_s=1)
    services.table_join(table=table, user=user_factory())
    game = Game.objects.get(table=table)
    assert game.deadline_kind == "bot"
    clock.advance(1.01)
    with caplog.at_level(logging.ERROR, logger="tables.services"):
        assert services.timers_sweep() == 1
    assert "illegal move" in caplog.text
    game.refresh_from_db()
    # The failed bot does not spin: the engine's turn deadline is next, and it plays the turn.
    assert game.deadline_kind == "turn"
    assert game.deadline.timestamp() == pytest.approx(clock.t - 1.01 + 20, abs=1e-2)
    clock.t = game.deadline.timestamp() + 0.01
    assert services.timers_sweep() == 1
    assert Move.objects.filter(game=game, action="timeout", actor__isnull=True).count() == 1


@pytest.mark.parametrize("strength", ["easy", "hard"])
def test_each_strength_plays_a_practice_game_to_the_end(
    practice_table: Callable[..., Table],
    user_factory: Callable[..., Any],
    clock: Clock,
    planter: Planter,
    caplog: pytest.LogCaptureFixture,
    toss: Callable[[int], None],
    monkeypatch: pytest.MonkeyPatch,
    strength: str,
) -> None:
    """Staff pick the strength per template; the hard bot gets the deal's public record (the
    logged events, of which it keeps the open discards and open picks) with its seat's view."""
    toss(1)
    planter.add_shuffled(7)
    table = practice_table(max_reshuffles=0, bot_strength=strength)
    seen: list[tuple[str, int]] = []
    choose = bots.bot_choose

    def spy(**kw: Any) -> Any:
        seen.append((kw["strength"], len(list(kw["events"]))))
        return choose(**kw)

    monkeypatch.setattr(bots, "bot_choose", spy)
    services.table_join(table=table, user=user_factory())
    game = Game.objects.get(table=table)
    with caplog.at_level(logging.ERROR, logger="tables.services"):
        run_until_over(game, clock)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert seen and {s for s, _ in seen} == {strength}
    if strength == "hard":
        assert max(n for _, n in seen) > 0  # the record of the deal so far
    else:
        assert {n for _, n in seen} == {0}
