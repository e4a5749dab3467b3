"""Signal receivers of the game server, connected in ``GamesConfig.ready``."""

from __future__ import annotations

import logging
from typing import Any

from anymail.signals import inbound as anymail_inbound
from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from games.models import Profile

logger = logging.getLogger(__name__)


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="games.profile_for_new_user")
def profile_for_new_user(sender: type, instance: Any, created: bool, raw: bool, **kwargs: Any):
    """Every user has a profile, however made: registration, ``createsuperuser``, the admin.

    Not while loading fixtures (``raw``): a fixture brings its own profile rows.
    """
    if created and not raw:
        Profile.objects.get_or_create(user=instance)


@receiver(anymail_inbound, dispatch_uid="games.moves_by_email")
def moves_by_email(sender: type, event: Any, esp_name: str, **kwargs: Any) -> None:
    """django-anymail's inbound webhook (``/anymail/<esp>/inbound/``) hands the message to the
    one inbound service, as ``manage.py fetch_mail`` does (moves for a game, posts for a room's
    journal). Anymail gives a parsed
    ``AnymailInboundMessage`` (an ``email.message.EmailMessage``); ESPs that post the raw MIME
    (Mailgun's forward to a ``.../mime`` URL, Postmark with "include raw email content", SES,
    SendGrid's "send raw") hand it over unchanged, and for the others anymail rebuilds it from
    the parsed fields. Its bytes are what the service reads."""
    from games import inbound_webhook
    from games.services import inbound_mail  # the services load models: imported on use

    message = event.message
    if message is None:
        return
    raw = _bytes_of(message)
    envelope = getattr(message, "envelope_recipient", None)
    if envelope and "X-Original-To" not in message:
        # The envelope's recipient (a Bcc, a forwarding alias) as a receiving server records it.
        raw = b"X-Original-To: " + _one_line(str(envelope)) + b"\r\n" + raw
    result = inbound_mail.receive_mail(raw)
    logger.info("inbound mail via %s: %s", esp_name, result.outcome)
    found = inbound_webhook.results.get()
    if found is not None:
        found.append(result)


def _bytes_of(message: Any) -> bytes:
    """The mail's bytes: as posted, when anymail parsed it from raw MIME (kept on the message by
    ``inbound_webhook.install`` after the limits were checked on them: never re-serialised,
    which cost 21.6 s for 60,000 ``To:`` addresses); else the message anymail built from the
    provider's parsed fields (two levels of parts at most), serialised."""
    from games import inbound_webhook

    raw = getattr(message, inbound_webhook.RAW, None)
    return raw if isinstance(raw, bytes) else bytes(message.as_bytes())


def _one_line(text: str) -> bytes:
    """``text`` as one header line's bytes: no CR or LF to end the header early."""
    return " ".join(text.split()).encode("utf-8", "replace")
