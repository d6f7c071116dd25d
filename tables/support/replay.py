"""Support's replay of a deal (staff with ``accounts.review_deals``): the deal's part of the
move log (``selectors.deal_moves``, shared with My games' review: its own moves and those after
it up to the next deal), replayed from the stored state and shoe (``deal_history``, the step
list of ``selectors.deal_replay``), the state after it, its players, and whether it opens for
review (finished deals only; a live deal shows its public state). (What a deal's players see of
its shoe commitment comes with their table view: ``selectors.commitment_view``.)"""

from __future__ import annotations

from typing import Any

from tables.engines import engine_of
from tables.models import Deal, Seat
from tables.selectors import ReplayStep, deal_moves, deal_replay

__all__ = [
    "amounts_by_seat",
    "deal_history",
    "deal_is_reviewable",
    "deal_players",
    "deal_public_state",
    "deal_state_after",
]


def deal_state_after(*, deal: Deal) -> dict[str, Any] | None:
    """The game state after the deal's last move (``deal_moves``): the next deal's
    ``state_before``, or the game's state when this is its last deal."""
    following = (
        Deal.objects.filter(game_id=deal.game_id, number__gt=deal.number).order_by("number").first()
    )
    if following is not None:
        state: dict[str, Any] = following.state_before
        return state
    stored: dict[str, Any] | None = deal.game.state
    return stored


def deal_history(*, deal: Deal) -> list[ReplayStep]:
    """Every move of ``deal_moves`` replayed from the stored state and shoe (support only:
    every card), each step with the engine clock it ran at. Moves that are not engine actions
    (none are expected after the first deal) carry the state unchanged."""
    return deal_replay(deal=deal, moves=deal_moves(deal=deal))


def deal_players(*, deal: Deal) -> list[dict[str, Any]]:
    """The game's players: seat, user id, username and public name, by seat."""
    seats = Seat.objects.filter(game_id=deal.game_id, played=True).select_related("user")
    return [
        {
            "seat": s.seat_no,
            "user_id": s.user_id,
            "username": s.user.username,
            "name": s.user.public_name,
            "is_bot": s.is_bot,
        }
        for s in sorted(seats, key=lambda s: s.seat_no)
    ]


def amounts_by_seat(mapping: Any) -> dict[int, int]:
    """A stored ``{seat: amount}`` mapping (JSON keys are strings) as whole numbers."""
    return {int(k): int(v) for k, v in dict(mapping or {}).items()}


def deal_is_reviewable(deal: Deal) -> bool:
    """Only a finished deal opens for review and export (a live deal shows its public state)."""
    return deal.ended_at is not None


def deal_public_state(*, deal: Deal) -> dict[str, Any]:
    """What anyone watching sees of a live deal (the engine's spectator view)."""
    game = deal.game
    if game.state is None:
        return {}
    engine = engine_of(game.variant)
    return dict(engine.view(engine.state_from_json(game.state), None).raw)
