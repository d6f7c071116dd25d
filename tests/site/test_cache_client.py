"""The Redis cache's client (``rummy_site/cache.py``), on the real Redis: one ``redis.Redis``
per connection pool, made once and shared by every thread, where Django's own makes one for
every operation."""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings

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
