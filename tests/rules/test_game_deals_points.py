"""Deals rummy (chips, tie-breakers) and points rummy (settlement) played through the engine
(RULES.md sections 6 and 7)."""

from __future__ import annotations

import pytest

from tables.rules import scoring
from tables.rules.errors import InvalidMove
from tables.rules.game import (
    DealEnded,
    Drop,
    GameEnded,
    Leave,
    PointsSettled,
    StartDeal,
    TieBreaker,
    game_new,
    game_refunds,
)
from tables.rules.settings import GameSettings

from .test_game_support import Played, any_shoe, play_planned_deal, start_planned_deal


def new_deals(seats: tuple[int, ...] = (1, 2, 3), **kw: object) -> Played:
    settings = GameSettings.for_variant("deals", entry_fee=5000, **kw)
    return Played(state=game_new(settings=settings, seats=list(seats), now=0.0, toss=seats[0]))


def chips(played: Played) -> dict[int, int]:
    return {p.seat: p.chips for p in played.state.players}


def test_deals_chips_move_after_each_deal_and_the_most_chips_win() -> None:
    played = new_deals()
    assert chips(played) == {1: 160, 2: 160, 3: 160}
    play_planned_deal(played, winner=1, counts={2: 30, 3: 45})
    assert chips(played) == {1: 235, 2: 130, 3: 115}
    assert played.of_type(DealEnded)[-1].chips == chips(played)
    assert played.state.phase == "break"
    play_planned_deal(played, winner=3, counts={1: 80, 2: 10})
    assert chips(played) == {1: 155, 2: 120, 3: 205}
    assert played.state.phase == "ended"
    ended = played.of_type(GameEnded)[-1]
    prize = scoring.prize_pool(5000, 3, played.state.settings.platform_fee_bps)
    assert ended.payouts == {3: prize.net} and ended.fee == prize.fee
    assert prize.gross == 15000  # entry x players


def test_deals_tie_breaker_among_the_tied_leaders_until_one_leads() -> None:
    played = new_deals(seats=(1, 2, 3, 4), max_reshuffles=0)
    play_planned_deal(played, winner=1, counts={2: 40, 3: 20, 4: 20})
    play_planned_deal(played, winner=2, counts={1: 40, 3: 20, 4: 20})
    # 1: 160 + 80 - 40 = 200; 2: 160 - 40 + 80 = 200; 3 and 4: 120.
    assert chips(played) == {1: 200, 2: 200, 3: 120, 4: 120}
    assert played.of_type(TieBreaker) == [TieBreaker(seats=(1, 2))]
    assert played.state.phase == "break"
    start_planned_deal(played, winner=None, counts={1: 30, 2: 30})
    deal = played.state.deal
    assert deal is not None and deal.tiebreak and set(deal.seats) == {1, 2}
    # Two tied: no drops in the tie-breaker.
    with pytest.raises(InvalidMove, match="not allowed"):
        played.apply(Drop(deal.turn))  # type: ignore[arg-type]
    # Nobody shows: the closed deck runs out (no reshuffle allowed) and everyone scores 0.
    while played.state.phase == "turn":
        played.pass_turn()
    assert played.of_type(DealEnded)[-1].reason == "exhausted"
    assert chips(played) == {1: 200, 2: 200, 3: 120, 4: 120}
    assert played.of_type(TieBreaker) == [TieBreaker(seats=(1, 2))] * 2
    # The next tie-breaker has a winner.
    play_planned_deal(played, winner=1, counts={2: 2})
    assert chips(played) == {1: 202, 2: 198, 3: 120, 4: 120}
    assert played.state.phase == "ended"
    assert played.of_type(GameEnded)[-1].winners == (1,)


