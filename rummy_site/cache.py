"""A Redis cache that degrades instead of failing: while Redis does not answer, every
operation goes to a per-process memory cache, and Redis is tried again a few seconds later.

What the cache holds is short-lived and may be lost (who has a socket open at a table, the
last decoded game states, the rate-limit counters), so a Redis outage costs accuracy for a
moment, never a page: sessions live in the database, and the site keeps serving."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any, TypeVar

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient, RedisSerializer
from redis import ConnectionPool, Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger("rummy_site.cache")

T = TypeVar("T")
DOWN = (RedisConnectionError, RedisTimeoutError, OSError)


class ReusedClientRedisCacheClient(RedisCacheClient):
    """Django's Redis cache client with one ``redis.Redis`` per connection pool, made once.

    Django's own makes a new ``redis.Redis`` for every operation, and redis-py's constructor
    copies its table of some 200 response callbacks each time: about 55 µs, more than a GET's
    round trip to a local Redis, on every cache read and write. A ``redis.Redis`` takes a
    connection from its pool for each command and gives it back, so one serves every thread."""

    # Django's, untyped in its stubs.
    _client: type[Redis]
    _get_connection_pool: Callable[[bool], ConnectionPool]
    _serializer: RedisSerializer

    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self._clients: dict[int, Redis] = {}  # by the id of their pool, which lives as long

    def get_client(self, key: Any = None, *, write: bool = False) -> Redis:
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients.setdefault(id(pool), self._client(connection_pool=pool))
        return client

    def set_many(
        self, data: Mapping[str | bytes | memoryview, object], timeout: int | timedelta | None
    ) -> None:
        """Django's writes the values with one ``MSET`` and then gives each its expiry with an
        ``EXPIRE`` of its own; here each is one ``SET ... EX``, sent together in one round trip
        and not wrapped in ``MULTI``/``EXEC`` (each ``SET ... EX`` is whole on its own, and
        Django's is no transaction either): a push's write of what it sent is two Redis
        commands instead of six or more."""
        client = self.get_client(None, write=True)
        if timeout == 0:  # as Django's ends: expired at once
            client.delete(*data)
            return
        pipeline = client.pipeline(transaction=False)
        for key, value in data.items():
            pipeline.set(key, self._serializer.dumps(value), ex=timeout)
        pipeline.execute()


class FallbackRedisCache(RedisCache):
    """``RedisCache`` with a memory fallback. ``OPTIONS["retry_after_s"]`` (default 5) is how
    long Redis is left alone after a failure."""

    _cache: ReusedClientRedisCacheClient  # Django's cached property, untyped in its stubs

    def __init__(self, server: str, params: dict[str, Any]) -> None:
        params = dict(params)
        options = dict(params.get("OPTIONS", {}))
        self.retry_after_s = float(options.pop("retry_after_s", 5.0))
        params["OPTIONS"] = options
        super().__init__(server, params)
        self._class = ReusedClientRedisCacheClient
        self._local = LocMemCache(f"fallback-{id(self)}", {"TIMEOUT": params.get("TIMEOUT", 300)})
        self._down_until = 0.0
        self._lock = threading.Lock()

    @property
    def degraded(self) -> bool:
        return time.monotonic() < self._down_until

    def _either(self, name: str, redis_call: Callable[[], T], local_call: Callable[[], T]) -> T:
        if not self.degraded:
            try:
                return redis_call()
            except DOWN as error:
                with self._lock:
                    if not self.degraded:
                        logger.warning("cache: Redis is down (%s), using memory: %s", name, error)
                    self._down_until = time.monotonic() + self.retry_after_s
        return local_call()

    def add(self, key: Any, value: Any, timeout: Any = None, version: Any = None) -> bool:
        return self._either(
            "add",
            lambda: super(FallbackRedisCache, self).add(key, value, timeout, version),
            lambda: self._local.add(key, value, timeout, version),
        )

    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        return self._either(
            "get",
            lambda: super(FallbackRedisCache, self).get(key, default, version),
            lambda: self._local.get(key, default, version),
        )

    def set(self, key: Any, value: Any, timeout: Any = None, version: Any = None) -> None:
        self._either(
            "set",
            lambda: super(FallbackRedisCache, self).set(key, value, timeout, version),
            lambda: self._local.set(key, value, timeout, version),
        )

    def touch(self, key: Any, timeout: Any = None, version: Any = None) -> bool:
        return self._either(
            "touch",
            lambda: super(FallbackRedisCache, self).touch(key, timeout, version),
            lambda: self._local.touch(key, timeout, version),
        )

    def delete(self, key: Any, version: Any = None) -> bool:
        return self._either(
            "delete",
            lambda: super(FallbackRedisCache, self).delete(key, version),
            lambda: self._local.delete(key, version),
        )

    def get_many(self, keys: Any, version: Any = None) -> dict[Any, Any]:
        return self._either(
            "get_many",
            lambda: super(FallbackRedisCache, self).get_many(keys, version),
            lambda: self._local.get_many(keys, version),
        )

    def has_key(self, key: Any, version: Any = None) -> bool:
        return self._either(
            "has_key",
            lambda: super(FallbackRedisCache, self).has_key(key, version),
            lambda: self._local.has_key(key, version),
        )

    def incr(self, key: Any, delta: int = 1, version: Any = None) -> int:
        return self._either(
            "incr",
            lambda: super(FallbackRedisCache, self).incr(key, delta, version),
            lambda: self._local.incr(key, delta, version),
        )

    def set_many(self, data: Any, timeout: Any = None, version: Any = None) -> list[Any]:
        return self._either(
            "set_many",
            lambda: super(FallbackRedisCache, self).set_many(data, timeout, version),
            lambda: self._local.set_many(data, timeout, version),
        )

    def delete_many(self, keys: Any, version: Any = None) -> None:
        self._either(
            "delete_many",
            lambda: super(FallbackRedisCache, self).delete_many(keys, version),
            lambda: self._local.delete_many(keys, version),
        )

    def clear(self) -> None:
        self._local.clear()
        self._either("clear", lambda: super(FallbackRedisCache, self).clear(), lambda: None)
