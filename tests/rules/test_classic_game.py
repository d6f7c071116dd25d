"""Whole classic hands and ring games played through ``classic_apply`` with planted decks."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import TypeVar

import pytest

from tables.rules.cards import STANDARD_PACK, Card, parse_card, parse_cards
from tables.rules.classic import (
    Action,
    CardDiscarded,
    CardPicked,
    CardsLaidOff,
    ClassicSettings,
    ClassicState,
    DealEnded,
    DealStarted,
    DeckReshuffled,
    Discard,
    Dropped,
    Event,
    GameEnded,
    HandsShown,
    LayDown,
    LayOff,
    Leave,
    MeldsLaidDown,
    PickClosed,
    PickOpen,
    PlayerLeft,
    SetConnected,
    StartDeal,
    Timeout,
    TurnMissed,
    TurnStarted,
    WentOut,
    classic_action_from_json,
    classic_apply,
    classic_new,
    classic_view,
    deal_due,
    hand_points,
    legal_actions,
    seeded_shuffle,
    stacked_classic_shoe,
)
from tables.rules.errors import InvalidMove
from tables.rules.shoe import Shoe
from tables.rules.variants import engine_for

from .classic_kit import cards_in_play

# A starter hand that goes rummy on its first turn after drawing 6H: 3H-6H, 7C 7D 7S, 9S 10S JS
# laid down, KD discarded.
RUMMY_HAND = "3H 4H 5H 7C 7D 7S 9S 10S JS KD"
LOW_HAND = "2C 2D 3C 3D 4C 4D 5D 6D 2S 3S"  # 34 points
HIGH_HAND = "KC KH QC QH JC JH 10C 10H AC AH"  # 102 points
MID_HAND = "8C 8D 9C 9D 6C 6S 5S 4S 8S 2H"  # 65 points


E = TypeVar("E")


class Table:
    """Drives one game and keeps every event, checking each state's JSON round trip."""

    def __init__(
        self, settings: ClassicSettings, seats: Sequence[int] = (1, 2), toss: int = 1
    ) -> None:
        self.state = classic_new(settings=settings, seats=list(seats), now=0.0, toss=toss)
        self.now = 0.0
        self.events: list[Event] = []
        self.actions: list[tuple[Action, float]] = []

    def play(self, action: Action, *, after: float = 1.0) -> tuple[Event, ...]:
        self.now += after
        result = classic_apply(self.state, action, now=self.now)
        data = json.loads(json.dumps(result.state.to_json()))
        assert ClassicState.from_json(data) == result.state
        assert classic_action_from_json(json.loads(json.dumps(action.to_json()))) == action
        for event in result.events:
            json.dumps(event.to_json())
        self.state = result.state
        self.events.extend(result.events)
        self.actions.append((action, self.now))
        return result.events

    def deal(self, hands: Sequence[str], open_card: str, stock_top: str = "") -> None:
        shoe = stacked_classic_shoe(
            self.state.settings,
            hands=[parse_cards(hand) for hand in hands],
            open_card=open_card,
            stock_top=parse_cards(stock_top),
        )
        self.play(StartDeal(shoe, seed="planted-seed"))

    def hand(self, seat: int) -> list[str]:
        return [card.code for card in self.state.player(seat).hand]

    def of(self, kind: type[E]) -> list[E]:
        return [event for event in self.events if isinstance(event, kind)]


def groups(*texts: str) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(parse_cards(text)) for text in texts)


def go_rummy(table: Table, seat: int) -> None:
    table.play(PickClosed(seat))
    table.play(LayDown(seat, groups("3H 4H 5H 6H", "7C 7D 7S", "9S 10S JS")))
    table.play(Discard(seat, parse_card("KD")))


# ----------------------------------------------------------------------------- going out


