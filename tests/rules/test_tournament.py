"""Section 10 (tournaments), the pure rules: seating, the cut, ranks and the prize table, with
the rule book's worked examples and Hypothesis properties."""

from __future__ import annotations

import itertools
from typing import cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.rules import tournament as t
from tables.rules.errors import RulesError

# --------------------------------------------------------------------------- worked examples


def test_worked_sit_and_go_of_seven_money() -> None:
    pool = t.prize_pool(entries=7, entry_fee=5_000, fee_bps=1_250)
    assert (pool.gross, pool.fee, pool.top_up, pool.prizes) == (35_000, 4_375, 0, 30_625)
    shares = t.shares_for(7)
    assert shares == (70, 30)
    assert t.rank_amounts(pool.prizes, shares) == [21_438, 9_187]


def test_worked_sit_and_go_of_seven_rounds_and_ranks() -> None:
    assert t.table_sizes(7, 6) == [4, 3]
    tables = t.seat_round(["a", "b", "c", "d", "e", "f", "g"], 6)
    assert tables == [["a", "b", "c", "d"], ["e", "f", "g"]]
    assert t.deals_for(4, None) * t.CHIPS_PER_DEAL == 320
    assert t.deals_for(3, None) * t.CHIPS_PER_DEAL == 240
    one = t.table_cut({"a": 500, "b": 400, "c": 250, "d": 130}, 2)
    two = t.table_cut({"e": 300, "f": 260, "g": 160}, 2)
    assert one.through == ("a", "b") and one.out == ("c", "d") and not one.tied
    assert two.through == ("e", "f") and two.out == ("g",)
    assert t.round_plan(7, 6, 2) == [[4, 3], [4]]
    p1 = t.places({"a": 500, "b": 400, "c": 250, "d": 130})
    p2 = t.places({"e": 300, "f": 260, "g": 160})
    knockouts = [
        t.Knockout(player="c", round=1, place=p1["c"], chips=250),
        t.Knockout(player="d", round=1, place=p1["d"], chips=130),
        t.Knockout(player="g", round=1, place=p2["g"], chips=160),
    ]
    final = {"a": 700, "e": 400, "b": 100, "f": 80}
    ranked = t.rank_field(final=final, final_winner="a", knockouts=knockouts)
    assert [(r.player, r.first, r.last) for r in ranked] == [
        ("a", 1, 1),
        ("e", 2, 2),
        ("b", 3, 3),
        ("f", 4, 4),
        ("c", 5, 5),  # 3rd at table 1 with 250 chips
        ("g", 6, 6),  # 3rd at table 2 with 160
        ("d", 7, 7),  # 4th at table 1
    ]
    paid = t.prizes(pool=30_625, shares=(70, 30), ranked=ranked, registered_order="abcdefg")
    assert paid["a"] == 21_438 and paid["e"] == 9_187
    assert sum(paid.values()) == 30_625


@pytest.mark.parametrize(
    ("players", "seats", "qualifiers", "plan"),
    [
        (14, 6, 2, [[5, 5, 4], [6]]),
        (36, 6, 2, [[6] * 6, [6, 6], [4]]),
        (5, 2, 1, [[2, 2, 1], [2, 1], [2]]),
    ],
)
def test_worked_seatings(players: int, seats: int, qualifiers: int, plan: list[list[int]]) -> None:
    assert t.round_plan(players, seats, qualifiers) == plan


def test_a_bye_goes_through_without_play() -> None:
    assert t.is_bye(1, 1, final=False)
    assert not t.is_bye(2, 1, final=False)
    assert not t.is_bye(2, 2, final=True)


# --------------------------------------------------------------------------- cut and ties


def test_tie_at_the_cut_asks_for_a_tie_breaker_then_it_decides() -> None:
    chips = {"a": 400, "b": 300, "c": 300, "d": 100}
    cut = t.table_cut(chips, 2)
    assert cut.tied == ("b", "c") and not cut.through and not cut.out
    # A tie-breaker's chips won or lost count in the round's chips.
    decided = t.table_cut(chips, 2, [{"b": -40, "c": 40}])
    assert decided.through == ("a", "c") and decided.out == ("b", "d")
    # Nobody won anything (the deck ran out): still tied, played again.
    again = t.table_cut(chips, 2, [{"b": 0, "c": 0}])
    assert again.tied == ("b", "c")
    # Equal players below the cut need no tie-breaker: they share their place.
    low = t.table_cut({"a": 400, "b": 300, "c": 100, "d": 100}, 2)
    assert low.through == ("a", "b") and set(low.out) == {"c", "d"}
    assert t.places({"a": 400, "b": 300, "c": 100, "d": 100}) == {"a": 1, "b": 2, "c": 3, "d": 3}


