"""Meld validity, declarations and a loser's count (RULES.md sections 2 and 3)."""

from __future__ import annotations

import dataclasses
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.rules import InvalidCard, InvalidSettings, parse_card, parse_cards
from tables.rules.cards import PRINTED_JOKER, STANDARD_PACK
from tables.rules.melds import (
    DeclarationVerdict,
    MeldKind,
    MeldSettings,
    card_points,
    check_declaration,
    classify_group,
    count_points,
    is_joker,
)

PURE = MeldKind.PURE_SEQUENCE
IMPURE = MeldKind.IMPURE_SEQUENCE
SET = MeldKind.SET
BAD = MeldKind.INVALID


@pytest.mark.parametrize(
    ("group", "cut", "kind"),
    [
        # sequences, Ace low or high, never wrapping
        ("AS 2S 3S", "9D", PURE),
        ("QH KH AH", "9D", PURE),
        ("JH QH KH AH", "9D", PURE),
        ("KS AS 2S", "9D", BAD),
        ("2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC", "JK", PURE),
        ("5H 6H 8H", "9D", BAD),
        ("5H 6H 7D", "9D", BAD),
        ("5H 6H", "9D", BAD),
        ("5H 5H 6H 7H", "9D", BAD),
        # a wild-rank card standing as itself keeps a sequence pure
        ("5H 6H 7H", "6S", PURE),
        ("3D 4D 5D", "4C", PURE),
        ("10S JS QS", "JK", PURE),
        ("AD 2D 3D", "JK", PURE),
        # jokers standing in make a sequence impure
        ("5H JK 7H", "9D", IMPURE),
        ("5H 6H JK", "9D", IMPURE),
        ("5H 9C 7H", "9D", IMPURE),
        ("QS KS 9H", "9D", IMPURE),
        ("KS 9H 9C", "9D", IMPURE),
        ("5H 6H 7H JK", "9D", IMPURE),
        ("5H 6H 6C 8H", "6D", IMPURE),
        ("2S 5S JK JK", "9D", IMPURE),
        ("2S 6S JK JK", "9D", BAD),
        ("KS 2S JK", "9D", BAD),
        ("QS AS JK", "9D", IMPURE),
        ("AS 3S JK", "9D", IMPURE),
        ("5H 7H 7S", "7D", IMPURE),
        ("5H 7H 7H", "7D", IMPURE),
        ("8H 8H 9H", "9D", BAD),
        ("JK JK 5H", "9D", IMPURE),
        # sets: one rank, every suit different, at most 4 by default
        ("5S 5H 5D", "9D", SET),
        ("5S 5H 5D 5C", "9D", SET),
        ("5S 5S 5H", "9D", BAD),
        ("5S 5H 5D 5C JK", "9D", BAD),
        ("5S 5H JK", "9D", SET),
        ("5S 5H 9C 9D", "9D", SET),
        ("5S 5S JK", "9D", BAD),
        # all wild-rank cards: one stands as itself, the others stand in (a sequence reading wins)
        ("4D 4S 4C", "4H", IMPURE),
        ("4D 4D 4S", "4H", IMPURE),
        ("4D 4S 4C 4H 4D", "4H", IMPURE),
        ("KS KH KD", "JK", SET),
        ("KS KH AS", "JK", SET),
        # groups of jokers only
        ("JK JK JK", "9D", BAD),
        ("JK JK 9S", "9D", IMPURE),
        ("9S 9S 9S", "9D", IMPURE),
        ("AS AS JK", "JK", IMPURE),
    ],
)
def test_classify_group(group: str, cut: str, kind: MeldKind) -> None:
    assert classify_group(group, cut) is kind
    assert classify_group(parse_cards(group), parse_card(cut)) is kind
    assert classify_group(list(reversed(group.split())), cut) is kind


