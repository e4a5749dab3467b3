"""Websocket helpers shared by the in-memory and the Redis tests."""

from __future__ import annotations

from channels.testing import WebsocketCommunicator

from config.asgi import application
from tests.conftest import LOCAL_ORIGIN


async def ping_round_trip(extra_headers: list[tuple[bytes, bytes]] | None = None) -> dict:
    """Connect to /ws/ping/ through the full ASGI stack, send a ping, return the reply."""
    communicator = WebsocketCommunicator(
        application, "/ws/ping/", headers=[LOCAL_ORIGIN, *(extra_headers or [])]
    )
    connected, _ = await communicator.connect()
    assert connected
    try:
        await communicator.send_json_to({"type": "ping", "echo": 42})
        return await communicator.receive_json_from(timeout=5)
    finally:
        await communicator.disconnect()


# --- the game socket (/ws/games/<id>/) -----------------------------------------------------------


def game_socket(
    game_id: int,
    *,
    cookie: str | None = None,
    token: str | None = None,
    invite: str | None = None,
) -> WebsocketCommunicator:
    """A communicator for a game's socket, signed in by session cookie or API token (or neither:
    a spectator), with a private game's ``invite`` token if given. Connect it with
    ``await socket.connect()``."""
    from urllib.parse import urlencode

    from django.conf import settings

    path = f"/ws/games/{game_id}/"
    query = {k: v for k, v in (("token", token), ("invite", invite)) if v is not None}
    if query:
        path += f"?{urlencode(query)}"
    headers = [LOCAL_ORIGIN]
    if cookie is not None:
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    return WebsocketCommunicator(application, path, headers=headers)


def session_cookie(user) -> str:
    """A signed-in session for ``user`` (sync: call through ``sync_to_async``)."""
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def api_view(user, game_id: int) -> dict | None:
    """``GET /api/games/{id}``'s view for ``user`` (None: anonymous). Sync: call through
    ``database_sync_to_async``."""
    from django.test import Client

    client = Client()
    if user is not None:
        client.force_login(user)
    response = client.get(f"/api/games/{game_id}")
    assert response.status_code == 200, response.content
    return response.json()["view"]


def hidden_keys(message: object, path: str = "") -> list[str]:
    """Paths of every ``risk_hand`` / ``poker_hand`` key in a message (the private hands)."""
    found: list[str] = []
    if isinstance(message, dict):
        for key, value in message.items():
            here = f"{path}.{key}" if path else str(key)
            if key in ("risk_hand", "poker_hand"):
                found.append(here)
            found += hidden_keys(value, here)
    elif isinstance(message, list):
        for index, value in enumerate(message):
            found += hidden_keys(value, f"{path}[{index}]")
    return found


def updated_view(view: dict | None, version: int, update: dict) -> dict:
    """The view after ``update``, as a client rebuilds it from the one it holds at ``version``.

    The socket relays only updates that apply (``games.play.sockets.consumers``): the start's whole
    view, or a patch whose ``base_version`` is the client's version. Anything else fails the test.
    """
    from risk.rules import apply_patch

    assert "view" not in update or update["base_version"] is None, update
    if update["base_version"] is None:
        assert update["patch"] is None
        return update["view"]
    assert update["base_version"] == version, (version, update["version"], update["base_version"])
    assert update["version"] == version + 1
    return apply_patch(view, update["patch"])


class SocketPlayer:
    """A seat driven over its own game socket by a random bot, as a real client would be.

    On every message whose view lists this player as pending (and after each answer to its own
    request) it picks an action and sends it with the expected version. A real client has only
    its view; ``RandomBot`` needs a ``GameState``, so the harness reads it from the database
    (``selectors.game_state``) — acceptable only because this is a test harness, and harmless for
    the
    hidden-information checks: ``risk.rules.bots.decide`` hands the bot the state redacted for
    this player, and nothing read here is ever sent to the socket.
    """

    def __init__(self, user, game_id: int, *, token: str, seed: object) -> None:
        import random

        self.player = user.get_username()
        self.game_id = game_id
        self.socket = game_socket(game_id, token=token)
        self.rng = random.Random(str(seed))
        self.messages: list[dict] = []
        self.version = -1  # the newest version this socket has been told of
        self.view: dict | None = None  # the view as a client rebuilds it: state, then patches
        self.views: dict[int, dict] = {}  # every version's rebuilt view
        self.in_flight = False
        self.sent = 0
        self.refusals = 0  # consecutive errors (a random pick the engine refuses, a stale one)
        self.finished = False

    async def connect(self) -> dict:
        connected, _ = await self.socket.connect()
        assert connected
        message = await self.socket.receive_json_from(timeout=10)
        assert message["type"] == "state", message
        self.note(message)
        return message

    def note(self, message: dict) -> None:
        self.messages.append(message)
        if message["type"] == "state":
            self.version = message["game"]["version"]
            self.view = message["game"]["view"]
            self.finished = message["game"]["status"] == "finished"
        elif message["type"] == "update":
            self.view = updated_view(self.view, self.version, message)
            self.version = message["version"]
            self.finished = message["status"] == "finished"
        else:
            return
        if self.view is not None:
            self.views[self.version] = self.view

    def pending_here(self, message: dict) -> bool:
        if message["type"] == "state":
            pending = message["game"]["pending"]
        elif message["type"] == "update":
            pending = (self.view or {}).get("pending", [])
        else:
            return message["type"] in ("ack", "error")  # our own answer: look again
        return any(d["player"] == self.player for d in pending)

    async def play(self, *, until_version: int | None = None, idle: float = 30) -> None:
        """Play until the game is over (or has reached ``until_version``)."""
        await self.act()
        while not self.finished and (until_version is None or self.version < until_version):
            message = await self.socket.receive_json_from(timeout=idle)
            self.note(message)
            if message["type"] == "error":
                # A random pick the engine refuses, a version another seat overtook, or an action
                # racing the one that ended the game: all expected, none a reason to stop.
                assert message["error"] in ("illegal_action", "stale_version", "not_running"), (
                    message
                )
                self.refusals += 1
                assert self.refusals < 50, f"{self.player}: {message}"
            elif message["type"] == "ack":
                self.refusals = 0
            if message["type"] in ("ack", "error"):
                self.in_flight = False
            if not self.in_flight and not self.finished and self.pending_here(message):
                await self.act()

    async def act(self) -> None:
        from channels.db import database_sync_to_async

        action, version = await database_sync_to_async(self.decide)()
        if action is None:
            return
        self.sent += 1
        self.in_flight = True
        await self.socket.send_json_to({
            "type": "action", "action": action, "expected_version": version,
            "request_id": f"{self.player}-{self.sent}",
        })  # fmt: skip

    def decide(self) -> tuple[dict | None, int]:
        from games.play.reads import fetch
        from risk.rules import pending_decisions
        from risk.rules.bots import RandomBot, decide

        game = fetch.game_get(self.game_id)
        if game.status != "running":
            return None, game.version
        state = fetch.game_state(game)  # the test harness's shortcut: see the class docstring
        if self.player not in {d.player for d in pending_decisions(state)}:
            return None, game.version
        return decide(RandomBot(self.rng), state, self.player).to_dict(), game.version
