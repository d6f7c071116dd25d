"""The Redis cache's client (``rummy_site/cache.py``), on the real Redis: one ``redis.Redis``
per connection pool, made once and shared by every thread, where Django's own makes one for
every operation."""

from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor
from unittest.mock import patch

import pytest
from django.conf import settings
from redis.client import Pipeline

from rummy_site.cache import FallbackRedisCache

pytestmark = pytest.mark.redis


@pytest.fixture
def redis_cache() -> FallbackRedisCache:
    prefix = f"test-cache-{uuid.uuid4().hex}"
    return FallbackRedisCache(settings.REDIS_URL, {"KEY_PREFIX": prefix, "TIMEOUT": 60})


def test_one_client_serves_every_read_and_write(redis_cache: FallbackRedisCache) -> None:
    client = redis_cache._cache.get_client()
    redis_cache.set("a", 1)
    redis_cache.set_many({"b": 2, "c": 3}, 60)  # a pipeline of the same client
    assert redis_cache.get_many(["a", "b", "c", "missing"]) == {"a": 1, "b": 2, "c": 3}
    assert redis_cache.incr("a", 5) == 6
    assert redis_cache._cache.get_client(write=True) is client
    assert redis_cache._cache.get_client() is client


def test_threads_share_the_client_and_each_gets_its_own_values(
    redis_cache: FallbackRedisCache,
) -> None:
    def round_trip(n: int) -> list[object]:
        got = []
        for step in range(20):
            redis_cache.set(f"thread-{n}", (n, step))
            redis_cache.set_many({f"thread-{n}-x": n, f"thread-{n}-y": step}, 60)
            got.append(redis_cache.get(f"thread-{n}"))
            got.append(redis_cache.get_many([f"thread-{n}-x", f"thread-{n}-y"]))
        return got

    with ThreadPoolExecutor(max_workers=8) as pool:
        results = list(pool.map(round_trip, range(16)))
    for n, got in enumerate(results):
        assert got[0::2] == [(n, step) for step in range(20)]
        assert got[1::2] == [{f"thread-{n}-x": n, f"thread-{n}-y": step} for step in range(20)]
    assert redis_cache._cache.get_client() is redis_cache._cache.get_client(write=True)
    assert not redis_cache.degraded


def test_redis_gone_degrades_to_memory_through_the_shared_client() -> None:
    gone = FallbackRedisCache(
        "redis://127.0.0.1:1/0", {"OPTIONS": {"socket_connect_timeout": 0.2}, "TIMEOUT": 60}
    )
    gone.set("k", "kept in memory")
    assert gone.degraded
    assert gone.get("k") == "kept in memory"


def test_set_many_gives_each_key_its_expiry_with_the_value(
    redis_cache: FallbackRedisCache,
) -> None:
    """``set_many`` writes each value with its expiry in one command (``SET ... EX``), no
    ``MSET`` then ``EXPIRE`` each, and keeps Django's meaning of the timeout: seconds, none
    (kept), or 0 (gone at once)."""
    client = redis_cache._cache.get_client(write=True)
    redis_cache.set_many({"d": {"felt": 1}, "e": (2, "x")}, 30)
    redis_cache.set_many({"f": 3}, None)
    assert redis_cache.get_many(["d", "e", "f"]) == {"d": {"felt": 1}, "e": (2, "x"), "f": 3}
    key_d, key_f = redis_cache.make_key("d"), redis_cache.make_key("f")
    assert 25 <= client.ttl(key_d) <= 30
    assert client.ttl(key_f) == -1  # no expiry
    redis_cache.set_many({"d": 4, "f": 5}, 0)
    assert redis_cache.get_many(["d", "e", "f"]) == {"e": (2, "x")}

    sent: list[str] = []
    execute = Pipeline.execute

    def traced(pipeline: Pipeline, raise_on_error: bool = True) -> list[object]:
        sent.extend(str(command[0][0]) for command in pipeline.command_stack)
        return execute(pipeline, raise_on_error)

    def calls(command: str) -> int:
        stats: dict[str, dict[str, int]] = client.info("commandstats")
        return stats.get(f"cmdstat_{command}", {}).get("calls", 0)

    multi, set_ = calls("multi"), calls("set")
    with patch.object(Pipeline, "execute", traced):
        redis_cache.set_many({"g": 1, "h": 2, "i": 3}, 60)
    assert sent == ["SET", "SET", "SET"]
    # as Redis counts them: three SETs, no MULTI/EXEC around them
    assert (calls("multi"), calls("set")) == (multi, set_ + 3)
    assert redis_cache.get_many(["g", "h", "i"]) == {"g": 1, "h": 2, "i": 3}


def test_cache_objects_of_one_process_share_its_pool_and_its_memory() -> None:
    """Django makes a cache object per thread and per asynchronous context. Those with the
    same server and options share one connection pool and one client; when Redis is down, it
    is down for all of them, and all fall back to the same memory."""
    options = {"OPTIONS": {"max_connections": 7}, "KEY_PREFIX": f"p-{uuid.uuid4().hex}"}
    first = FallbackRedisCache(settings.REDIS_URL, options)
    second = FallbackRedisCache(settings.REDIS_URL, options)
    assert first._cache.get_client() is second._cache.get_client()
    assert first._cache._get_connection_pool(True) is second._cache._get_connection_pool(True)
    other = FallbackRedisCache(settings.REDIS_URL, {**options, "OPTIONS": {"max_connections": 8}})
    assert other._cache.get_client() is not first._cache.get_client()

    gone = {"OPTIONS": {"socket_connect_timeout": 0.2}, "KEY_PREFIX": f"g-{uuid.uuid4().hex}"}
    down_one = FallbackRedisCache("redis://127.0.0.1:2/0", gone)
    down_two = FallbackRedisCache("redis://127.0.0.1:2/0", gone)
    down_one.set("seen", "by both")
    assert down_one.degraded and down_two.degraded  # the second never tried
    assert down_two.get("seen") == "by both"


def test_a_thread_past_the_pool_s_cap_waits_for_a_connection(redis_cache: FallbackRedisCache):
    """The process's pool is capped (``REDIS_MAX_CONNECTIONS``, the site's options here): a
    thread that finds every connection taken waits for one to come back instead of failing,
    which would send the whole process to its memory fallback."""
    site_options = settings.CACHES["default"]["OPTIONS"]
    assert isinstance(site_options, dict)
    capped = FallbackRedisCache(
        settings.REDIS_URL,
        {"OPTIONS": {**site_options, "max_connections": 1}, "KEY_PREFIX": redis_cache.key_prefix},
    )
    pool = capped._cache._get_connection_pool(True)
    held = pool.get_connection()
    done: list[object] = []

    def read() -> None:
        done.append(capped.get_many(["a"]))

    thread = threading.Thread(target=read)
    thread.start()
    thread.join(0.3)
    assert thread.is_alive() and not done  # waiting for the one connection
    pool.release(held)
    thread.join(5)
    assert done == [{}]
    assert not capped.degraded
