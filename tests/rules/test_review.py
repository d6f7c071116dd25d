"""A player's deal review (tables/rules/review.py) over the shared replay
(tables/rules/replay.py): for deals played by the computer players, the advice never claims a
throw was better than the engine's best, a show is flagged only where the 13 cards kept could
be shown, the hand is the player's own as the replay had it, and another player's closed picks
are never named."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables.rules.evaluate import evaluate_hand
from tables.rules.game import StartDeal, action_from_json, game_apply, game_new, game_view
from tables.rules.game.bot import STRENGTHS, Strength, bot_decide, public_record, seat_view
from tables.rules.game.state import find_hand
from tables.rules.game.view import legal_actions
from tables.rules.replay import LoggedMove, replay_moves
from tables.rules.review import deal_review
from tables.rules.settings import GameSettings
from tables.rules.shoe import Shoe, build_cards
from tables.rules.variants import engine_for

SETTINGS = GameSettings.for_variant("points", seats_min=2, seats_max=3, point_value=1)
ENGINE = engine_for("points")


def _played(seed: int, seats: int, strengths: tuple[Strength, ...]):
    cards = list(build_cards(SETTINGS))
    random.Random(seed).shuffle(cards)
    start = StartDeal(Shoe(tuple(cards), tuple(tuple(range(len(cards))) for _ in range(3))))
    before = game_new(settings=SETTINGS, seats=list(range(1, seats + 1)), now=0.0, toss=1)
    moves = [LoggedMove(1, "start_deal", {"type": "start_deal", "deal": 1}, 0.0)]
    state = game_apply(before, start, now=0.0).state
    events: list[dict] = []
    for step in range(400):
        if state.phase not in ("turn", "meld"):
            break
        for seat in state.seats:
            if set(legal_actions(state, seat)) - {"leave", "arrange", "set_auto_drop"}:
                view = seat_view(game_view(state, seat), public_record(events), SETTINGS)
                choice = bot_decide(view, strengths[seat - 1], seed=seed + step)
                if choice is not None:
                    break
        assert choice is not None
        action = action_from_json({**choice, "seat": seat})
        moves.append(LoggedMove(len(moves) + 1, choice["type"], action.to_json(), 0.0, seat))
        transition = game_apply(state, action, now=0.0)
        state = transition.state
        events += [e.to_json() for e in transition.events]
    return before, start.to_json(), moves


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    seats=st.sampled_from([2, 3]),
    strengths=st.tuples(*[st.sampled_from(STRENGTHS)] * 3),
)
def test_the_review_of_a_played_deal_keeps_its_promises(seed, seats, strengths):
    before, shoe, moves = _played(seed, seats, strengths)
    replayed = list(replay_moves(ENGINE, before, shoe, moves))
    for seat in range(1, seats + 1):
        review = deal_review(replayed, seat=seat, settings=SETTINGS, before=before)
        data = review.to_json()
        assert data["steps"] and data["result"] is not None
        lost = 0
        by_version = {r.move.version: r for r in replayed}
        # Steps are turns: none is blank (a re-arrangement belongs to the step around it), each
        # after the deal's start begins with a pick or follows a turn's end, and together they
        # say everything every move said.
        assert all(step.lines for step in review.steps)
        assert [step.index for step in review.steps] == list(range(len(review.steps)))
        turns = sum(1 for m in moves if m.action in ("pick_closed", "pick_open"))
        assert len(review.steps) <= 1 + turns + seats + 1
        for step in review.steps:
            replay = by_version[step.version]
            deal = replay.state.deal
            if deal is not None and step.hand:
                own = find_hand(deal, seat)
                assert own is not None
                assert step.hand == tuple(tuple(c.code for c in g) for g in own.groups)
            for line in step.lines:
                if line.kind == "picked_closed":
                    assert (line.card is not None) == (line.seat == seat)
            advice = step.advice
            if advice is None:
                continue
            assert advice.best_count <= advice.count_after_pick or advice.showed
            if advice.discard_count is not None:
                assert advice.best_count <= advice.discard_count
                lost += advice.lost
            if advice.show_possible:
                assert advice.best_count == 0
        assert lost == review.points_lost
        shown = [
            a.turn
            for a in (s.advice for s in review.steps)
            if a is not None and a.show_possible and not a.showed
        ]
        assert list(review.show_turns) == shown


def test_a_meld_window_compares_the_best_grouping_with_the_one_submitted():
    for seed in range(40):
        before, shoe, moves = _played(seed, 2, ("medium", "medium", "medium"))
        replayed = list(replay_moves(ENGINE, before, shoe, moves))
        for seat in (1, 2):
            review = deal_review(replayed, seat=seat, settings=SETTINGS, before=before)
            melds = [s.meld for s in review.steps if s.meld is not None]
            if melds:
                meld = melds[0]
                cards = [c for g in meld.submitted_groups for c in g]
                assert meld.best_count == evaluate_hand(cards, review.cut).points
                assert meld.best_count <= meld.submitted_count
                return
    raise AssertionError("no deal reached a meld window")
