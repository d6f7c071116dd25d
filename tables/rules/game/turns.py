"""Play within a deal: dealing, picking, discarding, the show, drops (first, middle, auto,
on disconnect), arranging, leaving, the turn flow and every timeout."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from .. import scoring
from ..cards import Card, parse_cards
from ..errors import InvalidMove, InvalidShoe, Refusal
from ..melds import (
    DECLARATION_SIZE,
    GroupLike,
    MeldKind,
    MeldSettings,
    check_declaration,
    classify_group,
    count_points,
    is_joker,
)
from ..shoe import HAND_SIZE, check_shoe, deal, reshuffle
from .actions import (
    Arrange,
    Declare,
    Discard,
    Drop,
    Leave,
    PickClosed,
    PickOpen,
    SetAutoDrop,
    SetConnected,
    StartDeal,
    Timeout,
)
from .deal_end import (
    after_rejoin,
    conclude_if_alone,
    end_deal,
    end_game,
    maybe_end_meld,
    start_break,
    winner_takes_all,
    withdraw_split,
)
from .events import (
    Arranged,
    AutoDropSet,
    CardDiscarded,
    CardPicked,
    ConnectionChanged,
    DealDue,
    DealStarted,
    DeckReshuffled,
    Declared,
    Dropped,
    ExtraTimeStarted,
    PlayerLeft,
    SplitDeclined,
    TurnMissed,
    TurnStarted,
)
from .state import (
    Deal,
    EventLog,
    GameState,
    Hand,
    clockwise,
    current_deal,
    deal_due,
    default_arrangement,
    drops_allowed,
    find_hand,
    next_after,
    playing_hand,
    playing_seats,
    remove_from_groups,
    remove_one,
    require,
    same_cards,
    seats_in,
    with_hand,
    with_player,
)


def _start_deal(state: GameState, action: Any, now: float, log: EventLog) -> GameState:
    assert isinstance(action, StartDeal)
    require(deal_due(state, now), Refusal.DEAL_NOT_DUE)
    try:
        check_shoe(action.shoe, state.settings)
    except InvalidShoe as exc:
        raise InvalidMove(exc.code, **exc.params) from exc
    in_seats = seats_in(state)
    members = [s for s in state.tiebreak_seats if s in in_seats] or in_seats
    require(len(members) >= 2, Refusal.DEAL_NEEDS_TWO)
    if state.last_starter is None:
        starter = (
            state.toss if state.toss in members else next_after(state.seats, state.toss, members)
        )
    else:
        starter = next_after(state.seats, state.last_starter, members)
    order = clockwise(state.seats, starter, members)
    dealt = deal(action.shoe, len(order), HAND_SIZE)
    hands = tuple(
        Hand(seat=seat, cards=cards, groups=default_arrangement(cards))
        for seat, cards in zip(order, dealt.hands, strict=True)
    )
    number = state.deal_number + 1
    new_deal = Deal(
        number=number,
        seats=order,
        starter=starter,
        tiebreak=bool(state.tiebreak_seats),
        cut_card=dealt.cut_card,
        closed=dealt.closed,
        open=(dealt.open_card,),
        first_open_on_top=True,
        reshuffle_keys=action.shoe.reshuffle_keys,
        reshuffles=0,
        hands=hands,
    )
    state = replace(
        state,
        deal=new_deal,
        deal_number=number,
        last_starter=starter,
        rejoin=None,
        split=None,
    )
    log.add(
        DealStarted(
            number=number,
            seats=order,
            starter=starter,
            cut_card=dealt.cut_card,
            open_card=dealt.open_card,
            tiebreak=new_deal.tiebreak,
        )
    )
    return _begin_turn(state, starter, now, log)


def _on_turn(state: GameState, seat: int) -> tuple[Deal, Hand]:
    require(state.phase == "turn", Refusal.NOBODYS_TURN)
    d = current_deal(state)
    require(d.turn == seat, Refusal.NOT_SEATS_TURN, seat=seat)
    hand = find_hand(d, seat)
    assert hand is not None
    return d, hand


def _pick_closed(state: GameState, action: Any, now: float, log: EventLog) -> GameState:
    assert isinstance(action, PickClosed)
    d, hand = _on_turn(state, action.seat)
    require(d.picked is None, Refusal.ALREADY_PICKED)
    require(bool(d.closed), Refusal.CLOSED_DECK_EMPTY)
    card = d.closed[0]
    hand = replace(hand, cards=(*hand.cards, card), groups=(*hand.groups, (card,)), missed=0)
    d = replace(with_hand(d, hand), closed=d.closed[1:], picked=card, picked_from="closed")
    log.add(CardPicked(seat=action.seat, source="closed", card=card))
    return replace(state, deal=d)


def _pick_open(state: GameState, action: Any, now: float, log: EventLog) -> GameState:
    assert isinstance(action, PickOpen)
    d, hand = _on_turn(state, action.seat)
    require(d.picked is None, Refusal.ALREADY_PICKED)
    require(bool(d.open), Refusal.OPEN_DECK_EMPTY)
    card = d.open[-1]
    if is_joker(card, d.cut_card):
        allowed = state.settings.first_open_joker_pickable and d.first_open_on_top
        require(allowed, Refusal.OPEN_JOKER)
    hand = replace(hand, cards=(*hand.cards, card), groups=(*hand.groups, (card,)), missed=0)
    d = replace(
        with_hand(d, hand),
        open=d.open[:-1],
        picked=card,
        picked_from="open",
        first_open_on_top=False,
    )
    log.add(CardPicked(seat=action.seat, source="open", card=card))
    return replace(state, deal=d)


def _discard_card(
    state: GameState,
    d: Deal,
    hand: Hand,
    card: Card,
    *,
    auto: bool,
    log: EventLog,
    at: tuple[int, int] | None = None,
) -> GameState:
    groups = remove_from_groups(hand.groups, card, cut=d.cut_card, meld=state.settings.meld, at=at)
    hand = replace(
        hand,
        cards=remove_one(hand.cards, card),
        groups=groups,
        turns=hand.turns + 1,
    )
    d = replace(
        with_hand(d, hand),
        open=(*d.open, card),
        first_open_on_top=False,
        picked=None,
        picked_from=None,
    )
    log.add(CardDiscarded(seat=hand.seat, card=card, auto=auto))
    return replace(state, deal=d)


def _discard(state: GameState, action: Any, now: float, log: EventLog) -> GameState:
    assert isinstance(action, Discard)
    d, hand = _on_turn(state, action.seat)
    require(d.picked is not None, Refusal.PICK_BEFORE_DISCARD)
    require(action.card in hand.cards, Refusal.NOT_HELD, card=action.card.code)
    state = _discard_card(state, d, hand, action.card, auto=False, log=log, at=action.at)
    return _next_turn(state, action.seat, now, log)


@dataclass(frozen=True)
class ShowFault:
    """The judgement of a show for a program as well as for players: ``valid`` and ``reason``
    (``check_declaration``'s), and ``code``: "valid", "card_count" (``held``: the cards the
    groups hold, not ``DECLARATION_SIZE``), "no_pure_sequence", "one_sequence" or
    "invalid_group" (``group``: the first group that is no meld)."""

    valid: bool
    reason: str
    code: str
    held: int = 0
    group: tuple[Card, ...] = ()


def show_fault(
    groups: Iterable[GroupLike], cut_joker: Card | str, *, settings: MeldSettings | None = None
) -> ShowFault:
    """Judge a show (``check_declaration``) and say which of its rules it breaks, in the order
    ``check_declaration`` checks them."""
    declared = [tuple(cards) for cards in (parse_cards(g) for g in groups) if cards]
    verdict = check_declaration(declared, cut_joker, settings=settings)
    if verdict.valid:
        return ShowFault(True, verdict.reason, "valid")
    held = sum(len(g) for g in declared)
    if held != DECLARATION_SIZE:
        return ShowFault(False, verdict.reason, "card_count", held=held)
    kinds = [classify_group(g, cut_joker, settings=settings) for g in declared]
    if not any(kind is MeldKind.PURE_SEQUENCE for kind in kinds):
        return ShowFault(False, verdict.reason, "no_pure_sequence")
    if sum(1 for kind in kinds if kind.is_sequence) < 2:
        return ShowFault(False, verdict.reason, "one_sequence")
    group = next((g for g, kind in zip(declared, kinds, strict=True) if not kind.is_meld), ())
    return ShowFault(False, verdict.reason, "invalid_group", group=group)


def _declare(state: GameState, action: Any, now: float, log: EventLog) -> GameState:
    assert isinstance(action, Declare)
    d, hand = _on_turn(state, action.seat)
    require(
        d.picked is not None and len(hand.cards) == HAND_SIZE + 1,
        Refusal.PICK_BEFORE_DECLARE,
    )
    require(action.finish_card in hand.cards, Refusal.NOT_HELD, card=action.finish_card.code)
    rest = remove_one(hand.cards, action.finish_card)
    require(
        same_cards(action.groups, rest),
        Refusal.GROUPS_NOT_THIRTEEN,
    )
    verdict = show_fault(action.groups, d.cut_card, settings=state.settings.meld)
    log.add(
        Declared(
            seat=action.seat,
            valid=verdict.valid,
            reason=verdict.reason,
            finish_card=action.finish_card,
            code=verdict.code,
            held=verdict.held,
            group=verdict.group,
        )
    )
    if not verdict.valid:
        score = scoring.wrong_show_score(state.settings)
        hand = replace(
            hand,
            groups=(*action.groups, (action.finish_card,)),
            status="wrong_show",
            turns=hand.turns + 1,
            score=score,
        )
        d = replace(with_hand(d, hand), picked=None, picked_from=None)
        state = replace(state, deal=d)
        return _after_out(state, action.seat, now, log)
    hand = replace(hand, cards=rest, groups=action.groups, status="declared", turns=hand.turns + 1)
    d = replace(
        with_hand(d, hand),
        picked=None,
        picked_from=None,
        turn=None,
        declarer=action.seat,
        finish_card=action.finish_card,
    )
    state = replace(state, deal=d)
    if not playing_seats(d):
        return end_deal(state, action.seat, "show", now, log)
    return replace(
        state,
        phase="meld",
        deadline=now + state.settings.meld_window_s,
        deadline_kind="meld",
    )


def _drop(state: GameState, action: Any, now: float, log: EventLog) -> GameState:
    assert isinstance(action, Drop)
    d, hand = _on_turn(state, action.seat)
    require(d.picked is None, Refusal.DROP_BEFORE_PICK)
    require(drops_allowed(state.settings, d), Refusal.DROPS_NOT_ALLOWED)
    return _go_out_dropping(state, hand, "drop", now, log)


def _go_out_dropping(
    state: GameState, hand: Hand, reason: str, now: float, log: EventLog, *, middle: bool = False
) -> GameState:
    """Drop ``hand`` (first or middle drop by its turns; ``middle`` forces the middle drop)."""
    score = scoring.drop_score(state.settings, first=hand.turns == 0 and not middle)
    status = "left" if reason == "leave" else "dropped"
    d = current_deal(state)
    d = with_hand(d, replace(hand, status=status, score=score, auto_drop=False))
    if d.turn == hand.seat:
        d = replace(d, picked=None, picked_from=None)
    log.add(Dropped(seat=hand.seat, reason=reason, score=score))
    return _after_out(replace(state, deal=d), hand.seat, now, log)


def _set_auto_drop(state: GameState, action: Any, now: float, log: EventLog) -> GameState:
    assert isinstance(action, SetAutoDrop)
    require(state.phase == "turn", Refusal.AUTO_DROP_NOT_NOW)
    d = current_deal(state)
    hand = playing_hand(d, action.seat, Refusal.NOT_PLAYING)
    if action.on:
        require(drops_allowed(state.settings, d), Refusal.DROPS_NOT_ALLOWED)
    log.add(AutoDropSet(seat=action.seat, on=action.on))
    if action.on and d.turn == action.seat and d.picked is None:
        return _go_out_dropping(state, hand, "auto_drop", now, log)
    d = with_hand(d, replace(hand, auto_drop=action.on))
    return replace(state, deal=d)


def _arrange(state: GameState, action: Any, now: float, log: EventLog) -> GameState:
    assert isinstance(action, Arrange)
    require(state.phase in ("turn", "meld"), Refusal.NO_HAND_TO_ARRANGE)
    d = current_deal(state)
    hand = playing_hand(d, action.seat, Refusal.NOT_PLAYING)
    require(not hand.submitted, Refusal.ALREADY_SUBMITTED)
    require(same_cards(action.groups, hand.cards), Refusal.GROUPS_NOT_YOUR_CARDS)
    log.add(Arranged(seat=action.seat))
    return replace(state, deal=with_hand(d, replace(hand, groups=action.groups)))


def _leave(state: GameState, action: Any, now: float, log: EventLog) -> GameState:
    assert isinstance(action, Leave)
    player = state.player(action.seat)
    require(player.status != "left", Refusal.ALREADY_LEFT)
    was_in = player.status == "in"
    state = with_player(state, replace(player, status="left"))
    log.add(PlayerLeft(seat=action.seat))
    d = state.deal
    hand = find_hand(d, action.seat) if d is not None else None
    if state.phase == "turn" and d is not None and hand is not None:
        if hand.status == "playing":
            return _go_out_dropping(state, hand, "leave", now, log)
        return state
    if state.phase == "meld" and d is not None and hand is not None:
        if hand.status == "playing" and not hand.submitted:
            state = replace(state, deal=with_hand(d, replace(hand, submitted=True)))
            return maybe_end_meld(state, now, log)
        return state
    if state.phase == "rejoin" and state.rejoin is not None:
        offer = state.rejoin
        state = replace(
            state, rejoin=replace(offer, seats=tuple(s for s in offer.seats if s != action.seat))
        )
        if len(seats_in(state)) < 2:
            return conclude_if_alone(state, now, log)
        if not state.rejoin or not state.rejoin.seats:
            return after_rejoin(state, now, log)
        return state
    if state.phase == "split" and state.split is not None and action.seat in state.split.seats:
        log.add(SplitDeclined(seat=action.seat))
        state = replace(state, split=None, split_declined_at=state.deal_number)
        if len(seats_in(state)) < 2:
            return conclude_if_alone(state, now, log)
        return start_break(state, now, log)
    if was_in and state.deal is None:
        if state.tiebreak_seats:
            remaining = tuple(s for s in state.tiebreak_seats if s != action.seat)
            if len(remaining) == 1:
                return end_game(state, "winner", winner_takes_all(state, remaining[0]), now, log)
            state = replace(state, tiebreak_seats=remaining)
        if len(seats_in(state)) < 2:
            return conclude_if_alone(state, now, log)
    return state


def _set_connected(state: GameState, action: Any, now: float, log: EventLog) -> GameState:
    assert isinstance(action, SetConnected)
    player = state.player(action.seat)
    if player.connected == action.connected:
        return state
    state = with_player(state, replace(player, connected=action.connected))
    log.add(ConnectionChanged(seat=action.seat, connected=action.connected))
    if action.connected or state.settings.disconnect_policy != "drop" or state.phase != "turn":
        return state
    d = current_deal(state)
    hand = find_hand(d, action.seat)
    if hand is None or hand.status != "playing" or not drops_allowed(state.settings, d):
        return state
    return _go_out_dropping(state, hand, "disconnect", now, log, middle=True)


def _timeout(state: GameState, action: Any, now: float, log: EventLog) -> GameState:
    assert isinstance(action, Timeout)
    require(state.deadline is not None, Refusal.NO_TIMER)
    assert state.deadline is not None
    require(now >= state.deadline, Refusal.TIMER_NOT_OUT)
    kind = state.deadline_kind
    if kind == "turn":
        return _turn_timeout(state, now, log)
    if kind == "meld":
        d = current_deal(state)
        assert d.declarer is not None
        return end_deal(state, d.declarer, "show", now, log)
    if kind == "break":
        log.add(DealDue(number=state.deal_number + 1))
        return replace(state, phase="awaiting_deal", deadline=None, deadline_kind=None)
    if kind == "rejoin":
        return after_rejoin(state, now, log)
    if kind == "split":
        log.add(SplitDeclined(seat=None))
        return withdraw_split(state, now, log)
    raise InvalidMove(Refusal.UNKNOWN_TIMER, value=repr(kind))


def _turn_timeout(state: GameState, now: float, log: EventLog) -> GameState:
    d = current_deal(state)
    assert d.turn is not None and state.deadline is not None
    seat = d.turn
    player = state.player(seat)
    if not d.in_extra_time and player.extra_time > 0:
        deadline = state.deadline + player.extra_time
        state = with_player(state, replace(player, extra_time=0.0))
        log.add(ExtraTimeStarted(seat=seat, deadline=deadline))
        return replace(state, deal=replace(d, in_extra_time=True), deadline=deadline)
    hand = find_hand(d, seat)
    assert hand is not None
    card = d.picked
    if card is None:
        card = d.closed[0]
        hand = replace(hand, cards=(*hand.cards, card), groups=(*hand.groups, (card,)))
        d = replace(with_hand(d, hand), closed=d.closed[1:])
        log.add(CardPicked(seat=seat, source="closed", card=card, auto=True))
    hand = replace(hand, missed=hand.missed + 1)
    log.add(TurnMissed(seat=seat, missed=hand.missed))
    state = _discard_card(state, d, hand, card, auto=True, log=log)
    d = current_deal(state)
    hand = find_hand(d, seat)
    assert hand is not None
    if hand.missed >= state.settings.missed_turns_limit:
        count = count_points(hand.groups, d.cut_card, settings=state.settings.meld)
        score = scoring.missed_turns_score(
            state.settings, drops_allowed=drops_allowed(state.settings, d), count=count
        )
        d = with_hand(d, replace(hand, status="timed_out", score=score, auto_drop=False))
        log.add(Dropped(seat=seat, reason="missed_turns", score=score))
        return _after_out(replace(state, deal=d), seat, now, log)
    return _next_turn(state, seat, now, log)


def _after_out(state: GameState, seat: int, now: float, log: EventLog) -> GameState:
    """``seat`` has just gone out of the deal during play."""
    d = current_deal(state)
    playing = playing_seats(d)
    if len(playing) == 1:
        return end_deal(state, playing[0], "last_player", now, log)
    if not playing:
        return end_deal(state, None, "last_player", now, log)
    if d.turn == seat:
        return _next_turn(state, seat, now, log)
    return state


def _next_turn(state: GameState, after: int, now: float, log: EventLog) -> GameState:
    d = current_deal(state)
    playing = playing_seats(d)
    if len(playing) <= 1:
        return end_deal(state, playing[0] if playing else None, "last_player", now, log)
    return _begin_turn(state, next_after(d.seats, after, playing), now, log)


def _begin_turn(state: GameState, seat: int, now: float, log: EventLog) -> GameState:
    d = current_deal(state)
    if not d.closed:
        if d.reshuffles >= state.settings.max_reshuffles or len(d.open) <= 1:
            return end_deal(state, None, "exhausted", now, log)
        closed, open_deck = reshuffle(d.open, d.reshuffle_keys[d.reshuffles])
        d = replace(d, closed=closed, open=open_deck, reshuffles=d.reshuffles + 1)
        log.add(DeckReshuffled(number=d.number, closed_count=len(closed)))
    d = replace(d, turn=seat, picked=None, picked_from=None, in_extra_time=False)
    state = replace(state, deal=d)
    hand = find_hand(d, seat)
    assert hand is not None
    settings = state.settings
    if drops_allowed(settings, d):
        if hand.auto_drop:
            return _go_out_dropping(state, hand, "auto_drop", now, log)
        if settings.disconnect_policy == "drop" and not state.player(seat).connected:
            return _go_out_dropping(state, hand, "disconnect", now, log, middle=True)
    deadline = now + settings.turn_s
    log.add(TurnStarted(seat=seat, deadline=deadline))
    return replace(state, phase="turn", deadline=deadline, deadline_kind="turn")


HANDLERS: dict[type, Any] = {
    StartDeal: _start_deal,
    PickClosed: _pick_closed,
    PickOpen: _pick_open,
    Discard: _discard,
    Declare: _declare,
    Drop: _drop,
    SetAutoDrop: _set_auto_drop,
    Arrange: _arrange,
    Leave: _leave,
    SetConnected: _set_connected,
    Timeout: _timeout,
}
