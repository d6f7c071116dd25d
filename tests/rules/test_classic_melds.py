"""Classic rummy melds, lay-offs, card points and the reproducible reshuffle."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.rules.cards import STANDARD_PACK, SUITS, parse_cards
from tables.rules.classic import (
    ClassicSettings,
    TableMeld,
    card_points,
    classify_meld,
    hand_points,
    lay_off_result,
    seeded_shuffle,
)
from tables.rules.errors import InvalidMove, InvalidSettings

DEFAULT = ClassicSettings()


def codes(cards: object) -> list[str]:
    return [card.code for card in cards]  # type: ignore[attr-defined]


def kind(text: str, settings: ClassicSettings = DEFAULT) -> str | None:
    found = classify_meld(parse_cards(text), settings)
    return None if found is None else found[0]


def run_meld(text: str, meld_id: int = 1) -> TableMeld:
    found = classify_meld(parse_cards(text), DEFAULT)
    assert found is not None and found[0] == "run"
    return TableMeld(meld_id, "run", found[1], owner=1)


def set_meld(text: str) -> TableMeld:
    return TableMeld(1, "set", tuple(parse_cards(text)), owner=1)


# ----------------------------------------------------------------------------- sets


@pytest.mark.parametrize(
    "text",
    ["7S 7H 7D", "7S 7H 7D 7C", "QS QS QH", "2C 2C 2D 2D 2H", "AS AH AD AC AS AH AD AC"],
)
def test_sets_of_one_rank_with_repeated_suits_by_default(text: str) -> None:
    assert kind(text) == "set"


@pytest.mark.parametrize("text", ["7S 7H", "7S 7H 8D", "7S 7H 7D JK"])
def test_not_sets(text: str) -> None:
    assert kind(text) is None


def test_distinct_suit_setting_rejects_a_repeated_suit() -> None:
    strict = ClassicSettings(set_suits_may_repeat=False)
    assert kind("QS QS QH", strict) is None
    assert kind("QS QD QH QC", strict) == "set"


def test_largest_set_setting() -> None:
    capped = ClassicSettings(largest_set=4)
    assert kind("5S 5H 5D 5C", capped) == "set"
    assert kind("5S 5H 5D 5C 5S", capped) is None
    assert kind("5S 5H 5D 5C 5S", DEFAULT) == "set"


# ----------------------------------------------------------------------------- runs


@pytest.mark.parametrize(
    ("text", "order"),
    [
        ("4H 5H 6H", "4H 5H 6H"),
        ("6H 4H 5H 7H", "4H 5H 6H 7H"),
        ("3D AD 2D", "AD 2D 3D"),
        ("AC KC QC", "QC KC AC"),
        ("JS QS KS AS 10S", "10S JS QS KS AS"),
    ],
)
def test_runs_are_ordered_low_end_first(text: str, order: str) -> None:
    found = classify_meld(parse_cards(text), DEFAULT)
    assert found is not None
    assert found[0] == "run"
    assert codes(found[1]) == order.split()


@pytest.mark.parametrize(
    "text",
    ["KH AH 2H", "QH KH AH 2H", "4H 5H 7H", "4H 5H 6S", "5H 5H 6H 7H", "4H 5H", "AH 2H 3H JK"],
)
def test_not_runs(text: str) -> None:
    assert kind(text) is None


def test_full_run_ace_to_king_and_no_ace_at_both_ends() -> None:
    full = " ".join(
        f"{r}S" for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    )
    assert kind(full) == "run"
    assert kind(full + " AS") is None


def test_ace_setting_low_and_high() -> None:
    no_low = ClassicSettings(ace_low=False)
    no_high = ClassicSettings(ace_high=False)
    assert kind("AH 2H 3H", no_low) is None
    assert kind("QH KH AH", no_low) == "run"
    assert kind("QH KH AH", no_high) is None
    assert kind("AH 2H 3H", no_high) == "run"
    assert kind("2H 3H 4H", no_low) == "run"


def test_wrap_setting_lets_runs_turn_the_corner() -> None:
    wrap = ClassicSettings(run_wrap=True)
    found = classify_meld(parse_cards("2H KH AH"), wrap)
    assert found is not None
    assert codes(found[1]) == ["KH", "AH", "2H"]
    assert kind("QH KH AH 2H 3H", wrap) == "run"
    assert kind("KH 2H 3H", wrap) is None


@given(
    suit=st.sampled_from(SUITS),
    start=st.integers(1, 12),
    length=st.integers(3, 13),
    seed=st.randoms(use_true_random=False),
)
@settings(max_examples=60, deadline=None)
def test_any_shuffled_slice_of_consecutive_ranks_is_a_run(
    suit: str, start: int, length: int, seed: object
) -> None:
    ranks = [start + i for i in range(length) if start + i <= 14]
    if len(ranks) < 3:
        return
    cards = [
        c for r in ranks for c in STANDARD_PACK if c.suit == suit and c.rank == (r - 1) % 13 + 1
    ]
    expected = list(cards)
    seed.shuffle(cards)  # type: ignore[attr-defined]
    found = classify_meld(cards, DEFAULT)
    assert found is not None
    assert found[0] == "run"
    if 14 not in ranks or len(ranks) < 13:
        assert list(found[1]) == expected


# ----------------------------------------------------------------------------- lay-offs


def test_lay_off_extends_a_run_at_either_end() -> None:
    run = run_meld("4H 5H 6H")
    assert codes(lay_off_result(run, parse_cards("7H"), DEFAULT, "high")) == [
        "4H",
        "5H",
        "6H",
        "7H",
    ]
    assert codes(lay_off_result(run, parse_cards("3H"), DEFAULT, "low")) == ["3H", "4H", "5H", "6H"]
    assert codes(lay_off_result(run, parse_cards("3H 7H 2H"), DEFAULT)) == (
        ["2H", "3H", "4H", "5H", "6H", "7H"]
    )
    assert codes(lay_off_result(run, parse_cards("8H 7H"), DEFAULT, "high")) == (
        ["4H", "5H", "6H", "7H", "8H"]
    )


@pytest.mark.parametrize(
    ("run", "cards", "end"),
    [
        ("4H 5H 6H", "7H", "low"),
        ("4H 5H 6H", "3H", "high"),
        ("4H 5H 6H", "8H", None),
        ("4H 5H 6H", "7S", None),
        ("4H 5H 6H", "5H", None),
        ("4H 5H 6H", "3H 7H", "high"),
    ],
)
def test_lay_off_that_does_not_fit_a_run(run: str, cards: str, end: str | None) -> None:
    with pytest.raises(InvalidMove):
        lay_off_result(run_meld(run), parse_cards(cards), DEFAULT, end)  # type: ignore[arg-type]


def test_ace_lay_off_high_after_king_low_before_two_never_round_the_corner() -> None:
    high = run_meld("JD QD KD")
    low = run_meld("AD 2D 3D")
    assert codes(lay_off_result(high, parse_cards("AD"), DEFAULT, "high"))[-1] == "AD"
    assert codes(lay_off_result(run_meld("2D 3D 4D"), parse_cards("AD"), DEFAULT))[0] == "AD"
    with pytest.raises(InvalidMove):
        lay_off_result(low, parse_cards("KD"), DEFAULT)
    with pytest.raises(InvalidMove):
        lay_off_result(run_meld("QD KD AD"), parse_cards("2D"), DEFAULT)
    with pytest.raises(InvalidMove):
        lay_off_result(high, parse_cards("AD"), ClassicSettings(ace_high=False))
    wrap = ClassicSettings(run_wrap=True)
    assert codes(lay_off_result(run_meld("QD KD AD"), parse_cards("2D"), wrap, "high")) == (
        ["QD", "KD", "AD", "2D"]
    )
    assert codes(lay_off_result(low, parse_cards("KD"), wrap, "low")) == ["KD", "AD", "2D", "3D"]


def test_lay_off_on_a_set() -> None:
    threes = set_meld("3S 3H 3D")
    assert codes(lay_off_result(threes, parse_cards("3C"), DEFAULT)) == ["3S", "3H", "3D", "3C"]
    assert len(lay_off_result(threes, parse_cards("3S 3C"), DEFAULT)) == 5
    with pytest.raises(InvalidMove, match="rank"):
        lay_off_result(threes, parse_cards("4S"), DEFAULT)
    with pytest.raises(InvalidMove, match="suit"):
        lay_off_result(threes, parse_cards("3S"), ClassicSettings(set_suits_may_repeat=False))
    assert len(lay_off_result(threes, parse_cards("3C"), ClassicSettings(largest_set=4))) == 4
    with pytest.raises(InvalidMove, match="at most 4"):
        lay_off_result(threes, parse_cards("3C 3C"), ClassicSettings(largest_set=4))


def test_lay_off_needs_a_card() -> None:
    with pytest.raises(InvalidMove):
        lay_off_result(set_meld("3S 3H 3D"), [], DEFAULT)


# ----------------------------------------------------------------------------- points


@pytest.mark.parametrize(
    ("code", "points"),
    [("AS", 11), ("KH", 10), ("QD", 10), ("JC", 10), ("10S", 10), ("7H", 7), ("2C", 2)],
)
def test_card_points(code: str, points: int) -> None:
    assert card_points(code, DEFAULT) == points


def test_hand_points_and_value_settings() -> None:
    assert hand_points(["AS", "KH", "7D", "2C"], DEFAULT) == 11 + 10 + 7 + 2
    assert hand_points(["AS", "KH"], ClassicSettings(ace_points=1, court_points=12)) == 13
    with pytest.raises(InvalidMove):
        card_points("JK", DEFAULT)


# ----------------------------------------------------------------------------- settings


@pytest.mark.parametrize(
    "overrides",
    [
        {"packs": 0},
        {"hand_size": 0},
        {"seats_min": 1},
        {"seats_max": 1},
        {"hand_size": 20, "seats_max": 6},
        {"largest_set": 2},
        {"platform_fee_bps": 10001},
        {"runner_up_share_bps": -1},
        {"turn_s": 0},
        {"disconnect_policy": "explode"},
        {"ace_low": "yes"},
        {"hands": 0},
        {"variant": "pool101"},
    ],
)
def test_impossible_settings_are_refused(overrides: dict[str, object]) -> None:
    with pytest.raises(InvalidSettings):
        ClassicSettings(**overrides)  # type: ignore[arg-type]


def test_settings_round_trip_and_for_variant() -> None:
    custom = ClassicSettings.for_variant("classic", hands=7, run_wrap=True, turn_s=20)
    assert custom.turn_s == 20.0
    assert ClassicSettings.from_json(custom.to_json()) == custom
    with pytest.raises(InvalidSettings):
        ClassicSettings.from_json({"jokers": 2})
    with pytest.raises(InvalidSettings):
        ClassicSettings.for_variant("pool101")


# ----------------------------------------------------------------------------- reshuffle


def test_seeded_shuffle_is_a_reproducible_permutation() -> None:
    cards = tuple(STANDARD_PACK * 2)
    first = seeded_shuffle(cards, "seed-a", "reshuffle:1")
    assert Counter(first) == Counter(cards)
    assert seeded_shuffle(cards, "seed-a", "reshuffle:1") == first
    assert seeded_shuffle(cards, "seed-b", "reshuffle:1") != first
    assert seeded_shuffle(cards, "seed-a", "reshuffle:2") != first
    assert first != cards
