"""What a seat or a spectator may see of a classic game (``classic_view``) and which actions
a seat may send now (``legal_actions``)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..cards import card_codes
from ..game.actions import Discard, Leave, PickClosed, PickOpen, Timeout
from ..scoring import prize_pool
from .actions import LayDown, LayOff, StartDeal
from .melds import hand_points
from .state import ClassicState


def legal_actions(state: ClassicState, seat: int | None) -> tuple[str, ...]:
    """The action types ``seat`` may send now (``None``: the server's own actions). A listed
    action can still be refused for its arguments (a card not held, cards that are no meld)."""
    if state.phase == "ended":
        return ()
    if seat is None:
        if state.phase == "break":
            return (StartDeal.type,)
        return (Timeout.type,) if state.deadline is not None else ()
    player = next((p for p in state.players if p.seat == seat), None)
    if player is None or player.left:
        return ()
    allowed: list[str] = []
    if state.phase == "turn" and state.turn == seat:
        if not state.picked:
            allowed += [PickClosed.type] if state.stock else []
            allowed += [PickOpen.type] if state.discard else []
        else:
            allowed.append(LayDown.type)
            if state.melds:
                allowed.append(LayOff.type)
            allowed.append(Discard.type)
    allowed.append(Leave.type)
    return tuple(allowed)


def _scores_json(scores: Iterable[tuple[int, int]]) -> list[dict[str, int]]:
    return [{"seat": seat, "points": points} for seat, points in scores]


def classic_view(state: ClassicState, viewer: int | None) -> dict[str, Any]:
    """What ``viewer`` (a seat, or ``None`` for a spectator) may see, as a JSON-ready dict, with
    the keys of ``game_view`` where they mean the same (see docs/classic-rummy.md).

    Table melds, the top of the discard pile, counts, totals and results are public; a hand
    only to its owner while the hand is played; after a hand every scored hand is shown in
    ``last_deal``. Never the stock's order nor the reshuffle seed."""
    settings = state.settings
    pool = prize_pool(settings.entry_fee, len(state.seats), settings.platform_fee_bps)
    players = [
        {
            "seat": p.seat,
            "status": "left" if p.left else "in",
            "total": p.total,
            "extra_time": p.bank,
            "connected": p.connected,
            "in_deal": p.in_hand or bool(p.hand),
            "deal_status": "playing" if p.in_hand else ("out" if p.hand else None),
            "card_count": len(p.hand),
            "missed_turns": p.missed,
            "melded": p.melded or (state.turn == p.seat and state.turn_melded),
        }
        for p in state.players
    ]
    deal_view: dict[str, Any] | None = None
    hand_view: dict[str, Any] | None = None
    if state.phase == "turn":
        deal_view = {
            "number": state.hand_no,
            "starter": state.starter,
            "open_top": state.discard[-1].code if state.discard else None,
            "open_count": len(state.discard),
            "closed_count": len(state.stock),
            "reshuffles": state.reshuffles,
            "turn": state.turn,
            "turn_picked": state.picked,
            "picked_open_card": (
                state.picked_card.code
                if state.picked_card is not None and state.picked_from == "open"
                else None
            ),
            "melds": [meld.to_json() for meld in state.melds],
        }
        if viewer is not None and viewer in state.seats:
            own = state.player(viewer)
            if own.hand:
                hand_view = {
                    "cards": card_codes(own.hand),
                    "picked": (
                        state.picked_card.code
                        if state.turn == viewer and state.picked_card is not None
                        else None
                    ),
                    "status": "playing" if own.in_hand else "out",
                    "points": hand_points(own.hand, settings),
                }
    last_deal: dict[str, Any] | None = None
    if state.phase != "turn" and state.results:
        last = state.results[-1]
        last_deal = {
            "number": last.number,
            "winner": last.winner,
            "reason": last.reason,
            "results": [
                {"seat": seat, "points": points, "cards": card_codes(state.player(seat).hand)}
                for seat, points in last.scores
            ],
            "melds": [meld.to_json() for meld in state.melds],
        }
    result_view: dict[str, Any] | None = None
    if state.payouts is not None:
        result_view = {
            "reason": "ring",
            "winners": [seat for seat, _ in state.payouts],
            "payouts": [{"seat": seat, "amount": amount} for seat, amount in state.payouts],
            "fee": state.fee,
            "gross": pool.gross,
        }
    return {
        "variant": settings.variant,
        "phase": state.phase,
        "deadline": state.deadline,
        "deadline_kind": state.deadline_kind,
        "viewer": viewer,
        "seats": list(state.seats),
        "deal_number": state.hand_no,
        "hands_count": settings.hands,
        "prize": {"gross": pool.gross, "fee": pool.fee, "net": pool.net},
        "players": players,
        "deal": deal_view,
        "hand": hand_view,
        "last_deal": last_deal,
        "history": [
            {
                "number": r.number,
                "winner": r.winner,
                "reason": r.reason,
                "scores": _scores_json(r.scores),
            }
            for r in state.results
        ],
        "result": result_view,
        "allowed": list(legal_actions(state, viewer)) if viewer is not None else [],
    }
