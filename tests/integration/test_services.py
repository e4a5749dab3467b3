"""The server on the real PostgreSQL and Redis (second pass of `make test`).

Every test here first asserts that the settings really chose the servers, so a run that slipped
back to SQLite or the in-memory layer fails instead of passing for the wrong reason.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

from games.play.tasks import ping
from tests.conftest import ROOT
from tests.sockets import ping_round_trip

pytestmark = pytest.mark.services


def test_settings_chose_postgresql_and_redis():
    assert connection.vendor == "postgresql"
    assert "pool" in connection.settings_dict["OPTIONS"]
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"] == (
        "channels_redis.pubsub.RedisPubSubChannelLayer"
    )
    assert settings.CELERY_BROKER_URL.startswith("redis://")
    assert settings.WARBOARD_EMBEDDED_TASKS is False


@pytest.mark.django_db
def test_healthz_is_ok_on_postgresql_and_redis(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["database"], body["channel_layer"]) == ("ok", "ok", "ok")
    assert body["backends"] == {
        "database": "postgresql",
        "channel_layer": "RedisPubSubChannelLayer",
    }


@pytest.mark.django_db(transaction=True)
async def test_a_health_probe_leaves_no_redis_subscription_behind():
    """The pub/sub layer keeps a channel subscribed until a receive on it is cancelled; the
    probe cancels one, so three probes leave no ``healthz.`` channel subscribed."""
    import redis.asyncio

    from games.web.health import probe_channel_layer

    for _ in range(3):
        assert (await probe_channel_layer()).ok
    client = redis.asyncio.Redis.from_url(os.environ["REDIS_URL"])
    prefix = settings.CHANNEL_LAYERS["default"]["CONFIG"]["prefix"]  # this worker's channels
    try:
        assert await client.pubsub_channels(f"{prefix}healthz.*") == []
    finally:
        await client.aclose()


@pytest.mark.django_db(transaction=True)
async def test_ping_gets_pong_through_channels_redis():
    assert type(get_channel_layer()).__name__ == "RedisPubSubChannelLayer"
    assert await ping_round_trip() == {"type": "pong", "user": None, "echo": 42}


@pytest.fixture
def worker(tmp_path: Path):
    """A real Celery worker process on its own queue, so no other worker can take the task."""
    queue = f"test-{uuid.uuid4().hex[:12]}"
    log = tmp_path / "worker.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [
                str(Path(sys.executable).parent / "celery"),
                "-A",
                "config",
                "worker",
                "--pool",
                "solo",
                "--queues",
                queue,
                "--hostname",
                f"{queue}@%h",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "--loglevel",
                "INFO",
            ],
            cwd=ROOT,
            env=os.environ.copy(),
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        yield queue, process
    finally:
        process.terminate()
        process.wait(timeout=20)
        print(log.read_text())


def test_a_task_round_trips_through_the_redis_broker_to_a_worker(worker):
    queue, process = worker
    token = uuid.uuid4().hex
    result = ping.apply_async(args=[token], queue=queue)
    reply = result.get(timeout=60)
    assert reply["token"] == token
    assert reply["pid"] == process.pid  # it ran in the worker, not in this process
    assert reply["pid"] != os.getpid()
