"""Fail fast while PostgreSQL or Redis is down: a 503 with ``Retry-After`` and a reason.

Without this a request during a database outage waited for the connection pool's 30 s and then
got a bare 500, and a websocket handshake with Redis down got a bare HTTP 500 with no close
code: a client could not tell an outage (try again shortly) from a bug. Now:

- the database connection gives up within seconds (``connect_timeout`` and the pool's
  ``timeout``, ``config.environment.database_config``);
- ``BackendUnavailableMiddleware`` answers a request that met such an error with 503 and
  ``Retry-After``: under ``/api/`` in the API's one error shape (``error`` ``unavailable``,
  ``backend`` ``database`` or ``redis``), elsewhere as plain text;
- ``SocketBackendGuard`` wraps the websocket application: a socket whose handshake (or later
  work) meets such an error is accepted and closed with code 4503, after an ``error`` message
  with status 503 saying which backend is down (daphne cannot send a close reason, nor refuse
  a handshake with any status but 403).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from games.web.exceptions import error_body

logger = logging.getLogger("warboard.outages")

#: Errors that mean a backend is unreachable, not that the request or the code is wrong.
DATABASE_ERRORS = (OperationalError, InterfaceError)
REDIS_ERRORS = (RedisConnectionError, RedisTimeoutError)
BACKEND_ERRORS = DATABASE_ERRORS + REDIS_ERRORS
#: What the messages call each backend.
NAMES = {"database": "database", "redis": "Redis server"}
#: Seconds a client is told to wait before trying again.
RETRY_AFTER_SECONDS = 5
#: The websocket close code of an outage: 4000 + the HTTP status, like the game socket's 4401
#: and 4404. Not 1013 ("try again later"): daphne's websocket library (autobahn) lets a server
#: close with 1000 or 3000-4999 only, and turns anything else into a 1011 server error.
CLOSE_UNAVAILABLE = 4503

API_PREFIX = "/api/"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


def backend_of(error: BaseException) -> str:
    """Which backend an error of ``BACKEND_ERRORS`` is about: ``database`` or ``redis``."""
    return "redis" if isinstance(error, REDIS_ERRORS) else "database"


def unavailable_body(backend: str) -> dict[str, Any]:
    """The API error body of an outage of ``backend``."""
    message = f"the {NAMES[backend]} is unavailable; try again in {RETRY_AFTER_SECONDS} seconds"
    return error_body("unavailable", None, message, backend=backend)


class BackendUnavailableMiddleware:
    """A view (or DRF's authentication and throttles) that met a backend outage answers 503."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, BACKEND_ERRORS):
            return None
        backend = backend_of(exception)
        logger.warning("%s unavailable: %s %s (%s: %s)", backend, request.method, request.path,
                       type(exception).__name__, exception)  # fmt: skip
        response: HttpResponse
        if request.path.startswith(API_PREFIX):
            response = JsonResponse(unavailable_body(backend), status=503)
        else:
            text = f"The {NAMES[backend]} is unavailable. Try again in {RETRY_AFTER_SECONDS} s.\n"
            response = HttpResponse(text, status=503, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response


class SocketBackendGuard:
    """Close a websocket with 4503 when the application under it meets a backend outage."""

    def __init__(self, app: Callable[[Scope, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        seen = {"connect": False, "accept": False, "close": False}

        async def tracked_receive() -> Message:
            message = await receive()
            if message["type"] == "websocket.connect":
                seen["connect"] = True
            return message

        async def tracked_send(message: Message) -> None:
            kind = message["type"].removeprefix("websocket.")
            if kind in seen:
                seen[kind] = True
            await send(message)

        try:
            await self.app(scope, tracked_receive, tracked_send)
        except BACKEND_ERRORS as error:
            backend = backend_of(error)
            logger.warning("%s unavailable: websocket %s closed with %s (%s: %s)", backend,
                           scope.get("path"), CLOSE_UNAVAILABLE, type(error).__name__,
                           error)  # fmt: skip
            if seen["close"]:
                return
            if not seen["connect"] and (await receive())["type"] != "websocket.connect":
                return  # the client left before its handshake was answered
            if not seen["accept"]:
                await send({"type": "websocket.accept"})
            body = {"type": "error", "status": 503, **unavailable_body(backend)}
            await send({"type": "websocket.send", "text": json.dumps(body)})
            await send({"type": "websocket.close", "code": CLOSE_UNAVAILABLE})
