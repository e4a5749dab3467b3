"""Room journals by mail: a reply to a room's mail posted as that side ("Room
journals accept moves and battle requests by mail the same way").

``games.mail.intake.receive_mail`` stays the one entry service (webhook and
``fetch_mail``): it reads the MIME message, refuses an oversized, replayed or forged mail, and
hands a mail to a room's reply address (``room+<room>.<side>.<sig>@...``, on every mail a room
sends a side: ``rooms.mail``) to ``receive``. Here:

1. the Message-ID is claimed first (an ``InboundMail`` row with the room, unique on the key),
   then the posts are written: journal posts carry no idempotency key, so the claim is what
   keeps a mail delivered twice at once from posting twice. Decided: a crash between the claim
   and the posts loses the mail's remaining posts (the player sees no answer and writes again)
   rather than risk posting them twice;
2. the sender must be the side's player's account email (case-insensitive), as for games; a
   mail from anyone else posts nothing and the refusal goes to the player, not the stranger;
3. the reply's own text (quoted thread and signature cut, ``games.mail.core.reading.reply_text``) is
   read into posts by ``games.rooms.core.mail_posts`` (the note first, then ``battle``,
   ``challenge`` and ``end turn`` lines as written) and each is written by the journal's own
   service as that side's user, one transaction each, as the site's posts are. The first
   refusal stops the rest; the posts before it stay written;
4. one answer mail to the player lists the entries written (numbers; a battle's result with its
   one-line summary and its roll numbers) and the refusal with the line and its reason, with
   the side's reply address again so the player can go on.

At most ``MAX_POSTS`` posts are read from one mail (a note counts as one).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string

from games.mail.core import address as reply_address
from games.mail.core import reading
from games.models import InboundMail, Room, RoomEntry, RoomSide
from games.rooms import commands
from games.rooms import mail as room_mail
from games.rooms.core import mail_posts
from games.rooms.core.transcript import LABELS
from games.web.exceptions import ApplicationError

logger = logging.getLogger(__name__)

MAX_POSTS = reading.MAX_MOVES


@dataclass(frozen=True)
class RoomMailResult:
    """What became of one mail to a room: ``applied``, ``partly`` or ``refused``."""

    outcome: str
    room_id: int
    written: tuple[str, ...] = ()
    refused_line: str | None = None
    refusal: str | None = None
    answered: bool = False


def receive(
    mail: reading.InboundMail, key: str, address: reply_address.RoomAddress
) -> RoomMailResult | None:
    """Post ``mail`` (verified to carry ``address``) to its room; ``None`` when the room or the
    side's player is gone (the caller refuses it as for any stranger)."""
    side = (
        RoomSide.objects.select_related("room", "user")
        .filter(room_id=address.room, position=address.side)
        .first()
    )
    if side is None or side.user is None:
        return None
    room, user = side.room, side.user
    record = _claim(mail, key, room)
    if record is None:  # the same mail, delivered twice at once: the other delivery answers
        return RoomMailResult("refused", room.pk, refusal="already being read")
    written: list[str] = []
    refused_line: str | None = None
    if not user.email or user.email.strip().lower() != mail.sender:
        refusal: str | None = (
            f"a mail from {mail.sender} to your reply address was refused: only mail from "
            "your account's address is posted"
        )
    else:
        posts = mail_posts.read_posts(reading.reply_text(mail.text))
        refused_line, refusal = _apply(room.pk, user, posts, written)
    outcome = "refused" if refusal and not written else "partly" if refusal else "applied"
    InboundMail.objects.filter(pk=record.pk).update(
        outcome=outcome, applied=len(written), reason=(refusal or "")[:500]
    )
    result = RoomMailResult(outcome, room.pk, tuple(written), refused_line, refusal)
    answered = _answer(mail, side, result)
    return RoomMailResult(outcome, room.pk, tuple(written), refused_line, refusal, answered)


def _claim(mail: reading.InboundMail, key: str, room: Room) -> InboundMail | None:
    """The mail's ``InboundMail`` row, made now; ``None`` if another delivery made it."""
    try:
        with transaction.atomic():
            return InboundMail.objects.create(
                message_id=mail.message_id, key=key, sender=mail.sender, room=room,
                outcome=InboundMail.Outcome.READING,
            )  # fmt: skip
    except IntegrityError:
        return None