def test_the_tie_breakers_chips_are_added_to_the_rounds_chips() -> None:
    """Section 10: three tied at 300 for two places; the tie-breaker's loser is recorded at
    300 - 40 = 260 (not 300), and ranks by it."""
    chips = {"a": 300, "b": 300, "c": 300, "d": 270}
    assert t.table_cut(chips, 2).tied == ("a", "b", "c")
    won = {"a": 60, "b": -20, "c": -40}
    assert t.round_chips(chips, [won]) == {"a": 360, "b": 280, "c": 260, "d": 270}
    cut = t.table_cut(chips, 2, [won])
    assert cut.through == ("a", "b") and cut.out == ("d", "c")
    # d, who played no tie-breaker, now places above c, who lost it.
    assert t.places(chips, [won]) == {"a": 1, "b": 2, "c": 4, "d": 3}


def test_three_tied_for_one_place() -> None:
    chips = {"a": 200, "b": 200, "c": 200}
    assert t.table_cut(chips, 1).tied == ("a", "b", "c")
    # The tie-breaker leaves two still equal at the top: they play again.
    tb1 = {"a": 10, "b": 10, "c": -20}
    assert t.table_cut(chips, 1, [tb1]).tied == ("a", "b")
    assert t.table_cut(chips, 1, [tb1, {"a": -40, "b": 40}]).through == ("b",)


def test_the_final_plays_as_many_deals_as_it_has_players_whatever_the_setting() -> None:
    assert t.deals_for(4, 2) == 2
    assert t.deals_for(4, 2, final=True) == 4
    assert t.deals_for(3, None, final=True) == 3


def test_tie_for_first() -> None:
    assert t.leaders_tied({"a": 300, "b": 300, "c": 10}) == ("a", "b")
    assert t.leaders_tied({"a": 301, "b": 300}) == ()


def test_shared_places_share_their_amounts_and_the_leftover_unit() -> None:
    # 13 players: 50 / 30 / 20 of 1,001: 501 (500 + 1 left over), 300, 200.
    assert t.rank_amounts(1_001, (50, 30, 20)) == [501, 300, 200]
    knockouts = [t.Knockout(player=f"k{i}", round=1, place=3, chips=100) for i in range(10)]
    final = {"a": 500, "b": 200, "c": 200}
    ranked = t.rank_field(final=final, final_winner="a", knockouts=knockouts)
    assert [(r.first, r.last) for r in ranked[:3]] == [(1, 1), (2, 3), (2, 3)]
    # b and c share 300 + 200 = 500 equally.
    paid = t.prizes(pool=1_001, shares=(50, 30, 20), ranked=ranked, registered_order=["c", "b"])
    assert (paid["a"], paid["b"], paid["c"]) == (501, 250, 250)
    # 1,010: 505, 303 and 202; b and c share 505, the unit left over to c (registered first).
    paid = t.prizes(pool=1_010, shares=(50, 30, 20), ranked=ranked, registered_order=["c", "b"])
    assert (paid["a"], paid["c"], paid["b"]) == (505, 253, 252)
    assert sum(paid.values()) == 1_010


def test_guarantee_top_up() -> None:
    pool = t.prize_pool(entries=4, entry_fee=1_000, fee_bps=1_000, guarantee=10_000)
    assert (pool.gross, pool.fee, pool.top_up, pool.prizes) == (4_000, 400, 6_400, 10_000)
    assert t.prize_pool(entries=20, entry_fee=1_000, fee_bps=1_000, guarantee=10_000).top_up == 0


def test_settings_problems_name_each_field() -> None:
    problems = t.settings_problems(
        seats=6, qualifiers=4, players_min=8, players_max=7, deals_per_round=9, fee_bps=10_001
    )
    assert set(problems) == {
        "qualifiers_per_table",
        "players_max",
        "deals_per_round",
        "fee_bps",
    }
    assert "1 to 3" in problems["qualifiers_per_table"]
    assert (
        t.settings_problems(
            seats=3, qualifiers=1, players_min=2, players_max=9, deals_per_round=None, fee_bps=0
        )
        == {}
    )
    assert "seats_per_table" in t.settings_problems(
        seats=7, qualifiers=1, players_min=2, players_max=9, deals_per_round=None, fee_bps=0
    )


def test_prize_table_problems() -> None:
    assert (
        t.prize_table_problems([(2, 6, [100]), (7, 20, [60, 40])], players_min=2, players_max=20)
        == []
    )
    found = t.prize_table_problems(
        [(2, 6, [60, 30]), (7, 9, [50, 30, 10, 5, 5])], players_min=2, players_max=12
    )
    assert any("not 100" in p for p in found)
    assert any("covered by 0 rows" in p for p in found)
    found = t.prize_table_problems([(2, 6, [50, 50, 0])], players_min=2, players_max=6)
    assert found
    found = t.prize_table_problems([(2, 6, [20] * 5)], players_min=2, players_max=6)
    assert any("more than 2 players" in p for p in found)


