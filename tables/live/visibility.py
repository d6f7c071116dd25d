"""How many of a player's sockets at a table belong to a page the player can see (a tab in
front; ``document.visibilityState``), so that a turn is pushed as a notice only to a player who
would not see it otherwise (``tables.live.turn_push``). Kept in the cache beside the socket
counts of ``presence``: a socket counts as seen when it opens, and its page says
``{"t": "visibility", "hidden": true}`` when its tab goes to the background
(docs/table-socket.md)."""

from __future__ import annotations

from django.core.cache import cache

from tables.live.presence import count_down, count_up


def seen_key(table_id: int, user_id: int) -> str:
    return f"seen:table:{table_id}:user:{user_id}"


def page_seen(*, table_id: int, user_id: int) -> int:
    """One more of the player's pages at the table is in view; returns how many are."""
    return count_up(seen_key(table_id, user_id))


def page_unseen(*, table_id: int, user_id: int) -> int:
    """One page fewer in view (hidden, or its socket closed); never below zero."""
    return count_down(seen_key(table_id, user_id))


def pages_seen(*, table_id: int, user_id: int) -> int:
    """How many of the player's pages at the table are in view now (0: none, or no socket)."""
    return int(cache.get(seen_key(table_id, user_id)) or 0)
