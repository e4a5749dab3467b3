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
