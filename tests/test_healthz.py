"""GET /healthz on the embedded default (SQLite + in-memory channel layer)."""

from __future__ import annotations

import pytest
from django.db import OperationalError, connections

from games.web.health import server_version

DEAD_REDIS_LAYER = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        # Port 1 on loopback: nothing listens, so the connection is refused at once.
        "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]},
    }
}


@pytest.mark.django_db
def test_healthz_is_ok_on_sqlite_and_the_in_memory_layer(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {
        "status": "ok",
        "database": "ok",
        "channel_layer": "ok",
        "version": "0.1.0",
        "backends": {"database": "sqlite", "channel_layer": "InMemoryChannelLayer"},
    }


def test_version_is_the_installed_distributions():
    assert server_version() == "0.1.0"


@pytest.mark.django_db
def test_healthz_names_the_channel_layer_when_it_is_down(client, settings):
    settings.CHANNEL_LAYERS = DEAD_REDIS_LAYER
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "error"
    assert body["failing"] == ["channel_layer"]
    assert body["database"] == "ok"
    assert body["channel_layer"].startswith("error: ")
    assert body["backends"]["channel_layer"] == "RedisPubSubChannelLayer"


@pytest.mark.django_db
def test_healthz_names_the_database_when_it_is_down(client, monkeypatch):
    def refuse(*args, **kwargs):
        raise OperationalError("connection to server at 127.0.0.1 port 5432 refused")

    monkeypatch.setattr(connections["default"], "cursor", refuse)
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["failing"] == ["database"]
    assert body["database"] == (
        "error: OperationalError: connection to server at 127.0.0.1 port 5432 refused"
    )
    assert body["channel_layer"] == "ok"


@pytest.mark.django_db
def test_healthz_refuses_other_methods(client):
    assert client.post("/healthz").status_code == 405