def test_set_size_is_a_setting() -> None:
    five = "5S 5H 5D 5C JK"
    assert classify_group(five, "9D", settings=MeldSettings(largest_set=5)) is SET
    assert classify_group("5S 5H 5D 5C", "9D", settings=MeldSettings(largest_set=3)) is BAD
    assert classify_group("5S 5H 5D", "9D", settings=MeldSettings(largest_set=3)) is SET


def test_joker_only_groups_are_a_setting() -> None:
    allow = MeldSettings(allow_joker_only_groups=True)
    assert classify_group("JK JK JK", "9D", settings=allow) is IMPURE
    assert classify_group("JK JK JK", "9D") is BAD


@pytest.mark.parametrize(
    "kwargs", [{"largest_set": 2}, {"largest_set": 0}, {"largest_set": True}, {"largest_set": "4"}]
)
def test_meld_settings_reject_bad_values(kwargs: dict[str, object]) -> None:
    with pytest.raises(InvalidSettings):
        MeldSettings(**kwargs)  # type: ignore[arg-type]


def test_meld_settings_are_frozen_with_rule_book_defaults() -> None:
    chosen = MeldSettings()
    assert (chosen.largest_set, chosen.allow_joker_only_groups) == (4, False)
    with pytest.raises(dataclasses.FrozenInstanceError):
        chosen.largest_set = 5  # type: ignore[misc]


@pytest.mark.parametrize(
    ("card", "cut", "joker", "points"),
    [
        ("AS", "9D", False, 10),
        ("KS", "9D", False, 10),
        ("QH", "9D", False, 10),
        ("JC", "9D", False, 10),
        ("10D", "9D", False, 10),
        ("2D", "9D", False, 2),
        ("9S", "9D", True, 0),
        ("9D", "9D", True, 0),
        ("JK", "9D", True, 0),
        ("AS", "JK", True, 0),
        ("KS", "JK", False, 10),
        ("JK", "JK", True, 0),
    ],
)
def test_jokers_and_card_points(card: str, cut: str, joker: bool, points: int) -> None:
    assert is_joker(card, cut) is joker
    assert card_points(card, cut) == points
    assert card_points(parse_card(card), parse_card(cut)) == points


def test_bad_codes_raise_invalid_card() -> None:
    with pytest.raises(InvalidCard, match="1S"):
        classify_group("1S 2S 3S", "9D")
    with pytest.raises(InvalidCard, match="XX"):
        card_points("AS", "XX")


VALID_SHOW = [["AS", "2S", "3S"], ["5H", "JK", "7H"], ["9C", "9D", "9S"], ["KD", "KH", "KC", "4D"]]


def test_valid_declaration() -> None:
    verdict = check_declaration(VALID_SHOW, "4S")
    assert verdict == DeclarationVerdict(True, verdict.reason)
    assert verdict.valid
    assert count_points(VALID_SHOW, "4S") == 0


@pytest.mark.parametrize(
    ("groups", "cut", "reason"),
    [
        # no pure sequence
        ([["AS", "JK", "3S"], ["5H", "JK", "7H"], ["9C", "9D", "9S"], ["KD", "KH", "KC", "QD"]],
         "4S", "pure sequence"),
        # pure sequence, but no second sequence
        ([["AS", "2S", "3S"], ["5H", "5C", "5D"], ["9C", "9D", "9S"], ["KD", "KH", "KC", "JK"]],
         "4S", "second sequence"),
        # one group is not a meld
        ([["AS", "2S", "3S"], ["5H", "6H", "7H"], ["9C", "9D", "9S"], ["KD", "KH", "QC", "JK"]],
         "4S", "KD KH QC JK"),
        # 12 cards
        ([["AS", "2S", "3S"], ["5H", "6H", "7H"], ["9C", "9D", "9S"], ["KD", "KH", "KC"]],
         "4S", "13"),
        # 14 cards
        ([["AS", "2S", "3S"], ["5H", "6H", "7H"], ["9C", "9D", "9S"], ["KD", "KH", "KC", "JK"],
          ["JK"]], "4S", "13"),
    ],
)  # fmt: skip
def test_wrong_declarations(groups: list[list[str]], cut: str, reason: str) -> None:
    verdict = check_declaration(groups, cut)
    assert not verdict.valid
    assert reason in verdict.reason
    assert verdict.reason.endswith(".")


