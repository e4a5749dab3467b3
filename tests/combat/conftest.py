"""Combat tests: each starts with no anonymous rate limit spent, and the numba kernels are
compiled before any test times a request (the server compiles them at start-up the same way,
``COMBAT_WARM_UP``; compiling takes about 27 s on a fresh checkout, so scripts/test.sh
compiles them into the run's numba cache in the background first)."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache

from combat import risk_flanking
from combat.axis_allies import chain_sweep
from combat.axis_allies.questions import grid_sweep


@pytest.fixture(autouse=True, scope="session")
def _compiled_kernels() -> None:
    risk_flanking.warm_up()
    chain_sweep.warm_up()
    grid_sweep.warm_up()


@pytest.fixture(autouse=True)
def _fresh_rate_limits() -> None:
    backend = caches["default"]
    if isinstance(backend, LocMemCache):  # never flush a shared Redis from a test
        backend.clear()
