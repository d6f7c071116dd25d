"""Scores and money of the 13-card games (RULES.md sections 3 to 7), function by function."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.rules.errors import InvalidSettings, RulesError
from tables.rules.scoring import (
    Prize,
    add_pool_scores,
    auto_split_applies,
    cancel_refunds,
    capped_count,
    deal_show_score,
    deals_leaders,
    deals_transfer,
    drop_score,
    drops_available,
    is_eliminated,
    loser_score,
    manual_split_eligible,
    missed_turns_score,
    platform_fee,
    points_settlement,
    prize_pool,
    rejoin_open,
    rejoin_total,
    split_amounts,
    wrong_show_score,
)
from tables.rules.settings import GameSettings

P101 = GameSettings.for_variant("pool101")
P201 = GameSettings.for_variant("pool201")
DEALS = GameSettings.for_variant("deals")
POINTS = GameSettings.for_variant("points", point_value=10, platform_fee_bps=1000)


# ----------------------------------------------------------------------------- one deal


@pytest.mark.parametrize(
    ("settings", "first", "middle"), [(P101, 20, 40), (P201, 25, 50), (DEALS, 20, 40)]
)
def test_drop_scores(settings: GameSettings, first: int, middle: int) -> None:
    assert drop_score(settings, first=True) == first
    assert drop_score(settings, first=False) == middle


@pytest.mark.parametrize(("count", "capped"), [(0, 0), (79, 79), (80, 80), (81, 80), (130, 80)])
def test_full_count_cap(count: int, capped: int) -> None:
    assert capped_count(count, P101) == capped
    assert loser_score(count, P101, had_first_turn=True) == capped


def test_full_count_and_wrong_show_are_settings() -> None:
    custom = GameSettings.for_variant("pool101", full_count=60, wrong_show=70)
    assert capped_count(75, custom) == 60
    assert wrong_show_score(custom) == 70
    assert wrong_show_score(P101) == 80
    with pytest.raises(RulesError):
        capped_count(-1, P101)


@pytest.mark.parametrize(
    ("count", "score"),
    [
        (0, 0),
        (2, 2),
        (3, 2),
        (4, 2),
        (5, 2),
        (6, 3),
        (30, 15),
        (31, 15),
        (79, 39),
        (80, 40),
        (81, 40),
        (130, 40),
    ],
)
def test_deal_show_half_within_2_and_40(count: int, score: int) -> None:
    assert deal_show_score(count, P101) == score
    assert loser_score(count, P101, had_first_turn=False) == score


@pytest.mark.parametrize("count", [0, 3, 30, 80, 130])
def test_deal_show_is_flat_20_in_deals(count: int) -> None:
    assert deal_show_score(count, DEALS) == 20


def test_missed_turns_score() -> None:
    assert missed_turns_score(P101, drops_allowed=True, count=75) == 40
    assert missed_turns_score(P201, drops_allowed=True, count=75) == 50
    assert missed_turns_score(DEALS, drops_allowed=False, count=75) == 75
    assert missed_turns_score(DEALS, drops_allowed=False, count=95) == 80


# ----------------------------------------------------------------------------- pool


WORKED_101 = [
    # added A/B/C, totals after, newly eliminated
    ({1: 0, 2: 34, 3: 48}, {1: 0, 2: 34, 3: 48}, ()),
    ({1: 27, 2: 0, 3: 40}, {1: 27, 2: 34, 3: 88}, ()),
    ({1: 0, 2: 41, 3: 13}, {1: 27, 2: 75, 3: 101}, (3,)),
    ({1: 46, 2: 0}, {1: 73, 2: 75, 3: 101}, ()),
    ({1: 0, 2: 26}, {1: 73, 2: 101, 3: 101}, (2,)),
]

WORKED_201 = [
    ({1: 0, 2: 34, 3: 48}, {1: 0, 2: 34, 3: 48}, ()),
    ({1: 27, 2: 0, 3: 40}, {1: 27, 2: 34, 3: 88}, ()),
    ({1: 0, 2: 41, 3: 13}, {1: 27, 2: 75, 3: 101}, ()),
    ({1: 46, 2: 0, 3: 52}, {1: 73, 2: 75, 3: 153}, ()),
    ({1: 0, 2: 63, 3: 48}, {1: 73, 2: 138, 3: 201}, (3,)),
    ({1: 58, 2: 0}, {1: 131, 2: 138, 3: 201}, ()),
    ({1: 0, 2: 63}, {1: 131, 2: 201, 3: 201}, (2,)),
]


@pytest.mark.parametrize(("settings", "rows"), [(P101, WORKED_101), (P201, WORKED_201)])
def test_worked_examples_row_by_row(settings: GameSettings, rows: list) -> None:
    totals = {1: 0, 2: 0, 3: 0}
    for added, expected, out in rows:
        update = add_pool_scores(totals, added, settings)
        assert dict(update.totals) == expected
        assert update.eliminated == out
        totals = dict(update.totals)
    assert [s for s, t in totals.items() if not is_eliminated(t, settings)] == [1]


@pytest.mark.parametrize(
    ("settings", "before", "added", "out"),
    [
        (P101, 99, 1, False),
        (P101, 100, 1, True),
        (P101, 95, 12, True),
        (P201, 199, 1, False),
        (P201, 200, 1, True),
        (P101, 79, 20, False),  # a first drop at 79 -> 99 stays
        (P101, 81, 20, True),  # at 81 -> 101 out
        (P201, 176, 25, True),  # 176 + 25 = 201 out
    ],
)
def test_elimination_boundaries(settings: GameSettings, before: int, added: int, out: bool) -> None:
    update = add_pool_scores({1: before}, {1: added}, settings)
    assert update.totals[1] == before + added
    assert update.eliminated == ((1,) if out else ())


def test_pool_scores_reject_nonsense() -> None:
    with pytest.raises(RulesError):
        add_pool_scores({1: 0}, {2: 5}, P101)
    with pytest.raises(RulesError):
        add_pool_scores({1: 0}, {1: -5}, P101)


@pytest.mark.parametrize(
    ("settings", "total", "drops"),
    [
        (P101, 60, 2),
        (P101, 0, 5),
        (P101, 80, 1),
        (P101, 81, 0),
        (P101, 100, 0),
        (P101, 101, 0),
        (P101, 59, 2),
        (P201, 0, 8),
        (P201, 175, 1),
        (P201, 176, 0),
        (P201, 150, 2),
    ],
)
def test_drops_available(settings: GameSettings, total: int, drops: int) -> None:
    assert drops_available(total, settings) == drops


def test_rejoin_rules() -> None:
    assert rejoin_open([27, 75], P101)
    assert rejoin_open([79, 10], P101)
    assert not rejoin_open([80, 10], P101)
    assert not rejoin_open([10], P101)  # at least two still in
    assert rejoin_open([174, 0], P201) and not rejoin_open([175, 0], P201)
    assert rejoin_total([27, 75]) == 76
    with pytest.raises(RulesError):
        rejoin_total([])


def _auto(
    totals: list[int],
    started: int,
    rejoined: bool = False,
    out: bool = True,
    settings: GameSettings = P101,
) -> bool:
    return auto_split_applies(
        totals,
        started_with=started,
        someone_rejoined=rejoined,
        any_eliminated=out,
        settings=settings,
    )


def test_auto_split_two_left() -> None:
    assert _auto([81, 100], 3)
    assert _auto([81, 100], 6)
    assert not _auto([80, 100], 3)
    assert not _auto([81, 100], 2)  # the table must have started with 3 or more
    assert not _auto([81, 100], 3, out=False)
    assert _auto([176, 200], 3, settings=P201)
    assert not _auto([175, 200], 3, settings=P201)
    assert not _auto([81, 100], 3, settings=DEALS)


def test_auto_split_three_left() -> None:
    assert _auto([81, 100, 89], 4)
    assert not _auto([81, 100, 89], 3)  # started with 3 and nobody rejoined
    assert _auto([81, 100, 89], 3, rejoined=True)
    assert not _auto([80, 100, 89], 4)
    assert _auto([181, 200, 189], 5, settings=P201)
    assert not _auto([81, 90, 95, 99], 6)  # four left: no split


def _manual(totals: list[int], started: int = 3, rejoin_open: bool = False) -> bool:
    return manual_split_eligible(
        totals,
        started_with=started,
        any_eliminated=True,
        rejoin_is_open=rejoin_open,
        settings=P101,
    )


def test_manual_split_eligibility() -> None:
    assert _manual([27, 75])  # drops 3 and 1
    assert not _manual([0, 75])  # drops 5 and 1
    assert _manual([40, 60, 80])  # drops 3, 2, 1
    assert not _manual([20, 60, 90])  # drops 4, 2, 0
    assert not _manual([27, 75], rejoin_open=True)
    assert not _manual([27, 75], started=2)
    assert not _manual([27, 75, 60, 60], started=6)
    assert not manual_split_eligible(
        [27, 75], started_with=3, any_eliminated=False, rejoin_is_open=False, settings=P101
    )


def test_split_by_drops_plus_one() -> None:
    # drops 2 and 0 -> 3 : 1 -> 75 % and 25 %.
    assert split_amounts(1000, {1: 2, 2: 0}) == {1: 750, 2: 250}
    # Leftover units: to more drops available first, then the lower seat.
    assert split_amounts(1001, {1: 0, 2: 2}) == {1: 250, 2: 751}
    assert split_amounts(100, {4: 1, 2: 1, 9: 1}) == {2: 34, 4: 33, 9: 33}
    assert split_amounts(101, {4: 1, 2: 1, 9: 2}) == {2: 29, 4: 28, 9: 44}
    assert split_amounts(2700, {1: 4, 2: 2}) == {1: 1688, 2: 1012}


def test_split_weightings() -> None:
    assert split_amounts(1000, {1: 3, 2: 1}, weighting="drops") == {1: 750, 2: 250}
    assert split_amounts(1000, {1: 0, 2: 0}, weighting="drops") == {1: 500, 2: 500}
    assert split_amounts(1000, {1: 3, 2: 1, 3: 0}, weighting="equal") == {1: 334, 2: 333, 3: 333}
    with pytest.raises(InvalidSettings):
        split_amounts(1000, {1: 1}, weighting="by_mood")
    with pytest.raises(RulesError):
        split_amounts(1000, {})


@given(
    prize=st.integers(min_value=0, max_value=10**9),
    drops=st.dictionaries(st.integers(1, 9), st.integers(0, 10), min_size=1, max_size=3),
    weighting=st.sampled_from(["drops_plus_one", "drops", "equal"]),
)
def test_splits_always_pay_the_exact_prize(
    prize: int, drops: dict[int, int], weighting: str
) -> None:
    amounts = split_amounts(prize, drops, weighting=weighting)
    assert sum(amounts.values()) == prize
    assert set(amounts) == set(drops)
    assert all(a >= 0 for a in amounts.values())
    # A seat with more drops available never gets less.
    for a in drops:
        for b in drops:
            if drops[a] > drops[b]:
                assert amounts[a] >= amounts[b]


# ----------------------------------------------------------------------------- money


def test_prize_pool_and_fee() -> None:
    assert prize_pool(1000, 3, 1000) == Prize(gross=3000, fee=300, net=2700)
    assert prize_pool(1000, 4, 1000) == Prize(gross=4000, fee=400, net=3600)  # with a rejoin
    assert prize_pool(999, 3, 1250) == Prize(gross=2997, fee=374, net=2623)  # fee floored
    assert prize_pool(5000, 5, 0) == Prize(gross=25000, fee=0, net=25000)
    assert platform_fee(12345, 10000) == 12345
    with pytest.raises(RulesError):
        platform_fee(100, 10001)


def test_cancel_refunds_every_paid_entry() -> None:
    assert cancel_refunds({1: 1, 2: 2, 3: 1}, 500) == {1: 500, 2: 1000, 3: 500}


def test_deals_chips() -> None:
    assert DEALS.deals_starting_chips == 160
    assert GameSettings.for_variant("deals", deals_count=3).deals_starting_chips == 240
    assert GameSettings.for_variant("deals", deals_count=6).deals_starting_chips == 480
    chips = deals_transfer({1: 160, 2: 160, 3: 160}, 1, {1: 0, 2: 30, 3: 80})
    assert chips == {1: 270, 2: 130, 3: 80}
    assert sum(chips.values()) == 480
    assert deals_transfer(chips, None, {1: 0, 2: 0, 3: 0}) == chips
    assert deals_leaders({1: 270, 2: 130, 3: 80}) == (1,)
    assert deals_leaders({1: 200, 2: 200, 3: 80}) == (1, 2)


def test_points_settlement() -> None:
    result = points_settlement({1: 0, 2: 34, 3: 80}, 1, POINTS)
    gain = (34 + 80) * 10
    assert result.fee == gain // 10
    assert dict(result.nets) == {1: gain - gain // 10, 2: -340, 3: -800}
    assert sum(result.nets.values()) == -result.fee
    nobody = points_settlement({1: 0, 2: 0}, None, POINTS)
    assert dict(nobody.nets) == {1: 0, 2: 0} and nobody.fee == 0
