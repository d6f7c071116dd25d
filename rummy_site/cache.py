"""A Redis cache that degrades instead of failing: while Redis does not answer, every
operation goes to a per-process memory cache, and Redis is tried again a few seconds later.

Django keeps a cache object per thread and per asynchronous context: every table socket of a
web process gets one of its own. What costs a connection is kept per process instead, shared
by every one of them: the Redis connection pools (``REDIS_MAX_CONNECTIONS`` is the process's
cap, a thread past it waiting for a free connection), the memory fallback and whether Redis is
down.

What the cache holds is short-lived and may be lost (who has a socket open at a table, the
last decoded game states, the rate-limit counters), so a Redis outage costs accuracy for a
moment, never a page: sessions live in the database, and the site keeps serving."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
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


@dataclass
class _Shared:
    """A process's ``redis.Redis`` for each of a set of servers with one set of options (by
    the server's index, as Django numbers them), each with its connection pool."""

    clients: dict[int, Redis] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)


_shared: dict[tuple[tuple[str, ...], str], _Shared] = {}
_shared_lock = threading.Lock()


class ReusedClientRedisCacheClient(RedisCacheClient):
    """Django's Redis cache client with its connection pools and one ``redis.Redis`` for each
    made once per process.

    Django's own makes a new ``redis.Redis`` for every operation, and redis-py's constructor
    copies its table of some 200 response callbacks each time: about 55 µs, more than a GET's
    round trip to a local Redis, on every cache read and write. A ``redis.Redis`` takes a
    connection from its pool for each command and gives it back, so one serves every thread.

    Django's own also makes pools per client, that is per cache object: one per thread and
    per asynchronous context. Each table socket's consumer runs in a context of its own, so a
    web process held a Redis connection for every socket it held (3,374 for 3,300 sockets)."""

    # Django's, untyped in its stubs.
    _client: type[Redis]
    _pool_class: type[ConnectionPool]
    _pool_options: dict[str, Any]
    _servers: list[str]
    _get_connection_pool_index: Callable[[bool], int]
    _serializer: RedisSerializer

    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        key = (tuple(servers), repr(sorted(self._pool_options.items())))
        with _shared_lock:
            self._shared = _shared.setdefault(key, _Shared())

    def _get_connection_pool(self, write: bool) -> ConnectionPool:
        return self._client_at(self._get_connection_pool_index(write)).connection_pool

    def get_client(self, key: Any = None, *, write: bool = False) -> Redis:
        return self._client_at(self._get_connection_pool_index(write))

    def _client_at(self, index: int) -> Redis:
        shared = self._shared
        client = shared.clients.get(index)
        if client is None:
            with shared.lock:
                client = shared.clients.get(index)
                if client is None:
                    pool = self._pool_class.from_url(self._servers[index], **self._pool_options)
                    client = shared.clients[index] = self._client(connection_pool=pool)
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


@dataclass
class _Outage:
    """Until when (``time.monotonic``) this process leaves one Redis server alone."""

    down_until: float = 0.0
    lock: threading.Lock = field(default_factory=threading.Lock)


_outages: dict[str, _Outage] = {}


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
        # Memory caches of one name share their entries: every cache object of the process
        # falls back to the same memory, and Redis is down for all of them at once.
        name = f"fallback:{server}:{self.key_prefix}"
        self._local = LocMemCache(name, {"TIMEOUT": params.get("TIMEOUT", 300)})
        with _shared_lock:
            self._outage = _outages.setdefault(server, _Outage())

    @property
    def degraded(self) -> bool:
        return time.monotonic() < self._outage.down_until

    def _either(self, name: str, redis_call: Callable[[], T], local_call: Callable[[], T]) -> T:
        if not self.degraded:
            try:
                return redis_call()
            except DOWN as error:
                outage = self._outage
                with outage.lock:
                    if not self.degraded:
                        logger.warning("cache: Redis is down (%s), using memory: %s", name, error)
                    outage.down_until = time.monotonic() + self.retry_after_s
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
