"""Deals rummy (chips, the tie-breaker) and points rummy (the settlement) through the services."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tables_testkit import (
    Planter,
    TableDriver,
    assert_reconciled,
    balance,
    plant,
    plant_and_play,
    play,
)

from ledger.models import TransactionKind
from ledger.selectors import pot_balance, transactions_for_ref
from tables.models import Deal, GameStatus


def test_deals_tie_breaker(
    seated: Callable[..., TableDriver],
    planter: Planter,
    toss: Callable[[int], None],
    players: list[Any],
) -> None:
    toss(1)
    first = {1: 0, 2: 30}
    planned = plant(planter, first)
    t = seated(2, variant="deals", deals_count=2)
    assert t.chips() == {1: 160, 2: 160}
    play(t, *planned, first)
    assert t.chips() == {1: 190, 2: 130}
    plant_and_play(t, planter, {1: 30, 2: 0})
    assert t.chips() == {1: 160, 2: 160}
    assert t.view()["tiebreak_seats"] == [1, 2]
    assert t.game().status == GameStatus.RUNNING
    plant_and_play(t, planter, {1: 0, 2: 20})
    game = t.game()
    assert game.status == GameStatus.FINISHED
    assert game.result["winners"] == [1]
    assert game.result["settlement"] == {"payouts": {"1": 1800}, "fee": 200}
    deals = list(Deal.objects.filter(game=game).order_by("number"))
    assert len(deals) == 3
    assert [d.result["chips"] for d in deals][-1] == {"1": 180, "2": 140}
    assert balance(players[0]) == 100_000 - 1000 + 1800
    assert_reconciled()


def test_deals_most_chips_after_the_last_deal_wins(
    seated: Callable[..., TableDriver],
    planter: Planter,
    toss: Callable[[int], None],
    players: list[Any],
) -> None:
    toss(1)
    first = {1: 0, 2: 30, 3: 40}
    planned = plant(planter, first)
    t = seated(3, variant="deals", deals_count=2, entry_fee=500)
    play(t, *planned, first)
    plant_and_play(t, planter, {1: 20, 2: 0, 3: 25})
    assert t.chips() == {1: 210, 2: 175, 3: 95}
    game = t.game()
    assert game.result["settlement"] == {"payouts": {"1": 1350}, "fee": 150}
    assert_reconciled()


def test_points_settlement(
    seated: Callable[..., TableDriver],
    planter: Planter,
    toss: Callable[[int], None],
    players: list[Any],
) -> None:
    toss(1)
    first = {1: 0, 2: 34, 3: 48}
    planned = plant(planter, first)
    t = seated(3, variant="points", point_value=10, platform_fee_bps=1000)
    game = t.game()
    assert game.stake == 800  # 80 points x 10
    assert pot_balance(pot_ref=game.pot_ref, currency="cash") == 2400
    play(t, *planned, first)
    game = t.game()
    assert game.status == GameStatus.FINISHED
    # Losers pay 340 and 480; the winner gains 820 less a 10 % fee of 82.
    assert game.result["settlement"] == {"payouts": {"1": 1538, "2": 460, "3": 320}, "fee": 82}
    assert balance(players[0]) == 100_000 + 738
    assert balance(players[1]) == 100_000 - 340
    assert balance(players[2]) == 100_000 - 480
    kinds = list(transactions_for_ref(ref=game.pot_ref).values_list("kind", flat=True))
    assert kinds.count(TransactionKind.SETTLEMENT) == 1
    assert pot_balance(pot_ref=game.pot_ref, currency="cash") == 0
    assert_reconciled()


def test_points_drop_pays_the_drop(
    seated: Callable[..., TableDriver],
    planter: Planter,
    toss: Callable[[int], None],
    players: list[Any],
) -> None:
    toss(1)
    t = seated(2, variant="points", point_value=5, platform_fee_bps=0)
    t.act(1, "drop")
    game = t.game()
    assert game.status == GameStatus.FINISHED
    assert game.result["settlement"] == {"payouts": {"1": 300, "2": 500}, "fee": 0}
    assert balance(players[0]) == 100_000 - 100
    assert balance(players[1]) == 100_000 + 100
    assert_reconciled()