def _apply(
    room_id: int, user: Any, posts: list[mail_posts.Post], written: list[str]
) -> tuple[str | None, str | None]:
    """Write ``posts`` in order until one is refused (``written`` gets a line per entry):
    the line refused and why, or ``(None, None)``."""
    for index, post in enumerate(posts):
        if index == MAX_POSTS:
            return post.line, f"a mail is read up to {MAX_POSTS} posts; send the rest in another"
        try:
            entries = _post(room_id, user, post)
        except ApplicationError as exc:
            return post.line, _reason(exc)
        except ValueError as exc:  # a refused line of the reply (mail_posts)
            return post.line, str(exc)
        written.extend(entry_line(entry) for entry in entries)
    return None, None


def _post(room_id: int, user: Any, post: mail_posts.Post) -> list[RoomEntry]:
    """Write one post through the rooms' command table, as the site's posts are."""
    if post.kind == "refused":
        raise ValueError(post.refusal)
    fields: dict[str, Any] = {"text": post.text}
    if post.kind == "battle":  # the line's text is the battle's notation
        fields = {"notation": post.text}
    if post.entry is not None:
        fields["entry"] = post.entry
    return commands.run(room_id, user, post.kind, fields, by_mail=True)


def _reason(exc: ApplicationError) -> str:
    """The service's refusal as a sentence: the field it concerns, then the message."""
    field = exc.field or ""
    if field.startswith("notation"):  # the notation is the line itself: 'battle ...'
        field = field.replace("notation", "battle", 1)
    words = f"{field}: {exc.message}" if field and field != "id" else exc.message
    if exc.allowed:
        words += f" (allowed: {', '.join(exc.allowed)})"
    return words


def entry_line(entry: RoomEntry) -> str:
    """One line of the answer for an entry written: its number, its label and its text's first
    line; a battle result with its roll numbers."""
    first = (entry.text.splitlines() or [""])[0]
    line = f"#{entry.number} {LABELS[entry.kind]}: {first}"
    if entry.kind == RoomEntry.Kind.BATTLE_RESULT:
        first_roll, last_roll = entry.data.get("first_roll"), entry.data.get("last_roll")
        line += f" (rolls {first_roll}-{last_roll})" if first_roll else " (no dice rolled)"
    return line


def _display_name(user: Any) -> str:
    """What the player is called in mail: their display name, else their username."""
    profile = getattr(user, "profile", None)
    return (profile.display_name if profile else "") or user.get_username()


def _answer(mail: reading.InboundMail, side: RoomSide, result: RoomMailResult) -> bool:
    """Mail the player what was written and the refusal; ``True`` if it went out."""
    room = Room.objects.get(pk=side.room_id)
    assert side.user is not None  # checked by ``receive``
    if not side.user.email:
        return False
    context = {
        "name": _display_name(side.user),
        "room": room.name,
        "side": side.name,
        "written": result.written,
        "refused_line": result.refused_line,
        "refusal": result.refusal,
        "running": room.status == Room.Status.RUNNING,
        "url": room_mail.room_url(room),
        "subject": mail.subject,
    }
    subject = " ".join(render_to_string("games/email/room_answer_subject.txt", context).split())
    if subject and not subject.lower().startswith("re:"):
        subject = f"Re: {subject}"
    headers = {}
    if mail.message_id.startswith("<") and mail.message_id.endswith(">"):
        headers = {"In-Reply-To": mail.message_id, "References": mail.message_id}
    message = EmailMessage(
        subject,
        render_to_string("games/email/room_answer.txt", context),
        settings.DEFAULT_FROM_EMAIL,
        [side.user.email],
        reply_to=[room_mail.reply_to(side)] if context["running"] else None,
        headers=headers,
    )
    try:
        return message.send() == 1
    except Exception:  # an SMTP refusal: the posts are written all the same
        logger.exception("room answer mail to %s failed", side.user.email)
        return False
