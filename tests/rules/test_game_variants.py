"""The variant registry and the JSON forms the server stores (actions, events, states)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tables.rules.cards import parse_card
from tables.rules.errors import InvalidCard, InvalidMove, InvalidSettings
from tables.rules.game import (
    ACTION_TYPES,
    Arrange,
    DealEnded,
    Declare,
    Discard,
    Drop,
    GameEnded,
    GameState,
    Leave,
    PickClosed,
    PickOpen,
    Rejoin,
    SetAutoDrop,
    SetConnected,
    SplitAccept,
    SplitDecline,
    StartDeal,
    SubmitMeld,
    Timeout,
    action_from_json,
    game_apply,
    game_new,
    game_view,
)
from tables.rules.settings import GameSettings
from tables.rules.shoe import new_shoe
from tables.rules.variants import engine_for, register_engine, registered_variants

SAMPLE_ACTIONS: list[Any] = [
    StartDeal(new_shoe(GameSettings.for_variant("pool101"))),
    PickClosed(1),
    PickOpen(2),
    Discard(3, parse_card("10H")),
    Declare(1, parse_card("JK"), [["AS", "2S", "3S"], "4H 5H 6H"]),  # type: ignore[arg-type]
    Drop(2),
    SetAutoDrop(2, True),
    Arrange(1, [["QD"], ["KD", "AD"]]),  # type: ignore[arg-type]
    SubmitMeld(4, [["2C", "3C", "4C"]]),  # type: ignore[arg-type]
    Rejoin(3),
    SplitAccept(1),
    SplitDecline(2),
    Leave(5),
    SetConnected(6, False),
    Timeout(),
]


def test_every_action_type_has_a_sample() -> None:
    assert {type(a).type for a in SAMPLE_ACTIONS} == set(ACTION_TYPES)


@pytest.mark.parametrize("action", SAMPLE_ACTIONS, ids=lambda a: type(a).type)
def test_action_json_round_trip(action: Any) -> None:
    data = json.loads(json.dumps(action.to_json()))
    assert data["type"] == type(action).type
    assert action_from_json(data) == action


def test_actions_accept_codes_and_refuse_garbage() -> None:
    action = action_from_json({"type": "discard", "seat": 2, "card": "th"})
    assert action == Discard(2, parse_card("10H"))
    declare = action_from_json(
        {"type": "declare", "seat": 1, "finish_card": "jk", "groups": [["as", "2s", "3s"]]}
    )
    assert isinstance(declare, Declare) and declare.groups[0][0] == parse_card("AS")
    with pytest.raises(InvalidMove, match="unknown action"):
        action_from_json({"type": "cheat", "seat": 1})
    with pytest.raises(InvalidMove):
        action_from_json({"type": "discard", "seat": "one", "card": "2H"})
    with pytest.raises(InvalidMove):
        action_from_json({"type": "discard", "seat": 1})
    with pytest.raises(InvalidCard):
        action_from_json({"type": "discard", "seat": 1, "card": "1Z"})


def test_events_serialise_with_string_seat_keys() -> None:
    event = DealEnded(number=1, winner=2, reason="show", scores={1: 30, 2: 0})
    assert json.loads(json.dumps(event.to_json())) == {
        "type": "deal_ended",
        "number": 1,
        "winner": 2,
        "reason": "show",
        "scores": {"1": 30, "2": 0},
        "totals": {},
        "chips": {},
    }
    ended = GameEnded(reason="winner", winners=(2,), payouts={2: 900}, fee=100, gross=1000)
    assert ended.to_json()["payouts"] == {"2": 900}


@pytest.mark.parametrize("variant", ["pool101", "pool201", "deals", "points"])
def test_engine_for_thirteen_card_variants_plays_a_deal(variant: str) -> None:
    engine = engine_for(variant)
    settings = engine.settings_for(variant, entry_fee=100, point_value=1)
    assert engine.settings_from_json(json.loads(json.dumps(settings.to_json()))) == settings
    state = engine.new(settings=settings, seats=[1, 2], now=10.0, toss=2)
    assert engine.deal_due(state, 10.0)
    start = engine.new_start_deal(state.settings)
    assert action_from_json(start.to_json()) == start
    result = engine.apply(state, start, now=10.0)
    state = result.state
    assert engine.deadline(state) == (40.0, "turn")
    view = engine.view(state, 2)
    assert view.hand is not None and view.deal is not None
    assert len(view.hand.cards) == 13 and view.deal.turn == 2
    move = engine.action_from_json({"type": "pick_closed", "seat": 2})
    state = engine.apply(state, move, now=11.0).state
    assert engine.state_from_json(json.loads(json.dumps(state.to_json()))) == state


def test_engine_for_classic_and_unknown_variants() -> None:
    assert set(registered_variants()) >= {"pool101", "pool201", "deals", "points", "classic"}
    classic = engine_for("classic")
    settings = classic.settings_for("classic")
    state = classic.new(settings=settings, seats=[1, 2], now=0.0, toss=1)
    assert classic.deal_due(state, 0.0)
    state = classic.apply(state, classic.new_start_deal(settings), now=0.0).state
    assert classic.deadline(state)[1] == "turn"
    with pytest.raises(InvalidSettings, match="unknown variant"):
        engine_for("canasta")


@pytest.mark.parametrize("variant", ["pool101", "pool201", "deals", "points", "classic"])
@pytest.mark.parametrize("strength", ["easy", "medium", "hard"])
def test_every_engine_plays_its_computer_players_turns(variant: str, strength: str) -> None:
    """What differs by variant in a computer player lives behind the engine (``bot_action``):
    from the seat's own view, moves the engine accepts (a pick, then a throw or a meld; or a
    drop), at every level."""
    engine = engine_for(variant)
    settings = engine.settings_for(variant)
    state = engine.new(settings=settings, seats=[1, 2], now=0.0, toss=1)
    state = engine.apply(state, engine.new_start_deal(settings), now=0.0).state
    played = []
    for _ in range(6):
        view = engine.view(state, 1)
        if view.deal is None or view.deal.turn != 1 or not view.allowed:
            break
        choice = engine.bot_action(state, 1, strength=strength, seed=7)
        assert choice is not None and choice["type"] in view.allowed
        played.append(choice["type"])
        state = engine.apply(state, engine.action_from_json({**choice, "seat": 1}), now=0.0).state
    assert played and (played[0].startswith("pick") or played[0] == "drop")
    assert len(played) >= 2 or played == ["drop"]


def test_register_engine_adds_a_variant() -> None:
    pool = engine_for("pool101")
    register_engine(["pool_test_alias"], pool)
    assert engine_for("pool_test_alias") is pool
    assert "pool_test_alias" in registered_variants()


def test_state_json_round_trip_mid_deal_and_view_is_json() -> None:
    settings = GameSettings.for_variant("pool101", entry_fee=50)
    state = game_new(settings=settings, seats=[1, 2, 3], now=0.0, toss=1)
    state = game_apply(state, StartDeal(new_shoe(settings)), now=1.0).state
    state = game_apply(state, PickClosed(1), now=2.0).state
    data = json.loads(json.dumps(state.to_json()))
    assert GameState.from_json(data) == state
    assert "deal" in data and "closed" in data["deal"]  # the state keeps everything
    view = game_view(state, 1)
    assert json.loads(json.dumps(view)) == view
    assert "closed" not in view["deal"] and view["deal"]["closed_count"] == 106 - 39 - 2 - 1
    assert view["hand"]["picked"] is not None
    other = game_view(state, 2)
    assert other["hand"]["picked"] is None and len(other["hand"]["cards"]) == 13
    assert game_view(state, None)["hand"] is None