def test_deal_gives_ten_cards_each_and_one_open_card() -> None:
    table = Table(ClassicSettings(), seats=(4, 7, 9), toss=7)
    table.deal([RUMMY_HAND, HIGH_HAND, LOW_HAND], "5C", "6H")
    assert table.hand(7) == RUMMY_HAND.split()
    assert table.hand(9) == HIGH_HAND.split()
    assert table.hand(4) == LOW_HAND.split()
    assert table.state.discard == (parse_card("5C"),)
    assert table.state.stock[0] == parse_card("6H")
    assert len(table.state.stock) == 104 - 30 - 1
    assert table.state.turn == 7
    assert table.state.deadline_kind == "turn"
    assert cards_in_play(table.state) == Counter(STANDARD_PACK * 2)


def test_rummy_bonus_and_scores() -> None:
    table = Table(ClassicSettings(hands=2))
    table.deal([RUMMY_HAND, HIGH_HAND], "5C", "6H")
    go_rummy(table, 1)
    went_out = table.of(WentOut)
    assert went_out == [WentOut(1, rummy=True, by="discard")]
    ended = table.of(DealEnded)[0]
    assert ended.reason == "rummy"
    assert ended.winner == 1
    assert ended.scores == {1: 0, 2: 102 + 25}
    assert ended.totals == {1: 0, 2: 127}
    assert table.state.player(2).total == 127
    assert table.state.phase == "break"
    assert table.state.deadline_kind == "break"
    assert table.state.starter == 2


def test_going_out_after_an_earlier_lay_down_is_not_rummy() -> None:
    table = Table(ClassicSettings(hands=2))
    table.deal([RUMMY_HAND, HIGH_HAND], "5C", "2S 3S 6H")
    table.play(PickClosed(1))
    table.play(LayDown(1, groups("7C 7D 7S")))
    table.play(Discard(1, parse_card("2S")))
    table.play(PickClosed(2))
    table.play(Discard(2, parse_card("3S")))
    table.play(PickClosed(1))
    table.play(LayDown(1, groups("3H 4H 5H 6H", "9S 10S JS")))
    table.play(Discard(1, parse_card("KD")))
    assert table.of(WentOut) == [WentOut(1, rummy=False, by="discard")]
    ended = table.of(DealEnded)[0]
    assert ended.reason == "went_out"
    assert ended.scores == {1: 0, 2: 102}
    assert table.of(HandsShown)[0].hands[2] == tuple(parse_cards(HIGH_HAND))


def test_last_card_must_be_discarded_unless_the_setting_allows_melding_out() -> None:
    hand = "3H 4H 5H 7C 7D 7S 9S 10S JS QS"
    melds = groups("3H 4H 5H", "7C 7D 7S", "9S 10S JS QS KS")
    table = Table(ClassicSettings())
    table.deal([hand, LOW_HAND], "5C", "KS")
    table.play(PickClosed(1))
    with pytest.raises(InvalidMove, match="discard"):
        table.play(LayDown(1, melds))
    assert len(table.hand(1)) == 11

    table = Table(ClassicSettings(go_out_by_melding=True))
    table.deal([hand, LOW_HAND], "5C", "KS")
    table.play(PickClosed(1))
    table.play(LayDown(1, melds))
    assert table.of(WentOut) == [WentOut(1, rummy=True, by="meld")]
    ended = table.of(DealEnded)[0]
    assert ended.scores == {1: 0, 2: 34 + 25}


@pytest.mark.parametrize("by_melding", [True, False])
def test_laying_off_the_last_card_goes_out_only_with_the_setting(by_melding: bool) -> None:
    table = Table(ClassicSettings(go_out_by_melding=by_melding))
    table.deal(["3H 4H 5H 7C 7D 7S 9S 10S JS 8S", LOW_HAND], "5C", "2H 3S 6H")
    table.play(PickClosed(1))
    table.play(LayDown(1, groups("3H 4H 5H", "7C 7D 7S", "9S 10S JS")))
    table.play(Discard(1, parse_card("2H")))
    table.play(PickClosed(2))
    table.play(Discard(2, parse_card("3S")))
    table.play(PickClosed(1))  # 6H
    table.play(LayOff(1, tuple(parse_cards("6H")), meld_id=1, end="high"))
    assert table.hand(1) == ["8S"]
    last = LayOff(1, tuple(parse_cards("8S")), meld_id=3, end="low")
    if not by_melding:
        with pytest.raises(InvalidMove, match="discard"):
            table.play(last)
        table.play(Discard(1, parse_card("8S")))
        assert table.of(WentOut) == [WentOut(1, rummy=False, by="discard")]
        return
    table.play(last)
    assert [c.code for c in table.state.melds[2].cards] == ["8S", "9S", "10S", "JS"]
    assert table.of(WentOut) == [WentOut(1, rummy=False, by="meld")]
    ended = table.of(DealEnded)[0]
    assert ended.scores == {1: 0, 2: 34}


