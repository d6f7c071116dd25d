"""Moves over the table's socket (docs/table-socket.md): what the consumer runs off its event
loop for a ``move`` or a ``since`` message.

A move runs the same code as the page's POST (``tables.web.acting``) in a bounded pool of
threads (``SOCKET_MOVE_THREADS``), one move of a table at a time in this process
(``table_turn``), so two messages of one game are applied in the order they came and the event
loop never waits on the database. Its pushes are collected instead of sent
(``realtime.pushes_collected``): the consumer sends the mover's own frames straight down its
own socket and publishes the change (``fanout``) from its event loop, without a hop between
threads.

The user is the one the socket authenticated when it connected; nothing reads the session or
the user again for a move (``accounts.live`` closes the socket when the session ends).
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils.translation import gettext as _

from tables import selectors
from tables.live.realtime import (
    Outbox,
    as_viewer,
    felt_frame_text,
    frame_text,
    pushes_collected,
    render_seat,
    seat_frame_text,
)
from tables.live.sent import history_since
from tables.live.viewer import seat_answer_context, seat_context
from tables.models import Game, Table
from tables.web import acting
from tables.web.messages import refusal_words

if TYPE_CHECKING:
    from accounts.models import User


def _threads() -> int:
    return int(settings.SOCKET_MOVE_THREADS)


# Bounded: a flood of moves waits its turn here instead of taking every database connection.
POOL = ThreadPoolExecutor(max_workers=_threads(), thread_name_prefix="socket-move")

_turns: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()


def table_turn(table_id: int) -> asyncio.Lock:
    """The lock that makes one table's moves in this process run one at a time, first come
    first served (``asyncio.Lock`` wakes its waiters in order)."""
    lock = _turns.get(table_id)
    if lock is None:
        lock = asyncio.Lock()
        _turns[table_id] = lock
    return lock


@dataclass(frozen=True, slots=True)
class MoveDone:
    """What a move left: the game's version after it (``None``: refused), the refusal as the
    player reads it with the player's parts showing it, and the pushes to send."""

    version: int | None
    refused: acting.Refused | None = None
    parts: str | None = None
    outbox: Outbox = field(default_factory=list)


def _parts(*, table_id: int, user: User, error: str) -> str | None:
    """The player's parts (hand, actions, notices) with ``error`` shown in them."""
    try:
        context = seat_answer_context(table=table_id, user=user, error=error)
    except Table.DoesNotExist:
        return None
    return render_seat(context, user)


def socket_move(
    *,
    table_id: int,
    user: User,
    fields: Mapping[str, str],
    owned: Mapping[int, int] | None = None,
) -> MoveDone:
    """Apply one move of the table's socket for ``user`` (in a thread of ``POOL``); ``owned``:
    this process holds every socket of the table, these many by player (``fanout.table_owned``).
    """
    with as_viewer(user), pushes_collected(owned=owned) as pushed:
        try:
            version = acting.table_act(table_id=table_id, user=user, fields=fields)
        except Table.DoesNotExist:
            gone = acting.Refused("no_such_table", 404, refusal_words(_("No such table.")))
            return MoveDone(None, gone)
        except acting.REFUSALS as exc:
            refused = acting.refusal_of(exc)
            refused = acting.Refused(refused.code, refused.status, refusal_words(refused.text))
            # A stale page catches up on its socket instead; any other refusal shows its reason
            # where the POST's answer shows it.
            shown = refused.code != "stale"
            parts = _parts(table_id=table_id, user=user, error=refused.text) if shown else None
            return MoveDone(None, refused, parts, pushed.outbox)
    return MoveDone(version, None, None, pushed.outbox)


def refused_text(*, counter: int | None, refused: acting.Refused, parts: str | None = None) -> str:
    """The ``refused`` frame of the move ``counter`` (``None``: a message that named none),
    with the player's ``parts`` showing the reason where the page should change."""
    frame = {"t": "refused", "a": counter, "code": refused.code, "status": refused.status}
    return frame_text({**frame, "text": refused.text, "html": parts})


def socket_since(
    *, table_id: int, user: User, game_id: int | None, version: int, language: str, seated: bool
) -> list[str] | None:
    """The frames a page at ``version`` of game ``game_id`` missed, in order: the felt frames
    still kept, then (for a seated player) the player's parts as they are now, then the current
    version; ``None`` when they are no longer all kept (the page loads its view)."""
    game = (
        Game.objects.filter(table_id=table_id).order_by("-pk").values_list("pk", "version").first()
    )
    if game is None or game[0] != game_id:
        return None
    current = int(game[1])
    frames = history_since(game_id=game[0], version=version, current=current)
    if frames is None:
        return None
    texts: list[str] = []
    for from_version, to_version, html in frames:
        own = None if html is None else html.get(language)
        if html is not None and own is None:
            return None  # not rendered in this page's language
        texts.append(felt_frame_text(from_version=from_version, version=to_version, html=own))
    if seated and frames:
        with as_viewer(user):
            mine = selectors.table_for_viewer(table=table_id, user=user)
            parts = render_seat(seat_context(mine, now=time.time()), user)
        texts.append(seat_frame_text(version=current, html=parts))
    texts.append(frame_text({"t": "sync", "v": current}))
    return texts
