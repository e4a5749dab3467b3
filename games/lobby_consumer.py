"""``/ws/lobby/``: the live lobby (issue 17). Anyone may listen, signed in or not.

Server -> client: ``{"type": "lobby", "games": [ids]}`` whenever public games change in a way
the lobby shows (``games.services.lobby_feed``: created, a seat taken or given up, started, a
new turn, someone joining or leaving a running game, finished); at most one message per commit.
The message names ids only: the client re-reads the games (or its lists) from ``GET
/api/games``, which applies the caller's own visibility and filters, so nothing private travels
on this socket. Client -> server: ``{"type": "ping"}`` is answered by ``{"type": "pong"}``;
anything else gets ``{"type": "error", "status": 400, ...}``.
"""

from __future__ import annotations

from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer

from config import parsers
from config.exceptions import error_body
from games.services.lobby_feed import LOBBY_GROUP


class LobbyConsumer(AsyncJsonWebsocketConsumer):
    """Joins the lobby group on connect and relays its messages as ``lobby`` messages."""

    async def connect(self) -> None:
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        """Only pings are expected; a bad frame gets an error, never a dropped socket."""
        try:
            content = parsers.loads(text_data or "")  # depth-limited, as every JSON body
        except ValueError:
            await self.send_error("not valid JSON", "body")
            return
        if isinstance(content, dict) and content.get("type") == "ping":
            await self.send_json({"type": "pong"})
            return
        await self.send_error('the lobby socket only answers {"type": "ping"}', "type")

    async def send_error(self, message: str, field: str) -> None:
        await self.send_json({"type": "error", "status": 400,
                              **error_body("invalid", field, message, ["ping"])})  # fmt: skip

    async def lobby_message(self, event: dict[str, Any]) -> None:
        await self.send_json({"type": "lobby", "games": event["games"]})