def test_lay_off_on_another_players_meld_and_it_spoils_a_later_rummy() -> None:
    table = Table(ClassicSettings())
    p2 = "7H 8C 9C 10C 2D 2S 2H 4S 5S 6S"
    table.deal([RUMMY_HAND, p2], "QD", "2C 3C")
    table.play(PickClosed(1))  # 2C
    table.play(LayDown(1, groups("7C 7D 7S")))
    table.play(Discard(1, parse_card("2C")))
    table.play(PickClosed(2))  # 3C
    events = table.play(LayOff(2, tuple(parse_cards("7H")), meld_id=1))
    laid = [e for e in events if isinstance(e, CardsLaidOff)]
    assert len(laid) == 1
    assert [c.code for c in laid[0].meld.cards] == ["7C", "7D", "7S", "7H"]
    assert laid[0].meld.owner == 1
    table.play(Discard(2, parse_card("3C")))
    assert table.state.player(2).melded is True
    assert table.state.player(1).melded is True


# ----------------------------------------------------------------------------- illegal moves


def test_illegal_moves_raise_and_change_nothing() -> None:
    table = Table(ClassicSettings())
    table.deal([RUMMY_HAND, LOW_HAND], "5C", "6H")
    before = table.state
    bad: list[Action] = [
        PickClosed(2),
        Discard(1, parse_card("KD")),
        LayDown(1, groups("7C 7D 7S")),
        LayOff(1, tuple(parse_cards("KD")), meld_id=1),
        StartDeal(Shoe(STANDARD_PACK * 2), seed="x"),
        Timeout(),
        PickClosed(9),
    ]
    for action in bad:
        with pytest.raises(InvalidMove):
            classic_apply(before, action, now=1.0)
    table.play(PickOpen(1))
    assert table.hand(1)[-1] == "5C"
    picked = table.state
    more: list[Action] = [
        PickClosed(1),
        PickOpen(1),
        Discard(1, parse_card("AS")),
        LayDown(1, groups("3H 4H 6H")),
        LayDown(1, groups("7C 7D 7S", "7C 8C 9C")),
        LayDown(1, ()),
        LayOff(1, tuple(parse_cards("KD")), meld_id=1),
    ]
    for action in more:
        with pytest.raises(InvalidMove):
            classic_apply(picked, action, now=2.0)
    assert table.state == picked


def test_a_bad_shoe_is_refused() -> None:
    state = classic_new(settings=ClassicSettings(), seats=[1, 2], now=0.0, toss=1)
    with pytest.raises(InvalidMove):
        classic_apply(state, StartDeal(Shoe(STANDARD_PACK), seed="s"), now=0.0)
    with pytest.raises(InvalidMove):
        classic_apply(state, StartDeal(Shoe(STANDARD_PACK * 2), seed=""), now=0.0)


def test_new_game_checks_the_seats() -> None:
    with pytest.raises(InvalidMove):
        classic_new(settings=ClassicSettings(), seats=[1], now=0.0, toss=1)
    with pytest.raises(InvalidMove):
        classic_new(settings=ClassicSettings(), seats=[1, 1], now=0.0, toss=1)
    with pytest.raises(InvalidMove):
        classic_new(settings=ClassicSettings(), seats=[1, 2], now=0.0, toss=3)
    with pytest.raises(InvalidMove):
        classic_new(settings=ClassicSettings(), seats=list(range(7)), now=0.0, toss=1)


# ----------------------------------------------------------------------------- reshuffle


