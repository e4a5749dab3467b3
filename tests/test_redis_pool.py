"""Django's cache on the real Redis: requests share the process's connections (config.redis_pool).

Under ASGI each request runs in an async context of its own, and Django keeps one cache object
per context: with Django's own pool class every request opened a connection to Redis (issue 33).
"""

from __future__ import annotations

import contextvars
import os

import pytest
from django.core.cache import caches

from config import environment

pytestmark = pytest.mark.services


def test_five_requests_contexts_have_five_cache_objects_and_one_redis_connection(settings):
    settings.CACHES = environment.cache_config(
        {"REDIS_URL": os.environ["REDIS_URL"], "CACHE_KEY_PREFIX": "pool-test"}
    )
    seen = []

    def one_request(n: int) -> None:
        cache = caches["default"]
        cache.set("visits", n, 5)  # a write and a read, as the action throttle does
        assert cache.get("visits") == n
        seen.append(cache)

    contextvars.copy_context().run(one_request, 0)
    pool = seen[0]._cache._get_connection_pool(write=True)
    # The process's pool (earlier tests of this worker may have filled it): what the first
    # request left in it is all the next four use.
    made = pool._created_connections
    assert made >= 1
    for n in range(1, 5):
        contextvars.copy_context().run(one_request, n)

    assert len({id(cache) for cache in seen}) == 5  # Django's per-context objects
    pools = {id(cache._cache._get_connection_pool(write=True)) for cache in seen}
    assert pools == {id(pool)}
    assert pool._created_connections == made  # no request after the first opened a connection
