"""One deal of a 13-card game, move by move: drops, shows, timers, the decks (RULES.md s. 4)."""

from __future__ import annotations

from collections import Counter

import pytest

from tables.rules.cards import parse_card
from tables.rules.errors import InvalidMove
from tables.rules.game import (
    Arrange,
    DealEnded,
    DeckReshuffled,
    Declare,
    Declared,
    Discard,
    Drop,
    Dropped,
    ExtraTimeStarted,
    GameState,
    Hand,
    Leave,
    PickClosed,
    PickOpen,
    SetAutoDrop,
    SetConnected,
    StartDeal,
    SubmitMeld,
    Timeout,
    TurnMissed,
    TurnStarted,
    default_arrangement,
    game_apply,
    game_new,
)
from tables.rules.melds import count_points
from tables.rules.settings import GameSettings
from tables.rules.shoe import stacked_shoe

from .test_game_support import (
    CUT,
    WINNER_GROUPS,
    Played,
    any_shoe,
    play_planned_deal,
    start_planned_deal,
)


def new_game(variant: str = "pool101", seats: tuple[int, ...] = (1, 2, 3), **kw: object) -> Played:
    settings = GameSettings.for_variant(variant, entry_fee=500, **kw)
    return Played(state=game_new(settings=settings, seats=list(seats), now=0.0, toss=seats[0]))


def scores(played: Played) -> dict[int, int]:
    ended = played.of_type(DealEnded)
    assert ended, "no deal has ended"
    return dict(ended[-1].scores)


def hand_of(state: GameState, seat: int) -> Hand:
    assert state.deal is not None
    return next(h for h in state.deal.hands if h.seat == seat)


# ----------------------------------------------------------------------------- dealing


def test_start_deal_deals_thirteen_each_and_starts_the_toss_winner() -> None:
    played = new_game(seats=(1, 2, 3, 4))
    played.state = game_new(settings=played.state.settings, seats=[1, 2, 3, 4], now=100.0, toss=3)
    played.now = 100.0
    result = played.apply(StartDeal(any_shoe(played.state.settings)))
    deal = played.state.deal
    assert deal is not None
    assert deal.seats == (3, 4, 1, 2) and deal.turn == 3
    assert all(len(h.cards) == 13 for h in deal.hands)
    assert len(deal.closed) == 106 - 4 * 13 - 2 and len(deal.open) == 1
    started = [e for e in result.events if isinstance(e, TurnStarted)]
    assert started == [TurnStarted(seat=3, deadline=100.0 + 30.0)]
    assert played.state.deadline == 130.0 and played.state.deadline_kind == "turn"


def test_start_deal_only_when_due_and_with_the_right_packs() -> None:
    played = new_game()
    settings = played.state.settings
    one_pack = GameSettings.for_variant("pool101", packs=1, seats_max=2)
    with pytest.raises(InvalidMove):
        played.apply(StartDeal(any_shoe(one_pack)))
    played.apply(StartDeal(any_shoe(settings)))
    with pytest.raises(InvalidMove):
        played.apply(StartDeal(any_shoe(settings)))


def test_next_deal_starts_with_the_next_player_still_in() -> None:
    played = new_game(seats=(1, 2, 3))
    play_planned_deal(played, winner=1, counts={2: 20, 3: 30})
    played.timeout()  # the break ends
    assert played.state.phase == "awaiting_deal"
    plan = start_planned_deal(played, winner=2, counts={})
    assert plan.order == (2, 3, 1)


def test_default_arrangement_groups_by_suit() -> None:
    cards = [parse_card(c) for c in ["QH", "2S", "JK", "5C", "AS", "9H", "2D"]]
    groups = default_arrangement(cards)
    assert [[c.code for c in g] for g in groups] == [
        ["AS", "2S"],
        ["9H", "QH"],
        ["2D"],
        ["5C"],
        ["JK"],
    ]


# ----------------------------------------------------------------------------- picking


