"""How many of a player's sockets at a table belong to a page the player can see (a tab in
front; ``document.visibilityState``), so that a turn is pushed as a notice only to a player who
would not see it otherwise (``tables.live.turn_push``). Kept in the cache beside the socket
counts of ``presence``: a socket counts as seen when it opens, and its page says
``{"t": "visibility", "hidden": true}`` when its tab goes to the background
(docs/table-socket.md)."""

from __future__ import annotations

from django.core.cache import cache

# A count left behind by a crashed process expires (as the presence counts do).
_TTL = 2 * 3600


def seen_key(table_id: int, user_id: int) -> str:
    return f"seen:table:{table_id}:user:{user_id}"


def page_seen(*, table_id: int, user_id: int) -> int:
    """One more of the player's pages at the table is in view; returns how many are."""
    key = seen_key(table_id, user_id)
    cache.add(key, 0, _TTL)
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.set(key, 1, _TTL)
        return 1


def page_unseen(*, table_id: int, user_id: int) -> int:
    """One page fewer in view (hidden, or its socket closed); never below zero."""
    key = seen_key(table_id, user_id)
    try:
        left = int(cache.decr(key))
    except ValueError:
        return 0
    if left <= 0:
        cache.delete(key)
        return 0
    return left


def pages_seen(*, table_id: int, user_id: int) -> int:
    """How many of the player's pages at the table are in view now (0: none, or no socket)."""
    return int(cache.get(seen_key(table_id, user_id)) or 0)
