"""Every refusal of the engine carries a code and params; its English message is built from them
(issue 24): the site translates by the code, logs and tests read the English."""

from __future__ import annotations

import string
from collections import Counter
from typing import get_type_hints

import pytest

from tables.rules.classic import ClassicSettings, classic_new
from tables.rules.errors import (
    ENGLISH,
    InvalidCard,
    InvalidMove,
    InvalidSettings,
    Refusal,
    RefusalParams,
    RulesError,
    english,
)
from tables.rules.game import Discard, GameState, PickClosed, StartDeal, game_apply, game_new
from tables.rules.settings import GameSettings
from tables.rules.shoe import Shoe

from .test_game_support import any_shoe


def test_every_code_has_an_english_sentence_naming_only_known_params() -> None:
    known = set(get_type_hints(RefusalParams))
    assert set(ENGLISH) == set(Refusal)
    for code, sentence in ENGLISH.items():
        names = {name for _text, name, _spec, _conv in string.Formatter().parse(sentence) if name}
        assert names <= known, (code, names - known)


def test_the_english_joins_cards_by_spaces_and_other_lists_by_commas() -> None:
    assert english(Refusal.NOT_A_MELD, {"cards": ("10S", "10H", "5C")}) == (
        "10S 10H 5C is not a set or a run"
    )
    assert english(Refusal.UNKNOWN_SETTINGS, {"names": ("colour", "size")}) == (
        "unknown settings: colour, size"
    )


def _started() -> GameState:
    settings = GameSettings.for_variant("pool101", entry_fee=500)
    state = game_new(settings=settings, seats=[1, 2, 3], now=0.0, toss=1)
    return game_apply(state, StartDeal(any_shoe(settings)), now=0.0).state


def test_a_refused_move_names_its_code_and_params() -> None:
    state = _started()
    with pytest.raises(InvalidMove) as caught:
        game_apply(state, PickClosed(2), now=1.0)
    assert caught.value.code is Refusal.NOT_SEATS_TURN
    assert caught.value.params == {"seat": 2}
    assert str(caught.value) == "it is not seat 2's turn"

    picked = game_apply(state, PickClosed(1), now=1.0).state
    deal = picked.deal
    assert deal is not None
    held = Counter(next(h for h in deal.hands if h.seat == 1).cards)
    missing = next(card for card in deal.closed if held[card] == 0)
    with pytest.raises(InvalidMove) as caught:
        game_apply(picked, Discard(1, missing), now=2.0)
    assert caught.value.code is Refusal.NOT_HELD
    assert caught.value.params == {"card": missing.code}
    assert str(caught.value) == f"you do not hold {missing.code}"


def test_a_bad_shoe_is_refused_as_a_move_with_the_shoes_own_code() -> None:
    settings = GameSettings.for_variant("pool101", entry_fee=500)
    state = game_new(settings=settings, seats=[1, 2, 3], now=0.0, toss=1)
    short = Shoe(any_shoe(settings).cards[:-1])
    with pytest.raises(InvalidMove) as caught:
        game_apply(state, StartDeal(short), now=0.0)
    assert caught.value.code is Refusal.SHOE_PACKS
    assert caught.value.params == {"packs": settings.packs, "count": 53}


def test_settings_and_cards_name_what_is_wrong() -> None:
    with pytest.raises(InvalidSettings) as caught:
        GameSettings.for_variant("pool101", wrong_show=-1)
    assert caught.value.code is Refusal.SETTING_NOT_NEGATIVE
    assert caught.value.params == {"name": "wrong_show"}
    assert str(caught.value) == "wrong_show cannot be negative"

    with pytest.raises(InvalidCard) as card:
        Discard(1, "ZZ")  # type: ignore[arg-type]  # on purpose: not a card
    assert card.value.code is Refusal.NOT_A_CARD and card.value.value == "ZZ"
    assert card.value.params == {"value": "'ZZ'"}


def test_classic_refusals_carry_codes_too() -> None:
    settings = ClassicSettings.for_variant("classic")
    with pytest.raises(InvalidMove) as caught:
        classic_new(settings=settings, seats=[1, 1], now=0.0, toss=1)
    assert caught.value.code is Refusal.SEAT_TWICE
    assert isinstance(caught.value, RulesError) and isinstance(caught.value, ValueError)
