"""The channel layer's pool under a burst (``rummy_site/channel_layer.py``), on the real Redis:
many sockets joining and leaving their groups at once, more than the pool has connections."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from asgiref.sync import async_to_sync
from channels_redis.core import RedisChannelLayer
from django.conf import settings
from redis.exceptions import ConnectionError as RedisConnectionError

from rummy_site.channel_layer import WaitingRedisChannelLayer

pytestmark = pytest.mark.redis

BURST = 60


def _host() -> dict[str, object]:
    return {"address": settings.REDIS_URL, "max_connections": 3, "socket_timeout": 5}


async def _join_then_leave(layer: RedisChannelLayer, group: str) -> tuple[int, int]:
    """``BURST`` channels join ``group`` at once, then leave it at once: the members after each."""
    channels = [f"specific.burst{n}!{uuid.uuid4().hex}" for n in range(BURST)]
    key = layer._group_key(group)
    try:
        await asyncio.gather(*(layer.group_add(group, channel) for channel in channels))
        joined = int(await layer.connection(0).zcard(key))
        await asyncio.gather(*(layer.group_discard(group, channel) for channel in channels))
        left = int(await layer.connection(0).zcard(key))
        return joined, left
    finally:
        await layer.connection(0).delete(key)
        await layer.close_pools()


def test_a_burst_larger_than_the_pool_joins_and_leaves_every_group() -> None:
    layer = WaitingRedisChannelLayer(hosts=[_host()], pool_timeout=10.0)
    joined, left = async_to_sync(_join_then_leave)(layer, f"burst-{uuid.uuid4().hex}")
    assert (joined, left) == (BURST, 0)


def test_the_plain_pool_fails_the_same_burst() -> None:
    """What the waiting pool replaces: channels_redis's own pool refuses past its size."""
    layer = RedisChannelLayer(hosts=[_host()])
    with pytest.raises(RedisConnectionError, match="Too many connections"):
        async_to_sync(_join_then_leave)(layer, f"burst-{uuid.uuid4().hex}")


def test_a_wait_longer_than_the_timeout_fails_clearly() -> None:
    """A pool held past ``pool_timeout`` fails the waiting command (the socket's join is then
    retried by the page), it does not hang."""

    async def scenario() -> None:
        layer = WaitingRedisChannelLayer(
            hosts=[{**_host(), "max_connections": 1}], pool_timeout=0.2
        )
        pool = layer.connection(0).connection_pool
        held = await pool.get_connection()
        try:
            with pytest.raises(RedisConnectionError, match="No connection available"):
                await layer.group_add(f"burst-{uuid.uuid4().hex}", "specific.held!x")
        finally:
            await pool.release(held)
            await layer.close_pools()

    async_to_sync(scenario)()
