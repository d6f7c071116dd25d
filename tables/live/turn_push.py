"""A turn's notice (issue 35): when a change passes the turn to a person whose table page is
not in view (its tab hidden, or no socket open: ``tables.live.visibility``), that person gets
a Web Push "Your turn at <table>" (``accounts.push``), once per turn; never a computer player.

Heard from ``tables.events.table_moved`` after the commit; the notice itself is queued by
``push_notify`` and sent from Celery, never in the request."""

from __future__ import annotations

import logging
from typing import Any

from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from accounts.middleware import player_language
from accounts.models import User
from accounts.push.models import PushKind
from accounts.push.selectors import push_configured
from accounts.push.services import push_notify
from tables.events import TableMoved, table_moved_subscribe
from tables.live.visibility import pages_seen

logger = logging.getLogger(__name__)


def turn_of(state: Any) -> tuple[int, int] | None:
    """``(deal or hand number, seat to move)`` while a player is to move, else ``None`` (both
    engines: the 13-card game's deal holds the turn, a classic game holds it itself)."""
    if state is None or getattr(state, "phase", None) != "turn":
        return None
    deal = getattr(state, "deal", None)
    if deal is not None:
        return None if deal.turn is None else (int(deal.number), int(deal.turn))
    turn = getattr(state, "turn", None)
    return None if turn is None else (int(getattr(state, "hand_no", 0)), int(turn))


def turn_passed(moved: TableMoved) -> None:
    """Notify the player whose turn this change began, when their page is out of view."""
    if not push_configured():
        return
    turn = turn_of(moved.state)
    if turn is None or turn == turn_of(moved.state_before):
        return
    seat = next(
        (s for s in moved.seats if s.seat_no == turn[1] and s.left_at is None and not s.is_bot),
        None,
    )
    if seat is None or pages_seen(table_id=moved.table.pk, user_id=seat.user_id) > 0:
        return
    user = User.objects.filter(pk=seat.user_id).first()
    if user is None:
        return
    with translation.override(player_language(user)):
        push_notify(
            user_id=user.pk,
            kind=PushKind.YOUR_TURN,
            title=_("Your turn at %(table)s") % {"table": moved.table.display_name()},
            body=_("Make your move before the timer runs out."),
            url=reverse("table", args=[moved.table.pk]),
        )


def subscribe() -> None:
    """Hear every committed change (``TablesConfig.ready``)."""
    table_moved_subscribe(turn_passed)
