"""The computer players of three strengths (tables/rules/game/bot.py) decide from their own
seat's view only: a bot is handed a ``SeatView`` (its own cards, the open deck, the public
record of discards and open picks), never the state. Shuffling every card it cannot see (the
other hands and the closed deck) changes neither its view nor its choice."""

from __future__ import annotations

import dataclasses
import inspect
import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.rules.game import StartDeal, action_from_json, game_apply, game_new, game_view
from tables.rules.game.bot import (
    STRENGTHS,
    SeatView,
    bot_decide,
    public_record,
    seat_view,
)
from tables.rules.game.bot_play import bot_deal_play
from tables.rules.game.state import GameState, default_arrangement
from tables.rules.game.view import legal_actions
from tables.rules.settings import GameSettings
from tables.rules.shoe import Shoe, build_cards

SETTINGS = GameSettings.for_variant("points", seats_min=2, seats_max=3, point_value=1)


def _shoe(seed: int) -> Shoe:
    cards = list(build_cards(SETTINGS))
    random.Random(seed).shuffle(cards)
    return Shoe(tuple(cards), tuple(tuple(range(len(cards))) for _ in range(3)))


def _mid_deal(seed: int, moves: int, seats: int = 3) -> tuple[GameState, list[dict]]:
    """A deal played ``moves`` actions in by medium bots."""
    state = game_new(settings=SETTINGS, seats=list(range(1, seats + 1)), now=0.0, toss=1)
    transition = game_apply(state, StartDeal(_shoe(seed)), now=0.0)
    state, events = transition.state, [e.to_json() for e in transition.events]
    for step in range(moves):
        if state.phase != "turn":
            break
        seat = state.deal.turn
        view = seat_view(game_view(state, seat), public_record(events), SETTINGS)
        choice = bot_decide(view, "medium", seed=step)
        if choice is None or choice["type"] in ("declare", "drop"):
            break
        transition = game_apply(state, action_from_json({**choice, "seat": seat}), now=0.0)
        state = transition.state
        events += [e.to_json() for e in transition.events]
    return state, events


def _hide_shuffled(state: GameState, seat: int, seed: int) -> GameState:
    """The same state with every card ``seat`` cannot see dealt differently: the other hands
    and the closed deck shuffled together (each keeps its size)."""
    d = state.deal
    assert d is not None
    others = [h for h in d.hands if h.seat != seat]
    hidden = [c for h in others for c in h.cards] + list(d.closed)
    random.Random(seed).shuffle(hidden)
    hands = []
    for hand in d.hands:
        if hand.seat == seat:
            hands.append(hand)
            continue
        cards, hidden = tuple(hidden[: len(hand.cards)]), hidden[len(hand.cards) :]
        hands.append(dataclasses.replace(hand, cards=cards, groups=default_arrangement(cards)))
    deal = dataclasses.replace(d, hands=tuple(hands), closed=tuple(hidden))
    return dataclasses.replace(state, deal=deal)


def test_a_bot_is_given_a_seat_view_not_the_state():
    assert list(inspect.signature(bot_decide).parameters) == ["view", "strength", "seed"]
    names = {f.name for f in dataclasses.fields(SeatView)}
    assert not names & {"state", "hands", "closed", "shoe", "deal"}
    state, events = _mid_deal(3, 9)
    view = seat_view(game_view(state, 2), public_record(events), SETTINGS)
    own = next(h for h in state.deal.hands if h.seat == 2)
    assert Counter(view.cards) == Counter(own.cards)
    # the only other cards it holds are the ones thrown or taken in the open
    thrown = [(e.get("seat"), e["card"]) for e in events if e["type"] == "card_discarded"]
    assert [(s, c.code) for s, c in view.record.discards[1:]] == thrown
    taken = [
        (e["seat"], e["card"])
        for e in events
        if e["type"] == "card_picked" and e["source"] == "open"
    ]
    assert [(s, c.code) for s, c in view.record.open_picks] == taken


def test_the_public_record_never_holds_a_closed_pick():
    events = [
        {"type": "deal_started", "open_card": "5H", "seats": [1, 2], "starter": 1},
        {"type": "card_picked", "seat": 1, "source": "closed", "card": "KS"},
        {"type": "card_discarded", "seat": 1, "card": "9D"},
        {"type": "card_picked", "seat": 2, "source": "open", "card": "9D"},
    ]
    other = [dict(e) for e in events]
    other[1]["card"] = "2C"
    assert public_record(events) == public_record(other)
    record = public_record(events)
    assert [c.code for _, c in record.discards] == ["5H", "9D"]
    assert [(s, c.code) for s, c in record.open_picks] == [(2, "9D")]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 30), shuffle=st.integers(0, 10_000))
def test_no_bot_reads_another_seats_cards_or_the_closed_deck(seed, moves, shuffle):
    state, events = _mid_deal(seed, moves)
    if state.phase != "turn":
        return
    for seat in state.seats:
        hidden = _hide_shuffled(state, seat, shuffle)
        assert hidden != state or len(state.deal.closed) == 0
        view = seat_view(game_view(state, seat), public_record(events), SETTINGS)
        assert view == seat_view(game_view(hidden, seat), public_record(events), SETTINGS)
        for strength in STRENGTHS:
            assert bot_decide(view, strength, seed=seed) == bot_decide(
                seat_view(game_view(hidden, seat), public_record(events), SETTINGS),
                strength,
                seed=seed,
            )


def test_every_strength_plays_legal_deals_to_their_end():
    two = GameSettings.for_variant("points", seats_min=2, seats_max=2, point_value=1)
    for seed in range(6):
        for pair in (("easy", "hard"), ("hard", "medium"), ("medium", "easy")):
            cards = list(build_cards(two))
            random.Random(seed).shuffle(cards)
            shoe = Shoe(tuple(cards), tuple(tuple(range(len(cards))) for _ in range(3)))
            ended = bot_deal_play(two, shoe, {1: pair[0], 2: pair[1]}, toss=1, seed=seed)
            assert ended["type"] == "deal_ended" and set(ended["scores"]) == {"1", "2"}


def test_the_easy_bot_makes_mistakes_the_medium_bot_does_not():
    """Over the same shoes, easy loses more points than medium."""
    two = GameSettings.for_variant("points", seats_min=2, seats_max=2, point_value=1)
    easy = medium = 0
    for seed in range(40):
        cards = list(build_cards(two))
        random.Random(seed).shuffle(cards)
        shoe = Shoe(tuple(cards), tuple(tuple(range(len(cards))) for _ in range(3)))
        for seats in ({1: "easy", 2: "medium"}, {1: "medium", 2: "easy"}):
            scores = bot_deal_play(two, shoe, seats, toss=1, seed=seed)["scores"]
            for seat, strength in seats.items():
                if strength == "easy":
                    easy += scores[str(seat)]
                else:
                    medium += scores[str(seat)]
    assert easy > medium


def test_legal_actions_match_what_the_bots_send():
    state, events = _mid_deal(11, 4, seats=2)
    seat = state.deal.turn
    view = seat_view(game_view(state, seat), public_record(events), SETTINGS)
    for strength in STRENGTHS:
        choice = bot_decide(view, strength, seed=1)
        assert choice is not None and choice["type"] in legal_actions(state, seat)