def draw_and_discard_until_reshuffle(table: Table) -> tuple[list[Card], Card, int]:
    """Both players draw from the stock and discard what they drew until the stock runs out.
    Returns the discard pile under the last discard, that discard, and who made it."""
    while True:
        seat = table.state.turn
        assert seat is not None
        table.play(PickClosed(seat))
        drawn = table.state.player(seat).hand[-1]
        pile_before = list(table.state.discard)
        empty = not table.state.stock
        table.play(Discard(seat, drawn))
        if empty:
            return pile_before, drawn, seat


def test_reshuffle_keeps_the_last_discard_on_the_new_pile() -> None:
    table = Table(ClassicSettings())
    table.deal([LOW_HAND, HIGH_HAND], "5C")
    stock_size = len(table.state.stock)
    assert stock_size == 104 - 20 - 1
    under, last, seat = draw_and_discard_until_reshuffle(table)
    shuffled = table.of(DeckReshuffled)
    assert shuffled == [DeckReshuffled(number=1, closed_count=len(under))]
    assert table.state.discard == (last,)
    assert Counter(table.state.stock) == Counter(under)
    assert table.state.stock == seeded_shuffle(under, "planted-seed", "reshuffle:1")
    assert table.state.reshuffles == 1
    assert cards_in_play(table.state) == Counter(STANDARD_PACK * 2)
    nxt = table.state.turn
    assert nxt is not None and nxt != seat
    table.play(PickOpen(nxt))
    assert table.state.player(nxt).hand[-1] == last


def test_reshuffle_replays_exactly() -> None:
    first = Table(ClassicSettings())
    first.deal([LOW_HAND, HIGH_HAND], "5C")
    draw_and_discard_until_reshuffle(first)
    replay = Table(ClassicSettings())
    for action, now in first.actions:
        replay.state = classic_apply(replay.state, action, now=now).state
    assert replay.state == first.state


def test_reshuffle_limit_ends_the_hand_void() -> None:
    table = Table(ClassicSettings(max_reshuffles=0))
    table.deal([LOW_HAND, HIGH_HAND], "5C")
    draw_and_discard_until_reshuffle(table)
    assert not table.of(DeckReshuffled)
    ended = table.of(DealEnded)[0]
    assert ended.winner is None
    assert ended.scores == {1: 0, 2: 0}
    assert table.state.phase == "break"


# ----------------------------------------------------------------------------- timers


def test_missed_turns_are_played_by_the_server_and_three_put_a_player_out() -> None:
    settings = ClassicSettings(turn_s=30, extra_time_s=30)
    table = Table(settings)
    table.deal([LOW_HAND, HIGH_HAND], "5C", "9H 2H 9D 3H KS")
    deadline = table.state.deadline
    assert deadline == pytest.approx(table.now + 60)
    with pytest.raises(InvalidMove):
        classic_apply(table.state, Timeout(), now=deadline - 0.01)  # type: ignore[operator]
    table.now = deadline - 1  # type: ignore[operator]
    events = table.play(Timeout())
    assert [type(e) for e in events] == [CardPicked, TurnMissed, CardDiscarded, TurnStarted]
    assert table.state.discard[-1] == parse_card("9H")
    assert table.state.player(1).missed == 1
    assert table.state.player(1).bank == 0
    assert table.state.turn == 2
    assert table.state.deadline == pytest.approx(table.now + 60)
    table.play(PickClosed(2), after=40)  # 10 s into the bank
    table.play(Discard(2, parse_card("2H")))
    assert table.state.player(2).bank == pytest.approx(19)
    assert table.state.deadline == pytest.approx(table.now + 30)
    table.now = table.state.deadline  # type: ignore[assignment]
    table.play(Timeout(), after=0)
    table.play(PickClosed(2))
    table.play(Discard(2, parse_card("3H")))
    table.now = table.state.deadline  # type: ignore[assignment]
    table.play(Timeout(), after=0)
    assert Dropped(1, "missed_turns", 34) in table.events
    ended = table.of(DealEnded)[0]
    assert ended.winner == 2
    assert ended.reason == "last_player"
    assert ended.scores == {1: hand_points(table.state.player(1).hand, settings), 2: 0}
    assert ended.scores[1] == 34


