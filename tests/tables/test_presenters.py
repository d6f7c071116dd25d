"""What the table page's presenters hand the templates: frozen, typed values (``FeltView``,
``SeatView`` and their parts), with every optional part empty when the page does not show it."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.utils import translation
from tables_testkit import Planter, TableDriver, plant, play

from tables import presenters, selectors, services
from tables.models import Table
from tables.presenters.page import (
    CardGroup,
    DropCost,
    FeltPlayer,
    FeltView,
    ResultSheetView,
    SeatHand,
    SeatView,
    SheetRow,
)


def test_a_waiting_table_presents_no_game_parts(
    table_factory: Callable[..., Table], players: list[Any]
) -> None:
    table = table_factory(seats_max=3)
    services.table_join(table=table, user=players[0], seat_no=1)
    public, mine = selectors.table_views(table=table, user=players[0])
    felt = presenters.present_felt(data=public, now=time.time())
    seat = presenters.present_seat(data=mine, now=time.time())

    assert isinstance(felt, FeltView) and felt.waiting
    assert [(s.seat, s.name) for s in felt.seats] == [(1, players[0].public_name)]
    assert felt.seated_count == 1
    # The parts of a game are empty, so that the template's {% if %} skips them.
    assert felt.players == () and felt.melds == () and felt.notice == ""
    assert felt.last_deal is None and felt.result is None and felt.scoreboard is None
    assert felt.rejoin is None and felt.split is None and felt.show is None

    assert isinstance(seat, SeatView) and seat.my_seat == 1 and seat.waiting
    assert seat.hand is None and seat.drop is None and not seat.my_turn
    assert isinstance(seat.allowed, frozenset)
    with pytest.raises(dataclasses.FrozenInstanceError):
        felt.notice = "changed"  # type: ignore[misc]


@pytest.fixture
def first_deal_played(
    seated: Callable[..., TableDriver], planter: Planter, toss: Any
) -> TableDriver:
    """A 3-seat Pool 101 table whose first deal seat 1 won by a show (2 and 3 add 34 and 48)."""
    toss(1)
    added: dict[int, int | None] = {1: 0, 2: 34, 3: 48}
    planned = plant(planter, added)
    t = seated(3, variant="pool101")
    play(t, *planned, added)
    return t


def test_a_finished_deal_presents_typed_players_sheet_and_hand(
    first_deal_played: TableDriver,
) -> None:
    t = first_deal_played
    public, mine = selectors.table_views(table=t.table, user=t.users[2])
    felt = presenters.present_felt(data=public, now=time.time(), viewer_seat=2)
    seat = presenters.present_seat(data=mine, now=time.time())

    assert all(isinstance(p, FeltPlayer) for p in felt.players)
    assert [p.seat for p in felt.players if p.is_me] == [2]
    assert [p.slot for p in felt.players if p.is_me] == ["bottom"]

    sheet = felt.last_deal
    assert isinstance(sheet, ResultSheetView)
    rows = {row.seat: row for row in sheet.rows}
    assert all(isinstance(row, SheetRow) for row in rows.values())
    assert rows[1].winner and not rows[2].winner
    assert (rows[2].points, rows[3].points) == (34, 48)
    assert rows[2].is_me and not rows[1].is_me
    assert isinstance(rows[1].groups, tuple)
    assert all(isinstance(g, CardGroup) for g in rows[1].groups)
    assert sheet.show_money is False and sheet.melds == ()

    assert felt.scoreboard is not None
    assert [r.number for r in felt.scoreboard.rows] == [1]

    assert isinstance(seat, SeatView) and seat.my_seat == 2
    assert seat.hand is None  # the break: no hand until the next deal

    t.settle_break()
    seat = presenters.present_seat(
        data=selectors.table_views(table=t.table, user=t.users[2])[1], now=time.time()
    )
    assert isinstance(seat.hand, SeatHand)
    assert sum(len(g.cards) for g in seat.hand.groups) == len(seat.hand.cards) == 13
    assert all(isinstance(g, CardGroup) and isinstance(g.cards, tuple) for g in seat.hand.groups)
    assert isinstance(seat.drop, DropCost) and seat.drop.label


def test_the_last_deals_sheet_and_the_scoreboard_are_presented_once_for_the_next_deals_moves(
    first_deal_played: TableDriver,
) -> None:
    t = first_deal_played
    t.settle_break()

    def felt(viewer_seat: int | None = None) -> FeltView:
        public = selectors.table_views(table=t.table, user=t.users[1])[0]
        return presenters.present_felt(data=public, now=time.time(), viewer_seat=viewer_seat)

    before = felt()
    turn = t.turn()
    assert turn is not None
    t.act(turn, "pick_closed")
    after = felt()
    # A move of the next deal changes the felt, not the last deal's sheet nor the scoreboard:
    # both are the objects presented before.
    assert after.version > before.version and after.players != before.players
    assert after.last_deal is before.last_deal and after.last_deal is not None
    assert after.scoreboard is before.scoreboard and after.scoreboard is not None

    # What the sheet reads besides the deal makes another: the viewer's own row, the language.
    rows = {seat: felt(seat).last_deal for seat in (2, 3)}
    assert [r.seat for r in rows[2].rows if r.is_me] == [2]
    assert [r.seat for r in rows[3].rows if r.is_me] == [3]
    assert not any(r.is_me for r in after.last_deal.rows)
    with translation.override("hi"):
        in_hindi = felt()
    assert in_hindi.last_deal is not after.last_deal
    assert in_hindi.last_deal.title != after.last_deal.title
    assert in_hindi.scoreboard.number_label != after.scoreboard.number_label

    # The end of this deal brings its own sheet and a scoreboard with one more row.
    t.act(turn, "discard", card=t.view(turn)["hand"]["picked"])
    while t.phase() == "turn":
        seat = t.turn()
        assert seat is not None
        t.act(seat, "drop")
    later = felt()
    assert later.last_deal is not None and later.last_deal.number == 2
    assert later.scoreboard is not None and [r.number for r in later.scoreboard.rows] == [1, 2]


def test_the_action_url_is_worked_out_once_per_table_for_the_script_prefix_in_use() -> None:
    from django.urls import clear_script_prefix, set_script_prefix

    from tables.presenters.table import act_url

    assert act_url(41) == "/tables/41/act"
    assert act_url(42) == "/tables/42/act"
    set_script_prefix("/rummy/")  # served under a path: the same table's URL follows it
    try:
        assert act_url(41) == "/rummy/tables/41/act"
    finally:
        clear_script_prefix()
    assert act_url(41) == "/tables/41/act"