def test_pick_and_discard_rules() -> None:
    played = new_game()
    played.apply(StartDeal(any_shoe(played.state.settings)))
    deal = played.state.deal
    assert deal is not None and deal.turn == 1
    with pytest.raises(InvalidMove, match="not seat 2's turn"):
        played.apply(PickClosed(2))
    with pytest.raises(InvalidMove, match="pick a card"):
        played.apply(Discard(1, hand_of(played.state, 1).cards[0]))
    top = deal.closed[0]
    played.apply(PickClosed(1))
    assert hand_of(played.state, 1).cards[-1] == top
    with pytest.raises(InvalidMove, match="already picked"):
        played.apply(PickOpen(1))
    with pytest.raises(InvalidMove, match="already picked"):
        played.apply(PickClosed(1))
    with pytest.raises(InvalidMove, match="drop only before"):
        played.apply(Drop(1))
    held = Counter(hand_of(played.state, 1).cards)
    missing = next(c for c in deal.closed[1:] if held[c] == 0)
    with pytest.raises(InvalidMove, match="do not hold"):
        played.apply(Discard(1, missing))
    played.apply(Discard(1, top))
    state = played.state
    assert state.deal is not None and state.deal.open[-1] == top and state.deal.turn == 2
    played.apply(PickOpen(2))
    assert hand_of(played.state, 2).cards[-1] == top


@pytest.mark.parametrize("pickable", [True, False])
def test_a_joker_on_the_open_deck_only_as_the_first_open_card(pickable: bool) -> None:
    played = new_game(first_open_joker_pickable=pickable)
    shoe = stacked_shoe(
        played.state.settings,
        hands=[
            [c for g in WINNER_GROUPS for c in g],
            ["2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "AH", "2D"],
            ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "AC", "3D"],
        ],
        open_card="JK",
        cut_card=CUT,
        closed_top=["KC"],
    )
    played.apply(StartDeal(shoe))
    if not pickable:
        with pytest.raises(InvalidMove, match="joker"):
            played.apply(PickOpen(1))
        return
    played.apply(PickOpen(1))
    assert hand_of(played.state, 1).cards[-1] == parse_card("JK")
    played.apply(Discard(1, parse_card("JK")))
    with pytest.raises(InvalidMove, match="joker"):
        played.apply(PickOpen(2))  # a printed joker that is not the first open card
    played.apply(PickClosed(2))
    played.apply(Discard(2, parse_card("KC")))
    with pytest.raises(InvalidMove, match="joker"):
        played.apply(PickOpen(3))  # a wild-rank card (the cut is KD: Kings are wild)


# ----------------------------------------------------------------------------- drops


def test_first_and_middle_drop_and_last_player_wins_at_once() -> None:
    played = new_game()
    played.apply(StartDeal(any_shoe(played.state.settings)))
    with pytest.raises(InvalidMove, match="turn"):
        played.apply(Drop(2))
    played.apply(Drop(1))
    assert played.of_type(Dropped)[-1] == Dropped(seat=1, reason="drop", score=20)
    state = played.state
    assert state.deal is not None and state.deal.turn == 2
    played.pass_turn()  # seat 2
    played.pass_turn()  # seat 3
    played.apply(Drop(2))  # a later turn: middle drop
    assert played.of_type(Dropped)[-1] == Dropped(seat=2, reason="drop", score=40)
    # Only seat 3 is left: wins at once with 0.
    assert scores(played) == {1: 20, 2: 40, 3: 0}
    ended = played.of_type(DealEnded)[-1]
    assert ended.winner == 3 and ended.reason == "last_player"
    assert played.state.phase == "break"


def test_pool_201_drop_scores() -> None:
    played = new_game("pool201")
    played.apply(StartDeal(any_shoe(played.state.settings)))
    played.apply(Drop(1))
    played.pass_turn()
    played.pass_turn()
    played.apply(Drop(2))
    assert scores(played) == {1: 25, 2: 50, 3: 0}


def test_no_drops_in_a_two_player_deals_game() -> None:
    played = new_game("deals", seats=(1, 2))
    played.apply(StartDeal(any_shoe(played.state.settings)))
    with pytest.raises(InvalidMove, match="not allowed"):
        played.apply(Drop(1))
    with pytest.raises(InvalidMove, match="not allowed"):
        played.apply(SetAutoDrop(2, True))
    three = new_game("deals", seats=(1, 2, 3))
    three.apply(StartDeal(any_shoe(three.state.settings)))
    three.apply(Drop(1))
    assert three.of_type(Dropped)[-1] == Dropped(seat=1, reason="drop", score=20)


