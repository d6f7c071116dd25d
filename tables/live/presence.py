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


def count_up(key: str) -> int:
    """One more under the cache counter ``key``; returns the count now."""
    cache.add(key, 0, _TTL)
    try:
        return int(cache.incr(key))
    except ValueError:  # expired between add and incr
        cache.set(key, 1, _TTL)
        return 1


def count_down(key: str) -> int:
    """One fewer under the cache counter ``key``; returns the count left (never below zero)."""
    try:
        left = int(cache.decr(key))
    except ValueError:
        return 0
    if left <= 0:
        cache.delete(key)
        return 0
    return left


def socket_opened(*, table_id: int, user_id: int) -> int:
    """Count one more socket; returns how many are open now."""
    return count_up(presence_key(table_id, user_id))


def socket_closed(*, table_id: int, user_id: int) -> int:
    """Count one socket fewer; returns how many are still open (never below zero)."""
    return count_down(presence_key(table_id, user_id))


def open_counts(*, table_id: int, user_ids: list[int]) -> dict[int, int]:
    """How many sockets each of ``user_ids`` has open at ``table_id`` now (one cache read)."""
    if not user_ids:
        return {}
    keys = {presence_key(table_id, user_id): user_id for user_id in user_ids}
    found = cache.get_many(list(keys))
    return {user_id: int(found.get(key) or 0) for key, user_id in keys.items()}


def open_count(*, table_id: int, user_id: int) -> int:
    """How many sockets ``user_id`` has open at ``table_id`` now."""
    return open_counts(table_id=table_id, user_ids=[user_id])[user_id]


def lobby_key(user_id: int) -> str:
    """The cache key counting ``user_id``'s open lobby sockets (the lobby page's live counts)."""
    return f"presence:lobby:user:{user_id}"


def lobby_opened(*, user_id: int) -> int:
    """Count one more lobby socket of ``user_id``; returns how many are open now."""
    return count_up(lobby_key(user_id))


def lobby_closed(*, user_id: int) -> int:
    """Count one lobby socket of ``user_id`` fewer; returns how many are still open."""
    return count_down(lobby_key(user_id))


def online(
    pairs: list[tuple[int, int]], user_ids: list[int]
) -> tuple[set[tuple[int, int]], set[int]]:
    """Which ``(table_id, user_id)`` pairs have a table socket open, and which of ``user_ids``
    a lobby socket: one cache read for both."""
    tables = {presence_key(table_id, user_id): (table_id, user_id) for table_id, user_id in pairs}
    lobby = {lobby_key(user_id): user_id for user_id in user_ids}
    if not tables and not lobby:
        return set(), set()
    found = cache.get_many([*tables, *lobby])

    def counted(key: str) -> bool:
        return int(found.get(key) or 0) > 0

    return (
        {pair for key, pair in tables.items() if counted(key)},
        {user_id for key, user_id in lobby.items() if counted(key)},
    )
