"""The web layer's own refusals in the API's one error shape.

Django answers some requests before any view runs: an unknown path (404), a body over the
limit, an unexpected exception (500). Under ``/api/`` those answers are JSON in the shape of
``games.web.exceptions.error_body`` like every other API error, and a 500 carries an error id that
the server's log line carries too, so a user's report can be matched to its traceback.

- ``handler400`` / ``handler404`` / ``handler500``: JSON under ``/api/``; elsewhere the site's
  pages (``404.html`` and ``500.html``, on the site's base template) or Django's (400).
- ``ErrorIdMiddleware``: logs each unhandled exception once, with a fresh id, and keeps the id
  on the request for ``handler500``.
- ``BodyLimit``: an ASGI wrapper that refuses a request body over ``MAX_REQUEST_BODY`` bytes with
  413 before the body is read (by its Content-Length) or as soon as the count passes the limit
  (a chunked body), so no request can hold more than the limit in memory.
- ``IdConverter``: the ``<id:...>`` path converter, whole numbers of 1 to 18 digits; a longer
  one cannot be a row's id (they are 64-bit) and is a 404, not a database overflow.

JSON nested too deeply for Python's recursion limit is refused by ``games.web.parsers.JSONParser``.
"""

from __future__ import annotations

import json
import logging
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import TemplateDoesNotExist, loader
from django.views import defaults

from games.web.exceptions import BODY, error_body

logger = logging.getLogger("warboard.errors")

API_PREFIX = "/api/"

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]


def _is_api(path: str) -> bool:
    return path.startswith(API_PREFIX)


def handler404(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if not _is_api(request.path):
        return defaults.page_not_found(request, exception)
    body = error_body("not_found", None, f"no such API path: {request.path}")
    return JsonResponse(body, status=404)


def handler400(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """A request Django could not read before any view ran: a malformed multipart body (read
    by the CSRF check of a signed-in browser POST), a suspicious header. Django's answer is an
    HTML page; under ``/api/`` it is the error shape, naming the body."""
    if not _is_api(request.path):
        return defaults.bad_request(request, exception)
    if isinstance(exception, DisallowedHost):
        body = error_body("bad_request", "host", "this server does not answer for that Host")
    else:
        body = error_body("bad_request", BODY, "the request could not be read (a malformed body?)")
    return JsonResponse(body, status=400)


def handler500(request: HttpRequest) -> HttpResponse:
    error_id = getattr(request, "error_id", None)
    if not _is_api(request.path):
        return _server_error_page(error_id)
    body = error_body(
        "server_error", None,
        "the server failed on this request; quote the error id when you report it",
        error_id=error_id,
    )  # fmt: skip
    return JsonResponse(body, status=500)


def _server_error_page(error_id: str | None) -> HttpResponse:
    """The site's 500 page (``500.html``) with the error id to quote. Rendered without the
    request, as Django's own 500 view does: its context processors may be what failed."""
    try:
        template = loader.get_template("500.html")
    except TemplateDoesNotExist:
        return defaults.server_error(HttpRequest())
    return HttpResponse(template.render({"error_id": error_id}), status=500)


class ErrorIdMiddleware:
    """Give each unhandled exception an id, log it with the traceback, and keep it for the 500
    page. Django's own ``django.request`` log line follows; this one carries the id."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> None:
        error_id = uuid.uuid4().hex[:16]
        request.error_id = error_id
        logger.error(
            "error_id=%s %s %s failed", error_id, request.method, request.path,
            exc_info=exception,
        )  # fmt: skip


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes with 413, never holding more than ``limit``."""

    def __init__(self, app: Callable[..., Awaitable[None]], limit: int | None = None) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit if self.limit is not None else settings.MAX_REQUEST_BODY
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            await _too_large(scope, send, limit)
            return
        # Read the body here, counting, and hand it on in one piece: a chunked body has no
        # Content-Length to check first.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _too_large(scope, send, limit)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # the disconnect, when it comes

        await self.app(scope, replay, send)


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _too_large(scope: Scope, send: Send, limit: int) -> None:
    body = error_body(
        "request_too_large", BODY, f"the request body is over {limit} bytes", limit=limit
    )
    payload = json.dumps(body).encode()
    await send({
        "type": "http.response.start", "status": 413,
        "headers": [(b"content-type", b"application/json"),
                    (b"content-length", str(len(payload)).encode()),
                    (b"connection", b"close")],
    })  # fmt: skip
    await send({"type": "http.response.body", "body": payload})


#: The largest id a URL can name (18 digits: any fits a signed 64-bit column); the OpenAPI schema
#: states it as the path ids' maximum.
ID_MAX = 10**18 - 1


class UsernameConverter:
    """``<username:name>``: a username in a URL -- any text without ``/`` or a NUL byte. No
    username holds a NUL (the sign-up validator allows letters, digits and ``@.+-_``), and
    PostgreSQL refuses one in any query, so ``/players/%00`` is the 404 of a path no route
    matches, never a query that fails with a 500."""

    regex = "[^/\x00]+"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class IdConverter:
    """``<id:name>``: a row id in a URL, 1 to 18 digits (any 18-digit number fits 64 bits)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)
