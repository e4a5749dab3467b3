"""Web Push: one encrypted message (aes128gcm, RFC 8291) to each of a person's devices, signed
with the server's VAPID key (RFC 8292), through pywebpush.

A push service answering 404 or 410 says the browser dropped the subscription: the row is
deleted. Any other failure (a timeout, a 5xx, a 429) is logged and the subscription kept; the
notice is not retried (a late "your turn" only confuses). Redirects are not followed: the
endpoint's host was checked when the browser subscribed, a redirect's would not be.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from django.conf import settings

from games.models import PushSubscription
from games.notifications import vapid
from games.notifications.devices import endpoint_refusal

logger = logging.getLogger(__name__)

#: Seconds a push service keeps a push for a device that is offline (a day: a notice older
#: than that is news nobody needs).
TTL_SECONDS = 24 * 3600
#: Push service answers that mean the subscription is gone for good.
GONE = frozenset({404, 410})


def push_to_user(user_id: int, payload: Mapping[str, Any], *, topic: str = "") -> int:
    """Push ``payload`` (JSON) to every device of the user; the number of devices it reached.
    ``topic``: a push service replaces an undelivered push of the same topic with this one."""
    devices = list(PushSubscription.objects.filter(user_id=user_id))
    return sum(push_to_device(device, payload, topic=topic) for device in devices)


def push_to_device(
    device: PushSubscription, payload: Mapping[str, Any], *, topic: str = ""
) -> bool:
    # Loaded on the first push, not with the server: pywebpush brings aiohttp and requests.
    import requests
    from py_vapid import Vapid02
    from pywebpush import WebPushException, webpush

    if endpoint_refusal(device.endpoint) is not None:  # the list of push services shrank
        device.delete()
        return False
    headers = {"Urgency": "normal"}
    if topic:
        headers["Topic"] = topic[:32]
    session = requests.Session()
    session.max_redirects = 0
    try:
        webpush(
            {"endpoint": device.endpoint, "keys": {"p256dh": device.p256dh, "auth": device.auth}},
            data=json.dumps(dict(payload), separators=(",", ":")),
            vapid_private_key=Vapid02(vapid.private_key()),
            vapid_claims={"sub": vapid.subject()},
            ttl=TTL_SECONDS,
            headers=headers,
            timeout=settings.WEBPUSH_TIMEOUT,
            requests_session=session,
        )
    except WebPushException as error:
        status = error.response.status_code if error.response is not None else None
        if status in GONE:
            PushSubscription.objects.filter(pk=device.pk).delete()
            logger.info("push device %s is gone (%s): removed", device.pk, status)
        else:
            logger.warning("push to device %s failed: %s", device.pk, status or error)
        return False
    except (requests.RequestException, ValueError) as error:
        logger.warning("push to device %s failed: %s", device.pk, error)
        return False
    finally:
        session.close()
    return True
