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
