"""Pool money paths: rejoin, both auto splits, a manual split, cancellation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from tables_testkit import (
    Planter,
    TableDriver,
    assert_reconciled,
    balance,
    fund,
    plant,
    plant_and_play,
    play,
)

from ledger.selectors import pot_balance, transactions_for_ref
from tables import services
from tables.models import Game, GameStatus, Move
from tables.rules.errors import InvalidMove


def start(
    seated: Callable[..., TableDriver],
    planter: Planter,
    toss: Callable[[int], None],
    n: int,
    first: dict[int, int | None],
    **fields: Any,
) -> TableDriver:
    """Seat ``n`` players at a 101 pool (entry 1000, fee 10 %) and play the planted first deal."""
    toss(1)
    planned = plant(planter, first)
    fields.setdefault("variant", "pool101")
    t = seated(n, **fields)
    play(t, *planned, first)
    return t


def split_offer(t: TableDriver) -> dict[int, int]:
    assert t.phase() == "split"
    return {a["seat"]: a["amount"] for a in t.view()["split"]["amounts"]}


def test_rejoin_pays_the_entry_again_and_grows_the_prize(
    seated: Callable[..., TableDriver],
    planter: Planter,
    toss: Callable[[int], None],
    players: list[Any],
) -> None:
    t = start(seated, planter, toss, 3, {1: 0, 2: 34, 3: 61})
    planned = plant(planter, {1: 0, 2: 20, 3: 40})
    play(t, *planned, {1: 0, 2: 20, 3: 40})
    assert t.totals() == {1: 0, 2: 54, 3: 101}
    assert t.phase() == "rejoin"
    assert t.view()["rejoin"]["seats"] == [3]
    with pytest.raises(InvalidMove):
        t.act(2, "rejoin")  # seat 2 is not out
    version = t.game().version
    services.game_rejoin(game_id=t.game().pk, user=players[2], expected_version=version)
    with pytest.raises(services.StaleAction):  # the double click
        services.game_rejoin(game_id=t.game().pk, user=players[2], expected_version=version)
    assert t.totals()[3] == 55  # the highest total still in, plus 1
    assert balance(players[2]) == 100_000 - 2000
    game = t.game()
    keys = set(transactions_for_ref(ref=game.pot_ref).values_list("idempotency_key", flat=True))
    assert f"rejoin:game:{game.pk}:seat:3:1" in keys
    assert pot_balance(pot_ref=game.pot_ref, currency="cash") == 4000
    assert t.view()["prize"] == {"gross": 4000, "fee": 400, "net": 3600}
    # Deal 3: seats 2 and 3 both go out; seat 3 may not rejoin twice, seat 2 alone is not
    # enough for a rejoin window (one player left): seat 1 wins 4 entries less the fee.
    plant_and_play(t, planter, {1: 0, 2: 50, 3: 50})
    game = t.game()
    assert game.status == GameStatus.FINISHED
    assert game.result["settlement"] == {"payouts": {"1": 3600}, "fee": 400}
    assert balance(players[0]) == 100_000 - 1000 + 3600
    assert_reconciled()


def test_rejoin_without_funds_changes_nothing(
    seated: Callable[..., TableDriver],
    planter: Planter,
    toss: Callable[[int], None],
    players: list[Any],
) -> None:
    t = start(seated, planter, toss, 3, {1: 0, 2: 34, 3: 61})
    plant_and_play(t, planter, {1: 0, 2: 20, 3: 40})
    from ledger import services as ledger_services

    ledger_services.wallet_withdraw(
        user=players[2],
        currency="cash",
        amount=balance(players[2]) - 500,
        idempotency_key="test-withdraw",
    )
    version = t.game().version
    with pytest.raises(services.NotEnoughFunds):
        t.act(3, "rejoin")
    assert t.game().version == version
    assert t.totals()[3] == 101
    assert balance(players[2]) == 500
    fund(players[2], 1000)
    t.act(3, "rejoin")
    assert t.totals()[3] == 55


def test_auto_split_with_two_left(
    seated: Callable[..., TableDriver],
    planter: Planter,
    toss: Callable[[int], None],
    players: list[Any],
) -> None:
    t = start(seated, planter, toss, 3, {1: 0, 2: 41, 3: 61})
    plant_and_play(t, planter, {1: 41, 2: 0, 3: 20})
    plant_and_play(t, planter, {1: 40, 2: 40, 3: 0})
    assert t.totals() == {1: 81, 2: 81, 3: 81}
    # Nobody has been eliminated yet: no split of any kind.
    assert t.phase() == "break"
    plant_and_play(t, planter, {1: 0, 2: 8, 3: 20})
    assert t.totals() == {1: 81, 2: 89, 3: 101}
    game = t.game()
    assert game.status == GameStatus.FINISHED
    assert game.result["reason"] == "auto_split"
    assert game.result["settlement"] == {"payouts": {"1": 1350, "2": 1350}, "fee": 300}
    assert balance(players[0]) == balance(players[1]) == 100_000 - 1000 + 1350
    assert_reconciled()


def test_auto_split_with_three_left_at_a_table_of_four(
    seated: Callable[..., TableDriver],
    planter: Planter,
    toss: Callable[[int], None],
    players: list[Any],
) -> None:
    t = start(seated, planter, toss, 4, {1: 0, 2: 41, 3: 41, 4: 61})
    plant_and_play(t, planter, {1: 41, 2: 0, 3: 40, 4: 40})
    assert t.totals() == {1: 41, 2: 41, 3: 81, 4: 101}
    # No rejoin (81 is above 79); drops available 2, 2, 0: a manual split is offered.
    offer = split_offer(t)
    assert sum(offer.values()) == 3600
    t.act(3, "split_decline")
    plant_and_play(t, planter, {1: 40, 2: 40, 3: 0})
    game = t.game()
    assert game.result["reason"] == "auto_split"
    assert game.result["settlement"] == {"payouts": {"1": 1200, "2": 1200, "3": 1200}, "fee": 400}
    assert balance(players[3]) == 100_000 - 1000
    assert_reconciled()


def test_manual_split_by_drops_available(
    seated: Callable[..., TableDriver],
    planter: Planter,
    toss: Callable[[int], None],
    players: list[Any],
) -> None:
    t = start(seated, planter, toss, 3, {1: 0, 2: 45, 3: 61})
    plant_and_play(t, planter, {1: 0, 2: 40, 3: 40})
    assert t.totals() == {1: 0, 2: 85, 3: 101}
    plant_and_play(t, planter, {1: 60, 2: 0})
    assert t.totals() == {1: 60, 2: 85, 3: 101}
    # Drops available 2 and 0: weights 3 : 1 of the 2700 prize.
    assert split_offer(t) == {1: 2025, 2: 675}
    t.act(1, "split_accept")
    with pytest.raises(InvalidMove, match="already accepted"):
        t.act(1, "split_accept")
    assert t.phase() == "split"
    t.act(2, "split_accept")
    game = t.game()
    assert game.status == GameStatus.FINISHED
    assert game.result["reason"] == "manual_split"
    assert game.result["settlement"] == {"payouts": {"1": 2025, "2": 675}, "fee": 300}
    assert balance(players[0]) == 100_000 - 1000 + 2025
    assert balance(players[1]) == 100_000 - 1000 + 675
    assert_reconciled()


def test_split_offer_that_runs_out_is_withdrawn(
    seated: Callable[..., TableDriver],
    planter: Planter,
    toss: Callable[[int], None],
) -> None:
    t = start(seated, planter, toss, 3, {1: 0, 2: 45, 3: 61})
    plant_and_play(t, planter, {1: 0, 2: 40, 3: 40})
    plant_and_play(t, planter, {1: 60, 2: 0})
    assert t.game().deadline_kind == "split"
    t.act(1, "split_accept")
    t.fire()
    assert t.phase() == "break"
    assert t.game().status == GameStatus.RUNNING


def test_cancel_refunds_every_entry_rejoins_included(
    seated: Callable[..., TableDriver],
    planter: Planter,
    toss: Callable[[int], None],
    players: list[Any],
    admin_user: Any,
) -> None:
    t = start(seated, planter, toss, 3, {1: 0, 2: 34, 3: 61})
    plant_and_play(t, planter, {1: 0, 2: 20, 3: 40})
    t.act(3, "rejoin")
    game = t.game()
    with pytest.raises(services.TableError, match="reason"):
        services.game_cancel(game=game, staff_user=admin_user, reason="  ")
    with pytest.raises(services.TableError, match="staff"):
        services.game_cancel(game=game, staff_user=players[0], reason="cheating")
    services.game_cancel(game=game, staff_user=admin_user, reason="server fault")
    game.refresh_from_db()
    assert game.status == GameStatus.CANCELLED
    assert game.cancel_reason == "server fault" and game.deadline is None
    assert [balance(u) for u in players[:3]] == [100_000] * 3
    assert pot_balance(pot_ref=game.pot_ref, currency="cash") == 0
    assert Move.objects.filter(game=game).last().action == "game_cancel"
    with pytest.raises(services.TableError, match="waiting or running"):
        services.game_cancel(game=game, staff_user=admin_user, reason="again")
    with pytest.raises(services.TableClosed):
        t.act(1, "pick_closed")
    assert_reconciled()
    # The table takes players for a new game.
    services.table_join(table=t.table, user=players[4])
    assert Game.objects.filter(table=t.table, status=GameStatus.WAITING).count() == 1
