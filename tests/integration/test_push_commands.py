"""Redis commands per action: a 6-seat game, all six seats and a spectator connected
over sockets, one action, at most 20 Redis commands from the submit until every socket has its
update.

Measured on one such action: 10 commands (the action throttle's GET and SET, one HELLO of the
publishing connection, seven PUBLISH); on ``channels_redis.core.RedisChannelLayer`` the same
action cost 104 (per group ZREMRANGEBYSCORE, ZRANGE, MULTI/EXEC, EVAL with ZADD/EXPIRE inside,
then ZPOPMIN/BZPOPMIN/DEL on the receiving side).

Counted with ``MONITOR`` between two ``ECHO`` markers (and cross-checked against INFO's
``total_commands_processed``), so the failure message names every command. Both count the whole
Redis server, so the cache and the channel layer use a Redis server of the test's own: on the
machine's, another test worker (or another run of the suite) busy at the same time counted too.
"""

from __future__ import annotations

import asyncio
import os
import threading
import uuid
from collections import Counter
from typing import Any

import pytest
import redis
from channels.db import database_sync_to_async
from django.conf import settings
from django.core.cache import cache
from rest_framework.authtoken.models import Token

from config import environment
from games.play import lobby
from games.play.reads import fetch
from risk.rules import apply_patch
from tests.integration.processes import RedisServer
from tests.sockets import api_view, game_socket

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

NAMES = ("alice", "bob", "carol", "dave", "erin", "frank")
BUDGET = 20


def start_game(django_user_model) -> tuple[int, list[Any], list[str]]:
    users = [django_user_model.objects.create_user(f"{n}-{uuid.uuid4().hex[:6]}") for n in NAMES]
    game = lobby.game_create(creator=users[0], seats=len(users))
    for user in users[1:]:
        lobby.game_join(game_id=game.pk, user=user)
    lobby.game_start(game_id=game.pk, user=users[0])
    return game.pk, users, [Token.objects.get_or_create(user=u)[0].key for u in users]


def first_move(game_id: int, username: str) -> tuple[dict[str, Any], int]:
    """``username``'s set-up (every seat arranges at once, so this one needs no other first)."""
    import random

    from risk.rules.bots import RandomBot, decide

    game = fetch.game_get(game_id)
    action = decide(RandomBot(random.Random(0)), fetch.game_state(game), username)
    assert action.type == "arrange"
    return action.to_dict(), game.version


@pytest.fixture
def own_redis(tmp_path, settings):
    """A Redis server of this test's own, under the cache and the channel layer; its URL."""
    server = RedisServer(tmp_path)
    server.start()
    try:
        server.wait_ready()
        env = {**os.environ, "REDIS_URL": server.url}
        settings.CACHES = environment.cache_config(env)
        settings.CHANNEL_LAYERS = environment.channel_layers_config(env)
        yield server.url
    finally:
        server.stop()


class Monitor:
    """Every command Redis runs between ``ECHO <token>-start`` and ``ECHO <token>-end``."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.token = uuid.uuid4().hex
        self.commands: list[str] = []
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self.listen, daemon=True)

    def listen(self) -> None:
        client = redis.Redis.from_url(self.url)
        with client.monitor() as monitor:
            self.ready.set()
            inside = False
            for line in monitor.listen():
                command = line["command"]
                if command == f"ECHO {self.token}-start":
                    inside = True
                elif command == f"ECHO {self.token}-end":
                    return
                elif inside:
                    self.commands.append(command)

    def __enter__(self) -> Monitor:
        self.thread.start()
        assert self.ready.wait(5)
        self.client = redis.Redis.from_url(self.url)
        self.before = self.client.info("stats")["total_commands_processed"]
        self.client.echo(f"{self.token}-start")
        return self

    def __exit__(self, *exc: object) -> None:
        self.client.echo(f"{self.token}-end")
        # An INFO counts itself once it has run: the first INFO and the two markers are in.
        self.total = self.client.info("stats")["total_commands_processed"] - self.before - 3
        self.thread.join(5)
        self.client.close()


async def test_one_action_in_a_six_seat_game_costs_at_most_20_redis_commands(
    django_user_model, monkeypatch, own_redis
):
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"].startswith("channels_redis.pubsub")
    await database_sync_to_async(cache.clear)()
    game_id, users, tokens = await database_sync_to_async(start_game)(django_user_model)
    seats = [game_socket(game_id, token=token) for token in tokens]
    spectator = game_socket(game_id)
    sockets = [*seats, spectator]
    states = []
    for socket in sockets:
        connected, _ = await socket.connect()
        assert connected
        message = await socket.receive_json_from(timeout=10)
        assert message["type"] == "state"
        states.append(message["game"])
    action, version = await database_sync_to_async(first_move)(game_id, users[0].username)
    await asyncio.sleep(0.2)  # the subscriptions and presence writes of connecting are done

    with Monitor(own_redis) as seen:
        await seats[0].send_json_to({
            "type": "action", "action": action, "expected_version": version,
            "request_id": "count",
        })  # fmt: skip
        ack = await seats[0].receive_json_from(timeout=10)
        assert (ack["type"], ack["version"]) == ("ack", version + 1), ack
        updates = [await socket.receive_json_from(timeout=10) for socket in sockets]
    for socket in sockets:
        await socket.disconnect()

    # Every socket got the action as a patch of its own view, and rebuilt the API's view.
    for user, state, update in zip([*users, None], states, updates, strict=True):
        assert (update["type"], update["version"], update["base_version"]) == (
            "update", version + 1, version,
        )  # fmt: skip
        view = apply_patch(state["view"], update["patch"])
        assert view == await database_sync_to_async(api_view)(user, game_id)
    breakdown = Counter(command.split(" ")[0].strip('"').upper() for command in seen.commands)
    print(f"{len(seen.commands)} Redis commands for one action: {dict(breakdown)}")
    print("\n".join(command[:100] for command in seen.commands))
    assert len(seen.commands) == seen.total, (seen.total, seen.commands)
    assert breakdown["PUBLISH"] == 7  # six seats and one shared public payload
    assert len(seen.commands) <= BUDGET, seen.commands
