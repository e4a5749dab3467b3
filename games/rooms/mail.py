"""Room notices: everyone is told of disputes, rulings, timeouts and the end; the side to move
is reminded of its deadline. Each goes by the channel its person chose
(``games.notifications``): one mail per recipient (Django's email backend), or a push.

Recipients of a notice: every side's player and the referee with an address, except the
entry's author (who knows). A notice carries the entry's block as in the transcript and the
room's address. Every mail to a side's player carries a ``Reply-To`` signed for that room and
side (``games.mail.core.address``, ``room+<room>.<side>.<sig>@<MAIL_REPLY_DOMAIN>``): a reply to it
is posted to the journal as that side (``by_mail``). The referee, when not a side, gets no reply
address (a ruling needs the page's form: its decision and the entry it rules on).
"""

from __future__ import annotations

import logging
from functools import partial

from django.conf import settings
from django.core.mail import EmailMessage
from django.utils import timezone

from games.mail.core import address as reply_address
from games.models import Room, RoomEntry, RoomSide
from games.notifications.dispatch import Notice, deliver
from games.notifications.kinds import Kind
from games.rooms import writing
from games.rooms.core.transcript import LABELS, EntryText, entry_block

logger = logging.getLogger(__name__)


def room_url(room: Room) -> str:
    return f"{settings.SITE_URL.rstrip('/')}/rooms/{room.pk}"


def reply_to(side: RoomSide) -> str:
    """The signed reply address of ``side``: a reply to it is posted as that side."""
    return reply_address.build_room(
        reply_address.derive_key(settings.SECRET_KEY),
        settings.MAIL_REPLY_DOMAIN,
        reply_address.RoomAddress(side.room_id, side.position),
    )


def entry_notice(entry_id: int) -> int:
    """Tell everyone in entry ``entry_id``'s room but its author of it, by the channel each
    chose (``games.notifications``: the mail with the entry's block, or a push); the count."""
    entry = RoomEntry.objects.select_related("room__referee").filter(pk=entry_id).first()
    if entry is None:
        return 0
    room = entry.room
    people = {s.user for s in room.sides.select_related("user") if s.user is not None}
    people.add(room.referee)
    block = entry_block(
        EntryText(entry.number, entry.created_at, entry.side, entry.kind, entry.text, entry.data)
    )
    subject = f"[{room.name}] #{entry.number} {LABELS[entry.kind]} by {entry.side}"
    body = "\n".join(block) + f"\n\nThe journal: {room_url(room)}\n"
    sides = {s.user_id: s for s in room.sides.all() if s.user_id is not None}
    to = sorted((p for p in people if p.pk != entry.author_id), key=lambda p: p.pk)
    notices = [
        Notice(
            user=person,
            kind=Kind.ROOM_ENTRY,
            title=f"{room.name}: {LABELS[entry.kind]}",
            text=f"#{entry.number} {LABELS[entry.kind]} by {entry.side}.",
            url=f"/rooms/{room.pk}",
            tag=f"room-{room.pk}",
            mail=partial(_message, subject, body, person.email, sides.get(person.pk)),
        )
        for person in to
    ]
    return sum(done.ok for done in deliver(notices))


def turn_reminder(room_id: int, side_id: int) -> int:
    """Remind the side to move of its deadline (nothing if the turn has moved on), by the
    channel its player chose for deadlines."""
    room = Room.objects.filter(pk=room_id, status=Room.Status.RUNNING).first()
    side = RoomSide.objects.select_related("user").filter(pk=side_id, room_id=room_id).first()
    if room is None or side is None or side.position != room.turn_position or side.user is None:
        return 0
    due = writing.turn_due(room, side, timezone.now())
    subject = f"[{room.name}] {side.name}: your turn is due {due:%Y-%m-%d %H:%M} UTC"
    body = (
        f"Turn {room.turn_number} of {room.name}: {side.name} to move.\n"
        f"Due {due:%Y-%m-%d %H:%M} UTC; after that a grace period of {room.grace_days} days, "
        f"then the turn is declared timed out.\n\nThe journal: {room_url(room)}\n"
    )
    notice = Notice(
        user=side.user,
        kind=Kind.DEADLINE,
        title=f"{room.name}: your turn is due",
        text=f"{side.name}: due {due:%Y-%m-%d %H:%M} UTC.",
        url=f"/rooms/{room.pk}",
        tag=f"room-{room.pk}-deadline",
        mail=partial(_message, subject, body, side.user.email, side),
    )
    return sum(done.ok for done in deliver([notice]))


def _message(subject: str, body: str, to: str, side: RoomSide | None) -> EmailMessage:
    """One mail to ``to``; to a side's player with the side's reply address and how to use it."""
    if side is None:
        return EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [to])
    body += REPLY_HINT.format(side=side.name)
    return EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [to], reply_to=[reply_to(side)])


#: The last lines of a mail to a side: what a reply to it posts (``by_mail``).
REPLY_HINT = (
    "\nReply to post to the journal as {side}: lines starting 'battle ' ask for a battle,\n"
    "'challenge <entry> <text>' disputes an entry, 'end turn' ends your turn, and the other\n"
    "lines make one move note, posted first.\n"
)
