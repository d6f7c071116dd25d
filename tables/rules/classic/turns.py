"""Play within a hand: dealing, picking, laying down and off, discarding, going out, the
turn flow, drops, leaving and timeouts; ``HANDLERS`` maps each action class to its handler."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, Literal, TypeAlias

from ..cards import Card, card_codes, parse_card
from ..errors import InvalidMove, Refusal
from ..game.actions import Discard, Leave, PickClosed, PickOpen, SetConnected, Timeout
from ..game.events import (
    CardDiscarded,
    CardPicked,
    ConnectionChanged,
    DeckReshuffled,
    Dropped,
    PlayerLeft,
    TurnMissed,
    TurnStarted,
)
from .actions import LayDown, LayOff, StartDeal
from .events import CardsLaidOff, DealStarted, MeldsLaidDown, WentOut
from .hand_end import end_game, end_hand
from .melds import (
    TableMeld,
    card_points,
    check_no_jokers,
    classify_meld,
    hand_points,
    lay_off_result,
)
from .settings import ClassicSettings
from .shoe import classic_shoe, seeded_shuffle
from .state import ClassicPlayer, ClassicState, Turn, active_seats, next_seat


def _remove(hand: tuple[Card, ...], cards: Iterable[Card]) -> tuple[Card, ...]:
    remaining = list(hand)
    for card in cards:
        if card not in remaining:
            raise InvalidMove(Refusal.NOT_IN_HAND, card=card.code)
        remaining.remove(card)
    return tuple(remaining)


def _start_turn(work: Turn, seat: int) -> None:
    player = work.state.player(seat)
    work.set(
        turn=seat,
        picked=False,
        picked_card=None,
        picked_from=None,
        turn_melded=False,
        turn_started=work.now,
        deadline=work.now + work.settings.turn_s + player.bank,
        deadline_kind="turn",
    )
    work.events.append(TurnStarted(seat, work.now + work.settings.turn_s + player.bank))


def _spend_time(work: Turn, seat: int) -> None:
    """Charge the time of the turn that ends now beyond ``turn_seconds`` to the seat's bank."""
    started = work.state.turn_started
    if started is None:
        return
    player = work.state.player(seat)
    over = max(0.0, work.now - started - work.settings.turn_s)
    work.update_player(seat, bank=max(0.0, player.bank - over))


def _deal(work: Turn, action: StartDeal) -> None:
    state = work.state
    settings = work.settings
    shoe = tuple(action.shoe.cards)
    if Counter(shoe) != Counter(classic_shoe(settings)):
        raise InvalidMove(Refusal.CLASSIC_SHOE_PACKS, packs=settings.packs)
    if not isinstance(action.seed, str) or not action.seed:
        raise InvalidMove(Refusal.NO_RESHUFFLE_SEED)
    playing = [p.seat for p in state.players if not p.left]
    starter = state.starter
    index = playing.index(starter)
    order = playing[index:] + playing[:index]
    dealt: dict[int, list[Card]] = {seat: [] for seat in order}
    position = 0
    for _ in range(settings.hand_size):
        for seat in order:
            dealt[seat].append(shoe[position])
            position += 1
    discard_top = shoe[position]
    hand_no = state.hand_no + 1
    work.set(
        phase="turn",
        hand_no=hand_no,
        stock=shoe[position + 1 :],
        discard=(discard_top,),
        melds=(),
        next_meld_id=1,
        reshuffles=0,
        seed=action.seed,
        players=tuple(
            replace(p, hand=tuple(dealt[p.seat]), in_hand=True, melded=False, missed=0)
            if not p.left
            else replace(p, hand=(), in_hand=False, melded=False)
            for p in state.players
        ),
    )
    work.events.append(DealStarted(hand_no, tuple(order), starter, discard_top))
    if settings.disconnect_policy == "drop":
        for seat in order:
            if not work.state.player(seat).connected:
                _drop(work, seat, "disconnect")
    active = [seat for seat in order if work.state.player(seat).in_hand]
    if len(active) < 2:
        _end_short_hand(work, active)
    else:
        _start_turn(work, active[0])


def _require_turn(state: ClassicState, seat: int) -> ClassicPlayer:
    if state.phase != "turn":
        raise InvalidMove(Refusal.NO_HAND_PLAYED)
    player = state.player(seat)
    if state.turn != seat:
        raise InvalidMove(Refusal.NOT_YOUR_TURN)
    return player


def _pick(work: Turn, seat: int, source: Literal["closed", "open"], *, auto: bool) -> Card:
    state = work.state
    if state.picked:
        raise InvalidMove(Refusal.ALREADY_PICKED)
    if source == "closed":
        if not state.stock:
            raise InvalidMove(Refusal.STOCK_EMPTY)
        card, rest = state.stock[0], state.stock[1:]
        work.set(stock=rest, picked=True)
    else:
        if not state.discard:
            raise InvalidMove(Refusal.DISCARD_PILE_EMPTY)
        card, pile = state.discard[-1], state.discard[:-1]
        work.set(discard=pile, picked=True)
    player = work.state.player(seat)
    work.set(picked_card=card, picked_from=source)
    work.update_player(seat, hand=(*player.hand, card))
    work.events.append(CardPicked(seat, source, card, auto))
    return card


