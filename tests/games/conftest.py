"""The game server's fixed cast and helpers: alice, bob and carol, tasks run inline."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

PASSWORD = "correct horse battery staple"


@pytest.fixture(autouse=True)
def _inline_tasks(settings) -> None:
    """Bots answer inside the request that made them wait (config.celery._inline)."""
    settings.WARBOARD_TASKS_INLINE = True


def make_user(username: str, **extra: Any):
    return get_user_model().objects.create_user(
        username=username, password=PASSWORD, email=f"{username}@example.org", **extra
    )


@pytest.fixture
def alice(db):
    return make_user("alice")


@pytest.fixture
def bob(db):
    return make_user("bob")


@pytest.fixture
def carol(db):
    return make_user("carol")


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture(autouse=True)
def _fixed_server_seeds(monkeypatch) -> None:
    """Games in tests get known server seeds (the 1st game of a test 00..01, then 00..02, ...),
    so a test that plays a game plays the same one on every run."""
    import itertools

    counter = itertools.count(1)
    monkeypatch.setattr("games.play.lobby.new_seed", lambda: f"{next(counter):064x}")


@pytest.fixture(scope="module", autouse=True)
def _fast_password_hashing():
    """MD5 instead of PBKDF2 for the many users these tests make: hashing was most of their
    set-up time. (Only the hash's strength changes; the password validators still run.)

    Per module, not per session: a session fixture stayed on after the last test of
    ``tests/games`` and the integration tests that ran later made users with MD5 hashes that
    their separate server process (PBKDF2 only) refused ("invalid_credentials" in a CI run
    whose services pass ran a tests/games module first)."""
    from django.test.utils import override_settings

    # override_settings sends ``setting_changed``, on which Django resets every hasher cache
    # (``get_hashers`` and ``get_hashers_by_algorithm``): clearing one by hand left the other
    # naming the hashers of whichever test ran first, and MD5 hashes then failed every check.
    fast = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    fast.enable()
    yield
    fast.disable()