def test_a_timed_out_player_who_picked_discards_the_picked_card() -> None:
    table = Table(ClassicSettings())
    table.deal([LOW_HAND, HIGH_HAND], "5C", "9H")
    table.play(PickOpen(1))
    table.now = table.state.deadline  # type: ignore[assignment]
    table.play(Timeout(), after=0)
    assert table.state.discard[-1] == parse_card("5C")
    assert len(table.hand(1)) == 10


def test_own_discard_resets_the_missed_turn_count() -> None:
    table = Table(ClassicSettings())
    table.deal([LOW_HAND, HIGH_HAND], "5C")
    table.now = table.state.deadline  # type: ignore[assignment]
    table.play(Timeout(), after=0)
    table.play(PickClosed(2))
    table.play(Discard(2, table.state.player(2).hand[-1]))
    table.play(PickClosed(1))
    table.play(Discard(1, table.state.player(1).hand[-1]))
    assert table.state.player(1).missed == 0


def test_timeout_in_the_break_asks_for_a_deal() -> None:
    table = Table(ClassicSettings())
    with pytest.raises(InvalidMove, match="StartDeal"):
        table.play(Timeout())


# ----------------------------------------------------------------------------- absence


def test_leaving_mid_hand_passes_the_turn_and_forfeits_the_payout() -> None:
    settings = ClassicSettings(hands=1, entry_fee=10_000, platform_fee_bps=1000)
    table = Table(settings, seats=(1, 2, 3), toss=1)
    table.deal([RUMMY_HAND, LOW_HAND, HIGH_HAND], "5C", "2H 6H")
    table.play(PickClosed(1))
    table.play(Leave(1))
    assert table.of(PlayerLeft) == [PlayerLeft(1)]
    assert Dropped(1, "leave", hand_points(table.state.player(1).hand, settings)) in table.events
    assert table.state.turn == 2
    table.play(PickClosed(2))  # 6H
    table.play(Discard(2, parse_card("6H")))
    table.play(PickClosed(3))
    table.play(Leave(2))
    ended = table.of(DealEnded)[0]
    assert ended.winner == 3
    game = table.of(GameEnded)[0]
    assert game.payouts == {3: 27_000}
    assert game.fee == 3_000
    assert game.gross == 30_000
    assert game.winners == (3,)
    assert table.state.phase == "ended"
    with pytest.raises(InvalidMove):
        table.play(PickClosed(3))


def test_leaving_in_the_break_moves_the_starter_and_skips_the_next_deal() -> None:
    table = Table(ClassicSettings(hands=3), seats=(1, 2, 3), toss=1)
    table.deal([RUMMY_HAND, LOW_HAND, HIGH_HAND], "5C", "6H")
    go_rummy(table, 1)
    assert table.state.starter == 2
    table.play(Leave(2))
    assert table.state.starter == 3
    table.deal([RUMMY_HAND, LOW_HAND], "5C", "6H")
    started = table.of(DealStarted)[-1]
    assert started.seats == (3, 1)
    assert started.starter == 3
    assert table.state.player(2).hand == ()
    assert cards_in_play(table.state) == Counter(STANDARD_PACK * 2)


def test_disconnect_drop_policy_puts_the_player_out_of_the_hand() -> None:
    table = Table(ClassicSettings(disconnect_policy="drop"), seats=(1, 2, 3))
    table.deal([LOW_HAND, HIGH_HAND, MID_HAND], "5C")
    table.play(SetConnected(2, False))
    assert Dropped(2, "disconnect", 102) in table.events
    table.play(PickClosed(1))
    table.play(Discard(1, table.state.player(1).hand[-1]))
    assert table.state.turn == 3
    table.play(SetConnected(2, True))
    assert table.state.player(2).connected is True
    assert table.state.player(2).in_hand is False


def test_disconnect_default_lets_turns_run_out() -> None:
    table = Table(ClassicSettings())
    table.deal([LOW_HAND, HIGH_HAND], "5C")
    table.play(SetConnected(1, False))
    assert table.state.player(1).in_hand is True
    assert table.state.turn == 1
    table.now = table.state.deadline  # type: ignore[assignment]
    table.play(Timeout(), after=0)
    assert table.state.turn == 2


