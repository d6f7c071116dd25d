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

The three layers here (this one, the pub/sub one and the in-memory one of the embedded default)
also tell whether a group has a member other than a given channel (``group_has_other``): a web
process that holds every socket of a table (the proxy hashes a table's sockets to one process)
publishes its changes to its own sockets from memory and need not send the group a message only
it would get.

The pub/sub layer (``CountingPubSubChannelLayer``, ``CHANNEL_LAYER_KIND=pubsub``) sends a group
message as one ``PUBLISH`` that Redis hands to the processes subscribed to the group's channel,
each once on its one subscribing connection; nothing is queued in Redis, and a process that goes
away takes its subscriptions with its connection (no member is left to expire). Redis's pub/sub
channels are shared by all its numbered databases, so the layer's prefix carries the database's
number: two sites on one Redis in two databases (the tests and a benchmark) do not hear each
other.
"""

from __future__ import annotations

import logging
import uuid

from channels.layers import InMemoryChannelLayer
from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer
from redis.asyncio import BlockingConnectionPool
from redis.exceptions import RedisError

logger = logging.getLogger(__name__)


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


class CountingPubSubChannelLayer(RedisPubSubChannelLayer):  # type: ignore[misc]  # untyped
    """channels_redis's pub/sub layer that tells whether a group has another member.

    A process subscribes to a group's channel once, on its one subscribing connection, for all
    its channels in the group. Another member is either another channel of this event loop in
    the group, or another subscriber of the group's channel: Redis's ``PUBSUB NUMSUB`` counts
    the subscribing connections, this one among them while this loop has a channel in the
    group. One command, not sent while this loop itself has another member.
    """

    async def new_channel(self, prefix: str = "specific.") -> str:
        """A channel of this event loop, as the layer's own, but made while Redis is down too.

        channels' consumers make their channel before they connect: the layer's own
        ``new_channel`` subscribes to it and, with Redis down, fails the socket's handshake
        (a 500). Here the channel exists in this process whatever Redis says; the consumer's
        group joins then fail, and it closes the socket with its reason (4503), as on the core
        layer, whose ``new_channel`` asks Redis nothing. The messages of the channel's groups
        reach it by the groups' subscriptions; nothing here sends to a channel by its name."""
        loop_layer = self._get_layer()
        channel = f"{loop_layer.prefix}{prefix}{uuid.uuid4().hex}"
        try:  # the layer's own: the channel's queue in this process, then its SUBSCRIBE
            await loop_layer._subscribe_to_channel(channel)
        except (RedisError, OSError) as error:
            logger.warning("channel layer: %s made while Redis is down: %s", channel, error)
        return channel

    async def group_has_other(self, group: str, channel: str) -> bool:
        loop_layer = self._get_layer()
        group_channel = loop_layer._get_group_channel_name(group)
        here = loop_layer.groups.get(group_channel, ())
        if any(member != channel for member in here):
            return True
        return await _subscribers(loop_layer, group_channel) > (1 if here else 0)

    async def group_processes(self, group: str) -> int:
        """How many connections, each a process's (or an event loop's), are subscribed to the
        group's Redis channel."""
        loop_layer = self._get_layer()
        return await _subscribers(loop_layer, loop_layer._get_group_channel_name(group))


async def _subscribers(loop_layer: RedisPubSubLoopLayer, group_channel: str) -> int:
    """One ``PUBSUB NUMSUB`` of a group's Redis channel, on the shard that holds it."""
    shard = loop_layer._get_shard(group_channel)
    shard._ensure_redis()
    ((_, subscribers),) = await shard._redis.pubsub_numsub(group_channel)
    return int(subscribers)
