"""Random legal play never breaks the engine's invariants (Hypothesis).

Every step picks a random seat and one of the actions ``legal_actions`` lists for it (or the
server's ``StartDeal``/``Timeout``), with random arguments, and checks: every card of the shoe
is in exactly one place; arrangements hold exactly the hand; the state survives a JSON round
trip; a seat's view never shows another seat's cards during play; timers match the phase; pool
totals only grow; money adds up when the game ends.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.rules import scoring
from tables.rules.cards import Card
from tables.rules.engine_view import engine_view_of, engine_views_of
from tables.rules.errors import InvalidMove
from tables.rules.game import (
    Arrange,
    Declare,
    Discard,
    Drop,
    GameEnded,
    GameState,
    Groups,
    Leave,
    PickClosed,
    PickOpen,
    PointsSettled,
    Rejoin,
    SetAutoDrop,
    SetConnected,
    SplitAccept,
    SplitDecline,
    StartDeal,
    SubmitMeld,
    Timeout,
    deal_due,
    game_apply,
    game_new,
    game_view,
    game_views,
    legal_actions,
)
from tables.rules.game.state import find_hand
from tables.rules.melds import count_points
from tables.rules.settings import GameSettings
from tables.rules.shoe import Shoe, build_cards, new_shoe, random_permutation, stacked_shoe

from .test_game_support import WINNER_GROUPS

WINNER_CARDS = Counter(card for group in WINNER_GROUPS for card in group)
MAX_STEPS = 250


def random_shoe(game_settings: GameSettings, players: int, rnd: random.Random) -> Shoe:
    """A shuffled shoe; one time in three the starter is dealt a declarable hand."""
    if rnd.random() < 0.67:
        return new_shoe(game_settings, randbelow=rnd.randrange)
    rest = list((Counter(build_cards(game_settings)) - WINNER_CARDS).elements())
    rnd.shuffle(rest)
    # The planted hand needs Kings wild (its last group is J Q and a King of another suit).
    king = next(i for i, card in enumerate(rest) if card.rank == 13)
    used = 13 * (players - 1)
    rest[king], rest[used + 1] = rest[used + 1], rest[king]
    hands = [[c for g in WINNER_GROUPS for c in g]]
    for p in range(1, players):
        hands.append(rest[(p - 1) * 13 : p * 13])
    return stacked_shoe(
        game_settings,
        hands=hands,
        open_card=rest[used],
        cut_card=rest[used + 1],
        closed_top=rest[used + 2 :],
        reshuffle_keys=[
            random_permutation(game_settings.shoe_size, randbelow=rnd.randrange)
            for _ in range(game_settings.max_reshuffles)
        ],
    )


def random_groups(cards: tuple[Card, ...], rnd: random.Random) -> Groups:
    order = list(cards)
    rnd.shuffle(order)
    groups: list[tuple[Card, ...]] = []
    while order:
        size = rnd.randint(1, min(5, len(order)))
        groups.append(tuple(order[:size]))
        order = order[size:]
    return tuple(groups)


def choose_action(state: GameState, seat: int, kind: str, rnd: random.Random) -> Any:
    deal = state.deal
    hand = next((h for h in deal.hands if h.seat == seat), None) if deal else None
    if kind == "pick_closed":
        return PickClosed(seat)
    if kind == "pick_open":
        return PickOpen(seat)
    if kind == "discard":
        assert hand is not None
        return Discard(seat, rnd.choice(hand.cards))
    if kind == "declare":
        assert hand is not None
        if not (WINNER_CARDS - Counter(hand.cards)):
            finish = next(iter((Counter(hand.cards) - WINNER_CARDS).elements()))
            return Declare(seat, finish, WINNER_GROUPS)
        finish = rnd.choice(hand.cards)
        rest = list(hand.cards)
        rest.remove(finish)
        return Declare(seat, finish, random_groups(tuple(rest), rnd))
    if kind == "drop":
        return Drop(seat)
    if kind == "set_auto_drop":
        return SetAutoDrop(seat, rnd.random() < 0.5)
    if kind == "arrange":
        assert hand is not None
        return Arrange(seat, random_groups(hand.cards, rnd))
    if kind == "submit_meld":
        assert hand is not None
        return SubmitMeld(seat, random_groups(hand.cards, rnd))
    if kind == "rejoin":
        return Rejoin(seat)
    if kind == "split_accept":
        return SplitAccept(seat)
    if kind == "split_decline":
        return SplitDecline(seat)
    if kind == "leave":
        return Leave(seat)
    raise AssertionError(kind)


WEIGHTS = {
    "pick_closed": 10,
    "pick_open": 4,
    "discard": 12,
    "declare": 0.5,
    "drop": 0.3,
    "set_auto_drop": 0.05,
    "arrange": 0.3,
    "submit_meld": 6,
    "rejoin": 6,
    "split_accept": 6,
    "split_decline": 2,
    "leave": 0.01,
}


def can_show(state: GameState) -> int | None:
    """The seat on turn if it has picked and holds the planted declarable hand."""
    deal = state.deal
    if state.phase != "turn" or deal is None or deal.turn is None or deal.picked is None:
        return None
    hand = next(h for h in deal.hands if h.seat == deal.turn)
    return deal.turn if not (WINNER_CARDS - Counter(hand.cards)) else None


def check_invariants(state: GameState, previous: GameState) -> None:
    game_settings = state.settings
    deal = state.deal
    if deal is not None:
        places: list[Card] = [*deal.closed, *deal.open, deal.cut_card]
        for hand in deal.hands:
            places += hand.cards
            assert Counter(c for g in hand.groups for c in g) == Counter(hand.cards)
            assert all(g for g in hand.groups)
        if deal.finish_card is not None:
            places.append(deal.finish_card)
        assert Counter(places) == Counter(build_cards(game_settings))
        for hand in deal.hands:
            if hand.status == "playing" and state.phase == "turn":
                size = 14 if deal.turn == hand.seat and deal.picked is not None else 13
                assert len(hand.cards) == size
    # JSON round trip.
    data = json.loads(json.dumps(state.to_json()))
    assert GameState.from_json(data) == state
    # Timers match the phase.
    if state.phase in ("turn", "meld", "rejoin", "split", "break"):
        assert state.deadline is not None and state.deadline_kind == state.phase
    else:
        assert state.deadline is None and state.deadline_kind is None
    # Pool totals only grow.
    before = {p.seat: p.total for p in previous.players}
    for p in state.players:
        assert p.total >= before[p.seat] or p.rejoins > previous.player(p.seat).rejoins
    # Views: no other seat's cards while a deal is played.
    if deal is not None:
        for seat in state.seats:
            check_view(state, seat)
        check_view(state, None)


def _codes(value: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(value, str):
        found.add(value)
    elif isinstance(value, dict):
        for item in value.values():
            found |= _codes(item)
    elif isinstance(value, list):
        for item in value:
            found |= _codes(item)
    return found


def check_view(state: GameState, viewer: int | None) -> None:
    deal = state.deal
    assert deal is not None
    view = json.loads(json.dumps(game_view(state, viewer)))
    own = next((h for h in deal.hands if h.seat == viewer), None)
    if own is None:
        assert view["hand"] is None
    else:
        assert Counter(view["hand"]["cards"]) == Counter(c.code for c in own.cards)
    public = dict(view)
    public.pop("hand")
    public.pop("last_deal")
    public["deal"] = dict(public["deal"])
    public["deal"].pop("show")
    all_codes = {c.code for c in build_cards(state.settings)}
    visible = _codes(public) & all_codes
    allowed = {deal.cut_card.code}
    if deal.open:
        allowed.add(deal.open[-1].code)
    if deal.picked is not None and deal.picked_from == "open":
        allowed.add(deal.picked.code)
    assert visible <= allowed, visible - allowed
    assert view["deal"]["closed_count"] == len(deal.closed)
    for entry in view["players"]:
        assert set(entry) >= {"seat", "card_count"}


def check_views_together(state: GameState) -> None:
    """The views of several viewers worked out together (``game_views``, sharing what they show
    alike) are each viewer's own ``game_view``, read into the same typed views; a hand's count
    (remembered) is the arrangement's count."""
    viewers: list[int | None] = [*state.seats, None]
    together = game_views(state, viewers)
    alone = [game_view(state, viewer) for viewer in viewers]
    assert together == alone
    assert engine_views_of(together) == [engine_view_of(view) for view in alone]
    for viewer, view in zip(viewers, together, strict=True):
        own = find_hand(state.deal, viewer) if state.deal is not None and viewer else None
        if own is not None:
            assert state.deal is not None
            counted = count_points(own.groups, state.deal.cut_card, settings=state.settings.meld)
            assert view["hand"]["count"] == counted


