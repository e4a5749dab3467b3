"""Fixtures shared by the whole suite.

Tests marked ``services`` need the real PostgreSQL and Redis servers; they run in the second pass
of ``make test`` with DATABASE_URL and REDIS_URL set. A plain ``pytest`` without those variables
deselects them and says so at the end of the run, so nobody mistakes the first pass for all of it.
"""

from __future__ import annotations

import os
import re
import sys
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Origin header a browser on the default local server sends; ALLOWED_HOSTS admits it.
LOCAL_ORIGIN = (b"origin", b"http://127.0.0.1:8000")

_deselected_services: list[pytest.Item] = []


def _own_redis_namespace() -> None:
    """Pass 2 runs on several pytest-xdist workers against one Redis server. pytest-django
    gives each worker a test database of its own (``test_warboard_gw0``, ...), so the same game
    and user ids come up in every worker: on shared Redis keys and channels one worker's
    pushes would reach another's sockets and its throttle counts another's users. Each worker
    of each run (another run of the suite may share the server) therefore takes its own
    channel layer and cache key prefix, in the settings and in the environment, which the
    server processes the integration tests start inherit (``processes.server_env``)."""
    if not os.environ.get("REDIS_URL"):
        return
    run = os.environ.get("PYTEST_XDIST_TESTRUNUID") or uuid.uuid4().hex
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    prefix = f"warboard-test-{run[:8]}-{worker}"
    os.environ["CHANNEL_LAYER_PREFIX"] = os.environ["CACHE_KEY_PREFIX"] = prefix

    from django.conf import settings
    from django.test.signals import setting_changed

    from config import environment

    for name, value in (
        ("CHANNEL_LAYERS", environment.channel_layers_config(os.environ)),
        ("CACHES", environment.cache_config(os.environ)),
    ):
        setattr(settings, name, value)
        # Caches or layers already made from the old value are dropped (as override_settings).
        setting_changed.send(sender=type(settings), setting=name, value=value, enter=True)


_own_redis_namespace()


def services_configured() -> bool:
    return bool(os.environ.get("DATABASE_URL")) and bool(os.environ.get("REDIS_URL"))


#: How a module marks its tests ``services`` (a decorator, ``pytestmark`` or a ``param``).
_SERVICES_MARK = re.compile(r"""mark\.services|["']services["']""")
#: The ``-m`` expressions of ``make test``'s second pass (scripts/test.sh).
_SERVICES_ONLY = ("services", "services and not slow")


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """Under the second pass's ``-m services``, a test module that never writes the marker
    (``mark.services`` or ``"services"``) holds none of its tests and is not imported:
    collecting the whole suite to keep 30 tests cost each of that pass's workers 17 s (8 s of
    it the schema fuzz module's 69 operations), on the cores the first pass was using."""
    if config.option.markexpr not in _SERVICES_ONLY or collection_path.suffix != ".py":
        return None
    if not collection_path.name.startswith("test_"):
        return None
    return _SERVICES_MARK.search(collection_path.read_text(encoding="utf-8")) is None or None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    _long_ones_first(items)
    if services_configured() or config.option.markexpr:
        return  # services are there, or the caller chose with -m (as `make test` does)
    keep = [item for item in items if item.get_closest_marker("services") is None]
    _deselected_services.extend(item for item in items if item.get_closest_marker("services"))
    if _deselected_services:
        config.hook.pytest_deselected(items=_deselected_services)
        items[:] = keep


def _long_ones_first(items: list[pytest.Item]) -> None:
    """The long tests (``slow`` sweeps, browser sessions) first, the rest in their order.
    pytest-xdist hands tests out in this order as workers come free: a minute-long test drawn
    last would keep one worker busy while the other had nothing left to do."""
    items.sort(key=lambda item: not (item.get_closest_marker("slow") or
                                     item.get_closest_marker("browser")))  # fmt: skip


