"""django-anymail's inbound webhook (``/anymail/<esp>/inbound/``), guarded: the mail's limits come
before any parsing, and no mail gets an HTML 500.

Anymail's view parses the posted MIME (``AnymailInboundMessage.parse_raw_mime*``) before our
signal receiver runs, and a hostile shape costs seconds there (8,000 parts: 1.5 s) or in turning
the parsed message back into bytes (60,000 ``To:`` addresses: 21.6 s in ``as_bytes()``).

- ``install``: anymail's three raw-MIME constructors (every ESP that posts the raw message, or
  lets anymail fetch it, goes through them) first check ``games.mail.core.limits.refusal`` on the
  bytes and raise ``MailRefused`` instead of parsing; a mail within the limits keeps its bytes
  on the message (``RAW``), so the receiver hands the service the bytes as they came rather
  than re-serialising the parse. A wrapper on anymail's own methods (patched once, in
  ``GamesConfig.ready``), because anymail's webhook modules call them by name; checked by the
  webhook tests, which fail if anymail stops calling them.
- ``inbound``: the route, in front of anymail's own. It runs anymail's view for the ESP and
  answers what became of each mail: 200 with ``{"mails": [{"outcome", "reason"}]}`` (a mail
  parked, refused or applied alike: the provider must not retry it), 503 with ``Retry-After``
  when the database cannot record the mail (the provider retries later), and a 400 in the API's
  error shape for a post anymail cannot read. Anymail's own 400 for a failed authentication
  stays as it is.
- ``moves_by_email``: anymail's inbound signal, handed to the one inbound service (``intake``).
"""

from __future__ import annotations

import contextvars
import logging
from collections.abc import Iterable
from typing import Any

from anymail.inbound import AnymailInboundMessage
from anymail.signals import inbound as anymail_inbound
from django.conf import settings
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.db import DatabaseError
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import Resolver404, resolve
from django.views.decorators.csrf import csrf_exempt

from games.mail.core import limits
from games.mail.intake import receive_mail
from games.web.exceptions import BODY, error_body

logger = logging.getLogger(__name__)

#: The attribute of a parsed message holding the bytes it was parsed from.
RAW = "warboard_raw"
#: '@' signs a webhook post may hold: a mail's addresses (about 100), the quoted thread's and
#: the provider's own fields with room to spare. Setting 1,000 addresses on a header costs the
#: email package ~0.08 s.
MAX_POST_AT_SIGNS = 1000
#: Seconds an ESP is asked to wait before retrying a mail the database could not record.
RETRY_AFTER = 60

#: What became of each mail of the request being answered (set by ``inbound``, filled by the
#: signal receiver).
results: contextvars.ContextVar[list[Any] | None] = contextvars.ContextVar(
    "inbound_results", default=None
)


def install() -> None:
    """Put the limits in front of anymail's raw-MIME parsing (idempotent)."""
    if getattr(AnymailInboundMessage, "_warboard_guarded", False):
        return
    parse_bytes = AnymailInboundMessage.parse_raw_mime_bytes.__func__

    def parse_raw_mime_bytes(cls: type, b: bytes) -> Any:
        reason = limits.refusal(b)
        if reason is not None:
            raise limits.MailRefused(reason, b)
        message = parse_bytes(cls, b)
        setattr(message, RAW, b)
        return message

    def parse_raw_mime_chunks(cls: type, chunks: Iterable[bytes]) -> Any:
        raw = bytearray()
        for chunk in chunks:  # stop reading once over the size limit: it is refused anyway
            raw += chunk or b""
            if len(raw) > limits.MAX_MAIL_BYTES:
                break
        return cls.parse_raw_mime_bytes(bytes(raw))  # type: ignore[attr-defined]

    AnymailInboundMessage.parse_raw_mime_bytes = classmethod(parse_raw_mime_bytes)
    AnymailInboundMessage.parse_raw_mime_chunks = classmethod(parse_raw_mime_chunks)
    AnymailInboundMessage._warboard_guarded = True