def test_deals_tie_breaker_resolves() -> None:
    played = new_deals(seats=(1, 2, 3))
    play_planned_deal(played, winner=1, counts={2: 40, 3: 40})
    play_planned_deal(played, winner=2, counts={1: 40, 3: 40})
    assert chips(played) == {1: 200, 2: 200, 3: 80}
    assert played.state.tiebreak_seats == (1, 2)
    # An exhausted or zero tie-breaker would leave them tied; this one has a winner.
    play_planned_deal(played, winner=2, counts={1: 25})
    assert chips(played) == {1: 175, 2: 225, 3: 80}
    assert played.state.phase == "ended"
    result = played.state.result
    assert result is not None and result.winners == (2,)
    history = played.state.history
    assert [r.tiebreak for r in history] == [False, False, True]
    assert {r.seat for r in history[-1].results} == {1, 2}


def test_a_tie_for_the_most_chips_stays_a_tie_where_ties_are_not_played_off() -> None:
    """A tournament's round table (section 10): a tie that does not decide the cut stays a tie;
    the leaders share the game's prize (here the entries, equally, a unit left to the first)."""
    played = new_deals(seats=(1, 2, 3), play_off_ties=False)
    play_planned_deal(played, winner=1, counts={2: 40, 3: 40})
    play_planned_deal(played, winner=2, counts={1: 40, 3: 40})
    assert chips(played) == {1: 200, 2: 200, 3: 80}
    assert played.of_type(TieBreaker) == []
    assert played.state.phase == "ended"
    ended = played.of_type(GameEnded)[-1]
    prize = scoring.prize_pool(5000, 3, played.state.settings.platform_fee_bps)
    assert ended.winners == (1, 2)
    assert ended.payouts == {1: prize.net - prize.net // 2, 2: prize.net // 2}
    assert sum(ended.payouts.values()) + ended.fee == prize.gross


def test_points_settlement_each_loser_pays_the_winner_less_the_fee() -> None:
    settings = GameSettings.for_variant("points", point_value=25, platform_fee_bps=1500)
    played = Played(state=game_new(settings=settings, seats=[1, 2, 3], now=0.0, toss=1))
    play_planned_deal(played, winner=2, counts={1: 34, 3: 61})
    settled = played.of_type(PointsSettled)
    assert len(settled) == 1
    gain = (34 + 61) * 25
    fee = gain * 1500 // 10000
    assert settled[0].nets == {1: -34 * 25, 2: gain - fee, 3: -61 * 25}
    assert settled[0].fee == fee
    assert sum(settled[0].nets.values()) == -fee
    assert played.state.phase == "ended"
    ended = played.of_type(GameEnded)[-1]
    assert ended.payouts == {} and ended.fee == 0 and ended.winners == (2,)
    assert game_refunds(played.state) == {1: 0, 2: 0, 3: 0}


def test_points_seat_minimum() -> None:
    settings = GameSettings.for_variant("points", point_value=25)
    assert settings.points_buy_in == 80 * 25


def test_points_game_with_a_leaver_before_the_deal_ends_without_money() -> None:
    settings = GameSettings.for_variant("points", point_value=10)
    played = Played(state=game_new(settings=settings, seats=[1, 2], now=0.0, toss=1))
    played.apply(Leave(2))
    assert played.state.phase == "ended"
    assert played.state.result is not None and played.state.result.reason == "no_deal"
    with pytest.raises(InvalidMove):
        played.apply(StartDeal(any_shoe(settings)))


def test_cancelled_game_refunds_every_paid_entry() -> None:
    settings = GameSettings.for_variant("pool101", entry_fee=700)
    state = game_new(settings=settings, seats=[4, 5, 6], now=0.0, toss=5)
    assert game_refunds(state) == {4: 700, 5: 700, 6: 700}


def test_a_tied_leader_leaving_hands_the_game_to_the_other() -> None:
    played = new_deals(seats=(1, 2, 3))
    play_planned_deal(played, winner=1, counts={2: 40, 3: 40})
    play_planned_deal(played, winner=2, counts={1: 40, 3: 40})
    assert played.state.tiebreak_seats == (1, 2) and played.state.phase == "break"
    played.apply(Leave(1))
    assert played.state.phase == "ended"
    result = played.state.result
    assert result is not None and result.winners == (2,)
    assert result.payouts == ((2, 13500),) and result.fee == 1500
