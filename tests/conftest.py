"""Fixtures shared by the whole suite.

Tests marked ``services`` need the real PostgreSQL and Redis servers; they run in the second pass
of ``make test`` with DATABASE_URL and REDIS_URL set. A plain ``pytest`` without those variables
deselects them and says so at the end of the run, so nobody mistakes the first pass for all of it.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: Origin header a browser on the default local server sends; ALLOWED_HOSTS admits it.
LOCAL_ORIGIN = (b"origin", b"http://127.0.0.1:8000")

_deselected_services: list[pytest.Item] = []


def services_configured() -> bool:
    return bool(os.environ.get("DATABASE_URL")) and bool(os.environ.get("REDIS_URL"))


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if services_configured() or config.option.markexpr:
        return  # services are there, or the caller chose with -m (as `make test` does)
    keep = [item for item in items if item.get_closest_marker("services") is None]
    _deselected_services.extend(item for item in items if item.get_closest_marker("services"))
    if _deselected_services:
        config.hook.pytest_deselected(items=_deselected_services)
        items[:] = keep


def pytest_terminal_summary(terminalreporter) -> None:
    if _deselected_services:
        terminalreporter.write_line(
            f"NOTE: {len(_deselected_services)} tests marked 'services' were not run: "
            "DATABASE_URL and REDIS_URL are not set (`make test` runs them).",
            yellow=True,
        )


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
    }
