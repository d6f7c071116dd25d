"""What a seat or a spectator may see of a 13-card game (``game_view``) and which actions a
seat may send now (``legal_actions``)."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any

from .. import scoring
from ..cards import RANK_CODES, Card
from ..melds import MeldSettings, count_points, is_joker, wild_rank
from .actions import (
    Arrange,
    Declare,
    Discard,
    Drop,
    Groups,
    Leave,
    PickClosed,
    PickOpen,
    Rejoin,
    SetAutoDrop,
    SplitAccept,
    SplitDecline,
    StartDeal,
    SubmitMeld,
    Timeout,
)
from .state import Deal, DealResult, GameState, drops_allowed, find_hand, prize_of


def _codes(cards: Iterable[Card]) -> list[str]:
    return [card.code for card in cards]


def _groups_json(groups: Groups) -> list[list[str]]:
    return [_codes(group) for group in groups]


def _can_pick_open(state: GameState, d: Deal) -> bool:
    if not d.open:
        return False
    if not is_joker(d.open[-1], d.cut_card):
        return True
    return state.settings.first_open_joker_pickable and d.first_open_on_top


def legal_actions(state: GameState, seat: int | None) -> tuple[str, ...]:
    """The action types ``seat`` may send now (``None``: the server's own actions). A listed
    action can still be refused for its arguments (a card not held, a wrong grouping)."""
    if state.phase == "ended":
        return ()
    if seat is None:
        server: list[str] = []
        if state.phase == "awaiting_deal":
            server.append(StartDeal.type)
        if state.deadline is not None:
            server.append(Timeout.type)
        return tuple(server)
    player = next((p for p in state.players if p.seat == seat), None)
    if player is None or player.status == "left":
        return ()
    allowed: list[str] = []
    d = state.deal
    hand = find_hand(d, seat) if d is not None else None
    if state.phase == "turn" and d is not None and hand is not None and hand.status == "playing":
        drops = drops_allowed(state.settings, d)
        if d.turn == seat:
            if d.picked is None:
                allowed.append(PickClosed.type)
                if _can_pick_open(state, d):
                    allowed.append(PickOpen.type)
                if drops:
                    allowed.append(Drop.type)
            else:
                allowed += [Discard.type, Declare.type]
        allowed.append(Arrange.type)
        if drops or hand.auto_drop:
            allowed.append(SetAutoDrop.type)
    elif state.phase == "meld" and hand is not None and hand.status == "playing":
        if not hand.submitted:
            allowed += [Arrange.type, SubmitMeld.type]
    elif state.phase == "rejoin" and state.rejoin is not None and seat in state.rejoin.seats:
        allowed.append(Rejoin.type)
    elif (
        state.phase == "split"
        and state.split is not None
        and seat in state.split.seats
        and seat not in state.split.accepted
    ):
        allowed += [SplitAccept.type, SplitDecline.type]
    allowed.append(Leave.type)
    return tuple(allowed)


def _result_json(result: DealResult) -> dict[str, Any]:
    return {
        "number": result.number,
        "winner": result.winner,
        "reason": result.reason,
        "tiebreak": result.tiebreak,
        "cut_joker": result.cut_card.code,
        "finish_card": result.finish_card.code if result.finish_card else None,
        "results": [
            {
                "seat": r.seat,
                "points": r.points,
                "outcome": r.outcome,
                "groups": _groups_json(r.groups),
            }
            for r in result.results
        ],
    }


def game_view(state: GameState, viewer: int | None) -> dict[str, Any]:
    """What ``viewer`` (a seat, or ``None`` for a spectator) may see, as a JSON-ready dict.

    Never the closed deck's order, nor another player's cards while a deal is played; after a
    deal every hand is shown in ``last_deal``. The keys are described in docs/game-engine.md.
    """
    return _viewer_view(_public_view(state), state, viewer)


def game_views(state: GameState, viewers: Sequence[int | None]) -> list[dict[str, Any]]:
    """``game_view`` for each of ``viewers``, in their order: what every viewer sees alike (the
    players, the deal, the scores) is worked out once and shared by the views (read, never
    changed); each adds its own hand and actions."""
    public = _public_view(state)
    return [_viewer_view(public, state, viewer) for viewer in viewers]


def _viewer_view(public: dict[str, Any], state: GameState, viewer: int | None) -> dict[str, Any]:
    """The public view with ``viewer``'s own keys put in their places."""
    d = state.deal
    hand_view: dict[str, Any] | None = None
    own = find_hand(d, viewer) if d is not None and viewer is not None else None
    if d is not None and own is not None:
        hand_view = {
            "cards": _codes(own.cards),
            "groups": _groups_json(own.groups),
            "picked": d.picked.code if d.turn == viewer and d.picked is not None else None,
            "auto_drop": own.auto_drop,
            "status": own.status,
            # The live count of the hand as arranged, also with the 14th card in it (the
            # player sees what the hand counts while choosing what to throw).
            "count": _hand_count(own.groups, d.cut_card, state.settings.meld),
        }
    return {
        **public,
        "viewer": viewer,
        "hand": hand_view,
        "allowed": list(legal_actions(state, viewer)) if viewer is not None else [],
    }


@functools.lru_cache(maxsize=4096)
def _hand_count(groups: Groups, cut_card: Card, meld: MeldSettings) -> int:
    """``count_points`` of an arrangement, remembered: a table's views count the same hands
    again and again while their players wait for their turns."""
    return count_points(groups, cut_card, settings=meld)


def _public_view(state: GameState) -> dict[str, Any]:
    """What every viewer of ``state`` sees alike, with the viewer's own keys (``viewer``,
    ``hand``, ``allowed``) empty in their places."""
    settings = state.settings
    d = state.deal
    prize = prize_of(state)
    players = []
    for p in state.players:
        hand = find_hand(d, p.seat) if d is not None else None
        entry: dict[str, Any] = {
            "seat": p.seat,
            "status": p.status,
            "total": p.total,
            "chips": p.chips,
            "drops_available": (
                scoring.drops_available(p.total, settings)
                if settings.is_pool and p.status == "in"
                else None
            ),
            "paid_entries": p.paid_entries,
            "rejoins": p.rejoins,
            "extra_time": p.extra_time,
            "connected": p.connected,
            "in_deal": hand is not None,
            "deal_status": hand.status if hand is not None else None,
            "card_count": len(hand.cards) if hand is not None else 0,
            "turns": hand.turns if hand is not None else 0,
            "missed_turns": hand.missed if hand is not None else 0,
            "submitted": hand.submitted if hand is not None else False,
        }
        players.append(entry)

    deal_view: dict[str, Any] | None = None
    if d is not None:
        show = None
        if d.declarer is not None:
            declarer = find_hand(d, d.declarer)
            assert declarer is not None
            show = {
                "seat": d.declarer,
                "groups": _groups_json(declarer.groups),
                "finish_card": d.finish_card.code if d.finish_card else None,
            }
        deal_view = {
            "number": d.number,
            "seats": list(d.seats),
            "starter": d.starter,
            "tiebreak": d.tiebreak,
            "cut_joker": d.cut_card.code,
            "wild_rank": RANK_CODES[wild_rank(d.cut_card)],
            "open_top": d.open[-1].code if d.open else None,
            "open_count": len(d.open),
            "closed_count": len(d.closed),
            "reshuffles": d.reshuffles,
            "turn": d.turn,
            "turn_picked": d.picked is not None,
            "picked_open_card": (
                d.picked.code if d.picked is not None and d.picked_from == "open" else None
            ),
            "in_extra_time": d.in_extra_time,
            "can_pick_open": _can_pick_open(state, d),
            "drops_allowed": drops_allowed(settings, d),
            "show": show,
        }

    rejoin_view = None
    if state.rejoin is not None and state.phase == "rejoin":
        rejoin_view = {
            "seats": list(state.rejoin.seats),
            "total": state.rejoin.total,
            "amount": state.rejoin.amount,
            "deadline": state.deadline,
        }
    split_view = None
    if state.split is not None and state.phase == "split":
        split_view = {
            "seats": list(state.split.seats),
            "amounts": [{"seat": s, "amount": a} for s, a in state.split.amounts],
            "accepted": list(state.split.accepted),
            "deadline": state.deadline,
        }
    result_view = None
    if state.result is not None:
        result_view = {
            "reason": state.result.reason,
            "winners": list(state.result.winners),
            "payouts": [{"seat": s, "amount": a} for s, a in state.result.payouts],
            "fee": state.result.fee,
            "gross": state.result.gross,
        }
    return {
        "variant": settings.variant,
        "phase": state.phase,
        "deadline": state.deadline,
        "deadline_kind": state.deadline_kind,
        "viewer": None,
        "seats": list(state.seats),
        "deal_number": state.deal_number,
        "deals_count": settings.deals_count if settings.is_deals else None,
        "pool_limit": settings.pool_limit if settings.is_pool else None,
        "point_value": settings.point_value if settings.is_points else None,
        "tiebreak_seats": list(state.tiebreak_seats),
        "prize": {"gross": prize.gross, "fee": prize.fee, "net": prize.net},
        "players": players,
        "deal": deal_view,
        "hand": None,
        "last_deal": _result_json(state.history[-1]) if state.history else None,
        "history": [
            {
                "number": r.number,
                "winner": r.winner,
                "tiebreak": r.tiebreak,
                "scores": [{"seat": x.seat, "points": x.points} for x in r.results],
            }
            for r in state.history
        ],
        "rejoin": rejoin_view,
        "split": split_view,
        "result": result_view,
        "allowed": [],
    }
