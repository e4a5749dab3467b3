"""Websocket auth for scripts and bots: a DRF API token in the query string.

Browsers authenticate a socket with the session cookie (``AuthMiddlewareStack``); a script has
no cookie jar and the websocket handshake cannot carry an ``Authorization`` header from most
clients, so it connects to ``/ws/games/7/?token=<key>`` with the same key it uses for
``Authorization: Token <key>`` over HTTP.

``TokenAuthMiddleware`` sits inside the session stack: the session has already set
``scope["user"]`` (anonymous without a cookie), and a ``token`` parameter, when present, replaces
it. An unknown key (or one of a deactivated user) leaves an anonymous user and sets
``scope["auth_error"]``, so the consumer can say why instead of silently treating the script as
a spectator. Daphne's access log records the path without the query string, so the key is not
written there; a proxy in front may log it, which is why HTTPS deployments should prefer the
session or keep proxy logs private.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs

from channels.auth import AuthMiddlewareStack
from channels.db import database_sync_to_async
from channels.middleware import BaseMiddleware
from django.contrib.auth.models import AnonymousUser
from rest_framework.authtoken.models import Token

#: The query-string parameter carrying the key.
TOKEN_PARAM = "token"


class TokenAuthMiddleware(BaseMiddleware):
    """``?token=<key>`` -> ``scope["user"]`` is the key's user (see the module docstring)."""

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        key = token_from_query(scope.get("query_string", b""))
        if key is None:
            return await super().__call__(scope, receive, send)
        scope = dict(scope)
        user = await user_for_token(key)
        if user is None:
            scope["user"] = AnonymousUser()
            scope["auth_error"] = "invalid or inactive token"
        else:
            scope["user"] = user
        return await self.inner(scope, receive, send)


def token_from_query(query_string: bytes | str) -> str | None:
    raw = query_string.decode("latin-1") if isinstance(query_string, bytes) else query_string
    values = parse_qs(raw).get(TOKEN_PARAM)
    return values[0] if values else None


@database_sync_to_async
def user_for_token(key: str) -> Any:
    """The active user the key belongs to, or None."""
    token = Token.objects.select_related("user").filter(key=key).first()
    if token is None or not token.user.is_active:
        return None
    return token.user


def TokenAuthMiddlewareStack(inner: Any) -> Any:
    """Cookie, session and session auth, then the token (which wins when given); named like
    channels' ``AuthMiddlewareStack``, which it extends."""
    return AuthMiddlewareStack(TokenAuthMiddleware(inner))