def _check_remaining(work: Turn, remaining: tuple[Card, ...]) -> None:
    if not remaining and not work.settings.go_out_by_melding:
        raise InvalidMove(Refusal.KEEP_A_CARD)


def _lay_down(work: Turn, action: LayDown) -> None:
    state = work.state
    player = _require_turn(state, action.seat)
    if not state.picked:
        raise InvalidMove(Refusal.PICK_FIRST)
    if not action.melds:
        raise InvalidMove(Refusal.LAY_DOWN_A_MELD)
    new: list[TableMeld] = []
    meld_id = state.next_meld_id
    for group in action.melds:
        cards = tuple(group)
        check_no_jokers(cards)
        found = classify_meld(cards, work.settings)
        if found is None:
            raise InvalidMove(Refusal.NOT_A_MELD, cards=tuple(card_codes(cards)))
        new.append(TableMeld(meld_id, found[0], found[1], action.seat))
        meld_id += 1
    remaining = _remove(player.hand, [card for group in action.melds for card in group])
    _check_remaining(work, remaining)
    work.update_player(action.seat, hand=remaining)
    work.set(melds=(*state.melds, *new), next_meld_id=meld_id, turn_melded=True)
    work.events.append(MeldsLaidDown(action.seat, tuple(new)))
    if not remaining:
        _go_out(work, action.seat, by="meld", rummy=not player.melded)


def _lay_off(work: Turn, action: LayOff) -> None:
    state = work.state
    player = _require_turn(state, action.seat)
    if not state.picked:
        raise InvalidMove(Refusal.PICK_FIRST)
    if action.end not in (None, "low", "high"):
        raise InvalidMove(Refusal.UNKNOWN_RUN_END, value=repr(action.end))
    target = next((meld for meld in state.melds if meld.id == action.meld_id), None)
    if target is None:
        raise InvalidMove(Refusal.NO_SUCH_MELD, meld=action.meld_id)
    cards = tuple(action.cards)
    remaining = _remove(player.hand, cards)
    grown = replace(target, cards=lay_off_result(target, cards, work.settings, action.end))
    _check_remaining(work, remaining)
    work.update_player(action.seat, hand=remaining)
    work.set(
        melds=tuple(grown if meld.id == target.id else meld for meld in state.melds),
        turn_melded=True,
    )
    work.events.append(CardsLaidOff(action.seat, cards, grown))
    if not remaining:
        _go_out(work, action.seat, by="meld", rummy=not player.melded)


def _discard(work: Turn, seat: int, card: Card, *, auto: bool) -> None:
    state = work.state
    player = state.player(seat)
    if not state.picked:
        raise InvalidMove(Refusal.PICK_BEFORE_DISCARDING)
    remaining = _remove(player.hand, [card])
    _spend_time(work, seat)
    work.update_player(
        seat,
        hand=remaining,
        melded=player.melded or state.turn_melded,
        missed=player.missed if auto else 0,
    )
    work.set(discard=(*state.discard, card))
    work.events.append(CardDiscarded(seat, card, auto))
    if not remaining:
        _go_out(work, seat, by="discard", rummy=not player.melded)
    else:
        _advance(work, seat)


def _go_out(work: Turn, seat: int, *, by: Literal["discard", "meld"], rummy: bool) -> None:
    """``seat`` has no card left: it wins the hand; ``rummy`` when it had not laid down or off
    in an earlier turn of the hand."""
    if by == "meld":
        _spend_time(work, seat)
        work.update_player(seat, melded=True)
    work.events.append(WentOut(seat, rummy, by))
    end_hand(work, winner=seat, reason="rummy" if rummy else "went_out")


def _end_short_hand(work: Turn, active: list[int]) -> None:
    """Fewer than two players still take turns: the last one wins the hand ("last_player");
    with nobody left the hand has no winner ("exhausted")."""
    if active:
        end_hand(work, winner=active[0], reason="last_player")
    else:
        end_hand(work, winner=None, reason="exhausted")


def _advance(work: Turn, after: int) -> None:
    """Pass the turn clockwise after ``after``; refill the stock first when it is empty."""
    state = work.state
    active = active_seats(state)
    if len(active) < 2:
        _end_short_hand(work, active)
        return
    if not state.stock:
        limit = work.settings.max_reshuffles
        if len(state.discard) < 2 or (limit is not None and state.reshuffles >= limit):
            end_hand(work, winner=None, reason="exhausted")
            return
        number = state.reshuffles + 1
        top = state.discard[-1]
        order = seeded_shuffle(state.discard[:-1], state.seed, f"reshuffle:{number}")
        work.set(stock=order, discard=(top,), reshuffles=number)
        work.events.append(DeckReshuffled(number, len(order)))
    nxt = next_seat(work.state, after, eligible=active)
    assert nxt is not None
    _start_turn(work, nxt)


