"""Who may see a room, and who may do what in it.

Decision: rooms are public by default; anyone signed in reads a public room's journal. A
private room (``public=False``) is readable only by its sides, its referee, its creator, staff,
and whoever presents its invite token (needed to join it); anyone else gets exactly the 404 of
a missing id, so a private room's existence is not confirmed. Only sides post notes, battles,
challenges, result agreements, turn ends and vacations; only the referee rules and decides the
result.
"""

from __future__ import annotations

import hmac
from typing import Any

from games.models import Room, RoomSide
from games.web.exceptions import ForbiddenError, NotFoundError


def not_found() -> NotFoundError:
    return NotFoundError("no such room", field="id")


def participant(room: Room, user: Any) -> bool:
    if not user.is_authenticated:
        return False
    if user.pk in (room.creator_id, room.referee_id) or user.is_staff:
        return True
    return RoomSide.objects.filter(room=room, user=user).exists()


def check_visible(room: Room, user: Any, *, invite: str | None = None) -> None:
    """404 unless ``user`` may read ``room`` (the module's rule)."""
    if room.public and user.is_authenticated:
        return
    if invite and user.is_authenticated and hmac.compare_digest(invite, room.invite_token):
        return
    if not participant(room, user):
        raise not_found()


def room_for(room_id: int, user: Any, *, invite: str | None = None) -> Room:
    room = Room.objects.select_related("referee", "creator").filter(pk=room_id).first()
    if room is None:
        raise not_found()
    check_visible(room, user, invite=invite)
    return room


def side_of(room: Room, user: Any) -> RoomSide | None:
    if not user.is_authenticated:
        return None
    return RoomSide.objects.filter(room=room, user=user).first()


def require_side(room: Room, user: Any) -> RoomSide:
    side = side_of(room, user)
    if side is None:
        raise ForbiddenError(
            "only the room's sides post notes, battles, challenges and results",
            code="not_a_side",
        )
    return side


def require_referee(room: Room, user: Any) -> None:
    if user.pk != room.referee_id:
        raise ForbiddenError(
            f"only the room's referee ({room.referee.get_username()}) rules",
            code="not_referee",
        )
