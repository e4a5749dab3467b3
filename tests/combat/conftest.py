"""The combat API's anonymous rate limit counts in the cache: each test starts with none spent."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache


@pytest.fixture(autouse=True)
def _fresh_rate_limits() -> None:
    backend = caches["default"]
    if isinstance(backend, LocMemCache):  # never flush a shared Redis from a test
        backend.clear()
