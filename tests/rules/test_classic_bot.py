"""The simple computer player's meld choices in classic rummy."""

from __future__ import annotations

import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.rules.cards import STANDARD_PACK, parse_cards
from tables.rules.classic import (
    CLASSIC_STRENGTHS,
    ClassicSettings,
    TableMeld,
    bot_meld_action,
    classify_meld,
    lay_off_result,
)
from tables.rules.classic.bot_play import classic_hand_play

RULES = ClassicSettings.for_variant("classic")


def test_lays_down_the_meld_worth_most_points():
    hand = parse_cards("2C 3C 4C KH KS KD 9D")
    kind, cards = bot_meld_action(hand, [], RULES)
    assert kind == "lay_down"
    assert sorted(c.code for c in cards) == ["KD", "KH", "KS"]


def test_finds_runs_with_the_ace_high_and_low():
    high = bot_meld_action(parse_cards("QS KS AS 4D"), [], RULES)
    assert high is not None and sorted(c.code for c in high[1]) == ["AS", "KS", "QS"]
    low = bot_meld_action(parse_cards("AS 2S 3S 9D"), [], RULES)
    assert low is not None and sorted(c.code for c in low[1]) == ["2S", "3S", "AS"]
    no_wrap = bot_meld_action(parse_cards("KS AS 2S 9D"), [], RULES)
    assert no_wrap is None


def test_keeps_a_card_to_discard():
    assert bot_meld_action(parse_cards("7C 7D 7H"), [], RULES) is None
    melding_out = ClassicSettings.for_variant("classic", go_out_by_melding=True)
    assert bot_meld_action(parse_cards("7C 7D 7H"), [], melding_out) is not None


def test_lays_off_on_any_meld_when_nothing_to_lay_down():
    meld = TableMeld(4, "run", tuple(parse_cards("5H 6H 7H")), owner=2)
    kind, (card, meld_id) = bot_meld_action(parse_cards("8H 2C KD"), [meld], RULES)
    assert kind == "lay_off" and card.code == "8H" and meld_id == 4


def test_respects_the_set_suit_setting():
    strict = ClassicSettings.for_variant("classic", set_suits_may_repeat=False)
    assert bot_meld_action(parse_cards("9C 9C 9D QS"), [], strict) is None
    assert bot_meld_action(parse_cards("9C 9C 9D QS"), [], RULES) is not None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(STANDARD_PACK), min_size=1, max_size=11))
def test_every_choice_is_legal(hand):
    melds = [TableMeld(1, "set", tuple(parse_cards("QC QD QH")), owner=1)]
    move = bot_meld_action(hand, melds, RULES)
    if move is None:
        return
    kind, what = move
    if kind == "lay_down":
        assert classify_meld(what, RULES) is not None
        assert len(hand) - len(what) >= 1
        remaining = list(hand)
        for card in what:
            remaining.remove(card)  # the meld comes from the hand
    else:
        card, meld_id = what
        assert card in hand and meld_id == 1 and len(hand) >= 2
        lay_off_result(melds[0], [card], RULES)


def _pairing(weak: str, strong: str, hands: int) -> tuple[list[int], list[int]]:
    """``hands`` seeded heads-up hands, each shoe played twice with the levels in swapped
    seats (the same seat starts): the points each level was left with."""
    weak_points: list[int] = []
    strong_points: list[int] = []
    for seed in range(hands // 2):
        for seats in ({1: weak, 2: strong}, {1: strong, 2: weak}):
            left = classic_hand_play(strengths=seats, seed=seed, toss=1)
            for seat, level in seats.items():
                (weak_points if level == weak else strong_points).append(left[seat])
    return weak_points, strong_points


@pytest.mark.parametrize(("weak", "strong"), [("easy", "medium"), ("medium", "hard")])
def test_the_three_classic_levels_are_measurably_apart(weak: str, strong: str) -> None:
    """Each level is left with fewer points than the one below it on the same cards, and wins
    more of the hands (benchmarks/bench_bots.py --variant classic measures it on more)."""
    weak_points, strong_points = _pairing(weak, strong, 120)
    assert statistics.fmean(strong_points) < statistics.fmean(weak_points)
    wins = sum(1 for w, s in zip(weak_points, strong_points, strict=True) if s < w)
    losses = sum(1 for w, s in zip(weak_points, strong_points, strict=True) if w < s)
    assert wins > losses


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    levels=st.tuples(st.sampled_from(CLASSIC_STRENGTHS), st.sampled_from(CLASSIC_STRENGTHS)),
)
def test_every_level_plays_a_hand_to_its_end_with_legal_moves(seed, levels):
    """A hand between any two levels ends (the engine refuses an illegal move, so every move
    each level sent was legal) with one seat out at 0 points."""
    left = classic_hand_play(strengths={1: levels[0], 2: levels[1]}, seed=seed)
    assert sorted(left) == [1, 2] and min(left.values()) == 0
