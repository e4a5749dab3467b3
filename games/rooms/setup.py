"""Creating a room and taking its sides.

Decisions where the issue is silent: a room is created with its sides' names in turn order and
the creator may take one; the referee is the creator or a staff user named at creation; the
room starts (turn 1, the first side to move) when every side has a player. The seed is drawn and
its SHA-256 published in entry #1 before anyone joins.

The referee of a rated room is never one of its sides (a rating must not rest on a player's
own rulings): it is a staff user, or the creator playing no side -- a neutral person each side
accepts by joining under that referee (the join entry says so). Creating a rated room with the
creator both on a side and refereeing is refused (400 ``referee_plays`` naming ``side``), and so
is the referee joining a side of a rated room (409 ``referee_plays``). An unrated room may be
refereed by one of its players; their rulings that change a result then wait for the other
sides or a staff review (``journal``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from combat.axis_allies.editions import available_editions
from combat.dice import commitment_of, new_seed
from games.models import MAX_SIDES, MIN_SIDES, Room, RoomEntry, RoomSide
from games.rooms import access
from games.rooms.writing import REFEREE, SERVER, STAFF, append, locked
from games.web.exceptions import ApplicationError, ConflictError

RULES = ("dice", "lowluck", "chess")
MAX_DAYS_PER_TURN = 60


def room_create(
    *,
    creator: Any,
    name: str,
    system: str,
    sides: Sequence[str],
    rules: str = "",
    edition: str = "",
    side: str = "",
    referee: str = "",
    public: bool = True,
    days_per_turn: int | None = None,
    remind_hours: int = 24,
    grace_days: int = 1,
    vacation_days: int = 14,
    rated: bool | None = None,
) -> Room:
    """A new room with its sides (in turn order) and its seed committed in entry #1.

    ``rated``: fixed here for good; a room of 2 sides is rated unless asked not to be, a
    room of more sides cannot be (Glicko-2 rates one side against one other)."""
    rules, edition = checked_variant(system, rules, edition)
    names = checked_sides(sides)
    if rated is None:
        rated = len(names) == 2
    if rated and len(names) != 2:
        raise ApplicationError(
            f"only a room of 2 sides can be rated, this one has {len(names)}", field="rated"
        )
    if side and side not in names:
        raise ApplicationError("not one of the room's sides", field="side", allowed=names)
    referee_user = _checked_referee(creator, referee)
    if rated and side and referee_user.pk == creator.pk:
        raise ApplicationError(
            "in a rated room the referee plays no side: name a staff referee, play no side, "
            "or make the room unrated",
            field="side",
            code="referee_plays",
        )
    seed = new_seed()
    with transaction.atomic():
        room = Room.objects.create(
            name=name.strip(),
            system=system,
            rules=rules,
            edition=edition,
            creator=creator,
            referee=referee_user,
            public=public,
            days_per_turn=days_per_turn,
            remind_hours=remind_hours,
            grace_days=grace_days,
            vacation_days=vacation_days,
            server_seed=seed,
            seed_commitment=commitment_of(seed),
            rated=rated,
        )
        now = timezone.now()
        RoomSide.objects.bulk_create(
            RoomSide(
                room=room,
                position=i,
                name=n,
                vacation_days_left=vacation_days,
                user=creator if n == side else None,
                joined_at=now if n == side else None,
            )
            for i, n in enumerate(names)
        )
        variant = ", ".join(v for v in (rules, edition) if v)
        append(
            room,
            kind=RoomEntry.Kind.SYSTEM,
            author=creator,
            side=SERVER,
            text=f"Room created: {system}{f' ({variant})' if variant else ''}; sides "
            f"{', '.join(names)}; referee {referee_user.get_username()}; dice seed "
            f"commitment SHA-256 {room.seed_commitment}",
            data={"event": "created", "seed_commitment": room.seed_commitment},
        )
        if side:
            _joined(room, creator, side, accepts=referee_user)
    return room


def room_join(*, room_id: int, user: Any, side: str, invite: str | None = None) -> Room:
    """Take a free side; the room starts when the last one is taken."""
    access.room_for(room_id, user, invite=invite)
    with transaction.atomic():
        room = locked(room_id)
        if room.status != Room.Status.OPEN:
            raise ConflictError("the room has started: every side is taken", code="not_open")
        sides = list(room.sides.all())
        if any(s.user_id == user.pk for s in sides):
            raise ConflictError("you already play a side in this room", code="already_seated")
        wanted = next((s for s in sides if s.name == side), None)
        if wanted is None:
            raise ApplicationError(
                "not one of the room's sides", field="side", allowed=[s.name for s in sides]
            )
        if wanted.user_id is not None:
            raise ConflictError(f"{side} is taken", code="side_taken")
        _check_not_referee(room, user)
        now = timezone.now()
        wanted.user, wanted.joined_at = user, now
        wanted.save(update_fields=["user", "joined_at"])
        _joined(room, user, side, accepts=room.referee)
        if all(s.user_id is not None for s in sides):
            _start(room, sides, now)
    return room


def room_create_seated(*, creator: Any, players: Sequence[Any], **settings: Any) -> Room:
    """A room with ``players`` on its sides in order, started at once (a tournament's game):
    ``creator`` (the tournament's staff) referees and plays no side. The caller holds
    ``atomic``; ``settings`` are ``room_create``'s."""
    room = room_create(creator=creator, **settings)
    sides = list(room.sides.all())
    if len(sides) != len(players):
        raise ApplicationError(f"{len(players)} players for {len(sides)} sides", field="sides")
    for user in players:
        _check_not_referee(room, user)
    now = timezone.now()
    for side, user in zip(sides, players, strict=True):
        side.user, side.joined_at = user, now
        side.save(update_fields=["user", "joined_at"])
        _joined(room, user, side.name, accepts=creator)
    _start(room, sides, now)
    return room


def _start(room: Room, sides: Sequence[RoomSide], now: Any) -> None:
    """Every side is taken: turn 1 begins with the first side."""
    room.status, room.started_at = Room.Status.RUNNING, now
    room.turn_number, room.turn_position, room.turn_started_at = 1, 0, now
    room.save(
        update_fields=[
            "status",
            "started_at",
            "turn_number",
            "turn_position",
            "turn_started_at",
        ]
    )
    append(
        room,
        kind=RoomEntry.Kind.SYSTEM,
        author=None,
        side=SERVER,
        text=f"The room starts: turn 1, {sides[0].name} to move",
        data={"event": "started", "turn": 1, "to_move": sides[0].name},
    )


def _check_not_referee(room: Room, user: Any) -> None:
    """The referee of a rated room takes no side (the module's rule)."""
    if room.rated and user.pk == room.referee_id:
        raise ConflictError("in a rated room the referee plays no side", code="referee_plays")


def _joined(room: Room, user: Any, side: str, *, accepts: Any = None) -> RoomEntry:
    """``accepts``: the referee the player accepts by taking a side under them (not said
    when the player is the referee)."""
    text = f"{user.get_username()} plays {side}"
    data: dict[str, Any] = {"event": "joined"}
    if accepts is not None and accepts.pk != user.pk:
        text += f" and accepts {accepts.get_username()} as referee"
        data["accepts_referee"] = accepts.get_username()
    return append(
        room,
        kind=RoomEntry.Kind.SYSTEM,
        author=user,
        side=side,
        text=text,
        data=data,
    )


def checked_variant(system: str, rules: str, edition: str) -> tuple[str, str]:
    if system not in Room.System.values:
        raise ApplicationError("not a game system", field="system", allowed=Room.System.values)
    if system != Room.System.AXIS_ALLIES:
        for name, value in (("rules", rules), ("edition", edition)):
            if value:
                raise ApplicationError(f"only an axis_allies room has {name}", field=name)
        return "", ""
    rules = rules or "dice"
    if rules not in RULES:
        raise ApplicationError("not A&A rules", field="rules", allowed=RULES)
    editions = sorted(available_editions())
    edition = edition or "revised"
    if edition not in editions:
        raise ApplicationError("not an A&A edition", field="edition", allowed=editions)
    return rules, edition


def checked_sides(sides: Sequence[str]) -> list[str]:
    names = [str(s).strip() for s in sides]
    if not MIN_SIDES <= len(names) <= MAX_SIDES:
        raise ApplicationError(f"a room has {MIN_SIDES}-{MAX_SIDES} sides", field="sides")
    for i, n in enumerate(names):
        if not n or len(n) > 40:
            raise ApplicationError("a side's name is 1-40 characters", field=f"sides.{i}")
        if n in (REFEREE, SERVER, STAFF):
            raise ApplicationError(f"{n!r} is reserved", field=f"sides.{i}")
        if n in names[:i]:
            raise ApplicationError(f"{n} is named twice", field=f"sides.{i}")
    return names


def _checked_referee(creator: Any, referee: str) -> Any:
    if not referee or referee == creator.get_username():
        return creator
    user = get_user_model().objects.filter(username=referee, is_active=True).first()
    if user is None or not user.is_staff:
        raise ApplicationError(
            "the referee is the creator or a staff user", field="referee", code="not_staff"
        )
    return user
