"""Whole pool games played through ``game_apply`` with planted shoes (RULES.md sections 4, 5)."""

from __future__ import annotations

import pytest

from tables.rules import scoring
from tables.rules.errors import InvalidMove
from tables.rules.game import (
    DealEnded,
    Eliminated,
    GameEnded,
    GameState,
    Leave,
    Rejoin,
    Rejoined,
    RejoinOffered,
    SplitAccept,
    SplitDecline,
    SplitDeclined,
    SplitOffered,
    Timeout,
    game_new,
)
from tables.rules.settings import GameSettings

from .test_game_support import Played, play_planned_deal

ENTRY = 1000  # minor units


def new_pool(variant: str, seats: tuple[int, ...] = (1, 2, 3), **overrides: object) -> Played:
    settings = GameSettings.for_variant(variant, entry_fee=ENTRY, **overrides)
    return Played(state=game_new(settings=settings, seats=list(seats), now=0.0, toss=seats[0]))


def totals(state: GameState) -> dict[int, int]:
    return {p.seat: p.total for p in state.players}


def statuses(state: GameState) -> dict[int, str]:
    return {p.seat: p.status for p in state.players}


def last_deal_scores(played: Played) -> dict[int, int]:
    ended = played.of_type(DealEnded)
    assert ended
    return dict(ended[-1].scores)


def skip_offers(played: Played) -> None:
    """Let a rejoin window run out and decline a split offer, as the worked examples do."""
    if played.state.phase == "rejoin":
        played.timeout()
    if played.state.phase == "split":
        assert played.state.split is not None
        played.apply(SplitDecline(played.state.split.seats[0]))


# Worked example, 101 pool (RULES.md section 5): (added A/B/C, totals A/B/C, statuses).
WORKED_101 = [
    ({1: 0, 2: 34, 3: 48}, {1: 0, 2: 34, 3: 48}),
    ({1: 27, 2: 0, 3: 40}, {1: 27, 2: 34, 3: 88}),
    ({1: 0, 2: 41, 3: 13}, {1: 27, 2: 75, 3: 101}),
    ({1: 46, 2: 0}, {1: 73, 2: 75, 3: 101}),
    ({1: 0, 2: 26}, {1: 73, 2: 101, 3: 101}),
]


def _winner(added: dict[int, int]) -> int:
    return next(seat for seat, points in added.items() if points == 0)


def test_worked_example_101_row_by_row() -> None:
    played = new_pool("pool101")
    expected_status = [
        {1: "in", 2: "in", 3: "in"},
        {1: "in", 2: "in", 3: "in"},
        {1: "in", 2: "in", 3: "eliminated"},
        {1: "in", 2: "in", 3: "eliminated"},
        {1: "in", 2: "eliminated", 3: "eliminated"},
    ]
    for row, ((added, row_totals), row_status) in enumerate(
        zip(WORKED_101, expected_status, strict=True), start=1
    ):
        winner = _winner(added)
        skip_offers(played)
        play_planned_deal(played, winner=winner, counts=added)
        assert last_deal_scores(played) == added, f"deal {row}"
        assert totals(played.state) == row_totals, f"deal {row}"
        assert statuses(played.state) == row_status, f"deal {row}"
        if row == 3:
            # C is out at exactly 101; the highest total still in is 75 <= 79: rejoin offered.
            assert [e.seat for e in played.of_type(Eliminated)] == [3]
            assert played.state.phase == "rejoin"
            offer = played.of_type(RejoinOffered)[-1]
            assert offer.seats == (3,) and offer.total == 76
    assert played.state.phase == "ended"
    ended = played.of_type(GameEnded)
    assert len(ended) == 1
    prize = scoring.prize_pool(ENTRY, 3, played.state.settings.platform_fee_bps)
    assert ended[0].payouts == {1: prize.net}
    assert ended[0].fee == prize.fee and ended[0].reason == "winner"
    # The declined manual split came back only after the next deal (after deals 3 and 4).
    offered_after = [e for e in played.events if isinstance(e, (SplitOffered, DealEnded))]
    kinds = [type(e).__name__ for e in offered_after]
    assert kinds == [
        "DealEnded",
        "DealEnded",
        "DealEnded",
        "SplitOffered",
        "DealEnded",
        "SplitOffered",
        "DealEnded",
    ]


