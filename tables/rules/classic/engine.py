"""The classic engine's entry points: ``classic_new`` and ``classic_apply``."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import InvalidMove, InvalidSettings, Refusal
from ..machine import Transition, handler_for
from .actions import Action
from .events import Event
from .settings import ClassicSettings
from .state import ClassicPlayer, ClassicState, Turn
from .turns import HANDLERS


def classic_new(
    *, settings: ClassicSettings, seats: Sequence[int], now: float, toss: int
) -> ClassicState:
    """A new ring game for ``seats`` (in clockwise order); ``toss`` is the seat that plays
    first in hand 1. The game waits in a ``"break"`` due at ``now`` for the first ``StartDeal``."""
    if not isinstance(settings, ClassicSettings):
        raise InvalidSettings(Refusal.CLASSIC_NEEDS_SETTINGS)
    seat_list = tuple(seats)
    if len(set(seat_list)) != len(seat_list):
        raise InvalidMove(Refusal.SEAT_TWICE)
    if not settings.seats_min <= len(seat_list) <= settings.seats_max:
        raise InvalidMove(
            Refusal.CLASSIC_SEATS_RANGE, low=settings.seats_min, high=settings.seats_max
        )
    if toss not in seat_list:
        raise InvalidMove(Refusal.TOSS_NOT_SEATED, seat=toss)
    players = tuple(
        ClassicPlayer(seat=seat, bank=float(settings.extra_time_s)) for seat in seat_list
    )
    return ClassicState(
        settings=settings,
        seats=seat_list,
        players=players,
        phase="break",
        starter=toss,
        deadline=float(now),
        deadline_kind="break",
    )


def classic_apply(
    state: ClassicState, action: Action, *, now: float
) -> Transition[ClassicState, Event]:
    """Apply one action at time ``now``. Returns the new state and the events; an illegal
    action raises ``InvalidMove`` and changes nothing."""
    work = Turn(state, now)
    if state.phase == "ended":
        raise InvalidMove(Refusal.GAME_OVER)
    handler_for(HANDLERS, action)(work, action)
    return work.done()
