"""The game socket's messages (``/ws/games/<id>/``, ``games.play.sockets.consumers``), both ways.

Every message is a JSON object with a ``type``; a message the client sends may carry a
``request_id`` (a string or an integer), echoed in the reply.

Client -> server (``ClientMessage``): ``action`` submits an action exactly as
``POST /api/games/{id}/actions`` does (same service, validation and throttle), answered by
``ack`` or ``error``; ``state`` asks for the whole state again; ``chat`` writes a line in the
game's chat (seated players only, 1-500 characters, rate-limited), answered by an ``ack`` with the
line's ``id`` or an ``error`` (403 ``spectators_read_only``, 400 ``invalid``, 429 ``throttled``
with ``retry_after``); ``ping`` is answered by ``pong`` (and keeps the presence fresh).

Server -> client (``ServerMessage``):

- ``state``: the body of ``GET /api/games/{id}`` for this caller, on connect, on request and when
  the socket moves from the spectators' group to a seat.
- ``update``: after every committed action, this caller's own filtered ``events`` and ``patch``,
  a JSON Patch (RFC 6902 add/remove/replace over objects; lists replaced whole;
  ``risk.rules.view_patch``) turning their view at ``base_version`` into their view at
  ``version``. The start of a game has ``base_version`` and ``patch`` null and the whole ``view``.
  In a timed game it also carries ``pending``: who the game waits for, each with the deadline,
  so a client keeps its countdowns without asking for the state. An update already in the last
  state sent is not relayed; one that comes early is held until the missing one arrives (at most
  ``HOLD_SECONDS``), else the socket sends a fresh ``state``. A client that still sees an update
  whose ``base_version`` is not its version (or a patch that does not apply) asks for ``state``.
- ``ack``: the action's response (the HTTP 200 body), before the ``update`` of the same action;
  a chat line's ``ack`` carries its ``id``.
- ``error``: the one error shape of ``games.web.exceptions`` plus the HTTP ``status`` the same
  refusal would have had (409 ``stale_version`` carries ``version``). An error never closes the
  socket, except the refusals on connect: an unknown (or unseen private) game closes with 4404,
  an unknown API token with 4401, each after an ``error`` saying why.
- ``chat``: a chat line, to every socket of the game once committed (a client that reconnects
  reads what it missed from ``GET /api/games/{id}/chat?after=<last id>``).
- ``notice``: a one-off notice (a deadline reminder, the game paused or resumed).
- ``pong``: the answer to a ``ping``.

Who hears what, presence and the holding of early updates are the consumer's (its docstring).
"""

from __future__ import annotations

from typing import Any

import msgspec

from games.protocol.view import GameView, PendingView

RequestId = str | int


class _Message(msgspec.Struct, tag_field="type", kw_only=True):
    pass


# --- client -> server -------------------------------------------------------------------------


class SocketAction(_Message, tag="action", kw_only=True):
    action: dict[str, Any]
    expected_version: int | None = None
    idempotency_key: str | None = None
    invite: str | None = None
    request_id: RequestId | None = None


class StateRequest(_Message, tag="state", kw_only=True):
    request_id: RequestId | None = None


class SocketChat(_Message, tag="chat", kw_only=True):
    text: str
    request_id: RequestId | None = None


class SocketPing(_Message, tag="ping", kw_only=True):
    request_id: RequestId | None = None


ClientMessage = SocketAction | StateRequest | SocketChat | SocketPing


# --- server -> client -------------------------------------------------------------------------


class PatchOp(msgspec.Struct, kw_only=True):
    op: str  # add, remove or replace
    path: str
    value: Any = None


class StateMessage(_Message, tag="state", kw_only=True):
    game: dict[str, Any]  # GET /api/games/{id}'s body (GameDetailOut)
    request_id: RequestId | None = None


class UpdateMessage(_Message, tag="update", kw_only=True):
    version: int
    base_version: int | None
    sequence: int
    status: str
    events: list[dict[str, Any]]  # each one of games.protocol.events
    patch: list[PatchOp] | None
    view: GameView | None = None
    committed_at: float
    pending: list[PendingView] | None = None


class SocketAck(_Message, tag="ack", kw_only=True):
    version: int | None = None
    sequence: int | None = None
    events: list[dict[str, Any]] | None = None
    id: int | None = None  # a chat line's
    request_id: RequestId | None = None


class SocketError(_Message, tag="error", kw_only=True):
    status: int
    error: str
    message: str
    field: str | None = None
    allowed: list[str] | None = None
    version: int | None = None
    retry_after: int | None = None
    request_id: RequestId | None = None


class SocketChatLine(_Message, tag="chat", kw_only=True):
    id: int
    author: str
    seat: str | None = None
    text: str
    at: str


class SocketNotice(_Message, tag="notice", kw_only=True):
    kind: str  # reminder, paused, resumed
    due_at: str | None = None
    message: str | None = None


class SocketPong(_Message, tag="pong", kw_only=True):
    user: str | None = None
    request_id: RequestId | None = None


ServerMessage = (
    StateMessage
    | UpdateMessage
    | SocketAck
    | SocketError
    | SocketChatLine
    | SocketNotice
    | SocketPong
)
