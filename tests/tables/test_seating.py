"""Seating, entry fees, the start countdown, templates and frozen settings."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from tables_testkit import Clock, assert_reconciled, balance, fund

from ledger.selectors import pot_balance, transactions_for_ref
from tables import services
from tables.models import Game, GameStatus, Move, Seat, Table, TableStatus, TableTemplate


def test_join_holds_the_entry_fee_and_is_idempotent(
    table_factory: Callable[..., Table], players: list[Any], clock: Clock
) -> None:
    table = table_factory(entry_fee=1500, seats_max=4)
    seat = services.table_join(table=table, user=players[0])
    again = services.table_join(table=table, user=players[0])
    assert again.pk == seat.pk and seat.seat_no == 1
    game = Game.objects.get(table=table)
    assert game.status == GameStatus.WAITING
    assert balance(players[0]) == 100_000 - 1500
    assert pot_balance(pot_ref=game.pot_ref, currency="cash") == 1500
    assert transactions_for_ref(ref=game.pot_ref).count() == 1
    assert Seat.objects.filter(table=table).count() == 1
    assert_reconciled()


def test_seat_choice_taken_and_full(
    table_factory: Callable[..., Table], players: list[Any], clock: Clock
) -> None:
    table = table_factory(seats_min=3, seats_max=3)
    services.table_join(table=table, user=players[0], seat_no=2)
    with pytest.raises(services.SeatUnavailable, match="Seat 2 is taken"):
        services.table_join(table=table, user=players[1], seat_no=2)
    with pytest.raises(services.SeatUnavailable, match="seats 1 to 3"):
        services.table_join(table=table, user=players[1], seat_no=5)
    assert services.table_join(table=table, user=players[1]).seat_no == 1
    services.table_join(table=table, user=players[2])
    # Full: the game started at once.
    game = Game.objects.get(table=table)
    assert game.status == GameStatus.RUNNING
    with pytest.raises(services.TableClosed, match="join when it ends"):
        services.table_join(table=table, user=players[3])
    assert balance(players[3]) == 100_000


@pytest.mark.parametrize("bad", [-1, 0, 7, "2", 2.0, True])
def test_bad_seat_numbers_are_refused(
    table_factory: Callable[..., Table], players: list[Any], clock: Clock, bad: Any
) -> None:
    table = table_factory()
    with pytest.raises(services.SeatUnavailable):
        services.table_join(table=table, user=players[0], seat_no=bad)
    assert not Seat.objects.exists()
    assert balance(players[0]) == 100_000


def test_unknown_table_and_anonymous_user(
    table_factory: Callable[..., Table], players: list[Any], clock: Clock
) -> None:
    from django.contrib.auth.models import AnonymousUser

    table = table_factory()
    with pytest.raises(services.NotFound):
        services.table_join(table=Table(pk=987654), user=players[0])
    with pytest.raises(services.NotSeated, match="Sign in"):
        services.table_join(table=table, user=AnonymousUser())  # type: ignore[arg-type]  # refused
    with pytest.raises(services.NotSeated):
        services.table_leave(table=table, user=players[0])
    assert not Seat.objects.exists()


def test_not_enough_funds_changes_nothing(
    table_factory: Callable[..., Table], user_factory: Callable[..., Any], clock: Clock
) -> None:
    poor = user_factory()
    fund(poor, 999)
    table = table_factory(entry_fee=1000)
    with pytest.raises(services.NotEnoughFunds):
        services.table_join(table=table, user=poor)
    assert balance(poor) == 999
    assert not Seat.objects.exists()
    assert not Move.objects.exists()


def test_countdown_starts_at_the_minimum_and_stops_below_it(
    table_factory: Callable[..., Table], players: list[Any], clock: Clock
) -> None:
    table = table_factory(seats_min=2, seats_max=4, start_countdown_s=15)
    services.table_join(table=table, user=players[0])
    game = Game.objects.get(table=table)
    assert game.deadline is None
    services.table_join(table=table, user=players[1])
    game = Game.objects.get(table=table)
    assert game.deadline_kind == "start"
    assert game.deadline.timestamp() == pytest.approx(clock.t + 15, abs=1e-3)
    # Leaving below the minimum stops the countdown and refunds.
    services.table_leave(table=table, user=players[1])
    game.refresh_from_db()
    assert game.deadline is None
    assert balance(players[1]) == 100_000
    # Back to two: the countdown runs; nothing happens before it ends.
    services.table_join(table=table, user=players[2])
    clock.advance(14)
    assert services.timers_sweep() == 0
    clock.advance(1.01)
    assert services.timers_sweep() == 1
    game.refresh_from_db()
    assert game.status == GameStatus.RUNNING
    assert sorted(
        Seat.objects.filter(game=game, played=True).values_list("seat_no", flat=True)
    ) == [
        1,
        2,
    ]
    assert game.deals.count() == 1
    assert Table.objects.get(pk=table.pk).status == TableStatus.PLAYING


def test_leave_before_start_refunds_and_join_again(
    table_factory: Callable[..., Table], players: list[Any], clock: Clock
) -> None:
    table = table_factory(seats_max=3)
    services.table_join(table=table, user=players[0])
    services.table_leave(table=table, user=players[0])
    with pytest.raises(services.NotSeated):
        services.table_leave(table=table, user=players[0])
    assert balance(players[0]) == 100_000
    game = Game.objects.get(table=table)
    assert pot_balance(pot_ref=game.pot_ref, currency="cash") == 0
    services.table_join(table=table, user=players[1], seat_no=1)
    assert balance(players[1]) == 100_000 - 1000
    assert Seat.objects.filter(table=table, left_at__isnull=True).count() == 1
    assert_reconciled()


def test_leave_and_sit_again_pays_again_and_reconciles(
    table_factory: Callable[..., Table], players: list[Any], clock: Clock
) -> None:
    table = table_factory(seats_max=3)
    services.table_join(table=table, user=players[0])
    services.table_leave(table=table, user=players[0])
    services.table_join(table=table, user=players[0])
    game = Game.objects.get(table=table)
    keys = sorted(transactions_for_ref(ref=game.pot_ref).values_list("idempotency_key", flat=True))
    assert len(keys) == 3 and keys[0].startswith("entry:") and keys[2].startswith("refund:")
    assert balance(players[0]) == 100_000 - 1000
    assert_reconciled()


def test_reconciliation_catches_a_second_entry_fee(
    table_factory: Callable[..., Table], players: list[Any], clock: Clock, allow_discrepancies: None
) -> None:
    from ledger import services as ledger_services
    from tables.reconcile import reconcile

    table = table_factory(seats_max=3)
    services.table_join(table=table, user=players[0])
    game = Game.objects.get(table=table)
    ledger_services.pot_hold_entry(
        user=players[0],
        currency="cash",
        pot_ref=game.pot_ref,
        amount=1000,
        idempotency_key="entry:forged",
    )
    found = [str(d) for d in reconcile().discrepancies]
    assert any("2 entry fees" in d for d in found), found


def test_settings_are_frozen_when_the_game_opens(
    table_factory: Callable[..., Table], players: list[Any], clock: Clock
) -> None:
    table = table_factory(variant="pool101", entry_fee=1000, seats_max=2)
    services.table_join(table=table, user=players[0])
    template = table.template
    template.entry_fee = 5000
    template.pool_limit = 150
    template.full_clean()
    template.save()
    services.table_join(table=table, user=players[1])
    game = Game.objects.get(table=table)
    assert game.status == GameStatus.RUNNING
    assert game.stake == 1000
    assert game.settings["pool_limit"] == 101
    assert services.game_state(game).settings.pool_limit == 101
    assert balance(players[1]) == 100_000 - 1000


def test_template_settings_map_every_field(template_factory: Callable[..., Any]) -> None:
    template = template_factory(
        variant="pool201",
        seats_max=6,
        entry_fee=2500,
        platform_fee_bps=1500,
        first_drop=30,
        middle_drop=60,
        full_count=80,
        rejoin_window_s=12.5,
        split_weighting="equal",
        turn_s=20,
        largest_set=3,
        allow_joker_only_groups=True,
        first_open_joker_pickable=False,
        disconnect_policy="drop",
        max_reshuffles=2,
        extra_settings={"deal_show_max": 30},
    )
    settings = services.template_settings(template)
    assert settings.variant == "pool201"
    assert settings.pool_limit == 201  # the variant's default
    assert settings.entry_fee == 2500
    assert settings.platform_fee_bps == 1500
    assert (settings.first_drop, settings.middle_drop) == (30, 60)
    assert settings.rejoin_window_s == 12.5
    assert settings.split_weighting == "equal"
    assert settings.turn_s == 20
    assert settings.meld.largest_set == 3
    assert settings.meld.allow_joker_only_groups is True
    assert settings.first_open_joker_pickable is False
    assert settings.disconnect_policy == "drop"
    assert settings.max_reshuffles == 2
    assert settings.deal_show_max == 30


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"first_drop": 50, "middle_drop": 40}, "first_drop"),
        ({"variant": "deals", "deals_count": 4}, "deals_count"),
        ({"entry_fee": 0}, "entry fee"),
        ({"variant": "points", "point_value": 0}, "point value"),
        ({"variant": "points", "point_value": 5, "points_buy_in_multiple": 40}, "buy-in"),
        ({"variant": "classic", "pool_limit": 150}, "does not apply"),
        ({"extra_settings": {"no_such_setting": 1}}, "unknown settings"),
        ({"practice": True, "bot_count": 2, "currency": "cash"}, "practice chips"),
        ({"bot_count": 1}, "practice tables"),
    ],
)
def test_template_validation(db: Any, fields: dict[str, Any], message: str) -> None:
    values: dict[str, Any] = {"name": "bad", "variant": "pool101", "entry_fee": 100}
    values.update(fields)
    template = TableTemplate(**values)
    with pytest.raises(ValidationError, match=message):
        template.full_clean()


def test_closed_table_takes_nobody(
    table_factory: Callable[..., Table], players: list[Any], clock: Clock, admin_user: Any
) -> None:
    table = table_factory(seats_max=3)
    services.table_join(table=table, user=players[0])
    services.table_close(table=table, staff_user=admin_user)
    assert balance(players[0]) == 100_000  # the waiting game was cancelled and refunded
    with pytest.raises(services.TableClosed):
        services.table_join(table=table, user=players[1])
    assert Game.objects.get(table=table).status == GameStatus.CANCELLED
    assert_reconciled()
