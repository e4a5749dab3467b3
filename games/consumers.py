"""Websocket consumers of the game server."""

from __future__ import annotations

import uuid
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer


class PingConsumer(AsyncJsonWebsocketConsumer):
    """``/ws/ping/``: answers ``{"type": "ping"}`` with ``{"type": "pong"}`` via the channel layer.

    The pong is not written straight back: the consumer sends it to a group holding only itself,
    so a reply proves the channel layer (in-memory or Redis) carries messages end to end. The
    reply also says who the session belongs to, which shows session auth reached the socket.
    """

    async def connect(self) -> None:
        if self.channel_layer is None:
            await self.close(code=4500)
            return
        self.group_name = f"ping.{uuid.uuid4().hex}"
        await self.channel_layer.group_add(self.group_name, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.channel_layer is not None and hasattr(self, "group_name"):
            await self.channel_layer.group_discard(self.group_name, self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        if not isinstance(content, dict) or content.get("type") != "ping":
            await self.send_json(
                {"type": "error", "field": "type", "error": 'expected {"type": "ping"}'}
            )
            return
        await self.channel_layer.group_send(
            self.group_name, {"type": "pong.message", "echo": content.get("echo")}
        )

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs
    ):
        """Malformed JSON gets an error message, not a dropped socket."""
        try:
            await super().receive(text_data=text_data, bytes_data=bytes_data, **kwargs)
        except ValueError:
            await self.send_json({"type": "error", "field": "body", "error": "not valid JSON"})

    async def pong_message(self, event: dict[str, Any]) -> None:
        user = self.scope.get("user")
        authenticated = bool(user is not None and await _is_authenticated(user))
        reply: dict[str, Any] = {
            "type": "pong",
            "user": user.get_username() if authenticated else None,
        }
        if event.get("echo") is not None:
            reply["echo"] = event["echo"]
        await self.send_json(reply)


async def _is_authenticated(user: Any) -> bool:
    """Resolve the lazy user from the session (a database read) off the event loop."""
    from channels.db import database_sync_to_async

    return await database_sync_to_async(lambda: bool(user.is_authenticated))()