def test_auto_drop_takes_effect_at_the_next_turn_and_can_be_cancelled() -> None:
    played = new_game(seats=(1, 2, 3, 4))
    played.apply(StartDeal(any_shoe(played.state.settings)))
    played.apply(SetAutoDrop(3, True))
    played.apply(SetAutoDrop(4, True))
    played.apply(SetAutoDrop(4, False))
    assert hand_of(played.state, 3).auto_drop
    played.pass_turn()  # seat 1
    played.pass_turn()  # seat 2 -> seat 3 drops before picking (first drop), seat 4 plays
    assert played.of_type(Dropped)[-1] == Dropped(seat=3, reason="auto_drop", score=20)
    state = played.state
    assert state.deal is not None and state.deal.turn == 4
    # Set during one's own turn before the pick: drops now; after the pick: next turn (middle).
    played.pass_turn()  # seat 4
    played.apply(PickClosed(1))
    played.apply(SetAutoDrop(1, True))
    assert hand_of(played.state, 1).status == "playing"
    assert played.state.deal is not None
    played.apply(Discard(1, played.state.deal.picked))  # type: ignore[arg-type]
    played.pass_turn()  # seat 2
    played.pass_turn()  # seat 4
    assert played.of_type(Dropped)[-1] == Dropped(seat=1, reason="auto_drop", score=40)


def test_auto_drop_does_not_apply_when_a_valid_show_comes_first() -> None:
    played = new_game()
    plan = start_planned_deal(played, winner=1, counts={2: 30, 3: 45})
    played.apply(SetAutoDrop(3, True))
    played.apply(PickClosed(1))
    assert played.state.deal is not None
    played.apply(Declare(1, played.state.deal.picked, plan.groups[1]))  # type: ignore[arg-type]
    played.apply(SubmitMeld(2, plan.groups[2]))
    played.apply(SubmitMeld(3, plan.groups[3]))
    # Neither had a first turn: deal show (half the count).
    assert scores(played) == {1: 0, 2: 15, 3: 22}


def test_leaving_counts_as_a_drop_and_takes_no_further_part() -> None:
    played = new_game()
    played.apply(StartDeal(any_shoe(played.state.settings)))
    played.apply(Leave(2))
    assert played.of_type(Dropped)[-1] == Dropped(seat=2, reason="leave", score=20)
    assert played.state.player(2).status == "left"
    with pytest.raises(InvalidMove):
        played.apply(Leave(2))
    played.apply(Drop(1))
    assert scores(played) == {1: 20, 2: 20, 3: 0}
    played.timeout()
    played.apply(StartDeal(any_shoe(played.state.settings)))
    assert played.state.deal is not None and played.state.deal.seats == (3, 1)


def test_leaving_a_two_player_game_hands_the_prize_to_the_other() -> None:
    played = new_game(seats=(1, 2))
    played.apply(StartDeal(any_shoe(played.state.settings)))
    played.pass_turn()
    played.apply(Leave(1))
    assert played.state.phase == "ended"
    result = played.state.result
    assert result is not None and result.winners == (2,)
    assert result.payouts == ((2, 900),) and result.fee == 100  # 2 x 500 less 10 %


def test_disconnect_policies() -> None:
    played = new_game(disconnect_policy="drop")
    played.apply(StartDeal(any_shoe(played.state.settings)))
    played.apply(SetConnected(3, False))
    assert played.of_type(Dropped)[-1] == Dropped(seat=3, reason="disconnect", score=40)
    assert not played.state.player(3).connected
    played.apply(SetConnected(3, True))
    assert played.state.player(3).connected

    waiting = new_game()  # default: missed turns
    waiting.apply(StartDeal(any_shoe(waiting.state.settings)))
    waiting.apply(SetConnected(3, False))
    assert hand_of(waiting.state, 3).status == "playing"
    assert not waiting.of_type(Dropped)


# ----------------------------------------------------------------------------- shows


def test_declare_needs_fourteen_cards_and_the_right_groups() -> None:
    played = new_game()
    plan = start_planned_deal(played, winner=1, counts={2: 30, 3: 45})
    with pytest.raises(InvalidMove, match="14 cards"):
        played.apply(Declare(1, plan.groups[1][0][0], plan.groups[1]))
    played.apply(PickClosed(1))
    picked = played.state.deal.picked
    assert picked is not None
    with pytest.raises(InvalidMove, match="exactly the 13 cards"):
        played.apply(Declare(1, picked, plan.groups[1][:3]))
    held = hand_of(played.state, 1).cards
    stranger = next(c for c in map(parse_card, ("5D", "6D", "7D")) if c not in held)
    with pytest.raises(InvalidMove, match="do not hold"):
        played.apply(Declare(1, stranger, plan.groups[1]))