def test_bad_inputs_are_refused() -> None:
    with pytest.raises(RulesError):
        t.table_sizes(0, 6)
    with pytest.raises(RulesError):
        t.table_sizes(5, 7)
    with pytest.raises(RulesError):
        t.seat_round(["a", "a"], 2)
    with pytest.raises(RulesError):
        t.rank_amounts(100, (60, 30))
    with pytest.raises(RulesError):
        t.prize_pool(entries=1, entry_fee=-1, fee_bps=0)
    with pytest.raises(RulesError):
        t.prize_pool(entries=1, entry_fee=1, fee_bps=10_001)


# --------------------------------------------------------------------------- properties


@given(n=st.integers(1, 2_000), seats=st.integers(2, 6))
def test_seating_sizes_differ_by_at_most_one(n: int, seats: int) -> None:
    sizes = t.table_sizes(n, seats)
    assert sum(sizes) == n
    assert len(sizes) == -(-n // seats)
    assert max(sizes) - min(sizes) <= 1
    assert max(sizes) <= seats
    assert sizes == sorted(sizes, reverse=True)


@given(
    draw=st.permutations(list(range(60))).flatmap(
        lambda p: st.integers(1, 60).map(lambda k: p[:k])
    ),
    seats=st.integers(2, 6),
)
def test_every_player_is_seated_once(draw: list[int], seats: int) -> None:
    tables = t.seat_round(draw, seats)
    seated = [p for table in tables for p in table]
    assert sorted(seated) == sorted(draw)
    assert [len(x) for x in tables] == t.table_sizes(len(draw), seats)


@given(seats=st.integers(2, 6), data=st.data())
def test_the_field_always_shrinks_to_a_final(seats: int, data: st.DataObject) -> None:
    qualifiers = data.draw(st.integers(1, t.qualifiers_max(seats)))
    n = data.draw(st.integers(2, 3_000))
    plan = t.round_plan(n, seats, qualifiers)
    assert sum(plan[-1]) <= seats and len(plan[-1]) == 1


@given(
    entries=st.integers(0, 500),
    entry_fee=st.integers(0, 10**7),
    fee_bps=st.integers(0, 10_000),
    guarantee=st.integers(0, 10**9),
)
def test_pool_parts_add_up(entries: int, entry_fee: int, fee_bps: int, guarantee: int) -> None:
    pool = t.prize_pool(entries=entries, entry_fee=entry_fee, fee_bps=fee_bps, guarantee=guarantee)
    assert pool.gross + pool.top_up == pool.fee + pool.prizes
    assert pool.prizes >= guarantee and pool.top_up >= 0 and 0 <= pool.fee <= pool.gross


@given(data=st.data(), pool=st.integers(0, 10**12), n=st.integers(2, 80))
def test_prizes_sum_to_the_pool_exactly(data: st.DataObject, pool: int, n: int) -> None:
    shares = t.default_shares(n)
    players = list(range(n))
    # Any ranking with shared places: random groups of equal players.
    chips = {p: data.draw(st.integers(0, 4)) for p in players}
    knockouts = [
        t.Knockout(player=p, round=1, place=data.draw(st.integers(1, 6)), chips=chips[p])
        for p in players[2:]
    ]
    final = {0: 100, 1: data.draw(st.integers(0, 100))}
    ranked = t.rank_field(final=final, final_winner=0, knockouts=knockouts)
    assert sorted(cast(int, r.player) for r in ranked) == players
    order = data.draw(st.permutations(players))
    paid = t.prizes(pool=pool, shares=shares, ranked=ranked, registered_order=order)
    assert sum(paid.values()) == pool
    assert all(v >= 0 for v in paid.values())
    # A better rank never gets less than a worse one (shared places differ by one unit at most).
    by_rank = sorted(ranked, key=lambda r: r.first)
    for better, worse in itertools.pairwise(by_rank):
        assert paid[better.player] + 1 >= paid[worse.player]


@given(
    chips=st.dictionaries(st.integers(0, 20), st.integers(0, 5), min_size=2, max_size=6),
    q=st.integers(1, 3),
)
def test_a_cut_is_either_clear_or_a_tie_at_the_cut(chips: dict[int, int], q: int) -> None:
    cut = t.table_cut(chips, q)
    if cut.tied:
        values = {chips[p] for p in cut.tied}
        assert len(values) == 1 and len(cut.tied) >= 2
        above = sum(1 for v in chips.values() if v > next(iter(values)))
        assert above < q < above + len(cut.tied)
    else:
        assert len(cut.through) == min(q, len(chips))
        assert set(cut.through) | set(cut.out) == set(chips)
        if cut.out:
            assert min(chips[p] for p in cut.through) > max(chips[p] for p in cut.out)
