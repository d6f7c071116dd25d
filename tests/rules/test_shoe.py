"""Shoes: building, Fisher-Yates shuffles on ``secrets``, dealing order, reshuffles."""

from __future__ import annotations

import json
import random
import secrets
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.rules.cards import PRINTED_JOKER, STANDARD_PACK, parse_card, parse_cards
from tables.rules.errors import InvalidShoe
from tables.rules.settings import GameSettings
from tables.rules.shoe import (
    Shoe,
    build_cards,
    check_shoe,
    deal,
    new_shoe,
    random_permutation,
    reshuffle,
    shuffle_cards,
    stacked_shoe,
    toss,
)

SETTINGS = GameSettings.for_variant("pool101")


def test_two_packs_of_53() -> None:
    cards = build_cards(SETTINGS)
    assert len(cards) == 106
    counts = Counter(cards)
    assert counts[PRINTED_JOKER] == 2
    assert all(counts[card] == 2 for card in STANDARD_PACK)
    three = GameSettings.for_variant("pool101", packs=3, printed_jokers_per_pack=2)
    assert len(build_cards(three)) == 3 * 54


def test_new_shoe_uses_secrets_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def fake_randbelow(n: int) -> int:
        calls.append(n)
        return 0

    monkeypatch.setattr(secrets, "randbelow", fake_randbelow)
    shoe = new_shoe(SETTINGS)
    assert calls[:3] == [106, 105, 104]
    assert Counter(shoe.cards) == Counter(build_cards(SETTINGS))
    assert len(shoe.reshuffle_keys) == SETTINGS.max_reshuffles
    assert all(sorted(keys) == list(range(106)) for keys in shoe.reshuffle_keys)


def test_real_shoes_differ_and_hold_the_packs() -> None:
    first, second = new_shoe(SETTINGS), new_shoe(SETTINGS)
    check_shoe(first, SETTINGS)
    check_shoe(second, SETTINGS)
    assert first.cards != second.cards  # 106! orders: a collision means a broken shuffle


def test_fisher_yates_is_uniform_on_three_cards() -> None:
    rng = random.Random(7)
    cards = tuple(parse_cards("AS 2S 3S"))
    counts = Counter(shuffle_cards(cards, randbelow=rng.randrange) for _ in range(6000))
    assert len(counts) == 6
    assert all(800 < n < 1200 for n in counts.values())


@given(st.integers(min_value=0, max_value=200), st.randoms(use_true_random=False))
def test_random_permutation_is_a_permutation(size: int, rnd: random.Random) -> None:
    assert sorted(random_permutation(size, randbelow=rnd.randrange)) == list(range(size))


def test_deal_order_convention() -> None:
    cards = build_cards(SETTINGS)
    dealt = deal(cards, 3, 13)
    # Round the table one card at a time, starter first.
    assert dealt.hands[0] == cards[0:39:3]
    assert dealt.hands[1] == cards[1:39:3]
    assert dealt.hands[2] == cards[2:39:3]
    assert dealt.open_card == cards[39]
    assert dealt.cut_card == cards[40]
    assert dealt.closed == cards[41:]
    assert sum(len(h) for h in dealt.hands) + 2 + len(dealt.closed) == 106


def test_deal_refuses_impossible_requests() -> None:
    with pytest.raises(InvalidShoe):
        deal(build_cards(SETTINGS)[:20], 2, 13)
    with pytest.raises(InvalidShoe):
        deal(build_cards(SETTINGS), 0, 13)


def test_reshuffle_keeps_the_top_and_orders_by_keys() -> None:
    open_deck = tuple(parse_cards("2H 3H 4H 5H"))
    closed, new_open = reshuffle(open_deck, (2, 0, 1, 3))
    assert new_open == (parse_card("5H"),)
    # Keys of positions 0, 1, 2 are 2, 0, 1 -> order positions 1, 2, 0.
    assert closed == tuple(parse_cards("3H 4H 2H"))
    assert reshuffle((), (0,)) == ((), ())


@given(st.randoms(use_true_random=False), st.integers(min_value=1, max_value=105))
def test_reshuffle_conserves_cards(rnd: random.Random, size: int) -> None:
    cards = list(build_cards(SETTINGS))
    rnd.shuffle(cards)
    open_deck = tuple(cards[:size])
    closed, new_open = reshuffle(open_deck, random_permutation(106, randbelow=rnd.randrange))
    assert new_open == (open_deck[-1],)
    assert Counter(closed) + Counter(new_open) == Counter(open_deck)


def test_stacked_shoe_deals_the_planted_hands() -> None:
    hands = [
        ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"],
        ["AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH"],
    ]
    shoe = stacked_shoe(SETTINGS, hands=hands, open_card="JK", cut_card="5D", closed_top=["KC"])
    check_shoe(shoe, SETTINGS)
    dealt = deal(shoe, 2)
    assert [list(map(str, h)) for h in dealt.hands] == hands
    assert dealt.open_card == PRINTED_JOKER and dealt.cut_card == parse_card("5D")
    assert dealt.closed[0] == parse_card("KC")
    with pytest.raises(InvalidShoe, match="more copies"):
        stacked_shoe(SETTINGS, hands=[["AS"] * 3, ["2S"] * 3], open_card="3S", cut_card="4S")
    with pytest.raises(InvalidShoe, match="same number"):
        stacked_shoe(SETTINGS, hands=[["AS"], ["2S", "3S"]], open_card="3S", cut_card="4S")


def test_shoe_json_round_trip_and_checks() -> None:
    shoe = new_shoe(SETTINGS)
    assert Shoe.from_json(json.loads(json.dumps(shoe.to_json()))) == shoe
    with pytest.raises(InvalidShoe):
        Shoe(shoe.cards, ((0, 0, 1),))
    with pytest.raises(InvalidShoe):
        other = PRINTED_JOKER if shoe.cards[0] != PRINTED_JOKER else parse_card("AS")
        check_shoe(Shoe((other, *shoe.cards[1:]), shoe.reshuffle_keys), SETTINGS)
    with pytest.raises(InvalidShoe):
        check_shoe(Shoe(shoe.cards, ()), SETTINGS)
    with pytest.raises(InvalidShoe):
        Shoe.from_json({"nope": 1})


def test_toss_picks_a_seat() -> None:
    assert toss([3, 5, 9], randbelow=lambda n: 2) == 9
    assert toss([3, 5, 9]) in (3, 5, 9)
    with pytest.raises(InvalidShoe):
        toss([])
