"""How many sockets each player has open at each table, so that closing one of two tabs does not
mark the player disconnected. Kept in the cache (Redis when configured, shared by every web
process; memory on the embedded default, which runs one web process)."""

from __future__ import annotations

from django.core.cache import cache

# A count left behind by a crashed process expires; the timer still plays for an absent player.
_TTL = 2 * 3600


def presence_key(table_id: int, user_id: int) -> str:
    """The cache key counting ``user_id``'s open sockets at ``table_id``."""
    return f"presence:table:{table_id}:user:{user_id}"


def socket_opened(*, table_id: int, user_id: int) -> int:
    """Count one more socket; returns how many are open now."""
    key = presence_key(table_id, user_id)
    cache.add(key, 0, _TTL)
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.set(key, 1, _TTL)
        return 1


def socket_closed(*, table_id: int, user_id: int) -> int:
    """Count one socket fewer; returns how many are still open (never below zero)."""
    key = presence_key(table_id, user_id)
    try:
        left = int(cache.decr(key))
    except ValueError:
        return 0
    if left <= 0:
        cache.delete(key)
        return 0
    return left
