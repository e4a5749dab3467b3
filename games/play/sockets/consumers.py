"""Websocket consumers of the game server: ``/ws/ping/`` and ``/ws/games/<id>/``.

The game socket's messages, both ways, are typed definitions in ``games.protocol.socket`` (its
docstring says what each one means; the JSON Schema of them is served by ``GET /api/protocol``
and is in the OpenAPI document). What follows is how this consumer delivers them.

Who hears what: a socket whose user holds a seat (in any state) is in that seat's group; every
other socket (anonymous, or signed in without a seat) is in the game's public group and gets the
spectator view. A user can gain a seat while connected: a 'join' action taking over an allied
army, or a lobby seat taken over HTTP before the start. The consumer therefore looks the seat up
again after the user's own successful action, on a ``state`` request and whenever a public update
reaches a signed-in spectator; on finding a seat it joins the seat's group first, then leaves the
public one, then sends a fresh ``state`` with the user's own view (joining before reading means
no update falls in between; duplicates are dropped by version, and a public update still
queued for the socket after the move is dropped by the group it names).

Presence: a signed-in user's socket is recorded in ``games.play.presence`` on connect,
refreshed by any message it sends (at most every ``PRESENCE_REFRESH`` seconds; a client idle
longer than that should send a ``ping`` about once a minute) and removed on disconnect.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from typing import Any
from urllib.parse import parse_qs

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from rest_framework import exceptions as drf_exceptions

from games.play import chat, notify, presence, push, submit
from games.play.reads import fetch, shown
from games.web import parsers
from games.web.exceptions import (
    BODY,
    ApplicationError,
    NotFoundError,
    api_exception_handler,
    error_body,
)

logger = logging.getLogger(__name__)


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

    @classmethod
    async def decode_json(cls, text_data: str) -> Any:
        """Depth-limited, as every JSON body (``TooDeep`` is a ``ValueError``: see receive)."""
        return parsers.loads(text_data)

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
        except (ValueError, RecursionError):  # RecursionError: nested too deeply to decode
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
    return await database_sync_to_async(lambda: bool(user.is_authenticated))()


# --- the game socket ----------------------------------------------------------------------------

#: Close codes of the game socket (4000-4999 belong to the application).
CLOSE_BAD_TOKEN = 4401
CLOSE_NOT_FOUND = 4404
#: The message types a client may send.
MESSAGE_TYPES = ("action", "chat", "ping", "state")
#: Seconds between presence refreshes of one socket. Any message received refreshes it, at most
#: this often: well inside ``presence.PRESENCE_TTL`` (180 s), without a cache round trip (four on
#: Redis, with the lock) for every action of a fast client.
PRESENCE_REFRESH = 30.0
#: Seconds an update that skips a version waits for the missing one (see the module docstring).
HOLD_SECONDS = 0.5


class GameConsumer(AsyncJsonWebsocketConsumer):
    """``/ws/games/<id>/``: the live game for one viewer (protocol in the module docstring)."""

    game_id: int
    user: Any = None
    #: The ``?invite=`` of the socket's URL: a private game's token, checked on every read.
    invite: str | None = None
    #: The channel-layer group this socket listens on (a seat's, or the public one).
    group_name: str | None = None
    #: The seat position the user holds, None for a spectator.
    position: int | None = None
    #: The version and status of the last ``state`` sent: updates up to it are already in it.
    state_version: int = -1
    state_status: str = ""
    #: The version of the client's view: that of the last update (or state) sent. Updates that
    #: came early are held by their ``base_version`` until it is reached.
    relayed_version: int | None = None
    held: dict[int, dict[str, Any]]
    hold_timer: asyncio.TimerHandle | None = None
    #: Taken while relaying updates or sending a state, so the hold timer's recovery and the
    #: message handlers never interleave their sends.
    ordered: asyncio.Lock
    #: Whether presence is recorded (so disconnect only clears what connect set), and when.
    present: bool = False
    present_at: float = 0.0

    # --- connection -------------------------------------------------------------------------

    async def dispatch(self, message: dict[str, Any]) -> None:
        """channels' dispatch without its ``aclose_old_connections()`` before every message.

        channels (4.2 and later) closes stale database connections before each message a
        consumer handles, through ``sync_to_async`` on the one thread shared by every socket
        of the process: each push to each of 600 sockets queued for that thread (a tenth of
        the event loop's CPU at 100 games, ``bench/load.py --py-spy-gil``). Every database
        call of this consumer goes through ``database_sync_to_async``, which closes stale
        connections itself around the call, so nothing here needs the extra hop.
        """
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    async def connect(self) -> None:
        self.held = {}
        self.ordered = asyncio.Lock()
        self.game_id = int(self.scope["url_route"]["kwargs"]["game_id"])
        self.user = self.scope.get("user")  # resolved by the session / token middleware
        self.invite = invite_from_query(self.scope.get("query_string", b""))
        await self.accept()
        if self.scope.get("auth_error"):
            await self.send_exception(drf_exceptions.AuthenticationFailed(self.scope["auth_error"]))
            await self.close(code=CLOSE_BAD_TOKEN)
            return
        try:
            await self.regroup()
            await self.send_state()
        except NotFoundError as exc:
            await self.send_exception(exc)
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.presence("connected")

    async def disconnect(self, code: int) -> None:
        if self.group_name is not None:
            await self.channel_layer.group_discard(self.group_name, self.channel_name)
            self.group_name = None
        if self.hold_timer is not None:
            self.hold_timer.cancel()
            self.hold_timer = None
        if self.present:
            await self.presence("disconnected")
            await self.seen_on_leaving()

    async def seen_on_leaving(self) -> None:
        """The user's last socket on this game closed: they saw it all live, so their next
        "your turn" summary starts from here (none was queued while they watched)."""
        try:
            if not await sync_to_async(presence.presence_is_connected, thread_sensitive=False)(
                self.game_id, self.user.pk
            ):
                await database_sync_to_async(notify.seen_everything)(self.game_id, self.user.pk)
        except Exception:
            logger.exception("game %s: marking what the user saw failed", self.game_id)

    # --- receiving --------------------------------------------------------------------------

    async def receive(
        self, text_data: str | None = None, bytes_data: bytes | None = None, **kwargs: Any
    ) -> None:
        """Decode here rather than in the base class, so a bad frame gets an error message
        (never a dropped socket) and a ValueError raised by a handler is not taken for one."""
        if text_data is None:
            await self.send_exception(drf_exceptions.ParseError("send JSON as text frames"))
            return
        try:
            content = parsers.loads(text_data)  # depth-limited, as every JSON body
        except ValueError as exc:
            await self.send_exception(drf_exceptions.ParseError(f"not valid JSON: {exc}"))
            return
        await self.receive_json(content)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        request_id = None
        try:
            if not isinstance(content, dict):
                raise ApplicationError(
                    'a message is a JSON object such as {"type": "ping"}', code="parse_error",
                    field=BODY,
                )  # fmt: skip
            request_id = _request_id(content)
            await self.presence("refresh")
            kind = content.get("type")
            if kind is None:
                raise ApplicationError(
                    "every message has a 'type'", code="required", field="type",
                    allowed=MESSAGE_TYPES,
                )  # fmt: skip
            if not isinstance(kind, str):  # a list or an object is no key of the table below
                raise ApplicationError(
                    "a message's 'type' is a string", code="invalid", field="type",
                    allowed=MESSAGE_TYPES,
                )  # fmt: skip
            handler = {
                "action": self.handle_action,
                "chat": self.handle_chat,
                "ping": self.handle_ping,
                "state": self.handle_state,
            }.get(kind)
            if handler is None:
                raise ApplicationError(
                    f"unknown message type {kind!r}", code="invalid", field="type",
                    allowed=MESSAGE_TYPES,
                )  # fmt: skip
            # Its own thread context, as Django gives each HTTP request: without it every
            # database call of every socket in this process queues for one shared thread
            # (bench/load.py: socket actions 3x slower than HTTP ones at 100 games).
            async with ThreadSensitiveContext():
                await handler(content, request_id)
        except (ApplicationError, drf_exceptions.APIException) as exc:
            await self.send_exception(exc, request_id)
        except Exception as exc:  # a bug must cost the client this one answer, not the socket
            logger.exception("game %s: socket message failed", self.game_id)
            await self.send_exception(exc, request_id)

    async def handle_action(self, content: dict[str, Any], request_id: Any) -> None:
        if not _authenticated(self.user):
            raise drf_exceptions.NotAuthenticated(
                "spectators only watch: sign in (session, or ?token= for scripts) to play"
            )
        data = _action_input(content)
        if data.get("invite") is None:
            data["invite"] = self.invite
        response = await submit_action(self.game_id, self.user, data)
        await self.reply("ack", request_id, response)
        # A 'join' action gave the user a seat: from now on they hear that seat's updates.
        if self.position is None and await self.regroup():
            await self.send_state()

    async def handle_chat(self, content: dict[str, Any], request_id: Any) -> None:
        """A chat line: the service checks the seat, the text and the rate, saves it, and
        pushes it to the game after the commit (this socket hears it too, after the ack)."""
        if "text" not in content:
            raise ApplicationError("a chat message has a 'text'", code="required", field="text")
        line = await post_chat(self.game_id, self.user, content["text"], self.invite)
        await self.reply("ack", request_id, {"id": line["id"]})

    async def handle_ping(self, content: dict[str, Any], request_id: Any) -> None:
        await self.reply("pong", request_id, {})

    async def handle_state(self, content: dict[str, Any], request_id: Any) -> None:
        if self.position is None:
            await self.regroup()
        await self.send_state(request_id)

    # --- the channel layer --------------------------------------------------------------------

    async def game_message(self, event: dict[str, Any]) -> None:
        """A ``push`` message for this socket's group."""
        payload = event["payload"]
        try:
            if payload.get("type") == "update":
                if event.get("group", self.group_name) != self.group_name:
                    return  # queued before the socket moved to a seat: not a patch of its view
                async with self.ordered:
                    await self.take_update(payload)
                return
            await self.send_json(payload)
        except Exception:  # as in receive_json: log it, keep the socket
            logger.exception("game %s: relaying a group message failed", self.game_id)

    async def take_update(self, update: dict[str, Any]) -> None:
        if self.already_sent(update):
            return
        if self.position is None and _authenticated(self.user) and await self.regroup():
            await self._send_state()  # the user took a seat: their own view, not this
            return
        await self.relay_in_order(update)

    async def relay_in_order(self, update: dict[str, Any]) -> None:
        """Send ``update`` if the client can apply it, hold it if it comes early, drop it if it
        is stale (see the module docstring)."""
        version, base = update.get("version", 0), update.get("base_version")
        last = self.relayed_version
        if last is None:  # nothing sent yet to patch (not reached: connect sends a state)
            await self._send_state()
            return
        if base is not None and base != last:
            if version > last:  # a version is missing before it: wait for it a little
                self.held[base] = update
                if self.hold_timer is None:
                    loop = asyncio.get_running_loop()
                    self.hold_timer = loop.call_later(
                        HOLD_SECONDS, lambda: loop.create_task(self.release_held())
                    )
            return  # else already superseded by what the client has
        if base is None and version < last:
            return  # a whole view older than what the client has
        await self.send_json(update)
        self.relayed_version = version
        await self.send_held()

    async def send_held(self) -> None:
        """Relay the held updates that now apply, in order; forget those already covered."""
        while self.relayed_version in self.held:
            update = self.held.pop(self.relayed_version)
            await self.send_json(update)
            self.relayed_version = update.get("version", 0)
        last = self.relayed_version or 0
        self.held = {base: u for base, u in self.held.items() if u.get("version", 0) > last}
        if not self.held and self.hold_timer is not None:
            self.hold_timer.cancel()
            self.hold_timer = None

    async def release_held(self) -> None:
        """The missing version did not come in time: the client cannot apply what is held, so
        it gets a fresh ``state`` instead (then whatever held update follows it)."""
        self.hold_timer = None
        try:
            async with self.ordered:
                if not self.held:
                    return
                await self._send_state()
                await self.send_held()
                self.held.clear()  # still not applicable: the next update's gap recovers
        except Exception:
            logger.exception("game %s: recovering a version gap failed", self.game_id)

    def already_sent(self, update: dict[str, Any]) -> bool:
        """Whether the last ``state`` sent already contains ``update``.

        The version alone does not tell: the start of a game changes the status but not the
        version (0 in the lobby and at the start), so an update of the same version counts as
        new when its status differs.
        """
        version = update.get("version", 0)
        if version != self.state_version:
            return version < self.state_version
        return update.get("status") == self.state_status

    async def regroup(self) -> bool:
        """Listen on the group the user's seat (or lack of one) calls for; True if it changed.

        Raises ``NotFoundError`` for an unknown game. The new group is joined before the old
        one is left, so no update is missed in between.
        """
        position = await seat_position(self.game_id, self.user, self.invite)
        if position is None:
            group = push.public_group(self.game_id)
        else:
            group = push.seat_group(self.game_id, position)
        if group == self.group_name:
            return False
        await self.channel_layer.group_add(group, self.channel_name)
        if self.group_name is not None:
            await self.channel_layer.group_discard(self.group_name, self.channel_name)
        self.group_name, self.position = group, position
        return True

    # --- sending ------------------------------------------------------------------------------

    async def send_state(self, request_id: Any = None) -> None:
        async with self.ordered:
            await self._send_state(request_id)

    async def _send_state(self, request_id: Any = None) -> None:
        """A fresh ``state`` (the caller holds ``ordered``): the client's view is now at its
        version, so the next update it can apply has that ``base_version``."""
        detail = await game_detail(self.game_id, self.user, self.invite)
        self.state_version, self.state_status = detail["version"], detail["status"]
        self.relayed_version = detail["version"]
        self.held = {b: u for b, u in self.held.items() if u.get("version", 0) > detail["version"]}
        await self.reply("state", request_id, {"game": detail})

    async def reply(self, kind: str, request_id: Any, body: dict[str, Any]) -> None:
        message: dict[str, Any] = {"type": kind}
        if request_id is not None:
            message["request_id"] = request_id
        message.update(body)
        await self.send_json(message)

    async def send_exception(self, exc: Exception, request_id: Any = None) -> None:
        """``exc`` as the HTTP API would answer it: the one error body plus its status."""
        response = api_exception_handler(exc, {})
        if response is None:  # not a refusal (a bug, logged by the caller): a plain 500
            body = error_body("server_error", None, "the server failed to handle this message")
            await self.reply("error", request_id, {"status": 500, **body})
            return
        await self.reply("error", request_id, {"status": response.status_code, **response.data})

    async def presence(self, name: str) -> None:
        """Tell ``games.play.presence`` about a signed-in user's socket (no "your turn" mail
        to a player who is watching). A failure there costs the record, never the socket."""
        if not _authenticated(self.user):
            return
        now = time.monotonic()
        if name == "refresh":
            if self.present and now - self.present_at < PRESENCE_REFRESH:
                return
            name = "connected"  # presence_connected again is the refresh
        function = {
            "connected": presence.presence_connected,
            "disconnected": presence.presence_disconnected,
        }[name]
        try:
            # Cache only, no database: a worker thread, not the one thread the ORM calls share.
            await sync_to_async(function, thread_sensitive=False)(
                self.game_id, self.user.pk, self.channel_name
            )
        except Exception:
            logger.exception("game %s: presence %s failed", self.game_id, name)
            return
        self.present, self.present_at = name == "connected", now


def invite_from_query(query_string: bytes | str) -> str | None:
    """The ``invite`` parameter of the socket's URL, if any."""
    raw = query_string.decode("latin-1") if isinstance(query_string, bytes) else query_string
    values = parse_qs(raw).get("invite")
    return values[0] if values and values[0] else None


def _authenticated(user: Any) -> bool:
    return bool(user is not None and user.is_authenticated)


def _request_id(content: dict[str, Any]) -> Any:
    request_id = content.get("request_id")
    if request_id is None or (
        isinstance(request_id, str | int) and not isinstance(request_id, bool)
        and len(str(request_id)) <= 100
    ):  # fmt: skip
        return request_id
    raise ApplicationError(
        "a request_id is a string or an integer (at most 100 characters)", code="invalid",
        field="request_id",
    )  # fmt: skip


def _action_input(content: dict[str, Any]) -> dict[str, Any]:
    """The action message's fields, checked by the parser the HTTP endpoint uses too."""
    return submit.parse_submission(content).as_kwargs()


# --- the services, off the event loop -------------------------------------------------------------


@database_sync_to_async
def seat_position(game_id: int, user: Any, invite: str | None = None) -> int | None:
    """The user's seat position; ``NotFoundError`` for a missing game or one they may not see."""
    seat = fetch.seat_of(fetch.game_for(game_id, user, invite=invite), user)
    return seat.position if seat is not None else None


@database_sync_to_async
def game_detail(game_id: int, user: Any, invite: str | None = None) -> dict[str, Any]:
    return shown.game_detail(fetch.game_for(game_id, user, invite=invite), user)


@database_sync_to_async
def submit_action(game_id: int, user: Any, data: dict[str, Any]) -> dict[str, Any]:
    # The same rate limit as the HTTP endpoint, counted per user in the same cache: a client
    # cannot double its rate by splitting actions between the socket and the API.
    submit.check_action_rate(user.pk)
    return submit.action_submit(game_id=game_id, user=user, **data)


@database_sync_to_async
def post_chat(game_id: int, user: Any, text: Any, invite: str | None) -> dict[str, Any]:
    return chat.post_message(game_id=game_id, user=user, text=text, invite=invite)
