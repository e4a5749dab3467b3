"""Two ASGI server processes sharing PostgreSQL and Redis: an action through one reaches a socket
on the other. Runs in the second pass of ``make test``.

Both daphne processes serve the test database of this run (pytest-django's ``test_<name>``; the
test is transactional so they see its rows) and one channels-redis prefix of their own, so no
other run on the same Redis can hear them. Their Celery tasks go to an in-process ``memory://``
broker nobody consumes (``CELERY_BROKER_URL`` overrides the broker): the test plays only the two
people's set-up, which needs no task, and nothing is left queued in Redis for a worker to run
against a database that is about to be dropped.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import time
import uuid
from typing import Any

import pytest
import websockets
from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connection
from rest_framework.authtoken.models import Token

from games.play import lobby
from games.play.reads import fetch
from risk.rules import apply_patch
from risk.rules.bots import RandomBot, decide
from tests.integration import processes
from tests.integration.processes import Daphne

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

#: Seconds a pushed update may take to cross from one process to the other's socket.
PUSH_TIMEOUT = 5


def server_env(prefix: str) -> dict[str, str]:
    """This run's environment on its test database and Redis, with its own channel prefix."""
    return processes.server_env(
        REDIS_URL=os.environ["REDIS_URL"], CELERY_BROKER_URL="memory://",
        CHANNEL_LAYER_PREFIX=prefix,
    )  # fmt: skip


def game_socket(server: Daphne, game_id: int, token: str):
    return websockets.connect(
        f"ws://127.0.0.1:{server.port}/ws/games/{game_id}/?token={token}",
        origin=f"http://127.0.0.1:{server.port}",
        open_timeout=10,
    )


def start_game(django_user_model) -> tuple[int, dict[str, str]]:
    users = [django_user_model.objects.create_user(name) for name in ("alice", "bob")]
    game = lobby.game_create(creator=users[0], seats=2)
    lobby.game_join(game_id=game.pk, user=users[1])
    lobby.game_start(game_id=game.pk, user=users[0])
    tokens = {u.username: Token.objects.create(user=u).key for u in users}
    return game.pk, tokens


def view_of(game_id: int, username: str) -> dict[str, Any]:
    """The view ``GET /api/games/{id}`` shows ``username`` now."""
    from django.contrib.auth import get_user_model

    from games.play.reads import shown

    user = get_user_model().objects.get(username=username)
    return json.loads(json.dumps(shown.game_detail(fetch.game_get(game_id), user)["view"]))


def arrange(game_id: int, player: str) -> tuple[dict[str, Any], int]:
    """``player``'s set-up: both players arrange at once, so neither waits on an AI."""
    game = fetch.game_get(game_id)
    action = decide(RandomBot(random.Random(player)), fetch.game_state(game), player)
    assert action.type == "arrange"
    return action.to_dict(), game.version


async def next_message(ws, kind: str, version: int | None = None) -> dict[str, Any]:
    """The next message of type ``kind`` (of ``version``, for an update); earlier ones, such as
    alice's own update before the one bob's action causes, are passed over."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), timeout=PUSH_TIMEOUT))
        if message["type"] == kind and (version is None or message["version"] == version):
            return message


async def test_an_action_through_one_process_reaches_a_socket_on_the_other(
    django_user_model, tmp_path
):
    assert connection.vendor == "postgresql"
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"].startswith("channels_redis")
    game_id, tokens = await database_sync_to_async(start_game)(django_user_model)
    env = server_env(prefix=f"warboard-test-{uuid.uuid4().hex[:8]}")
    servers = [Daphne("a", env, tmp_path), Daphne("b", env, tmp_path)]
    a, b = servers
    try:
        for server in servers:
            server.start()
        for server in servers:
            await asyncio.to_thread(server.wait_ready)
        async with (
            game_socket(a, game_id, tokens["alice"]) as alice_ws,
            game_socket(b, game_id, tokens["bob"]) as bob_ws,
        ):
            alice_state = (await next_message(alice_ws, "state"))["game"]
            bob_state = (await next_message(bob_ws, "state"))["game"]
            assert (alice_state["you"]["player"], bob_state["you"]["player"]) == ("alice", "bob")

            # alice acts over HTTP on process A: bob's socket on process B hears it.
            action, version = await database_sync_to_async(arrange)(game_id, "alice")
            status, body = await asyncio.to_thread(
                a.request, "POST", f"/api/games/{game_id}/actions",
                {"action": action, "expected_version": version}, tokens["alice"],
            )  # fmt: skip
            assert (status, body["version"]) == (200, version + 1), body
            pushed = await next_message(bob_ws, "update")
            assert (pushed["version"], pushed["base_version"]) == (version + 1, version)
            bob_view = apply_patch(bob_state["view"], pushed["patch"])
            assert bob_view["you"] == "bob"
            assert [e["type"] for e in pushed["events"]] == ["arranged"]
            alice_seat = next(s for s in bob_view["seats"] if s["id"] == "alice")
            assert "risk_hand" not in alice_seat and "poker_hand" not in alice_seat
            assert time.time() - pushed["committed_at"] < PUSH_TIMEOUT

            # bob acts over his socket on process B: alice's socket on process A hears it.
            action, version = await database_sync_to_async(arrange)(game_id, "bob")
            await bob_ws.send(json.dumps({
                "type": "action", "action": action, "expected_version": version,
                "request_id": "b1",
            }))  # fmt: skip
            ack = await next_message(bob_ws, "ack")
            assert (ack["request_id"], ack["version"]) == ("b1", version + 1)
            # alice's socket relayed her own arrange first: her client patches step by step,
            # and ends with the view the API shows her.
            own = await next_message(alice_ws, "update", version)
            pushed = await next_message(alice_ws, "update", version + 1)
            assert (own["base_version"], pushed["base_version"]) == (version - 1, version)
            alice_view = apply_patch(apply_patch(alice_state["view"], own["patch"]),
                                     pushed["patch"])  # fmt: skip
            assert alice_view == await database_sync_to_async(view_of)(game_id, "alice")
            assert "turn_started" in [e["type"] for e in pushed["events"]]
    finally:
        for server in servers:
            server.stop()
    for server in servers:  # the query string (the API token) is not written to the log
        assert tokens["alice"] not in server.text()
