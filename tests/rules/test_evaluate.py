"""``evaluate_hand`` and ``best_discard`` against the brute-force oracle and the rule book."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.rules import InvalidCard, RulesError, parse_card, parse_cards
from tables.rules.cards import PRINTED_JOKER, STANDARD_PACK, Card
from tables.rules.evaluate import DiscardChoice, HandEvaluation, best_discard, evaluate_hand
from tables.rules.melds import (
    MeldKind,
    MeldSettings,
    card_points,
    check_declaration,
    classify_group,
    count_points,
    wild_rank,
)

from .oracle import Rules, brute_force, least_loose

CUTS = [*STANDARD_PACK, PRINTED_JOKER]


@st.composite
def deals(
    draw: st.DrawFn, size: int = 13, max_jokers: int = 6, packs: int = 2
) -> tuple[list[Card], Card]:
    """A hand drawn from a shoe of ``packs`` packs of 53 (each card at most ``packs`` times).

    To make melds likely, most naturals come from a few suits and a window of ranks, and the
    number of jokers (printed or of the wild rank) is chosen first, up to ``max_jokers``.
    """
    cut = draw(st.sampled_from(CUTS))
    wild = wild_rank(cut)
    shoe = [*STANDARD_PACK, PRINTED_JOKER] * packs
    jokers = [c for c in shoe if c.rank in (0, wild)]
    naturals = [c for c in shoe if c.rank not in (0, wild)]
    if cut in naturals:
        naturals.remove(cut)  # the turned-up card is out of play
    elif cut in jokers:
        jokers.remove(cut)
    count = draw(st.integers(0, min(max_jokers, size)))
    picked_jokers = draw(
        st.lists(st.sampled_from(range(len(jokers))), min_size=count, max_size=count, unique=True)
    )
    suits = draw(st.sets(st.sampled_from("SHDC"), min_size=1, max_size=4))
    low = draw(st.integers(1, 13))
    width = draw(st.integers(3, 13))
    ranks = {(low + k - 1) % 13 + 1 for k in range(width)}
    near = [i for i, c in enumerate(naturals) if c.suit in suits and c.rank in ranks]
    far = [i for i, c in enumerate(naturals) if not (c.suit in suits and c.rank in ranks)]
    wanted = size - count
    n_near = draw(st.integers(max(0, wanted - len(far)), min(wanted, len(near))))
    picked_near = draw(
        st.lists(st.sampled_from(near), min_size=n_near, max_size=n_near, unique=True)
        if near
        else st.just([])
    )
    n_far = wanted - n_near
    picked_far = draw(
        st.lists(st.sampled_from(far), min_size=n_far, max_size=n_far, unique=True)
        if far
        else st.just([])
    )
    hand = [jokers[i] for i in picked_jokers] + [naturals[i] for i in picked_near + picked_far]
    return draw(st.permutations(hand)), cut


def assert_consistent(
    hand: Sequence[Card], cut: Card, result: HandEvaluation, chosen: MeldSettings | None = None
) -> None:
    """The arrangement returned is made of the hand's cards, in valid melds, and counts
    exactly ``points``; a declarable hand comes with a valid declaration."""
    placed = [card for group in result.groups for card in group] + list(result.ungrouped)
    assert Counter(placed) == Counter(hand)
    for group in result.groups:
        assert classify_group(group, cut, settings=chosen) is not MeldKind.INVALID
    arrangement = [*result.groups, result.ungrouped]
    assert count_points(arrangement, cut, settings=chosen) == result.points
    if result.can_declare:
        assert result.points == 0
        assert result.ungrouped == ()
        assert check_declaration(result.groups, cut, settings=chosen).valid


def oracle_rules(cut: Card, chosen: MeldSettings) -> Rules:
    return Rules(wild_rank(cut), chosen.largest_set, chosen.allow_joker_only_groups)


def assert_matches_brute_force(hand: list[Card], cut: Card) -> None:
    """The engine's points and verdict for ``hand`` are the brute force's, and its arrangement
    is consistent with them."""
    result = evaluate_hand(hand, cut)
    expected = brute_force(hand, oracle_rules(cut, MeldSettings()))
    assert (result.points, result.can_declare) == (expected.points, expected.can_declare)
    assert_consistent(hand, cut, result)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals())
def test_evaluate_matches_brute_force(deal: tuple[list[Card], Card]) -> None:
    assert_matches_brute_force(*deal)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    deals(max_jokers=5),
    st.builds(MeldSettings, st.sampled_from([3, 4, 5, 6]), st.booleans()),
)
def test_evaluate_matches_brute_force_under_other_settings(
    deal: tuple[list[Card], Card], chosen: MeldSettings
) -> None:
    hand, cut = deal
    result = evaluate_hand(hand, cut, settings=chosen)
    expected = brute_force(hand, oracle_rules(cut, chosen))
    assert (result.points, result.can_declare) == (expected.points, expected.can_declare)
    assert_consistent(hand, cut, result, chosen)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals(max_jokers=4, packs=3))
def test_three_packs_match_brute_force(deal: tuple[list[Card], Card]) -> None:
    assert_matches_brute_force(*deal)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(10, 14).flatmap(lambda size: deals(size=size, max_jokers=4)))
def test_other_hand_sizes(deal: tuple[list[Card], Card]) -> None:
    hand, cut = deal
    result = evaluate_hand(hand, cut)
    expected = brute_force(hand, oracle_rules(cut, MeldSettings()))
    assert result.points == expected.points
    assert result.can_declare == (expected.can_declare and len(hand) == 13)
    assert_consistent(hand, cut, result)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals(size=14, max_jokers=3))
def test_best_discard_is_the_lowest_count(deal: tuple[list[Card], Card]) -> None:
    hand, cut = deal
    choice = best_discard(hand, cut)
    assert isinstance(choice, DiscardChoice)
    rest = list(hand)
    rest.remove(choice.card)
    assert choice.evaluation == evaluate_hand(rest, cut)
    rules = oracle_rules(cut, MeldSettings())
    options = {}
    for card in set(hand):
        others = list(hand)
        others.remove(card)
        options[card] = brute_force(others, rules)
    lowest = min(result.points for result in options.values())
    assert choice.evaluation.points == lowest
    ties = [card for card, result in options.items() if result.points == lowest]
    if any(options[card].can_declare for card in ties):
        assert choice.evaluation.can_declare
        ties = [card for card in ties if options[card].can_declare]
    assert card_points(choice.card, cut) == max(card_points(card, cut) for card in ties)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(13, 14).flatmap(lambda size: deals(size=size, max_jokers=4)))
def test_melds_the_count_cannot_use_stay_grouped(deal: tuple[list[Card], Card]) -> None:
    """Best groups is how a player arranges to build, not only to declare: with no pure
    sequence every meld the hand can form is kept (the loose cards count least), and beside a
    lone pure sequence the sets are kept."""
    hand, cut = deal
    result = evaluate_hand(hand, cut)
    assert_consistent(hand, cut, result)
    rules = oracle_rules(cut, MeldSettings())
    kinds = [classify_group(group, cut) for group in result.groups]
    loose = sum(card_points(card, cut) for card in result.ungrouped)
    if MeldKind.PURE_SEQUENCE not in kinds:
        assert loose == least_loose(hand, rules, frozenset({"pure", "sequence", "set"}))
    elif sum(kind.is_sequence for kind in kinds) == 1:
        rest = list(hand)
        for card in result.groups[kinds.index(MeldKind.PURE_SEQUENCE)]:
            rest.remove(card)
        assert loose == least_loose(rest, rules, frozenset({"set"}))


def test_two_sequences_with_jokers_survive_when_no_show_is_possible() -> None:
    # No pure sequence: the hand cannot be shown and every card counts, but the two impure
    # sequences the player built (QH KH + joker, JS QS + the wild 2D) are still grouped.
    hand = parse_cards("QH KH JK JS QS 2D AC 3D 4H 6S 8C 10D 9H")
    result = evaluate_hand(hand, "2C")
    assert result.points == 90
    assert not result.can_declare
    # (the jokers are interchangeable: either may fill either sequence)
    assert sorted(len(group) for group in result.groups) == [3, 3]
    assert {
        frozenset(c for c in group if c not in ("JK", "2D")) for group in codes(result.groups)
    } == {
        frozenset({"QH", "KH"}),
        frozenset({"JS", "QS"}),
    }
    assert sorted(card.code for card in result.ungrouped) == sorted(
        ["AC", "3D", "4H", "6S", "8C", "10D", "9H"]
    )


def test_sets_beside_a_lone_pure_sequence_stay_grouped() -> None:
    hand = parse_cards("AS 2S 3S 9C 9D 9H KD KH KC 5D 5H 5C 7S")
    result = evaluate_hand(hand, "QH")
    assert {frozenset(group) for group in codes(result.groups)} == {
        frozenset({"AS", "2S", "3S"}),
        frozenset({"9C", "9D", "9H"}),
        frozenset({"KD", "KH", "KC"}),
        frozenset({"5D", "5H", "5C"}),
    }
    assert codes([result.ungrouped]) == [["7S"]]


def codes(groups: Sequence[Sequence[Card]]) -> list[list[str]]:
    return [[card.code for card in group] for group in groups]


def test_a_ready_hand_declares_with_the_arrangement_returned() -> None:
    hand = parse_cards("AS 2S 3S 5H 6H JK 9C 9D 9S KD KH KC 4S")
    result = evaluate_hand(hand, "4D")
    assert result.points == 0
    assert result.can_declare
    assert check_declaration(result.groups, "4D").valid


def test_wild_rank_card_standing_as_itself_makes_the_pure_sequence() -> None:
    # 6H is wild but stands as itself in 5H 6H 7H: the only pure sequence there is.
    hand = parse_cards("5H 6H 7H 9C 10C JK KD KS KC 2D 2S 2C 4D")
    result = evaluate_hand(hand, "6S")
    assert result.points == 4
    assert not result.can_declare
    assert ("5H", "6H", "7H") in [tuple(c.code for c in g) for g in result.groups]


def test_jokers_alone_complete_a_declaration_only_with_a_wild_rank_card_or_the_setting() -> None:
    # Three printed jokers (a 3-pack shoe) after a pure sequence and two sets of four.
    hand = parse_cards("3C 4C 5C QD QS QH QC 8S 8D 8H 8C")
    printed = [*hand, *parse_cards("JK JK")]
    assert evaluate_hand(printed, "2D").can_declare  # QD JK JK is a sequence
    assert evaluate_hand([*hand, *parse_cards("2S 2H")], "2D").can_declare


def test_one_pure_sequence_and_sets_counts_all_but_the_sequence() -> None:
    hand = parse_cards("AS 2S 3S 9C 9D 9H KD KH KC 5D 5H 5C 7S")
    result = evaluate_hand(hand, "QH")
    assert result.points == 27 + 30 + 15 + 7
    assert not result.can_declare
    assert codes(result.groups)[0] == ["AS", "2S", "3S"]


def test_no_pure_sequence_counts_everything_uncapped() -> None:
    hand = parse_cards("KS KH KD QS QH QD 9S 9H 9D 8C 8H 8D 6C")
    result = evaluate_hand(hand, "2C")
    assert result.points == 117
    assert not result.can_declare


def test_results_are_frozen_and_index_like_lists() -> None:
    result = evaluate_hand("AS 2S 3S 5H 6H 7H 9C 9D 9S KD KH KC 4S", "8D")
    assert result.can_declare
    assert sorted(len(group) for group in result.groups) == [3, 3, 3, 4]
    assert [card.code for card in result.ungrouped] == []
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.points = 3  # type: ignore[misc]


def test_bad_input() -> None:
    with pytest.raises(InvalidCard, match="ZZ"):
        evaluate_hand(["AS", "ZZ"], "4D")
    with pytest.raises(InvalidCard, match="QQ"):
        evaluate_hand(["AS"], "QQ")
    with pytest.raises(RulesError):
        best_discard([], "4D")


def test_best_discard_keeps_a_declaration() -> None:
    hand = parse_cards("AS 2S 3S 5H 6H JK 9C 9D 9S KD KH KC 4S QC")
    choice = best_discard(hand, "4D")
    assert choice.card == parse_card("QC")
    assert choice.evaluation.can_declare


def test_best_discard_throws_the_card_that_counts_most() -> None:
    hand = parse_cards("AS 2S 3S 5H 6H 7H 9C 9D 9S KD KH KC 2D 3C")
    choice = best_discard(hand, "8D")
    assert choice.evaluation.points == 2
    assert choice.card == parse_card("3C")