WORKED_201 = [
    ({1: 0, 2: 34, 3: 48}, {1: 0, 2: 34, 3: 48}),
    ({1: 27, 2: 0, 3: 40}, {1: 27, 2: 34, 3: 88}),
    ({1: 0, 2: 41, 3: 13}, {1: 27, 2: 75, 3: 101}),
    ({1: 46, 2: 0, 3: 52}, {1: 73, 2: 75, 3: 153}),
    ({1: 0, 2: 63, 3: 48}, {1: 73, 2: 138, 3: 201}),
    ({1: 58, 2: 0}, {1: 131, 2: 138, 3: 201}),
    ({1: 0, 2: 63}, {1: 131, 2: 201, 3: 201}),
]


def test_worked_example_201_row_by_row() -> None:
    played = new_pool("pool201")
    for row, (added, row_totals) in enumerate(WORKED_201, start=1):
        skip_offers(played)
        play_planned_deal(played, winner=_winner(added), counts=added)
        assert last_deal_scores(played) == added, f"deal {row}"
        assert totals(played.state) == row_totals, f"deal {row}"
        if row == 3:
            assert statuses(played.state)[3] == "in"  # 101 < 201
        if row == 5:
            assert statuses(played.state)[3] == "eliminated"  # exactly 201 is out
    assert played.state.phase == "ended"
    assert played.state.result is not None
    assert played.state.result.winners == (1,)
    assert totals(played.state)[1] == 131


def test_rejoin_pays_again_and_takes_highest_plus_one() -> None:
    played = new_pool("pool101")
    play_planned_deal(played, winner=1, counts={2: 30, 3: 80})
    skip_offers(played)
    play_planned_deal(played, winner=2, counts={1: 20, 3: 25})
    assert totals(played.state) == {1: 20, 2: 30, 3: 105}
    assert played.state.phase == "rejoin"
    with pytest.raises(InvalidMove):
        played.apply(Rejoin(1))  # not eliminated
    played.apply(Rejoin(3))
    rejoined = played.of_type(Rejoined)
    assert rejoined == [Rejoined(seat=3, amount=ENTRY, total=31)]
    player = played.state.player(3)
    assert (player.status, player.total, player.paid_entries, player.rejoins) == ("in", 31, 2, 1)
    # Everyone eligible answered: the window closes. Three are left at a table of three
    # after an elimination with drops 4, 3, 3: a manual split is offered; decline it.
    assert played.state.phase == "split"
    skip_offers(played)
    # The prize now counts four paid entries.
    play_planned_deal(played, winner=1, counts={2: 80, 3: 80})
    assert totals(played.state) == {1: 20, 2: 110, 3: 111}
    # Both 2 and 3 are out: one player is left in, so the game ends at once.
    assert played.state.phase == "ended"
    result = played.state.result
    assert result is not None
    prize = scoring.prize_pool(ENTRY, 4, played.state.settings.platform_fee_bps)
    assert result.payouts == ((1, prize.net),) and result.gross == 4 * ENTRY


def test_rejoin_once_per_player_and_not_above_79() -> None:
    played = new_pool("pool101", seats=(1, 2, 3, 4))
    play_planned_deal(played, winner=1, counts={2: 10, 3: 10, 4: 80})
    play_planned_deal(played, winner=1, counts={2: 10, 3: 10, 4: 25})
    assert played.state.phase == "rejoin"
    played.apply(Rejoin(4))
    assert played.state.player(4).total == 21
    play_planned_deal(played, winner=1, counts={2: 10, 3: 10, 4: 80})
    # Seat 4 is out again but has used its rejoin: no window.
    assert played.state.player(4).status == "eliminated"
    assert played.state.phase != "rejoin"
    skip_offers(played)
    play_planned_deal(played, winner=1, counts={2: 60, 3: 80})
    # Seat 3 is out at 110 but the highest total still in is 90 > 79: no rejoin offered.
    assert totals(played.state)[2] == 90
    assert played.state.phase != "rejoin"


def test_rejoin_window_runs_out() -> None:
    played = new_pool("pool101")
    play_planned_deal(played, winner=1, counts={2: 30, 3: 80})
    play_planned_deal(played, winner=2, counts={1: 20, 3: 25})
    assert played.state.phase == "rejoin"
    assert played.state.deadline_kind == "rejoin"
    deadline = played.state.deadline
    assert deadline is not None
    played.now = deadline - 0.5
    with pytest.raises(InvalidMove):
        played.apply(Timeout())
    played.timeout()
    assert played.state.player(3).status == "eliminated"
    assert played.state.phase in ("split", "break")
    with pytest.raises(InvalidMove):
        played.apply(Rejoin(3))