# ----------------------------------------------------------------------------- ring game


def test_a_whole_ring_game_rotates_the_starter_adds_totals_and_pays_out() -> None:
    settings = ClassicSettings(hands=3, entry_fee=10_000, platform_fee_bps=1000)
    table = Table(settings, seats=(1, 2, 3), toss=2)
    table.deal([RUMMY_HAND, LOW_HAND, HIGH_HAND], "5C", "6H")  # order 2, 3, 1
    go_rummy(table, 2)
    table.deal([RUMMY_HAND, LOW_HAND, HIGH_HAND], "5C", "6H")  # order 3, 1, 2
    go_rummy(table, 3)
    table.deal([RUMMY_HAND, HIGH_HAND, LOW_HAND], "5C", "6H")  # order 1, 2, 3
    go_rummy(table, 1)
    starters = [e.starter for e in table.of(DealStarted)]
    assert starters == [2, 3, 1]
    scores = [e.scores for e in table.of(DealEnded)]
    assert scores == [
        {1: 127, 2: 0, 3: 59},
        {1: 59, 2: 127, 3: 0},
        {1: 0, 2: 127, 3: 59},
    ]
    assert table.state.totals == {1: 186, 2: 254, 3: 118}
    game = table.of(GameEnded)
    assert len(game) == 1
    ended = game[0]
    # P = 30000 - 3000; seat 1 is 68 behind (weight 12, the only runner-up): 25 % of P.
    assert table.state.prize == 27_000
    assert ended.fee == 3_000
    assert ended.gross == 30_000
    assert ended.payouts == {3: 20_250, 1: 6_750}
    assert ended.winners == (1, 3)
    assert sum(ended.payouts.values()) + ended.fee == 3 * 10_000
    assert table.state.phase == "ended"
    assert table.state.deadline is None
    assert table.of(MeldsLaidDown)


def test_view_shows_table_melds_to_all_and_hands_only_to_their_owner() -> None:
    table = Table(ClassicSettings(entry_fee=500))
    table.deal([RUMMY_HAND, LOW_HAND], "5C", "8H 6H")
    table.play(PickClosed(1))
    table.play(LayDown(1, groups("7C 7D 7S")))
    mine = classic_view(table.state, 1)
    theirs = classic_view(table.state, 2)
    spectator = classic_view(table.state, None)
    assert mine["hand"]["cards"] == table.hand(1)
    assert mine["hand"]["picked"] == "8H"
    assert mine["allowed"] == ["lay_down", "lay_off", "discard", "leave"]
    assert theirs["hand"]["cards"] == table.hand(2)
    assert theirs["hand"]["picked"] is None
    assert theirs["hand"]["points"] == 34
    assert theirs["allowed"] == ["leave"]
    assert spectator["hand"] is None
    assert spectator["allowed"] == []
    for view in (mine, theirs, spectator):
        assert view["deal"]["melds"] == [
            {"id": 1, "kind": "set", "cards": ["7C", "7D", "7S"], "owner": 1}
        ]
        assert [p["card_count"] for p in view["players"]] == [8, 10]
        assert view["players"][0]["melded"] is True
        assert view["deal"]["open_top"] == "5C"
        assert view["deal"]["picked_open_card"] is None
        assert view["deal"]["closed_count"] == len(table.state.stock)
        assert view["prize"] == {"gross": 1000, "fee": 100, "net": 900}
        text = json.dumps(view)
        assert "seed" not in text
        assert "planted" not in text
    spectator_text = json.dumps(spectator)
    assert not any(f'"{code}"' in spectator_text for code in ("2D", "3D", "KD", "9S"))
    assert "8H" not in json.dumps(theirs)


