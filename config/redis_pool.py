"""One Redis connection pool per process for Django's cache (the rate limits' counts).

Django keeps its cache objects per async context, and under ASGI every request is a context of
its own: each request built a new ``RedisCacheClient`` with a new pool, and so opened a new
connection to Redis (the connect, ``HELLO``, ``SELECT``, three ``CLIENT SETINFO``) before its one
``GET`` and ``SET`` of the action throttle, and left it for the garbage collector to close. Issue
33 measured it at ~14 Redis commands per action where ~9 do the work.

``SharedConnectionPool.from_url`` hands every cache client of the process the same pool for the
same URL and options (``CACHES["default"]["OPTIONS"]["pool_class"]``, set by
``config.environment.cache_config``). redis-py's pools are thread-safe and notice a fork (a
child makes its own connections), so sharing one is what redis-py intends; connections are
returned to the pool after each command and reused by the next request.
"""

from __future__ import annotations

import threading
from typing import Any

import redis

_pools: dict[tuple[str, tuple[tuple[str, str], ...]], redis.ConnectionPool] = {}
_lock = threading.Lock()


class SharedConnectionPool(redis.ConnectionPool):
    """A ``redis.ConnectionPool`` whose ``from_url`` returns the process's one pool for that URL
    and those options (made on first use)."""

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> redis.ConnectionPool:  # type: ignore[override]
        key = (url, tuple(sorted((name, repr(value)) for name, value in kwargs.items())))
        with _lock:
            pool = _pools.get(key)
            if pool is None:
                pool = _pools[key] = redis.ConnectionPool.from_url(url, **kwargs)
            return pool