def test_valid_show_opens_the_meld_window_and_counts_the_losers() -> None:
    played = new_game(seats=(1, 2, 3, 4))
    plan = start_planned_deal(played, winner=2, counts={1: 34, 3: 100, 4: 3})
    played.pass_turn()  # seat 1 had a turn: counted in full
    played.apply(PickClosed(2))
    picked = played.state.deal.picked
    played.apply(Declare(2, picked, plan.groups[2]))  # type: ignore[arg-type]
    declared = played.of_type(Declared)[-1]
    assert declared.valid
    assert played.state.phase == "meld" and played.state.deadline_kind == "meld"
    assert played.state.deadline == played.now - 1 + 45
    with pytest.raises(InvalidMove):
        played.apply(PickClosed(3))
    with pytest.raises(InvalidMove, match="exactly your cards"):
        played.apply(SubmitMeld(3, plan.groups[4]))
    played.apply(SubmitMeld(1, plan.groups[1]))
    with pytest.raises(InvalidMove, match="already submitted"):
        played.apply(SubmitMeld(1, plan.groups[1]))
    played.apply(SubmitMeld(3, plan.groups[3]))
    played.apply(SubmitMeld(4, plan.groups[4]))
    # 1: full count 34; 3: deal show of 100 -> 50 -> kept at 40; 4: deal show of 3 -> 1 -> 2.
    assert scores(played) == {1: 34, 2: 0, 3: 40, 4: 2}
    last = played.state.history[-1]
    assert last.finish_card == picked and last.winner == 2
    assert {r.seat: r.outcome for r in last.results} == {
        1: "counted",
        2: "won",
        3: "deal_show",
        4: "deal_show",
    }


def test_deal_show_is_flat_twenty_in_deals_and_the_full_count_is_capped() -> None:
    played = new_game("deals", seats=(1, 2, 3))
    plan = start_planned_deal(played, winner=2, counts={1: 100, 3: 6})
    played.pass_turn()  # seat 1
    played.apply(PickClosed(2))
    played.apply(Declare(2, played.state.deal.picked, plan.groups[2]))  # type: ignore[arg-type]
    played.apply(SubmitMeld(1, plan.groups[1]))
    played.apply(SubmitMeld(3, plan.groups[3]))
    assert scores(played) == {1: 80, 2: 0, 3: 20}


def test_meld_window_timeout_counts_the_arrangement_held() -> None:
    played = new_game()
    plan = start_planned_deal(played, winner=3, counts={1: 30, 2: 45})
    played.pass_turn()
    played.apply(Arrange(2, plan.groups[2]))
    with pytest.raises(InvalidMove, match="exactly your cards"):
        played.apply(Arrange(2, plan.groups[1]))
    played.pass_turn()
    played.apply(PickClosed(3))
    played.apply(Declare(3, played.state.deal.picked, plan.groups[3]))  # type: ignore[arg-type]
    played.apply(SubmitMeld(1, plan.groups[1]))
    played.timeout()  # seat 2 never submits: counted on the arrangement the server holds
    assert scores(played) == {1: 30, 2: 45, 3: 0}


def test_wrong_show_scores_80_and_the_deal_goes_on() -> None:
    played = new_game()
    plan = start_planned_deal(played, winner=None, counts={1: 30, 2: 45, 3: 50})
    played.apply(PickClosed(1))
    picked = played.state.deal.picked
    played.apply(Declare(1, picked, plan.groups[1]))  # type: ignore[arg-type]
    declared = played.of_type(Declared)[-1]
    assert not declared.valid and "not a valid" in declared.reason
    # The verdict's code and parameters: the first group that is no meld (issue 33).
    assert declared.code == "invalid_group" and declared.group
    assert " ".join(c.code for c in declared.group) in declared.reason
    assert declared.to_json()["group"] == [c.code for c in declared.group]
    state = played.state
    assert hand_of(state, 1).status == "wrong_show" and hand_of(state, 1).score == 80
    assert state.phase == "turn" and state.deal is not None and state.deal.turn == 2
    played.pass_turn()
    played.pass_turn()
    state = played.state
    assert state.deal is not None and state.deal.turn == 2  # seat 1 is out of the deal
    played.apply(PickClosed(2))
    played.apply(Declare(2, played.state.deal.picked, plan.groups[2]))  # type: ignore[arg-type]
    # The second wrong show leaves only seat 3: it wins at once.
    assert scores(played) == {1: 80, 2: 80, 3: 0}