def test_view_after_a_hand_shows_every_hand_and_the_result() -> None:
    table = Table(ClassicSettings(hands=1, entry_fee=1000))
    table.deal([RUMMY_HAND, HIGH_HAND], "5C", "6H")
    table.play(PickOpen(1))
    assert classic_view(table.state, 2)["deal"]["picked_open_card"] == "5C"
    table.play(Discard(1, parse_card("5C")))
    table.play(PickClosed(2))
    table.play(Discard(2, parse_card("6H")))
    table.play(PickOpen(1))
    table.play(LayDown(1, groups("3H 4H 5H 6H", "7C 7D 7S", "9S 10S JS")))
    table.play(Discard(1, parse_card("KD")))
    view = classic_view(table.state, None)
    assert view["phase"] == "ended"
    assert view["deal"] is None
    assert view["last_deal"]["reason"] == "rummy"
    assert view["last_deal"]["results"] == [
        {"seat": 1, "points": 0, "cards": []},
        {"seat": 2, "points": 127, "cards": HIGH_HAND.split()},
    ]
    assert view["history"] == [
        {
            "number": 1,
            "winner": 1,
            "reason": "rummy",
            "scores": [{"seat": 1, "points": 0}, {"seat": 2, "points": 127}],
        }
    ]
    assert view["result"] == {
        "reason": "ring",
        "winners": [1],
        "payouts": [{"seat": 1, "amount": 1800}],
        "fee": 200,
        "gross": 2000,
    }


def test_legal_actions_for_the_server_and_players() -> None:
    table = Table(ClassicSettings())
    assert legal_actions(table.state, None) == ("start_deal",)
    table.deal([RUMMY_HAND, LOW_HAND], "5C", "6H")
    assert legal_actions(table.state, None) == ("timeout",)
    assert legal_actions(table.state, 1) == ("pick_closed", "pick_open", "leave")
    assert legal_actions(table.state, 2) == ("leave",)
    table.play(PickClosed(1))
    assert legal_actions(table.state, 1) == ("lay_down", "discard", "leave")
    table.play(Leave(2))
    assert legal_actions(table.state, 1) == ()


def test_actions_from_json_accept_codes_and_refuse_13_card_actions() -> None:
    assert classic_action_from_json({"type": "discard", "seat": 2, "card": "th"}) == Discard(
        2, parse_card("10H")
    )
    lay = classic_action_from_json(
        {"type": "lay_off", "seat": 1, "cards": ["QS"], "meld_id": 3, "end": "high"}
    )
    assert lay == LayOff(1, tuple(parse_cards("QS")), 3, "high")
    down = classic_action_from_json({"type": "lay_down", "seat": 1, "melds": [["5h", "6h", "7h"]]})
    assert down == LayDown(1, groups("5H 6H 7H"))
    for bad in (
        {"type": "drop", "seat": 1},
        {"type": "declare", "seat": 1, "finish_card": "AS", "groups": []},
        {"type": "lay_off", "seat": 1, "cards": ["QS"], "meld_id": 3, "end": "middle"},
        {"type": "lay_down", "seat": "one", "melds": []},
        {"type": "discard", "seat": 1},
        {"seat": 1},
    ):
        with pytest.raises(InvalidMove):
            classic_action_from_json(bad)


def test_the_variant_registry_plays_classic_end_to_end() -> None:
    engine = engine_for("classic")
    rules = engine.settings_for("classic", hands=1, entry_fee=100)
    assert engine.settings_from_json(rules.to_json()) == rules
    state = engine.new(settings=rules, seats=[3, 5], now=100.0, toss=5)
    assert isinstance(state, ClassicState)
    assert engine.deal_due(state, 100.0)
    assert deal_due(state, 100.0)
    start = engine.new_start_deal(rules)
    assert isinstance(start, StartDeal)
    assert Counter(start.shoe.cards) == Counter(STANDARD_PACK * 2)
    assert len(start.seed) == 64
    assert engine.action_from_json(json.loads(json.dumps(start.to_json()))) == start
    state, events = engine.apply(state, start, now=100.0)
    assert isinstance(state, ClassicState)
    assert not deal_due(state, 200.0)
    assert isinstance(events[0], DealStarted)
    assert state.turn == 5
    assert engine.state_from_json(state.to_json()) == state
    hand = engine.view(state, 5).hand
    assert hand is not None and list(hand.cards) == [c.code for c in state.player(5).hand]
    assert engine.deadline(state) == (state.deadline, "turn")
