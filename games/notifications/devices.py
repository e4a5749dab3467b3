"""A person's push devices: subscribe (what the browser's ``PushManager.subscribe`` returned),
unsubscribe, and the check every endpoint passes first.

The server POSTs every push to the endpoint a browser handed it, so an endpoint is accepted only
on https and on a host of ``WEBPUSH_ENDPOINT_HOSTS`` (the browsers' push services): a made-up
subscription must not turn the server into a client of the operator's own network.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction

from games.models import PushSubscription
from games.notifications.vapid import b64url_decode
from games.web.exceptions import ApplicationError

#: Subscribed browsers a person may have at once (the oldest goes when one more subscribes).
MAX_DEVICES = 10


def endpoint_refusal(endpoint: str) -> str | None:
    """Why ``endpoint`` may not be pushed to, or None."""
    parts = urlsplit(endpoint)
    allowed_schemes = {"https", "http"} if settings.WEBPUSH_ALLOW_HTTP else {"https"}
    if parts.scheme not in allowed_schemes or not parts.hostname:
        return "must be an https URL of a push service"
    if parts.username or parts.password:
        return "may not carry a user name or password"
    host = parts.hostname.lower()
    for allowed in settings.WEBPUSH_ENDPOINT_HOSTS:
        allowed = allowed.lower()
        if host == allowed or (allowed.startswith(".") and host.endswith(allowed)):
            return None
    return f"{host} is not a known push service"


def _key(value: str, field: str, length: int) -> str:
    try:
        raw = b64url_decode(value)
    except ValueError:
        raw = b""
    if len(raw) != length:
        raise ApplicationError(
            f"must be {length} bytes in base64url", field=field, code="invalid_key"
        )
    return value


@transaction.atomic
def subscribe(
    user: Any, *, endpoint: str, p256dh: str, auth: str, user_agent: str = ""
) -> PushSubscription:
    """Keep this browser's subscription for ``user`` (the same endpoint again: updated, and
    moved to ``user`` if another account had it)."""
    refusal = endpoint_refusal(endpoint)
    if refusal is not None:
        raise ApplicationError(refusal, field="endpoint", code="invalid_endpoint")
    _key(p256dh, "keys.p256dh", 65)  # an uncompressed P-256 point
    _key(auth, "keys.auth", 16)
    device, _ = PushSubscription.objects.update_or_create(
        endpoint=endpoint,
        defaults={"user": user, "p256dh": p256dh, "auth": auth, "user_agent": user_agent[:300]},
    )
    extra = PushSubscription.objects.filter(user=user).order_by("-created_at", "-pk")[MAX_DEVICES:]
    PushSubscription.objects.filter(pk__in=[d.pk for d in extra]).delete()
    return device


@transaction.atomic
def unsubscribe(user: Any, *, endpoint: str) -> int:
    """Forget ``user``'s subscription at ``endpoint``; the number removed (0 or 1)."""
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return deleted
