"""Random legal play of whole classic ring games (Hypothesis): cards are conserved, every table
meld stays valid, the state round-trips through JSON, and the payout sums to the prize."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations

from hypothesis import event, given, settings
from hypothesis import strategies as st

from tables.rules.cards import Card
from tables.rules.classic import (
    Action,
    ClassicSettings,
    ClassicState,
    DeckReshuffled,
    Discard,
    GameEnded,
    LayDown,
    LayOff,
    Leave,
    PickClosed,
    PickOpen,
    SetConnected,
    StartDeal,
    Timeout,
    classic_apply,
    classic_new,
    classic_shoe,
    classify_meld,
    seeded_shuffle,
)
from tables.rules.errors import InvalidMove
from tables.rules.shoe import Shoe

from .classic_kit import cards_in_play

MAX_STEPS = 6000


def find_melds(hand: tuple[Card, ...], rules: ClassicSettings) -> list[tuple[Card, ...]]:
    """Some melds in ``hand``: sets of a rank and runs of three in a suit (disjoint)."""
    found: list[tuple[Card, ...]] = []
    left = list(hand)
    for rank in {card.rank for card in left}:
        same = [card for card in left if card.rank == rank]
        for size in (4, 3):
            picked = next(
                (g for g in combinations(same, size) if classify_meld(g, rules) is not None),
                None,
            )
            if picked:
                found.append(picked)
                for card in picked:
                    left.remove(card)
                break
    for group in combinations(sorted(set(left)), 3):
        if all(card in left for card in group) and classify_meld(group, rules) is not None:
            found.append(group)
            for card in group:
                left.remove(card)
    return found


def choose(
    state: ClassicState, rng: random.Random, now: float, meld_rate: float
) -> tuple[Action, float]:
    rules = state.settings
    if state.phase == "break":
        staying = [p.seat for p in state.players if not p.left]
        if rng.random() < 0.02:
            return Leave(rng.choice(staying)), now
        shoe = seeded_shuffle(classic_shoe(rules), str(rng.random()), "shoe")
        return StartDeal(Shoe(shoe), seed=str(rng.random())), now
    seat = state.turn
    assert seat is not None
    roll = rng.random()
    if roll < 0.03 and state.deadline is not None:
        return Timeout(), max(now, state.deadline)
    if roll < 0.033:
        return Leave(rng.choice([p.seat for p in state.players if not p.left])), now
    if roll < 0.04:
        who = rng.choice([p for p in state.players if not p.left])
        return SetConnected(who.seat, not who.connected), now
    player = state.player(seat)
    if not state.picked:
        if state.discard and (not state.stock or rng.random() < 0.3):
            return PickOpen(seat), now
        return PickClosed(seat), now
    if rng.random() < meld_rate:
        melds = find_melds(player.hand, rules)
        if melds:
            return LayDown(seat, tuple(melds)), now
        for card in player.hand:
            for meld in state.melds:
                action = LayOff(seat, (card,), meld.id, rng.choice([None, "low", "high"]))
                try:
                    classic_apply(state, action, now=now)
                except InvalidMove:
                    continue
                return action, now
    return Discard(seat, rng.choice(player.hand)), now


@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(2, 4),
    by_melding=st.booleans(),
    wrap=st.booleans(),
    repeat_suits=st.booleans(),
    disconnect=st.sampled_from(["missed_turns", "drop"]),
    meld_rate=st.sampled_from([0.8, 0.03]),
)
@settings(max_examples=25, deadline=None)
def test_random_play_conserves_cards_and_pays_the_whole_prize(
    seed: int,
    players: int,
    by_melding: bool,
    wrap: bool,
    repeat_suits: bool,
    disconnect: str,
    meld_rate: float,
) -> None:
    rng = random.Random(seed)
    rules = ClassicSettings(
        hands=2,
        entry_fee=rng.choice([0, 999, 10_000]),
        platform_fee_bps=rng.choice([0, 1000, 1250]),
        go_out_by_melding=by_melding,
        run_wrap=wrap,
        set_suits_may_repeat=repeat_suits,
        disconnect_policy=disconnect,
        max_reshuffles=1,
    )
    seats = rng.sample(range(1, 10), players)
    state = classic_new(settings=rules, seats=seats, now=0.0, toss=rng.choice(seats))
    full = Counter(classic_shoe(rules))
    now = 0.0
    ended: list[GameEnded] = []
    reshuffles = 0
    for step in range(MAX_STEPS):
        if state.phase == "ended":
            break
        action, now = choose(state, rng, now + rng.random() * 5, meld_rate)
        try:
            result = classic_apply(state, action, now=now)
        except InvalidMove:
            assert isinstance(action, LayDown | LayOff | Discard | Leave)
            continue
        for before, after in zip(state.players, result.state.players, strict=True):
            assert after.total >= before.total
        state = result.state
        ended += [e for e in result.events if isinstance(e, GameEnded)]
        for happened in result.events:
            if isinstance(happened, DeckReshuffled):
                reshuffles += 1
                assert len(state.discard) == 1
                assert len(state.stock) == happened.closed_count
        if state.hand_no:
            assert cards_in_play(state) == full
        for meld in state.melds:
            found = classify_meld(meld.cards, rules)
            assert found is not None and found[0] == meld.kind
        if state.phase == "turn":
            current = state.player(state.turn)  # type: ignore[arg-type]
            assert current.in_hand and not current.left and current.hand
            assert state.deadline is not None and state.deadline_kind == "turn"
        if step % 25 == 0:
            assert ClassicState.from_json(json.loads(json.dumps(state.to_json()))) == state
    event(f"reshuffled: {reshuffles > 0}")
    assert state.phase == "ended"
    assert len(ended) == 1
    game = ended[0]
    assert sum(game.payouts.values()) + game.fee == rules.entry_fee * players
    assert sum(game.payouts.values()) == state.prize
    assert game.gross == rules.entry_fee * players
    assert all(not state.player(seat).left for seat in game.payouts)
    assert ClassicState.from_json(json.loads(json.dumps(state.to_json()))) == state