@csrf_exempt
def inbound(request: HttpRequest, esp: str, mime: str | None = None) -> HttpResponse:
    """Anymail's inbound view for ``esp``, guarded as the module says."""
    try:
        match = resolve(f"/{esp}/inbound{mime or ''}/", urlconf="anymail.urls")
    except Resolver404:
        body = error_body("not_found", None, f"no inbound webhook for {esp!r}")
        return JsonResponse(body, status=404)
    refused = _post_refusal(request)
    if refused is not None:
        logger.info("inbound post via %s refused unread: %s", esp, refused)
        return JsonResponse(error_body("too_large", BODY, refused), status=413)
    found: list[Any] = []
    token = results.set(found)
    try:
        try:
            response = match.func(request, *match.args, **match.kwargs)
        except limits.MailRefused as too_big:
            found.append(receive_mail(too_big.raw))  # parks it with the rule, unparsed too
            response = HttpResponse()
    except SuspiciousOperation:
        raise  # anymail's failed authentication or signature: Django's 400, as before
    except DatabaseError:
        logger.exception("inbound mail via %s not recorded: the database is unavailable", esp)
        body = error_body(
            "service_unavailable", None, "the mail could not be recorded now; try again later"
        )
        return JsonResponse(body, status=503, headers={"Retry-After": str(RETRY_AFTER)})
    except Exception as exc:
        logger.exception("inbound mail via %s: the post could not be read", esp)
        message = f"the inbound post could not be read ({type(exc).__name__})"
        return JsonResponse(error_body("invalid_request", BODY, message), status=400)
    finally:
        results.reset(token)
    if response.status_code != 200 or request.method != "POST":  # a provider's HEAD probe
        return response
    mails = [{"outcome": r.outcome, "reason": r.refusal} for r in found]
    return JsonResponse({"mails": mails})


def _post_refusal(request: HttpRequest) -> str | None:
    """Why the post is not handed to anymail at all, or ``None``: for the providers that post
    the mail as parsed fields (no raw MIME for ``install``'s check), anymail sets each address
    field on a message, and the email package's address parser is superlinear (60,000
    addresses: 24 s). An '@' (or its form encoding ``%40``) per address bounds them cheaply."""
    try:
        body = request.body
    except RequestDataTooBig:
        return f"the post is larger than {settings.DATA_UPLOAD_MAX_MEMORY_SIZE} bytes"
    at_signs = body.count(b"@") + body.count(b"%40")
    if at_signs > MAX_POST_AT_SIGNS:
        return (
            f"the post has {at_signs} '@' signs (addresses); at most {MAX_POST_AT_SIGNS} "
            f"are read (a mail is read with about 100 addresses)"
        )
    return None


@receiver(anymail_inbound, dispatch_uid="games.moves_by_email")
def moves_by_email(sender: type, event: Any, esp_name: str, **kwargs: Any) -> None:
    """django-anymail's inbound webhook (``/anymail/<esp>/inbound/``) hands the message to the
    one inbound service, as ``manage.py fetch_mail`` does (moves for a game, posts for a room's
    journal). Anymail gives a parsed
    ``AnymailInboundMessage`` (an ``email.message.EmailMessage``); ESPs that post the raw MIME
    (Mailgun's forward to a ``.../mime`` URL, Postmark with "include raw email content", SES,
    SendGrid's "send raw") hand it over unchanged, and for the others anymail rebuilds it from
    the parsed fields. Its bytes are what the service reads."""
    message = event.message
    if message is None:
        return
    raw = _bytes_of(message)
    envelope = getattr(message, "envelope_recipient", None)
    if envelope and "X-Original-To" not in message:
        # The envelope's recipient (a Bcc, a forwarding alias) as a receiving server records it.
        raw = b"X-Original-To: " + _one_line(str(envelope)) + b"\r\n" + raw
    result = receive_mail(raw)
    logger.info("inbound mail via %s: %s", esp_name, result.outcome)
    found = results.get()
    if found is not None:
        found.append(result)


def _bytes_of(message: Any) -> bytes:
    """The mail's bytes: as posted, when anymail parsed it from raw MIME (kept on the message by
    ``install`` after the limits were checked on them: never re-serialised,
    which cost 21.6 s for 60,000 ``To:`` addresses); else the message anymail built from the
    provider's parsed fields (two levels of parts at most), serialised."""

    raw = getattr(message, RAW, None)
    return raw if isinstance(raw, bytes) else bytes(message.as_bytes())


def _one_line(text: str) -> bytes:
    """``text`` as one header line's bytes: no CR or LF to end the header early."""
    return " ".join(text.split()).encode("utf-8", "replace")