# ----------------------------------------------------------------------------- timers


def test_extra_time_then_missed_turns_then_out_with_middle_drop() -> None:
    played = new_game()
    played.apply(StartDeal(any_shoe(played.state.settings)))
    deadline = played.state.deadline
    assert deadline is not None
    played.now = deadline - 1
    with pytest.raises(InvalidMove, match="not run out"):
        played.apply(Timeout())
    played.timeout()
    assert played.of_type(ExtraTimeStarted)[-1] == ExtraTimeStarted(seat=1, deadline=deadline + 30)
    assert played.state.player(1).extra_time == 0
    assert played.state.deadline == deadline + 30
    before = played.state.deal
    assert before is not None
    played.timeout()  # missed turn 1: the server picks the closed top and throws it
    assert played.of_type(TurnMissed)[-1] == TurnMissed(seat=1, missed=1)
    after = played.state.deal
    assert after is not None and after.open[-1] == before.closed[0] and after.turn == 2
    assert Counter(hand_of(played.state, 1).cards) == Counter(
        next(h for h in before.hands if h.seat == 1).cards
    )
    played.pass_turn()
    played.pass_turn()
    played.timeout()  # missed 2 (no bank left)
    assert played.of_type(TurnMissed)[-1] == TurnMissed(seat=1, missed=2)
    played.pass_turn()
    played.pass_turn()
    played.apply(PickClosed(1))  # seat 1 acts: the missed turns are no longer consecutive
    picked = played.state.deal.picked
    played.timeout()  # the server throws the picked card: missed 1 again
    assert played.of_type(TurnMissed)[-1] == TurnMissed(seat=1, missed=1)
    assert played.state.deal is not None and played.state.deal.open[-1] == picked
    for missed in (2, 3):
        played.pass_turn()
        played.pass_turn()
        assert not played.of_type(Dropped)
        played.timeout()
        assert played.of_type(TurnMissed)[-1] == TurnMissed(seat=1, missed=missed)
    assert played.of_type(Dropped) == [Dropped(seat=1, reason="missed_turns", score=40)]
    assert hand_of(played.state, 1).status == "timed_out"
    assert played.state.deal is not None and played.state.deal.turn == 2


def test_missed_turns_without_drops_score_the_capped_count() -> None:
    for count, expected in ((50, 50), (100, 80)):
        played = new_game("deals", seats=(1, 2))
        plan = start_planned_deal(played, winner=2, counts={1: count})
        played.apply(Arrange(1, plan.groups[1]))
        for _ in range(3):
            played.timeout()  # extra time the first time round
            if played.state.deal is not None and played.state.deal.turn == 1:
                played.timeout()
            if played.state.deal is not None:
                played.pass_turn()
        dropped = played.of_type(Dropped)[-1]
        assert dropped == Dropped(seat=1, reason="missed_turns", score=expected)
        assert scores(played) == {1: expected, 2: 0}


def test_reshuffle_and_exhaustion_end_the_deal_with_zero_for_all() -> None:
    played = new_game(seats=(1, 2), max_reshuffles=1)
    played.apply(StartDeal(any_shoe(played.state.settings)))
    checked = False
    while played.state.phase == "turn":
        before = played.state.deal
        assert before is not None and before.closed, "a turn never starts without a closed deck"
        reshuffles = len(played.of_type(DeckReshuffled))
        played.pass_turn()
        if len(played.of_type(DeckReshuffled)) > reshuffles:
            # The open deck minus its top became the closed deck (identity keys: same order);
            # the card just thrown is the new open deck.
            after = played.state.deal
            assert after is not None and after.reshuffles == 1
            assert after.closed == before.open
            assert after.open == (before.closed[0],)
            checked = True
    assert checked
    assert len(played.of_type(DeckReshuffled)) == 1
    ended = played.of_type(DealEnded)[-1]
    assert ended.reason == "exhausted" and ended.winner is None
    assert scores(played) == {1: 0, 2: 0}