def pytest_terminal_summary(terminalreporter) -> None:
    if _deselected_services:
        terminalreporter.write_line(
            f"NOTE: {len(_deselected_services)} tests marked 'services' were not run: "
            "DATABASE_URL and REDIS_URL are not set (`make test` runs them).",
            yellow=True,
        )


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix) -> None:
    """Close the connection pools opened before the test databases exist. A query while the
    tests are collected (a module reading a map through ``risk.maps``' source at import) opened
    psycopg's pool on the database the URL names; the pool kept its connections there, so
    pytest-django's migrations and then the tests ran on ``warboard`` itself, not on
    ``test_warboard_gw0``: the two workers collided there and the servers the tests start (on
    the test database) found none of their data."""
    from django.db import connections

    for connection in connections.all(initialized_only=True):
        close_pool = getattr(connection, "close_pool", None)
        if close_pool is not None:
            close_pool()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test databases, and at the end psycopg's pools closed before they are
    dropped: a pool keeps idle connections open, and PostgreSQL refuses to drop a database
    that has sessions ("being accessed by other users", a warning at the end of the run)."""
    yield
    from django.db import connections

    with django_db_blocker.unblock():
        for connection in connections.all(initialized_only=True):
            if connection.vendor == "postgresql":
                _end_other_sessions(connection)
            close_pool = getattr(connection, "close_pool", None)
            if close_pool is not None:
                close_pool()


def _end_other_sessions(connection) -> None:
    """End sessions on the test database that servers started by the tests (daphne, Celery
    workers of the integration tests) left behind when they were killed: their backends can
    outlive the process by a moment, and a database with sessions cannot be dropped."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    connection.close()


def clear_cache() -> None:
    """Empty the default cache: the in-process one whole, a Redis one only of this worker's
    keys (its ``KEY_PREFIX``). Django's ``clear()`` on Redis is FLUSHDB, which would also empty
    every other worker's and run's keys on the shared server."""
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    backend = caches["default"]
    if not isinstance(backend, RedisCache):
        backend.clear()
        return
    client = backend._cache.get_client(write=True)
    keys = list(client.scan_iter(match=f"{backend.key_prefix}:*"))
    if keys:
        client.delete(*keys)


@pytest.fixture(scope="session", autouse=True)
def _task_modules_loaded() -> None:
    """Celery's task modules, loaded before the first test. Otherwise the first task queued by
    name in a process loads them (``games.common.queue``), and Celery's Django fixup then
    runs ``django.setup()`` again, which configures logging anew: the root logger's handlers
    are replaced and that test's ``caplog`` captures nothing more. Which test that is depends
    on the order, and with pytest-xdist each worker runs its own share."""
    from config.celery import app

    app.loader.import_default_modules()


@pytest.fixture(autouse=True)
def _plain_static_storage(settings) -> None:
    """Templates resolve ``{% static %}`` without a collectstatic manifest."""
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }


@pytest.fixture(autouse=True)
def _ai_moves_at_once(settings) -> None:
    """Games made by tests move their AI without the pause people watch by: a move
    queued for later would not run in the tests' inline task mode."""
    settings.AI_DELAY_MS = 0


@pytest.fixture(autouse=True)
def _fresh_throttle_counts() -> None:
    """Each test starts with no requests counted by the throttles. They count in the cache,
    keyed by user id, and a rolled-back test's ids come back in the next test on SQLite: a
    test that sent many requests (the API fuzz) left the next one's user near its limit (two
    rooms API tests got 429 when run after it). Only the embedded default's in-process cache is
    cleared; a test against Redis owns its database number."""
    from django.core.cache import caches
    from django.core.cache.backends.locmem import LocMemCache

    cache = caches["default"]
    if isinstance(cache, LocMemCache):
        cache.clear()


@pytest.fixture(autouse=True)
def _fresh_channel_layers():
    """Each test gets new channel layer objects, bound to its own event loop."""
    from channels.layers import channel_layers

    channel_layers.backends = {}
    yield
    channel_layers.backends = {}


@pytest.fixture
def python() -> str:
    """The interpreter running the tests (the project's virtual environment)."""
    return sys.executable


@pytest.fixture
def bare_env(tmp_path: Path) -> dict[str, str]:
    """An environment with nothing of Warboard's set: the embedded default, in a scratch folder."""
    return {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(tmp_path),
        "WARBOARD_VAR_DIR": str(tmp_path / "var"),
        # numba's, not Warboard's: the compiled combat kernels of the run (26 s to compile anew
        # in each scratch folder, by each server these tests start)
        "NUMBA_CACHE_DIR": os.environ.get("NUMBA_CACHE_DIR", str(ROOT / "var" / "numba")),
    }
