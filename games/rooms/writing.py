"""How a room's rows are written: the room locked, then the next entry appended.

Every write service locks the room (``select_for_update``) before it allocates journal numbers
or roll numbers, so two concurrent posts never get the same number: the second waits for the
first to commit and reads the counters the first left. ``append`` is the only place an entry is
made (``RoomEntry`` refuses to be saved again, updated or deleted). A side's vacation is settled
here too, since both its own next post and the clock's check end it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.common import queue
from games.models import Room, RoomEntry, RoomSide
from games.rooms import access
from games.rooms.core import timecontrol
from games.web.exceptions import ApplicationError, ConflictError

REFEREE = "referee"
SERVER = "server"
#: The side written by a staff user who settles a playing referee's proposal (``journal``).
STAFF = "staff"
MAX_TEXT = 4000
#: Kinds of entry every participant is mailed about (disputes, rulings; timeouts and the end
#: ask for it with ``notify``).
NOTIFIED = {RoomEntry.Kind.CHALLENGE, RoomEntry.Kind.RULING}


def settle_vacation(room: Room, side: RoomSide, now: datetime) -> RoomEntry | None:
    """End ``side``'s vacation at ``now`` (or when it ran out): its days used, the pause
    credited to the turn if it is the side to move. The caller holds the room's lock."""
    start, planned = side.vacation_started_at, side.vacation_ends_at
    if start is None or planned is None:
        return None
    end = min(now, planned)
    used = min(timecontrol.vacation_days_used(start, end), side.vacation_days_left)
    if room.status == Room.Status.RUNNING and side.position == room.turn_position:
        assert room.turn_started_at is not None
        paused = timecontrol.paused_within_turn(room.turn_started_at, start, end, end)
        room.turn_paused_seconds += int(paused.total_seconds())
        room.save(update_fields=["turn_paused_seconds"])
    side.vacation_days_left -= used
    side.vacation_started_at = side.vacation_ends_at = None
    side.save(update_fields=["vacation_days_left", "vacation_started_at", "vacation_ends_at"])
    return append(
        room,
        kind=RoomEntry.Kind.SYSTEM,
        author=None,
        side=side.name,
        text=f"{side.name} is back from vacation: {used} days used, {side.vacation_days_left} left",
        data={"event": "vacation_end", "used": used, "left": side.vacation_days_left},
    )


def turn_due(room: Room, side: RoomSide, now: datetime) -> datetime:
    """The deadline of the side to move at ``now``, with every pause of this turn in it."""
    assert room.turn_started_at is not None and room.days_per_turn is not None
    paused = timedelta(seconds=room.turn_paused_seconds)
    if side.vacation_started_at is not None and side.vacation_ends_at is not None:
        paused += timecontrol.paused_within_turn(
            room.turn_started_at, side.vacation_started_at, side.vacation_ends_at, now
        )
    return timecontrol.deadline(room.turn_started_at, room.days_per_turn, paused)


def locked(room_id: int) -> Room:
    """The room row, locked until the transaction ends (404 when there is none)."""
    room = Room.objects.select_for_update().filter(pk=room_id).first()
    if room is None:
        raise access.not_found()
    return room


def locked_visible(room_id: int, user: Any) -> Room:
    room = locked(room_id)
    access.check_visible(room, user)
    return room


def running_side(room_id: int, user: Any) -> tuple[Room, RoomSide]:
    room = locked_visible(room_id, user)
    side = access.require_side(room, user)
    require_running(room)
    if side.vacation_started_at is not None:
        settle_vacation(room, side, timezone.now())
        side.refresh_from_db()
    return room, side


def require_running(room: Room) -> None:
    if room.status != Room.Status.RUNNING:
        words = "has not started" if room.status == Room.Status.OPEN else "has ended"
        raise ConflictError(f"the room {words}", code="not_running")


def append(
    room: Room,
    *,
    kind: str,
    author: Any,
    side: str,
    text: str,
    data: Mapping[str, Any] | None = None,
    refers_to: RoomEntry | None = None,
    notify: bool = False,
) -> RoomEntry:
    """Insert the next entry of ``room`` (whose row the caller has locked)."""
    room.entry_count += 1
    Room.objects.filter(pk=room.pk).update(entry_count=room.entry_count)
    entry = RoomEntry.objects.create(
        room=room,
        number=room.entry_count,
        created_at=timezone.now(),
        author=author,
        side=side,
        kind=kind,
        text=text,
        data=_plain(data or {}),
        refers_to=refers_to,
    )
    if notify or kind in NOTIFIED:
        transaction.on_commit(lambda: queue.enqueue("games.room_notify", entry.pk))
    return entry


def checked_text(text: str, *, field: str = "text") -> str:
    text = text.strip()
    if not text:
        raise ApplicationError("may not be blank", field=field, code="blank")
    if len(text) > MAX_TEXT:
        raise ApplicationError(f"at most {MAX_TEXT} characters", field=field, code="max_length")
    return text


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True))
