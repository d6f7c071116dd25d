"""The channel layers of ``rummy_site/channel_layer.py`` on the real Redis: the core layer's pool
under a burst (many sockets joining and leaving their groups at once, more than the pool has
connections), and whether a group has another member, as each layer tells it."""

from __future__ import annotations

import asyncio
import os
import uuid

import pytest
from asgiref.sync import async_to_sync
from channels_redis.core import RedisChannelLayer
from django.conf import settings
from redis.exceptions import ConnectionError as RedisConnectionError
from test_site import _django_in_subprocess

from rummy_site.channel_layer import CountingPubSubChannelLayer, WaitingRedisChannelLayer

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


async def _members_seen(
    here: CountingPubSubChannelLayer, there: CountingPubSubChannelLayer
) -> list[bool]:
    """``group_has_other`` of one channel as a group gains and loses members: a second channel
    of the same event loop, then a channel of another layer (another process's connection)."""
    group = f"members-{uuid.uuid4().hex}"
    mine = await here.new_channel()
    seen = [await here.group_has_other(group, mine)]  # nobody in the group
    await here.group_add(group, mine)
    seen.append(await here.group_has_other(group, mine))  # only this channel
    second = await here.new_channel()
    await here.group_add(group, second)
    seen.append(await here.group_has_other(group, mine))  # another channel of this loop
    await here.group_discard(group, second)
    seen.append(await here.group_has_other(group, mine))
    elsewhere = await there.new_channel()
    await there.group_add(group, elsewhere)
    seen.append(await here.group_has_other(group, mine))  # another process
    await here.group_discard(group, mine)
    seen.append(await here.group_has_other(group, mine))  # not a member: the other one counts
    await there.group_discard(group, elsewhere)
    seen.append(await here.group_has_other(group, mine))  # nobody
    await here.flush()
    await there.flush()
    return seen


def test_the_pubsub_layer_tells_whether_a_group_has_another_member() -> None:
    prefix = f"asgi-test-{uuid.uuid4().hex[:8]}"
    here = CountingPubSubChannelLayer(hosts=[_host()], prefix=prefix)
    there = CountingPubSubChannelLayer(hosts=[_host()], prefix=prefix)
    seen = async_to_sync(_members_seen)(here, there)
    assert seen == [False, False, True, False, True, True, False]


def test_the_core_layer_tells_whether_a_group_has_another_member() -> None:
    async def scenario() -> list[bool]:
        layer = WaitingRedisChannelLayer(hosts=[_host()], prefix=f"t{uuid.uuid4().hex[:8]}")
        group = f"members-{uuid.uuid4().hex}"
        mine, other = await layer.new_channel(), await layer.new_channel()
        seen = [await layer.group_has_other(group, mine)]
        await layer.group_add(group, mine)
        seen.append(await layer.group_has_other(group, mine))
        await layer.group_add(group, other)
        seen.append(await layer.group_has_other(group, mine))
        await layer.group_discard(group, other)
        seen.append(await layer.group_has_other(group, mine))
        await layer.group_discard(group, mine)
        await layer.close_pools()
        return seen

    assert async_to_sync(scenario)() == [False, False, True, False]


def test_pubsub_layers_on_two_redis_databases_do_not_hear_each_other() -> None:
    """Redis's pub/sub channels are shared by its numbered databases: the settings put the
    database's number in the layer's prefix, so a group send of the site on one database does
    not reach the same group of a site on another."""

    def layer_for(database: int) -> CountingPubSubChannelLayer:
        url = settings.REDIS_URL.rsplit("/", 1)[0] + f"/{database}"
        code = (
            "import django; django.setup(); from django.conf import settings as s; "
            "print(s.CHANNEL_LAYERS['default']['CONFIG']['prefix'])"
        )
        env = {**os.environ, "REDIS_URL": url, "CHANNEL_LAYER_KIND": "pubsub"}
        result = _django_in_subprocess(code, env)
        assert result.returncode == 0, result.stderr
        return CountingPubSubChannelLayer(
            hosts=[{**_host(), "address": url}], prefix=result.stdout.strip()
        )

    first, second = layer_for(1), layer_for(2)

    async def scenario() -> tuple[list[dict[str, object]], list[dict[str, object]]]:
        group = f"databases-{uuid.uuid4().hex}"
        heard: tuple[list[dict[str, object]], list[dict[str, object]]] = ([], [])
        readers = []
        for layer, found in zip((first, second), heard, strict=True):
            channel = await layer.new_channel()
            await layer.group_add(group, channel)

            async def read(
                layer: CountingPubSubChannelLayer = layer,
                channel: str = channel,
                found: list[dict[str, object]] = found,
            ) -> None:
                while True:
                    found.append(await layer.receive(channel))

            readers.append(asyncio.ensure_future(read()))
        await first.group_send(group, {"type": "x.sent", "n": 1})
        await asyncio.sleep(0.5)
        for reader in readers:
            reader.cancel()
        await first.flush()
        await second.flush()
        return heard

    on_first, on_second = async_to_sync(scenario)()
    assert on_first == [{"type": "x.sent", "n": 1}]
    assert on_second == []