def test_illegal_actions_leave_the_state_unchanged() -> None:
    played = new_game()
    played.apply(StartDeal(any_shoe(played.state.settings)))
    before = played.state
    snapshot = before.to_json()
    for action in (PickClosed(3), Drop(2), Discard(1, parse_card("AS")), SubmitMeld(1, ())):
        with pytest.raises(InvalidMove):
            game_apply(before, action, now=1.0)
    assert before.to_json() == snapshot


def test_the_view_counts_the_arrangement_held() -> None:
    played = new_game()
    plan = start_planned_deal(played, winner=1, counts={2: 34, 3: 48})
    from tables.rules.game import game_view

    view = game_view(played.state, 2)
    assert view["hand"]["count"] == count_points(hand_of(played.state, 2).groups, CUT)
    played.apply(Arrange(2, plan.groups[2]))
    assert game_view(played.state, 2)["hand"]["count"] == 34


def test_the_view_counts_the_hand_with_its_fourteenth_card_too() -> None:
    played = new_game()
    start_planned_deal(played, winner=1, counts={2: 34, 3: 48})
    from tables.rules.game import game_view

    assert played.state.deal is not None
    seat = played.state.deal.turn
    assert seat is not None
    played.apply(PickClosed(seat))
    hand = hand_of(played.state, seat)
    assert len(hand.cards) == 14
    view = game_view(played.state, seat)
    assert view["hand"]["count"] == count_points(hand.groups, CUT)


def test_game_new_checks_seats_toss_and_variant() -> None:
    settings = GameSettings.for_variant("pool101")
    with pytest.raises(InvalidMove, match="2 to 6"):
        game_new(settings=settings, seats=[1], now=0.0, toss=1)
    with pytest.raises(InvalidMove, match="2 to 6"):
        game_new(settings=settings, seats=list(range(1, 8)), now=0.0, toss=1)
    with pytest.raises(InvalidMove, match="distinct"):
        game_new(settings=settings, seats=[1, 1, 2], now=0.0, toss=1)
    with pytest.raises(InvalidMove, match="toss"):
        game_new(settings=settings, seats=[1, 2], now=0.0, toss=3)
    with pytest.raises(InvalidMove, match="classic"):
        game_new(settings=GameSettings.for_variant("classic"), seats=[1, 2], now=0.0, toss=1)
    state = game_new(settings=settings, seats=[5, 2, 9], now=0.0, toss=9)
    assert state.phase == "awaiting_deal" and state.deadline is None
    assert [p.seat for p in state.players] == [5, 2, 9]
    with pytest.raises(InvalidMove, match="no timer"):
        game_apply(state, Timeout(), now=1.0)


def test_a_due_break_can_be_ended_by_start_deal() -> None:
    from tables.rules.game import deal_due

    played = new_game()
    played.apply(StartDeal(any_shoe(played.state.settings)))
    played.apply(Drop(1))
    played.pass_turn()
    played.apply(Drop(3))
    assert played.state.phase == "break"
    deadline = played.state.deadline
    assert deadline is not None
    assert not deal_due(played.state, deadline - 0.1)
    played.now = deadline - 0.1
    with pytest.raises(InvalidMove, match="due"):
        played.apply(StartDeal(any_shoe(played.state.settings)))
    assert deal_due(played.state, deadline)
    played.now = deadline
    played.apply(StartDeal(any_shoe(played.state.settings)))
    assert played.state.phase == "turn" and played.state.deal_number == 2
    assert played.state.deal is not None and played.state.deal.starter == 2


def test_a_disconnected_player_is_dropped_at_the_turn_under_the_drop_policy() -> None:
    played = new_game(disconnect_policy="drop")
    played.apply(SetConnected(2, False))  # before any deal: nothing to drop yet
    assert not played.of_type(Dropped)
    played.apply(StartDeal(any_shoe(played.state.settings)))
    played.pass_turn()  # seat 1; seat 2 is dropped when its turn comes, middle-drop score
    assert played.of_type(Dropped) == [Dropped(seat=2, reason="disconnect", score=40)]
    assert played.state.deal is not None and played.state.deal.turn == 3
