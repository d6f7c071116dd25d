"""Card codes (RULES.md section 1): case-insensitive in, canonical out, errors name the code."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.rules import Card, InvalidCard, RulesError, card_codes, parse_card, parse_cards
from tables.rules.cards import JOKER_RANK, PRINTED_JOKER, RANK_CODES, STANDARD_PACK, SUITS
from tables.rules.errors import Refusal


@pytest.mark.parametrize(
    ("code", "rank", "suit", "canonical"),
    [
        ("AS", 1, "S", "AS"),
        ("as", 1, "S", "AS"),
        ("2h", 2, "H", "2H"),
        ("10H", 10, "H", "10H"),
        ("TH", 10, "H", "10H"),
        ("th", 10, "H", "10H"),
        ("Jd", 11, "D", "JD"),
        ("qC", 12, "C", "QC"),
        ("KS", 13, "S", "KS"),
        ("JK", JOKER_RANK, "", "JK"),
        ("jk", JOKER_RANK, "", "JK"),
        (" 9c ", 9, "C", "9C"),
    ],
)
def test_parse_card(code: str, rank: int, suit: str, canonical: str) -> None:
    card = parse_card(code)
    assert (card.rank, card.suit) == (rank, suit)
    assert str(card) == card.code == canonical
    assert parse_card(card) is card


@pytest.mark.parametrize(
    "code",
    ["", " ", "A", "S", "1S", "11S", "0H", "AX", "10", "JKK", "J K", "A S", "ZZ", "10HH", "1OH",
     "T10H", "KJ", "JKS", "♠A", "A♠", "-1S", "+2S", "\uff12S"],
)  # fmt: skip
def test_bad_codes_name_the_code(code: str) -> None:
    with pytest.raises(InvalidCard) as caught:
        parse_card(code)
    assert repr(code) in str(caught.value)
    assert caught.value.value == code and caught.value.code is Refusal.NOT_A_CARD
    assert isinstance(caught.value, RulesError)
    assert isinstance(caught.value, ValueError)


@pytest.mark.parametrize("value", [None, 10, 1.5, b"AS", ["AS"], ("A", "S")])
def test_non_strings_are_not_cards(value: object) -> None:
    with pytest.raises(InvalidCard):
        parse_card(value)  # type: ignore[arg-type]


def test_parse_cards_accepts_strings_and_iterables() -> None:
    expected = [parse_card("AS"), parse_card("10H"), PRINTED_JOKER]
    assert parse_cards("AS 10H JK") == expected
    assert parse_cards("as, th,jk") == expected
    assert parse_cards("  AS\t10H\nJK  ") == expected
    assert parse_cards(["AS", "TH", "JK"]) == expected
    assert parse_cards(expected) == expected
    mixed: list[Card | str] = ["AS", Card(10, "H"), "JK"]
    assert parse_cards(iter(mixed)) == expected
    assert parse_cards(tuple(mixed)) == expected
    assert parse_cards("") == []
    assert parse_cards([]) == []


def test_parse_cards_names_the_bad_code_in_a_list() -> None:
    with pytest.raises(InvalidCard, match="'QX'"):
        parse_cards("AS 2S QX 4S")
    with pytest.raises(InvalidCard, match="'1H'"):
        parse_cards(["AS", "1H"])


@pytest.mark.parametrize(("rank", "suit"), [(14, "S"), (-1, "S"), (1, "X"), (1, ""), (0, "S")])
def test_card_constructor_rejects_impossible_cards(rank: int, suit: str) -> None:
    with pytest.raises(InvalidCard):
        Card(rank, suit)


def test_cards_are_frozen_values() -> None:
    card = parse_card("QD")
    assert card == Card(12, "D")
    assert hash(card) == hash(Card(12, "D"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        card.rank = 3  # type: ignore[misc]
    assert repr(card) == "Card('QD')"
    assert card.label == "Q\u2666"
    assert PRINTED_JOKER.label == "Joker"
    assert PRINTED_JOKER.is_printed_joker and not card.is_printed_joker


def test_standard_pack() -> None:
    assert len(STANDARD_PACK) == 52 == len(set(STANDARD_PACK))
    assert {card.suit for card in STANDARD_PACK} == set(SUITS)
    assert card_codes(STANDARD_PACK[:3]) == ["AS", "2S", "3S"]


@given(st.sampled_from([*STANDARD_PACK, PRINTED_JOKER]), st.data())
def test_codes_round_trip_in_any_case(card: Card, data: st.DataObject) -> None:
    code = card.code
    if card.rank == 10:
        code = data.draw(st.sampled_from(["10", "T", "t"])) + card.suit
    mixed = "".join(data.draw(st.sampled_from([ch.lower(), ch.upper()])) for ch in code)
    assert parse_card(mixed) == card
    assert parse_card(str(card)) == card
    assert RANK_CODES[card.rank] + card.suit == card.code or card.rank == JOKER_RANK