def test_two_pure_sequences_from_one_run_declare() -> None:
    groups = [["2H", "3H", "4H"], ["5H", "6H", "7H"], ["9C", "9D", "9S"], ["KD", "KH", "KC", "QS"]]
    assert check_declaration(groups, "QC").valid


def test_count_rules_of_section_3() -> None:
    # no pure sequence: every card counts, melds or not
    no_pure = [["AS", "JK", "3S"], ["5H", "JK", "7H"], ["9C", "9D", "9S"], ["KD", "QH"]]
    assert count_points(no_pure, "4S") == 10 + 3 + 5 + 7 + 27 + 20
    # a pure sequence but no second sequence: everything but the pure sequence counts
    one_pure = [["AS", "2S", "3S"], ["9C", "9D", "9S"], ["KD", "KH", "KC"], ["5H", "8C"]]
    assert count_points(one_pure, "4S") == 27 + 30 + 13
    # two sequences, one pure: only cards outside valid melds count
    fine = [["AS", "2S", "3S"], ["5H", "JK", "7H"], ["9C", "9D", "9S"], ["KD", "QH", "8C"]]
    assert count_points(fine, "4S") == 28
    # an invalid group counts in full even if it holds a joker
    assert count_points([["AS", "2S", "3S"], ["5H", "6H", "7H"], ["KD", "4C", "JK"]], "9S") == 14
    assert count_points([["AS", "2S", "3S"], ["5H", "6H", "7H"], ["KD", "4C", "JK"]], "4S") == 0


def test_count_wild_cards_are_zero_everywhere() -> None:
    assert count_points([["7H", "7S", "JK", "KD"]], "7C") == 10
    assert count_points([["AS", "AH", "KD"]], "JK") == 10


@st.composite
def shuffled_groups(draw: st.DrawFn) -> tuple[list[list[str]], str]:
    shoe = [card.code for card in STANDARD_PACK] * 2 + [PRINTED_JOKER.code] * 2
    hand = draw(st.permutations(shoe))[:13]
    cut = draw(st.sampled_from([*(c.code for c in STANDARD_PACK), "JK"]))
    cuts = sorted(draw(st.sets(st.integers(1, 12), max_size=5)))
    bounds = [0, *cuts, 13]
    return [hand[a:b] for a, b in itertools.pairwise(bounds)], cut


@settings(max_examples=300, deadline=None)
@given(shuffled_groups())
def test_count_never_exceeds_the_hand_total_and_valid_shows_count_zero(
    case: tuple[list[list[str]], str],
) -> None:
    groups, cut = case
    total = sum(card_points(code, cut) for group in groups for code in group)
    points = count_points(groups, cut)
    assert 0 <= points <= total
    verdict = check_declaration(groups, cut)
    if verdict.valid:
        assert points == 0
    # the order of groups and of cards inside them does not matter
    shuffled = [list(reversed(group)) for group in reversed(groups)]
    assert count_points(shuffled, cut) == points
    assert check_declaration(shuffled, cut) == verdict


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from(STANDARD_PACK), min_size=3, max_size=6),
    st.sampled_from(STANDARD_PACK),
)
def test_adding_a_printed_joker_keeps_a_meld_a_meld(group: list[object], cut: object) -> None:
    kind = classify_group(group, cut)  # type: ignore[arg-type]
    extended = classify_group([*group, PRINTED_JOKER], cut)  # type: ignore[list-item, arg-type]
    if kind.is_sequence and len(group) < 13:
        assert extended is IMPURE
    if kind is BAD:
        assert extended is not PURE