def test_auto_split_two_left_all_at_81_or_more() -> None:
    played = new_pool("pool101")
    play_planned_deal(played, winner=1, counts={2: 41, 3: 60})
    skip_offers(played)
    play_planned_deal(played, winner=2, counts={1: 45, 3: 10})
    skip_offers(played)
    play_planned_deal(played, winner=3, counts={1: 40, 2: 40})
    skip_offers(played)
    assert totals(played.state) == {1: 85, 2: 81, 3: 70}
    play_planned_deal(played, winner=1, counts={2: 10, 3: 35})
    assert totals(played.state) == {1: 85, 2: 91, 3: 105}
    assert played.state.phase == "ended"
    ended = played.of_type(GameEnded)[-1]
    prize = scoring.prize_pool(ENTRY, 3, played.state.settings.platform_fee_bps)
    assert ended.reason == "auto_split"
    payouts = dict(ended.payouts)
    assert sum(payouts.values()) == prize.net
    assert payouts == scoring.split_amounts(prize.net, {1: 0, 2: 0}, weighting="equal")


def test_no_split_before_anyone_is_eliminated() -> None:
    played = new_pool("pool101")
    play_planned_deal(played, winner=1, counts={2: 45, 3: 45})
    play_planned_deal(played, winner=1, counts={2: 45, 3: 45})
    # Nobody has been eliminated: no split of any kind.
    assert played.state.phase == "break"
    assert not played.of_type(SplitOffered)


def test_auto_split_three_left_at_a_table_of_four() -> None:
    played = new_pool("pool101", seats=(1, 2, 3, 4))
    play_planned_deal(played, winner=1, counts={2: 45, 3: 45, 4: 80})
    play_planned_deal(played, winner=4, counts={1: 45, 2: 40, 3: 40})
    skip_offers(played)
    assert totals(played.state) == {1: 45, 2: 85, 3: 85, 4: 80}
    play_planned_deal(played, winner=2, counts={1: 40, 3: 0 + 2, 4: 30})
    # 4 is out at 110; 1, 2, 3 are left at 85, 85, 87: every one >= 81 and the table had 4.
    assert totals(played.state) == {1: 85, 2: 85, 3: 87, 4: 110}
    assert played.state.phase == "ended"
    result = played.state.result
    assert result is not None and result.reason == "auto_split"
    assert result.winners == (1, 2, 3)
    net = scoring.prize_pool(ENTRY, 4, played.state.settings.platform_fee_bps).net
    amounts = dict(result.payouts)
    assert sum(amounts.values()) == net
    assert max(amounts.values()) - min(amounts.values()) <= 1


def test_auto_split_three_left_at_a_table_of_three_after_a_rejoin() -> None:
    played = new_pool("pool101")
    play_planned_deal(played, winner=1, counts={2: 30, 3: 80})
    play_planned_deal(played, winner=1, counts={2: 30, 3: 25})
    played.apply(Rejoin(3))
    assert totals(played.state) == {1: 0, 2: 60, 3: 61}
    play_planned_deal(played, winner=1, counts={2: 21, 3: 20})
    skip_offers(played)
    assert totals(played.state) == {1: 0, 2: 81, 3: 81}
    # Nobody out this deal and 1 is at 0: no auto split yet.
    play_planned_deal(played, winner=2, counts={1: 80, 3: 2})
    skip_offers(played)
    play_planned_deal(played, winner=3, counts={1: 2, 2: 2})
    assert totals(played.state) == {1: 82, 2: 83, 3: 83}
    assert played.state.phase == "ended"
    result = played.state.result
    assert result is not None and result.reason == "auto_split"
    assert sum(a for _, a in result.payouts) == result.gross - result.fee
    assert result.gross == 4 * ENTRY


