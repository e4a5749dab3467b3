"""``/ws/lobby/``: the live lobby. Anyone may listen, signed in or not.

Server -> client: ``{"type": "lobby", "games": [ids]}`` whenever public games change in a way
the lobby shows (``games.play.lobby_feed``: created, a seat taken or given up, started, a
new turn, someone joining or leaving a running game, finished); at most one message per commit.
The message names ids only: the client re-reads the games (or its lists) from ``GET
/api/games``, which applies the caller's own visibility and filters, so nothing private travels
on this socket. Client -> server: ``{"type": "ping"}`` is answered by ``{"type": "pong"}``;
anything else gets ``{"type": "error", "status": 400, ...}``.

Anonymous listeners are capped per client address (``LOBBY_SOCKETS_PER_ADDRESS`` open at once
in a process; the address as the HTTP throttles read it, ``X-Forwarded-For`` only behind
``NUM_PROXIES`` proxies): every socket holds memory and a channel-layer group membership, so one
client must not open thousands. One past the cap is accepted only to be told why: an ``error``
(429 ``too_many_sockets``) and close code 4429. Signed-in listeners are not capped here. The
count lives in the process (the sockets do): a socket that closes, however, gives its place
back, so nothing is left counted after a crash of the client.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from rest_framework.settings import api_settings

from games.play.lobby_feed import LOBBY_GROUP
from games.web import parsers
from games.web.exceptions import error_body

#: Close code of a socket past its address's cap.
CLOSE_TOO_MANY = 4429

#: Anonymous lobby sockets open in this process, per client address. Touched only on the event
#: loop (connect and disconnect), so no lock is needed.
_open: Counter[str] = Counter()


def client_address(scope: dict[str, Any]) -> str:
    """The socket's client address, read as ``games.web.throttles`` reads an HTTP request's."""
    client = scope.get("client") or ("unknown", 0)
    remote = str(client[0])
    proxies = api_settings.NUM_PROXIES
    if not proxies:
        return remote
    headers = dict(scope.get("headers") or [])
    forwarded = headers.get(b"x-forwarded-for")
    if not forwarded:
        return remote
    addresses = forwarded.decode("latin-1").split(",")
    return addresses[-min(proxies, len(addresses))].strip()


class LobbyConsumer(AsyncJsonWebsocketConsumer):
    """Joins the lobby group on connect and relays its messages as ``lobby`` messages."""

    counted: str | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if not getattr(user, "is_authenticated", False):
            address = client_address(self.scope)
            cap = settings.LOBBY_SOCKETS_PER_ADDRESS
            if _open[address] >= cap:
                await self.accept()
                await self.send_json({"type": "error", "status": 429, **error_body(
                    "too_many_sockets", None,
                    f"at most {cap} lobby sockets are open at once from one address",
                    None)})  # fmt: skip
                await self.close(code=CLOSE_TOO_MANY)
                return
            _open[address] += 1
            self.counted = address
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if self.counted is not None:
            _open[self.counted] -= 1
            if _open[self.counted] <= 0:
                del _open[self.counted]
            self.counted = None
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
