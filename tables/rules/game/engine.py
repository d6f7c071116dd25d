"""The 13-card game's entry points: ``game_new``, ``game_apply`` (the dispatch to the handlers
of ``turns`` and ``deal_end``) and ``game_refunds``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .. import scoring
from ..errors import InvalidMove, Refusal
from ..machine import Transition, handler_for
from ..settings import THIRTEEN_CARD_VARIANTS, GameSettings
from . import deal_end, turns
from .actions import Action, SetConnected
from .events import Event
from .state import EventLog, GameState, Player

_HANDLERS: dict[type, Any] = {**turns.HANDLERS, **deal_end.HANDLERS}


def game_new(*, settings: GameSettings, seats: Sequence[int], now: float, toss: int) -> GameState:
    """A new game for ``seats`` (clockwise order) whose first deal ``toss`` starts. Every seat
    has paid the entry fee (pool and deals). The state awaits ``StartDeal``."""
    settings.validate()
    if settings.variant not in THIRTEEN_CARD_VARIANTS:
        raise InvalidMove(Refusal.ENGINE_NOT_VARIANT, value=repr(settings.variant))
    seat_tuple = tuple(seats)
    if len(set(seat_tuple)) != len(seat_tuple) or not all(
        isinstance(s, int) and not isinstance(s, bool) for s in seat_tuple
    ):
        raise InvalidMove(Refusal.SEATS_DISTINCT)
    if not settings.seats_min <= len(seat_tuple) <= settings.seats_max:
        raise InvalidMove(Refusal.SEATS_RANGE, low=settings.seats_min, high=settings.seats_max)
    if toss not in seat_tuple:
        raise InvalidMove(Refusal.TOSS_NOT_A_SEAT)
    chips = settings.deals_starting_chips if settings.is_deals else 0
    entries = 0 if settings.is_points else 1
    players = tuple(
        Player(
            seat=seat,
            status="in",
            total=0,
            chips=chips,
            paid_entries=entries,
            rejoins=0,
            extra_time=float(settings.extra_time_s),
            connected=True,
        )
        for seat in seat_tuple
    )
    return GameState(
        settings=settings, seats=seat_tuple, toss=toss, started_at=float(now), players=players
    )


def game_apply(state: GameState, action: Action, *, now: float) -> Transition[GameState, Event]:
    """Apply ``action`` at time ``now``. Raises ``InvalidMove`` (state unchanged) if illegal."""
    now = float(now)
    log = EventLog()
    if state.phase == "ended" and not isinstance(action, SetConnected):
        raise InvalidMove(Refusal.GAME_OVER)
    handler = handler_for(_HANDLERS, action)
    new_state = handler(state, action, now, log)
    return Transition(new_state, tuple(log.events))


def game_refunds(state: GameState) -> dict[int, int]:
    """What a cancelled game refunds each seat: every paid entry, rejoins included."""
    return scoring.cancel_refunds(
        {p.seat: p.paid_entries for p in state.players}, state.settings.entry_fee
    )
