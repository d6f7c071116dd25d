"""The core Redis channel layer, with a connection pool that waits for a free connection.

channels_redis builds a plain ``redis.asyncio.ConnectionPool`` per process, which fails a
command at once with "Too many connections" when all its ``max_connections`` are in use. A burst
of sockets opening or closing together does exactly that: a web process restarted (every page
of its tables reconnects), a network blip, thousands of pages closed at once. Each socket joins
or leaves its groups in a command of its own, and past the pool's size the rest failed: their
groups were left to expire instead of being left (the load harness's 1,000-table run logged
3,480 of them as its 6,400 sockets closed; docs/benchmarks.md).

Here the pool is redis-py's ``BlockingConnectionPool``: past ``max_connections`` a command waits
up to ``pool_timeout`` seconds for a connection another command hands back, so a burst is served
a pool's worth at a time instead of failing.

Both layers here (this one, and the in-memory one of the embedded default) also tell whether a
group has a member other than a given channel (``group_has_other``): a web process that holds
every socket of a table (the proxy hashes a table's sockets to one process) publishes its
changes to its own sockets from memory and need not send the group a message only it would get.
"""

from __future__ import annotations

from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer
from redis.asyncio import BlockingConnectionPool


class WaitingRedisChannelLayer(RedisChannelLayer):  # type: ignore[misc]  # channels_redis is untyped
    """channels_redis's core layer whose pool waits for a connection instead of failing."""

    def __init__(self, *args: object, pool_timeout: float = 10.0, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)
        self.pool_timeout = pool_timeout

    def create_pool(self, index: int) -> BlockingConnectionPool:
        host = dict(self.hosts[index])
        address = host.pop("address")
        return BlockingConnectionPool.from_url(address, timeout=self.pool_timeout, **host)

    async def group_has_other(self, group: str, channel: str) -> bool:
        """Whether ``group`` has a member besides ``channel`` (one ``ZRANGE``; a member past
        its expiry that ``group_send`` would drop first still counts: a message too many)."""
        key = self._group_key(group)
        members = await self.connection(self.consistent_hash(group)).zrange(key, 0, -1)
        return any(member.decode() != channel for member in members)


class MemoryChannelLayer(InMemoryChannelLayer):
    """channels' in-memory layer (one process: the embedded default) with ``group_has_other``."""

    async def group_has_other(self, group: str, channel: str) -> bool:
        return any(member != channel for member in self.groups.get(group, {}))
