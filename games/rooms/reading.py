"""What a room shows: its summary and detail, journal pages and the plain-text transcript."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from combat.axis_allies.editions import available_editions, load_edition
from games.models import Room, RoomEntry, RoomSide
from games.rooms import access, writing
from games.rooms.core.transcript import EntryText, transcript

#: Entries in one journal page; page on with ``after``.
PAGE = 200
LIST_LIMIT = 100


def listed_for(user: Any) -> QuerySet[Room]:
    """Public rooms and the private rooms the caller takes part in (newest first)."""
    rooms = Room.objects.select_related("referee")
    if user.is_authenticated:
        mine = (
            rooms.filter(sides__user=user) | rooms.filter(referee=user) | rooms.filter(creator=user)
        )
        return (rooms.filter(public=True) | mine).distinct()
    return rooms.filter(public=True)


def room_summary(room: Room) -> dict[str, Any]:
    sides = list(room.sides.select_related("user"))
    return {
        "id": room.pk,
        "name": room.name,
        "system": room.system,
        "rules": room.rules,
        "edition": room.edition,
        "edition_name": edition_name(room.edition),
        "status": room.status,
        "public": room.public,
        "rated": room.rated,
        "referee": room.referee.get_username(),
        "sides": [_side(s) for s in sides],
        "turn": room.turn_number,
        "to_move": _to_move(room, sides),
        "entries": room.entry_count,
        "created_at": room.created_at,
    }


def edition_name(key: str) -> str:
    """The A&A edition's name as its data file gives it ("Axis & Allies 1942 Second Edition
    (2012)"), so pages show a name, not the key; "" for a room of another system (no edition)
    and the key itself should an edition ever leave the data files."""
    if not key:
        return ""
    return load_edition(key).name if key in available_editions() else key


def room_detail(room: Room, user: Any) -> dict[str, Any]:
    """The summary plus the clock, the dice and what the caller may do."""
    detail = room_summary(room)
    sides = list(room.sides.all())
    mine = next((s for s in sides if user.is_authenticated and s.user_id == user.pk), None)
    detail.update(
        days_per_turn=room.days_per_turn,
        remind_hours=room.remind_hours,
        grace_days=room.grace_days,
        vacation_days=room.vacation_days,
        turn_started_at=room.turn_started_at,
        due_at=_due(room, sides),
        seed_commitment=room.seed_commitment,
        server_seed=room.server_seed if room.status == Room.Status.FINISHED else None,
        rolls=room.roll_count,
        result=room.result or None,
        you=mine.name if mine else None,
        referee_is_you=user.is_authenticated and user.pk == room.referee_id,
        invite_token=room.invite_token if access.participant(room, user) else None,
    )
    return detail


def journal_page(room: Room, after: int) -> dict[str, Any]:
    entries = list(
        room.entries.select_related("author", "refers_to")
        .filter(number__gt=after)
        .order_by("number")[: PAGE + 1]
    )
    more = len(entries) > PAGE
    entries = entries[:PAGE]
    return {
        "after": after,
        "last": entries[-1].number if entries else after,
        "more": more,
        "entries": [entry_dict(e) for e in entries],
    }


def entry_dict(entry: RoomEntry) -> dict[str, Any]:
    return {
        "number": entry.number,
        "at": entry.created_at,
        "author": entry.author.get_username() if entry.author else None,
        "side": entry.side,
        "kind": entry.kind,
        "text": entry.text,
        "data": entry.data,
        "refers_to": entry.refers_to.number if entry.refers_to else None,
    }


def room_transcript(room: Room) -> str:
    """The journal as plain text (``games.rooms.core.transcript``)."""
    variant = ", ".join(v for v in (room.rules, room.edition) if v)
    seed = room.server_seed if room.status == Room.Status.FINISHED else "secret until the end"
    header = [
        f"Room {room.pk}: {room.name} ({room.system}{f', {variant}' if variant else ''})",
        f"Referee: {room.referee.get_username()}",
        f"Seed commitment: {room.seed_commitment}",
        f"Server seed: {seed}",
    ]
    entries = (
        EntryText(e.number, e.created_at, e.side, e.kind, e.text, e.data)
        for e in room.entries.order_by("number")
    )
    return transcript(header, entries)


def _side(side: RoomSide) -> dict[str, Any]:
    return {
        "position": side.position,
        "name": side.name,
        "player": side.user.get_username() if side.user else None,
        "vacation_days_left": side.vacation_days_left,
        "on_vacation_until": side.vacation_ends_at,
        "agreed_result": side.agreed_result,
    }


def _to_move(room: Room, sides: list[RoomSide]) -> str | None:
    if room.status != Room.Status.RUNNING:
        return None
    return next((s.name for s in sides if s.position == room.turn_position), None)


def _due(room: Room, sides: list[RoomSide]) -> Any:
    if room.status != Room.Status.RUNNING or room.days_per_turn is None:
        return None
    side = next(s for s in sides if s.position == room.turn_position)
    return writing.turn_due(room, side, timezone.now())