def test_manual_split_accepted_by_all_pays_by_drops() -> None:
    played = new_pool("pool101")
    play_planned_deal(played, winner=1, counts={2: 40, 3: 80})
    play_planned_deal(played, winner=1, counts={2: 20, 3: 30})
    # 3 out at 110 with the highest in at 60 <= 79: a rejoin is open, so no split yet.
    assert played.state.phase == "rejoin"
    played.timeout()
    # Totals 0 and 60: drops available 5 and 2; they differ by 3 > 2: no manual split.
    assert played.state.phase == "break"
    play_planned_deal(played, winner=2, counts={1: 45})
    # Totals 45 and 60: drops 2 and 2 -> offer, weights 3 : 3.
    assert played.state.phase == "split"
    offer = played.state.split
    assert offer is not None
    net = scoring.prize_pool(ENTRY, 3, played.state.settings.platform_fee_bps).net
    assert dict(offer.amounts) == scoring.split_amounts(net, {1: 2, 2: 2})
    played.apply(SplitAccept(1))
    with pytest.raises(InvalidMove):
        played.apply(SplitAccept(1))
    assert played.state.phase == "split"
    played.apply(SplitAccept(2))
    assert played.state.phase == "ended"
    ended = played.of_type(GameEnded)[-1]
    assert ended.reason == "manual_split"
    assert sum(ended.payouts.values()) + ended.fee == 3 * ENTRY


def test_manual_split_by_drops_plus_one_leftover_to_more_drops() -> None:
    played = new_pool("pool101")
    play_planned_deal(played, winner=1, counts={2: 60, 3: 80})
    play_planned_deal(played, winner=2, counts={1: 20, 3: 30})
    assert played.state.phase == "rejoin"  # 3 out at 110; highest in is 60
    played.timeout()
    # Totals 20 and 60: drops 4 and 2 (differ by 2) -> weights 5 : 3 of 2700.
    assert played.state.phase == "split"
    offer = played.state.split
    assert offer is not None
    assert offer.amounts == ((1, 1688), (2, 1012))
    played.apply(SplitAccept(2))
    played.apply(SplitAccept(1))
    result = played.state.result
    assert result is not None
    assert result.payouts == ((1, 1688), (2, 1012)) and result.fee == 300


def test_split_offer_declined_returns_only_after_next_deal() -> None:
    played = new_pool("pool101")
    play_planned_deal(played, winner=1, counts={2: 70, 3: 80})
    play_planned_deal(played, winner=2, counts={1: 60, 3: 30})
    # 3 out at 110; in: 60 and 70 (> 79? no: 70 <= 79) -> rejoin first.
    assert played.state.phase == "rejoin"
    played.timeout()
    assert played.state.phase == "split"
    played.apply(SplitDecline(2))
    assert played.of_type(SplitDeclined)[-1] == SplitDeclined(seat=2)
    assert played.state.phase == "break" and played.state.split is None
    play_planned_deal(played, winner=1, counts={2: 5})
    assert played.state.phase == "split"  # offered again after the next deal
    played.timeout()  # nobody answers: the offer expires
    assert played.of_type(SplitDeclined)[-1] == SplitDeclined(seat=None)
    assert played.state.phase == "break"


def test_leaving_during_a_rejoin_window() -> None:
    # The eligible player leaves: the window closes and play goes on.
    played = new_pool("pool101")
    play_planned_deal(played, winner=1, counts={2: 30, 3: 80})
    play_planned_deal(played, winner=2, counts={1: 20, 3: 25})
    assert played.state.phase == "rejoin"
    played.apply(Leave(3))
    assert played.state.player(3).status == "left"
    assert played.state.phase == "split"  # drops 4 and 3: a manual split is offered
    # A player still in leaves during the split offer: one is left, who wins.
    played.apply(Leave(1))
    assert played.of_type(SplitDeclined)[-1] == SplitDeclined(seat=1)
    assert played.state.phase == "ended"
    result = played.state.result
    assert result is not None and result.winners == (2,) and result.reason == "winner"


def test_leaving_during_a_rejoin_window_leaves_one_player_in() -> None:
    played = new_pool("pool101")
    play_planned_deal(played, winner=1, counts={2: 30, 3: 80})
    play_planned_deal(played, winner=2, counts={1: 20, 3: 25})
    assert played.state.phase == "rejoin"
    played.apply(Leave(2))
    assert played.state.phase == "ended"
    assert played.state.result is not None and played.state.result.winners == (1,)
    with pytest.raises(InvalidMove, match="over"):
        played.apply(Rejoin(3))


def test_leaving_in_a_break_keeps_the_game_going_with_the_rest() -> None:
    played = new_pool("pool101", seats=(1, 2, 3, 4))
    play_planned_deal(played, winner=1, counts={2: 30, 3: 30, 4: 30})
    assert played.state.phase == "break"
    played.apply(Leave(3))
    assert played.state.phase == "break"
    plan = play_planned_deal(played, winner=4, counts={1: 10, 2: 10})
    assert set(plan.order) == {1, 2, 4}
