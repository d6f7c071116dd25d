"""The ring-game payout of RULES.md section 8, in exact minor units."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.rules.classic import ring_payout
from tables.rules.errors import RulesError
from tables.rules.scoring import prize_pool


def test_worked_example_of_the_docs() -> None:
    # 4 players, entry 100.00 (10000 minor units), fee 10 %.
    pool = prize_pool(10_000, 4, 1000)
    assert (pool.gross, pool.fee, pool.net) == (40_000, 4_000, 36_000)
    payout = ring_payout({1: 12, 2: 40, 3: 71, 4: 95}, pool.net)
    # Gaps 28 and 59 qualify (weights 52 and 21, sum 73); 83 does not. 25 % of P = 9000.
    assert payout == {1: 27_001, 2: 6_410, 3: 2_589, 4: 0}
    assert sum(payout.values()) == 36_000


def test_nobody_within_the_gap_limit_leaves_everything_to_first() -> None:
    assert ring_payout({1: 100, 2: 180, 3: 250}, 9_000) == {1: 9_000, 2: 0, 3: 0}


def test_exactly_eighty_behind_does_not_qualify_seventy_nine_does() -> None:
    assert ring_payout({1: 0, 2: 80}, 1_000) == {1: 1_000, 2: 0}
    assert ring_payout({1: 0, 2: 79}, 1_000) == {1: 750, 2: 250}


def test_a_tie_at_first_shares_first_and_second_place() -> None:
    # B is "2nd" with gap 0 (weight 80), C gap 40 (weight 40): 6000 and 3000 of 9000.
    payout = ring_payout({1: 20, 2: 20, 3: 60, 4: 150}, 36_000)
    assert payout == {1: 16_500, 2: 16_500, 3: 3_000, 4: 0}


def test_tied_shares_give_the_odd_unit_to_the_lower_seat() -> None:
    # 1001: 2nd place pays floor(1001 / 4) = 250, 1st 751; shared: 1001 = 501 + 500.
    assert ring_payout({5: 10, 2: 10}, 1_001) == {2: 501, 5: 500}
    payout = ring_payout({1: 10, 2: 10, 3: 10}, 1_000)
    assert sorted(payout.values(), reverse=True) == [334, 333, 333]
    assert payout[1] == 334


def test_tied_runners_up_get_the_same() -> None:
    payout = ring_payout({1: 0, 2: 30, 3: 30, 4: 200}, 10_000)
    assert payout[2] == payout[3] == 1_250
    assert payout[1] == 7_500
    assert payout[4] == 0


def test_settings_change_the_limit_and_the_share() -> None:
    payout = ring_payout({1: 0, 2: 90}, 10_000, gap_limit=100, share_bps=4000)
    assert payout == {1: 6_000, 2: 4_000}


def test_a_single_seat_takes_all_and_empty_is_refused() -> None:
    assert ring_payout({3: 500}, 777) == {3: 777}
    with pytest.raises(RulesError):
        ring_payout({}, 100)
    with pytest.raises(RulesError):
        ring_payout({1: 0}, -1)


@given(
    totals=st.dictionaries(st.integers(1, 9), st.integers(0, 300), min_size=1, max_size=6),
    prize=st.integers(0, 10**9),
)
@settings(max_examples=200, deadline=None)
def test_payouts_always_sum_to_the_prize_and_follow_the_totals(
    totals: dict[int, int], prize: int
) -> None:
    payout = ring_payout(totals, prize)
    assert set(payout) == set(totals)
    assert sum(payout.values()) == prize
    assert all(amount >= 0 for amount in payout.values())
    best = min(totals.values())
    firsts = [seat for seat in totals if totals[seat] == best]
    if len(firsts) == 1:
        assert payout[firsts[0]] * 4 >= prize * 3  # at least 75 %
    for a in totals:
        for b in totals:
            if totals[a] < totals[b]:
                assert payout[a] >= payout[b]
            if totals[a] == totals[b]:
                assert abs(payout[a] - payout[b]) <= 1
            if totals[b] - best >= 80 and b not in firsts:
                assert payout[b] == 0
