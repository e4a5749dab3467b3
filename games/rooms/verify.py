"""``manage.py verify_room``: an ended room's journal and rolls checked against its seed.

Loads the rows into ``games.rooms.core.audit.RoomAuditData`` and runs the pure check with
the real resolver, as ``games.play.verify`` does for a game's log. A room still running is
refused: its seed is secret until the end.
"""

from __future__ import annotations

from games.models import Room, RoomEntry
from games.rooms.core import battles
from games.rooms.core.audit import AuditReport, BattleRecord, Resolve, RoomAuditData, audit_room
from games.web.exceptions import ConflictError


def room_audit_data(room: Room) -> RoomAuditData:
    """An ended room's rows as the check reads them; ``ConflictError`` while it runs."""
    if room.status != Room.Status.FINISHED:
        raise ConflictError(
            f"room {room.pk} is {room.status}: its seed stays secret until the room has ended",
            code="not_over",
        )
    results = room.entries.filter(kind=RoomEntry.Kind.BATTLE_RESULT).order_by("number")
    return RoomAuditData(
        room_id=room.pk,
        server_seed=room.server_seed,
        seed_commitment=room.seed_commitment,
        context=room.dice_context,
        roll_count=room.roll_count,
        battles=[
            BattleRecord(
                entry=e.number,
                system=e.data["request"]["system"],
                arguments=e.data["request"]["arguments"],
                rolls=e.data["rolls"],
                result=e.data["result"],
                summary=e.data["summary"],
            )
            for e in results
        ],
    )


def room_verify(room: Room, *, resolve: Resolve | None = None) -> AuditReport:
    """Check an ended room with ``resolve`` (the real resolver unless a test injects one)."""
    return audit_room(room_audit_data(room), resolve or battles.resolve)
