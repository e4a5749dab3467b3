"""The one way a feature tells people something: ``deliver`` a list of notices, each of which
goes by the channel its person chose for its kind (``preferences.channels_for``): pushed to
their devices, mailed, or dropped.

Called from the features' tasks, after the commit that made the news, never from a request:
a push service or a mail server may take seconds. A notice says what happened in one short line
and where to look (its URL); it carries nothing a person's own view would not show them (never
a card, a seed or another player's hand), since a push is shown on a lock screen. The mail a
notice takes is built only if its person gets mail (a "your turn" summary reads the log).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, get_connection

from games.notifications import sender
from games.notifications.kinds import Channel, Kind
from games.notifications.preferences import channels_for

logger = logging.getLogger(__name__)

#: A push's title and body at most (a lock screen shows a line or two).
MAX_TITLE, MAX_TEXT = 80, 200


@dataclass
class Notice:
    """One person's notice. ``url``: a path of the site ("/games/12") or a full URL; ``tag``:
    notices with the same tag replace each other on a device (a second attack in the same game
    does not stack a second notification). ``mail``: builds the mail for the email channel
    (None: this notice is never mailed)."""

    user: Any
    kind: Kind
    title: str
    text: str
    url: str
    tag: str = ""
    mail: Callable[[], EmailMessage | None] | None = None


@dataclass
class Delivered:
    notice: Notice
    channel: Channel
    ok: bool


def deliver(notices: Iterable[Notice]) -> list[Delivered]:
    """Send each notice by its person's channel; what happened to each, in order."""
    notices = list(notices)
    by_kind: dict[Kind, list[Notice]] = {}
    for notice in notices:
        by_kind.setdefault(notice.kind, []).append(notice)
    channel_of: dict[tuple[Kind, int], Channel] = {}
    for kind, group in by_kind.items():
        for user_id, channel in channels_for(kind, [n.user for n in group]).items():
            channel_of[(kind, user_id)] = channel
    results: list[Delivered] = []
    mails: list[tuple[int, EmailMessage]] = []
    for notice in notices:
        channel = channel_of[(notice.kind, notice.user.pk)]
        if channel == Channel.EMAIL and notice.mail is None:
            channel = Channel.NONE
        results.append(Delivered(notice, channel, False))
        if channel == Channel.PUSH:
            results[-1].ok = _push(notice) > 0
        elif channel == Channel.EMAIL:
            assert notice.mail is not None
            message = notice.mail()
            if message is not None:
                mails.append((len(results) - 1, message))
    for index, ok in _send_mails(mails):
        results[index].ok = ok
    return results


def payload(notice: Notice) -> dict[str, str]:
    """What a push carries: the title, one line and the URL (the service worker shows them)."""
    url = notice.url
    if url.startswith("/"):
        url = f"{settings.SITE_URL.rstrip('/')}{url}"
    return {
        "kind": str(notice.kind),
        "title": notice.title[:MAX_TITLE],
        "text": notice.text[:MAX_TEXT],
        "url": url,
        "tag": notice.tag,
    }


def _push(notice: Notice) -> int:
    user_id = notice.user.pk
    try:
        return sender.push_to_user(user_id, payload(notice), topic=_topic(notice.tag))
    except Exception:  # a fault of one person's devices must not stop the others' notices
        logger.exception("push of a %s notice to user %s failed", notice.kind, user_id)
        return 0


def _topic(tag: str) -> str:
    """A push service's Topic header: up to 32 base64url characters."""
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in tag)[:32]


def _send_mails(mails: list[tuple[int, EmailMessage]]) -> list[tuple[int, bool]]:
    """Send each mail on one connection; a refused address does not stop the others."""
    if not mails:
        return []
    results = []
    with get_connection() as connection:
        for index, message in mails:
            message.connection = connection
            try:
                results.append((index, message.send() == 1))
            except Exception:  # SMTP refusals come in many classes; log, and mail the rest
                logger.exception("mail to %s failed", message.to)
                results.append((index, False))
    return results