DropReason: TypeAlias = Literal["missed_turns", "disconnect", "leave"]


def _drop(work: Turn, seat: int, reason: DropReason) -> None:
    """``seat`` takes no more turns in this hand (``Dropped.score``: the points it holds now;
    ``DealEnded.scores`` adds the rummy bonus if the winner goes rummy)."""
    work.update_player(seat, in_hand=False)
    hand = work.state.player(seat).hand
    work.events.append(Dropped(seat, reason, hand_points(hand, work.settings)))


def _remove_from_hand(work: Turn, seat: int, reason: DropReason) -> None:
    """``seat`` stops taking turns in this hand; pass the turn on if it was theirs."""
    state = work.state
    if state.phase != "turn" or not state.player(seat).in_hand:
        return
    was_turn = state.turn == seat
    if was_turn:
        _spend_time(work, seat)
    _drop(work, seat, reason)
    if was_turn:
        _advance(work, seat)
    else:
        active = active_seats(work.state)
        if len(active) < 2:
            _end_short_hand(work, active)


def _leave(work: Turn, seat: int) -> None:
    """``seat`` leaves the ring game: out of the current hand (its cards count against it),
    no further hands, no payout. With fewer than two players left the game ends."""
    if work.state.player(seat).left:
        raise InvalidMove(Refusal.ALREADY_LEFT)
    work.update_player(seat, left=True, connected=False)
    work.events.append(PlayerLeft(seat))
    _remove_from_hand(work, seat, "leave")
    state = work.state
    staying = [p.seat for p in state.players if not p.left]
    if state.phase == "turn" and len(staying) < 2:
        end_hand(work, winner=staying[0], reason="last_player")
    elif state.phase == "break" and len(staying) < 2:
        end_game(work)
    elif state.phase == "break" and state.starter == seat:
        starter = next_seat(state, seat, eligible=staying)
        assert starter is not None
        work.set(starter=starter)


def _timeout(work: Turn) -> None:
    """A missed turn: the server picks from the stock (unless the player has picked) and
    discards the card picked this turn (the highest-value card if that was melded)."""
    state = work.state
    if state.deadline is None:
        raise InvalidMove(Refusal.NO_TIMER)
    if work.now < state.deadline:
        raise InvalidMove(Refusal.TIMER_NOT_OUT)
    if state.phase == "break":
        raise InvalidMove(Refusal.BREAK_OVER)
    seat = state.turn
    assert seat is not None
    if not state.picked:
        card = _pick(work, seat, "closed", auto=True)
    else:
        hand = work.state.player(seat).hand
        last = work.state.picked_card
        card = last if last is not None and last in hand else _highest(hand, work.settings)
    missed = work.state.player(seat).missed + 1
    work.update_player(seat, missed=missed)
    work.events.append(TurnMissed(seat, missed))
    hand_before = work.state.hand_no
    _discard(work, seat, card, auto=True)
    after = work.state
    if (
        after.phase == "turn"
        and after.hand_no == hand_before
        and missed >= work.settings.missed_turns_limit
        and after.player(seat).in_hand
    ):
        _drop(work, seat, "missed_turns")
        active = active_seats(work.state)
        if len(active) < 2:
            _end_short_hand(work, active)


def _highest(hand: tuple[Card, ...], settings: ClassicSettings) -> Card:
    return max(hand, key=lambda card: (card_points(card, settings), card))


def _start_deal(work: Turn, action: Any) -> None:
    if work.state.phase != "break":
        raise InvalidMove(Refusal.HAND_IN_PLAY)
    _deal(work, action)


def _pick_action(work: Turn, action: Any) -> None:
    _require_turn(work.state, action.seat)
    _pick(work, action.seat, "closed" if isinstance(action, PickClosed) else "open", auto=False)


def _discard_action(work: Turn, action: Any) -> None:
    _require_turn(work.state, action.seat)
    _discard(work, action.seat, parse_card(action.card), auto=False)


def _set_connected(work: Turn, action: Any) -> None:
    player = work.state.player(action.seat)
    if player.left:
        raise InvalidMove(Refusal.PLAYER_LEFT)
    if player.connected != action.connected:
        work.update_player(action.seat, connected=action.connected)
        work.events.append(ConnectionChanged(action.seat, action.connected))
        if not action.connected and work.settings.disconnect_policy == "drop":
            _remove_from_hand(work, action.seat, "disconnect")


def _timeout_action(work: Turn, action: Any) -> None:
    _timeout(work)


def _leave_action(work: Turn, action: Any) -> None:
    _leave(work, action.seat)


HANDLERS: dict[type, Callable[[Turn, Any], None]] = {
    StartDeal: _start_deal,
    PickClosed: _pick_action,
    PickOpen: _pick_action,
    LayDown: _lay_down,
    LayOff: _lay_off,
    Discard: _discard_action,
    Timeout: _timeout_action,
    Leave: _leave_action,
    SetConnected: _set_connected,
}
