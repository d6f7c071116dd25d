"""The worked examples of RULES.md section 5, played as real deals with planted hands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tables_testkit import TableDriver, assert_reconciled, balance, plant, play

from tables.models import Deal, Game, GameStatus, Move, Seat

POOL_101 = [
    # added A/B/C, totals A/B/C after the deal
    ({1: 0, 2: 34, 3: 48}, {1: 0, 2: 34, 3: 48}),
    ({1: 27, 2: 0, 3: 40}, {1: 27, 2: 34, 3: 88}),
    ({1: 0, 2: 41, 3: 13}, {1: 27, 2: 75, 3: 101}),
    ({1: 46, 2: 0, 3: None}, {1: 73, 2: 75, 3: 101}),
    ({1: 0, 2: 26, 3: None}, {1: 73, 2: 101, 3: 101}),
]

POOL_201 = [
    ({1: 0, 2: 34, 3: 48}, {1: 0, 2: 34, 3: 48}),
    ({1: 27, 2: 0, 3: 40}, {1: 27, 2: 34, 3: 88}),
    ({1: 0, 2: 41, 3: 13}, {1: 27, 2: 75, 3: 101}),
    ({1: 46, 2: 0, 3: 52}, {1: 73, 2: 75, 3: 153}),
    ({1: 0, 2: 63, 3: 48}, {1: 73, 2: 138, 3: 201}),
    ({1: 58, 2: 0, 3: None}, {1: 131, 2: 138, 3: 201}),
    ({1: 0, 2: 63, 3: None}, {1: 131, 2: 201, 3: 201}),
]


@pytest.mark.parametrize(
    ("variant", "deals", "eliminated_after"),
    [("pool101", POOL_101, {3: 3, 5: 2}), ("pool201", POOL_201, {5: 3, 7: 2})],
)
def test_worked_example(
    seated: Callable[..., TableDriver],
    planter: Any,
    toss: Callable[[int], None],
    players: list[Any],
    variant: str,
    deals: list[tuple[dict[int, int | None], dict[int, int]]],
    eliminated_after: dict[int, int],
) -> None:
    toss(1)
    planned = plant(planter, deals[0][0])
    t = seated(3, variant=variant, entry_fee=1000, platform_fee_bps=1000)
    game = t.game()
    assert game.status == GameStatus.RUNNING
    for number, (added, totals) in enumerate(deals, start=1):
        if number > 1:
            planned = plant(planter, added)
        play(t, *planned, added)
        assert t.totals() == totals, f"deal {number}"
        out = {p["seat"] for p in t.view()["players"] if p["status"] == "eliminated"}
        if number in eliminated_after:
            assert eliminated_after[number] in out
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    assert game.result["winners"] == [1]
    # 3 entries of 1000, 10 % fee: A gets 2700.
    assert game.result["settlement"] == {"payouts": {"1": 2700}, "fee": 300}
    assert balance(players[0]) == 100_000 - 1000 + 2700
    assert balance(players[1]) == 100_000 - 1000
    assert balance(players[2]) == 100_000 - 1000
    assert Deal.objects.filter(game=game).count() == len(deals)
    assert not Seat.objects.filter(game=game, left_at__isnull=True).exists()
    # The move log has one row per version, no gaps.
    versions = list(Move.objects.filter(game=game).values_list("version", flat=True))
    assert versions == list(range(1, game.version + 1))
    assert_reconciled()
    assert Game.objects.get(pk=game.pk).deadline is None
