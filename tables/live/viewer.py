"""The table for one viewer, put together in one place for every way it leaves the server:
the page and its re-fetch (``table_context``: the felt turned for the viewer with the viewer's
own parts in it), a seat's own parts (``seat_context``: the POST's answer, a refusal on the
socket, a catch-up, each push to a seat) and the felt every viewer shares (``felt_context``:
each push to a table's group)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from tables import presenters, selectors
from tables.live import presence

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser

    from accounts.models import User
    from tables.readmodel import TableRead

# The page's parts (``templates/tables/table.html``) that these contexts render.
TABLE_PARTIAL = "tables/table.html#table"
FELT_PARTIAL = "tables/table.html#felt"
SEAT_PARTIAL = "tables/table.html#seat"


def seat_context(data: TableRead, *, now: float, error: str = "") -> dict[str, Any]:
    """The template context of one seat's parts (``tables/table.html#seat``)."""
    return {"s": presenters.present_seat(data=data, now=now), "error": error}


def felt_context(
    data: TableRead,
    *,
    now: float,
    online: dict[int, bool],
    cache_read: dict[str, object] | None = None,
) -> dict[str, Any]:
    """The template context of the shared felt as pushed (``tables/table.html#felt``), with
    the cache values its tags read, when the push read them already (``realtime``)."""
    felt = presenters.present_felt(data=data, now=now, online=online)
    return {"t": felt, "pushed": True, "cache_read": cache_read or {}}


def table_context(
    *, table: int, user: User | AnonymousUser, error: str = "", now: float | None = None
) -> dict[str, Any]:
    """The whole table for ``user``: the felt turned for the viewer's seat, with the viewer's
    own parts in their places (``Table.DoesNotExist`` for an unknown table), and the table's row
    as read, its template and tournament place joined (``table_row``: for the page's hooks)."""
    now = time.time() if now is None else now
    public, mine = selectors.table_views(table=table, user=user)
    seated = {s.seat_no: s.user_id for s in public.seats if not s.is_bot}
    counts = presence.open_counts(table_id=table, user_ids=sorted(set(seated.values())))
    online = {seat: counts.get(uid, 0) > 0 for seat, uid in seated.items()}
    if mine.my_seat is not None:
        online[mine.my_seat] = True  # the viewer is here, whether the socket is up yet
    felt = presenters.present_felt(data=public, now=now, viewer_seat=mine.my_seat, online=online)
    return {"t": felt, "table_row": public.table, **seat_context(mine, now=now, error=error)}


def seat_answer_context(
    *, table: int, user: User | AnonymousUser, error: str = "", now: float | None = None
) -> dict[str, Any]:
    """The viewer's own parts with ``error`` shown, to swap out of band (an action's answer;
    ``Table.DoesNotExist`` for an unknown table)."""
    mine = selectors.table_for_viewer(table=table, user=user)
    now = time.time() if now is None else now
    return {**seat_context(mine, now=now, error=error), "oob": True}