def check_money(state: GameState, events: list[Any]) -> None:
    game_settings = state.settings
    for event in events:
        if isinstance(event, GameEnded) and not game_settings.is_points:
            entries = sum(p.paid_entries for p in state.players)
            gross = game_settings.entry_fee * entries
            assert event.gross == gross
            assert sum(event.payouts.values()) + event.fee == gross
            assert event.fee == scoring.platform_fee(gross, game_settings.platform_fee_bps)
        if isinstance(event, PointsSettled):
            assert sum(event.nets.values()) == -event.fee


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(
    variant=st.sampled_from(["pool101", "pool201", "deals", "points"]),
    players=st.integers(min_value=2, max_value=6),
    seed=st.integers(min_value=0, max_value=2**32 - 1),
    max_reshuffles=st.integers(min_value=0, max_value=3),
)
def test_random_legal_play_keeps_every_invariant(
    variant: str, players: int, seed: int, max_reshuffles: int
) -> None:
    rnd = random.Random(seed)
    game_settings = GameSettings.for_variant(
        variant,
        entry_fee=rnd.choice([0, 100, 999]),
        point_value=7,
        max_reshuffles=max_reshuffles,
        disconnect_policy=rnd.choice(["missed_turns", "drop"]),
    )
    seats = sorted(rnd.sample(range(1, 10), players))
    state = game_new(settings=game_settings, seats=seats, now=1000.0, toss=rnd.choice(seats))
    now = 1000.0
    for _ in range(MAX_STEPS):
        if state.phase == "ended":
            break
        now += rnd.choice([0.0, 0.5, 3.0])
        action: Any
        if deal_due(state, now) and rnd.random() < 0.8:
            members = [p for p in state.players if p.status == "in"]
            count = len(state.tiebreak_seats) or len(members)
            action = StartDeal(random_shoe(game_settings, count, rnd))
        elif rnd.random() < 0.03:
            action = SetConnected(rnd.choice(seats), rnd.random() < 0.5)
        elif (shower := can_show(state)) is not None and rnd.random() < 0.5:
            action = choose_action(state, shower, "declare", rnd)
        else:
            options = [(seat, kind) for seat in seats for kind in legal_actions(state, seat)]
            options = [(s, k) for s, k in options if WEIGHTS[k] > 0]
            if state.deadline is not None:
                options.append((0, "timeout"))
            weights = [WEIGHTS.get(kind, 2) for _, kind in options]
            seat, kind = rnd.choices(options, weights)[0]
            if kind == "timeout":
                assert state.deadline is not None
                now = max(now, state.deadline)
                action = Timeout()
            else:
                action = choose_action(state, seat, kind, rnd)
        try:
            result = game_apply(state, action, now=now)
        except InvalidMove:
            continue
        check_invariants(result.state, state)
        check_money(result.state, list(result.events))
        check_views_together(result.state)
        state = result.state
