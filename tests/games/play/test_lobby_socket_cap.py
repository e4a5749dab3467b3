"""Anonymous ``/ws/lobby/`` sockets are capped per client address
(games.play.sockets.lobby_consumer).

Before the cap one address could hold any number of lobby sockets open, each with its memory
and its group membership; this test failed there (the socket past the cap was served).
"""

from __future__ import annotations

from channels.testing import WebsocketCommunicator

from config.asgi import application
from games.play.sockets import lobby_consumer
from tests.conftest import LOCAL_ORIGIN


def socket_from(address: str, *headers: tuple[bytes, bytes]) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(application, "/ws/lobby/", headers=[LOCAL_ORIGIN, *headers])
    socket.scope["client"] = [address, 50000]  # as daphne fills it, before the app runs
    return socket


async def served(socket: WebsocketCommunicator) -> bool:
    connected, _ = await socket.connect()
    if not connected:
        return False
    await socket.send_json_to({"type": "ping"})
    return await socket.receive_json_from(timeout=5) == {"type": "pong"}


async def test_one_address_holds_at_most_the_cap_of_anonymous_lobby_sockets(
    transactional_db, settings
):
    settings.LOBBY_SOCKETS_PER_ADDRESS = 3
    mine = [socket_from("192.0.2.1") for _ in range(3)]
    for socket in mine:
        assert await served(socket)

    extra = socket_from("192.0.2.1")
    connected, _ = await extra.connect()
    assert connected  # accepted only to be told why
    refusal = await extra.receive_json_from(timeout=5)
    assert (refusal["type"], refusal["status"]) == ("error", 429)
    assert refusal["error"] == "too_many_sockets"
    assert refusal["message"] == "at most 3 lobby sockets are open at once from one address"
    assert await extra.receive_output(timeout=5) == {"type": "websocket.close", "code": 4429}

    other = socket_from("192.0.2.2")
    assert await served(other)  # another address has its own count

    await mine[0].disconnect()  # a closed socket gives its place back
    again = socket_from("192.0.2.1")
    assert await served(again)
    assert lobby_consumer._open["192.0.2.1"] == 3

    for socket in [*mine[1:], other, again]:
        await socket.disconnect()
    await extra.wait()
    assert "192.0.2.1" not in lobby_consumer._open and "192.0.2.2" not in lobby_consumer._open


async def test_behind_proxies_the_forwarded_address_is_counted(transactional_db, settings):
    """With ``NUM_PROXIES`` = 1 the proxy's own address is not the client's: two clients behind
    one proxy each get their own cap."""
    settings.LOBBY_SOCKETS_PER_ADDRESS = 1
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}
    first = socket_from("10.0.0.1", (b"x-forwarded-for", b"198.51.100.1"))
    second = socket_from("10.0.0.1", (b"x-forwarded-for", b"198.51.100.2"))
    assert await served(first) and await served(second)
    third = socket_from("10.0.0.1", (b"x-forwarded-for", b"198.51.100.1"))
    await third.connect()
    assert (await third.receive_json_from(timeout=5))["error"] == "too_many_sockets"
    for socket in (first, second):
        await socket.disconnect()
    await third.wait()
