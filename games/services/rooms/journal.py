"""The write services of a room: one transaction each, the room row locked.

Every service locks the room (``select_for_update``) before it allocates journal numbers or
roll numbers, so two concurrent posts never get the same number: the second waits for the first
to commit and reads the counters it left. Entries are only ever inserted -- there is no service
that changes or deletes one; a correction is a later referee entry.

Decisions where the issue is silent:

- A room is created with its sides' names in turn order; the creator may take one. It starts
  (turn 1, the first side to move) when every side has a player.
- Any side may ask for a battle at any time (in A&A the attacker does, but WiF and France 1944
  fight in both sides' phases); the journal shows who asked.
- A battle result is written by the server right after its request, with the exact odds the
  resolver gives, every roll with its number and a one-line summary.
- A ruling answers a challenge (once) or any entry directly. ``voided`` applies to a battle: its
  result stays in the journal (its rolls stay in the room's sequence) and the request is rolled
  again with the next free roll numbers, as a new result entry that names the one it replaces.
  ``corrected`` needs the correction's text.
- The result: each side may agree one (``winners`` among the sides, and a text); when every side
  has agreed the same one, or the referee decides, the room ends and its seed is revealed.
- A side that posts anything while on vacation is back: its vacation ends there.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from combat.axis_allies.editions import available_editions
from combat.dice import commitment_of, new_seed
from combat.errors import CombatInputError
from config.exceptions import ApplicationError, ConflictError
from games.correspondence import battles, timecontrol
from games.correspondence.audit import Resolve
from games.correspondence.rolls import RoomDice, roll_range
from games.models import MAX_SIDES, MIN_SIDES, Room, RoomEntry, RoomSide
from games.services import queue
from games.services.rooms import access

RULES = ("dice", "lowluck", "chess")
DECISIONS = ("upheld", "voided", "corrected")
REFEREE = "referee"
SERVER = "server"
MAX_TEXT = 4000
MAX_DAYS_PER_TURN = 60
#: Kinds of entry every participant is mailed about (disputes, rulings, timeouts, the end).
NOTIFIED = {RoomEntry.Kind.CHALLENGE, RoomEntry.Kind.RULING}


# --- creating and joining ----------------------------------------------------------------------


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
) -> Room:
    """A new room with its sides (in turn order) and its seed committed in entry #1."""
    rules, edition = _checked_variant(system, rules, edition)
    names = _checked_sides(sides)
    if side and side not in names:
        raise ApplicationError("not one of the room's sides", field="side", allowed=names)
    referee_user = _checked_referee(creator, referee)
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
        _append(
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
            _joined(room, creator, side)
    return room


def room_join(*, room_id: int, user: Any, side: str, invite: str | None = None) -> Room:
    """Take a free side; the room starts when the last one is taken."""
    access.room_for(room_id, user, invite=invite)
    with transaction.atomic():
        room = _locked(room_id)
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
        now = timezone.now()
        wanted.user, wanted.joined_at = user, now
        wanted.save(update_fields=["user", "joined_at"])
        _joined(room, user, side)
        if all(s.user_id is not None for s in sides):
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
            _append(
                room,
                kind=RoomEntry.Kind.SYSTEM,
                author=None,
                side=SERVER,
                text=f"The room starts: turn 1, {sides[0].name} to move",
                data={"event": "started", "turn": 1, "to_move": sides[0].name},
            )
    return room


def _joined(room: Room, user: Any, side: str) -> RoomEntry:
    text = f"{user.get_username()} plays {side}"
    return _append(
        room,
        kind=RoomEntry.Kind.SYSTEM,
        author=user,
        side=side,
        text=text,
        data={"event": "joined"},
    )


# --- the journal --------------------------------------------------------------------------------


def post_note(*, room_id: int, user: Any, text: str) -> RoomEntry:
    """A move note in free text."""
    with transaction.atomic():
        room, side = _running_side(room_id, user)
        return _append(
            room, kind=RoomEntry.Kind.NOTE, author=user, side=side.name, text=_checked_text(text)
        )


def request_battle(
    *,
    room_id: int,
    user: Any,
    notation: str | None = None,
    arguments: Mapping[str, Any] | None = None,
    resolve: Resolve | None = None,
) -> tuple[RoomEntry, RoomEntry]:
    """A battle request (notation or the resolver's JSON arguments) and its result."""
    if (notation is None) == (arguments is None):
        raise ApplicationError("give notation or arguments (one of them)", field="notation")
    with transaction.atomic():
        room, side = _running_side(room_id, user)
        variant = battles.room_variant(room.system, room.rules, room.edition)
        field = "notation" if notation is not None else "arguments"
        line = ""
        try:
            if notation is not None:
                line = _checked_text(notation, field="notation")
                system, args, canonical = battles.from_notation(
                    line, system=room.system, variant=variant
                )
            else:
                system, args, canonical = battles.from_arguments(
                    dict(arguments or {}), system=room.system, variant=variant
                )
        except CombatInputError as exc:
            raise _input_error(exc, field) from exc
        except (TypeError, ValueError, KeyError) as exc:
            raise ApplicationError(
                f"not a battle of {room.system}: {exc}", field=field, code="invalid_input"
            ) from exc
        request = _append(
            room,
            kind=RoomEntry.Kind.BATTLE_REQUEST,
            author=user,
            side=side.name,
            text=line or canonical,
            data={"system": system, "arguments": args, "notation": canonical, "written": line},
        )
        result = _roll_battle(room, request, resolve=resolve, field=field)
    return request, result


def challenge(*, room_id: int, user: Any, entry: int, text: str) -> RoomEntry:
    """A side disputes an earlier entry; everyone is told."""
    with transaction.atomic():
        room, side = _running_side(room_id, user)
        target = _entry(room, entry)
        return _append(
            room,
            kind=RoomEntry.Kind.CHALLENGE,
            author=user,
            side=side.name,
            text=f"#{target.number}: {_checked_text(text)}",
            data={"entry": target.number},
            refers_to=target,
        )


def rule(
    *,
    room_id: int,
    user: Any,
    entry: int,
    decision: str,
    text: str = "",
    resolve: Resolve | None = None,
) -> list[RoomEntry]:
    """The referee's ruling on a challenge or an entry: the ruling (and a re-roll if voided)."""
    if decision not in DECISIONS:
        raise ApplicationError("not a ruling", field="decision", allowed=DECISIONS)
    with transaction.atomic():
        room = _locked_visible(room_id, user)
        access.require_referee(room, user)
        _require_running(room)
        target = _entry(room, entry)
        disputed = target
        if target.kind == RoomEntry.Kind.CHALLENGE:
            if room.entries.filter(kind=RoomEntry.Kind.RULING, refers_to=target).exists():
                raise ConflictError(
                    f"challenge #{target.number} is ruled already", code="already_ruled"
                )
            disputed = target.refers_to or target
        text = text.strip()
        if decision == "corrected" and not text:
            raise ApplicationError("a correction needs its text", field="text", code="required")
        if decision != "voided":
            ruling = _append(
                room,
                kind=RoomEntry.Kind.RULING,
                author=user,
                side=REFEREE,
                text=f"{decision} #{disputed.number}"
                + (f": {_checked_text(text)}" if text else ""),
                data={"decision": decision, "entry": target.number, "disputed": disputed.number},
                refers_to=target,
            )
            return [ruling]
        voided = _battle_result_of(room, disputed)
        ruling = _append(
            room,
            kind=RoomEntry.Kind.RULING,
            author=user,
            side=REFEREE,
            text=f"voided #{voided.number}; the battle is rolled again"
            + (f": {_checked_text(text)}" if text else ""),
            data={
                "decision": decision,
                "entry": target.number,
                "disputed": disputed.number,
                "voids": voided.number,
            },
            refers_to=target,
        )
        request = voided.refers_to
        assert request is not None  # a result always names its request
        reroll = _roll_battle(room, request, resolve=resolve, replaces=voided.number)
        return [ruling, reroll]


def end_turn(*, room_id: int, user: Any, text: str = "") -> RoomEntry:
    """The side to move ends its turn; the next side in turn order moves (a new round after
    the last). The new turn's clock starts now."""
    with transaction.atomic():
        room, side = _running_side(room_id, user)
        if side.position != room.turn_position:
            to_move = room.sides.get(position=room.turn_position).name
            raise ConflictError(f"it is {to_move}'s turn, not {side.name}'s", code="not_your_turn")
        count = room.sides.count()
        room.turn_position = (room.turn_position + 1) % count
        if room.turn_position == 0:
            room.turn_number += 1
        now = timezone.now()
        room.turn_started_at, room.turn_paused_seconds = now, 0
        room.turn_reminded_at = room.turn_timed_out_at = None
        room.save(
            update_fields=[
                "turn_position",
                "turn_number",
                "turn_started_at",
                "turn_paused_seconds",
                "turn_reminded_at",
                "turn_timed_out_at",
            ]
        )
        nxt = room.sides.get(position=room.turn_position).name
        words = f"{side.name} ends its turn; turn {room.turn_number}: {nxt} to move"
        note = text.strip()
        return _append(
            room,
            kind=RoomEntry.Kind.SYSTEM,
            author=user,
            side=side.name,
            text=words + (f"\n{_checked_text(note)}" if note else ""),
            data={"event": "end_turn", "turn": room.turn_number, "to_move": nxt},
        )


def declare_vacation(*, room_id: int, user: Any, days: int) -> RoomEntry:
    """The side's clock stops for up to ``days`` of its vacation days (used day by day)."""
    with transaction.atomic():
        room = _locked_visible(room_id, user)
        side = access.require_side(room, user)
        _require_running(room)
        if side.vacation_started_at is not None:
            raise ConflictError(f"{side.name} is on vacation already", code="on_vacation")
        if not 1 <= days <= side.vacation_days_left:
            raise ApplicationError(
                f"{side.name} has {side.vacation_days_left} vacation days left",
                field="days",
                code="not_enough_vacation",
            )
        now = timezone.now()
        side.vacation_started_at = now
        side.vacation_ends_at = timecontrol.vacation_end(now, days)
        side.save(update_fields=["vacation_started_at", "vacation_ends_at"])
        return _append(
            room,
            kind=RoomEntry.Kind.SYSTEM,
            author=user,
            side=side.name,
            text=f"{side.name} is on vacation for up to {days} days (until "
            f"{side.vacation_ends_at:%Y-%m-%d %H:%M} UTC): its clock is paused",
            data={"event": "vacation", "days": days},
        )


def agree_result(
    *, room_id: int, user: Any, winners: Sequence[str], text: str = ""
) -> list[RoomEntry]:
    """A side agrees a result; when every side agrees the same one, the room ends."""
    with transaction.atomic():
        room, side = _running_side(room_id, user)
        sides = list(room.sides.all())
        result = _checked_result(sides, winners, text)
        side.agreed_result = result
        side.save(update_fields=["agreed_result"])
        entries = [
            _append(
                room,
                kind=RoomEntry.Kind.SYSTEM,
                author=user,
                side=side.name,
                text=f"{side.name} agrees the result: {_result_words(result)}",
                data={"event": "agree_result", "result": result},
            )
        ]
        for s in sides:
            if s.pk == side.pk:
                s.agreed_result = result
        if all(s.agreed_result == result for s in sides):
            entries.append(_finish(room, result, by="sides"))
        return entries


def decide_result(*, room_id: int, user: Any, winners: Sequence[str], text: str = "") -> RoomEntry:
    """The referee decides the result: the room ends."""
    with transaction.atomic():
        room = _locked_visible(room_id, user)
        access.require_referee(room, user)
        _require_running(room)
        result = _checked_result(list(room.sides.all()), winners, text)
        return _finish(room, result, by="referee")


# --- the clock's writes (games.services.rooms.clock calls these under the room's lock) ----------


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
    return _append(
        room,
        kind=RoomEntry.Kind.SYSTEM,
        author=None,
        side=side.name,
        text=f"{side.name} is back from vacation: {used} days used, {side.vacation_days_left} left",
        data={"event": "vacation_end", "used": used, "left": side.vacation_days_left},
    )


def write_timeout(room: Room, side: RoomSide, now: datetime) -> RoomEntry:
    """The side to move is past its grace period: said once per turn. The caller holds the
    room's lock."""
    room.turn_timed_out_at = now
    room.save(update_fields=["turn_timed_out_at"])
    return _append(
        room,
        kind=RoomEntry.Kind.SYSTEM,
        author=None,
        side=SERVER,
        text=f"{side.name}'s turn timed out",
        data={"event": "timeout", "side": side.name},
        notify=True,
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


# --- helpers -------------------------------------------------------------------------------------


def locked(room_id: int) -> Room:
    """The room row, locked until the transaction ends (404 when there is none)."""
    room = Room.objects.select_for_update().filter(pk=room_id).first()
    if room is None:
        raise access.not_found()
    return room


_locked = locked


def _locked_visible(room_id: int, user: Any) -> Room:
    room = locked(room_id)
    access.check_visible(room, user)
    return room


def _running_side(room_id: int, user: Any) -> tuple[Room, RoomSide]:
    room = _locked_visible(room_id, user)
    side = access.require_side(room, user)
    _require_running(room)
    if side.vacation_started_at is not None:
        settle_vacation(room, side, timezone.now())
        side.refresh_from_db()
    return room, side


def _require_running(room: Room) -> None:
    if room.status != Room.Status.RUNNING:
        words = "has not started" if room.status == Room.Status.OPEN else "has ended"
        raise ConflictError(f"the room {words}", code="not_running")


def _append(
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


def _roll_battle(
    room: Room,
    request: RoomEntry,
    *,
    resolve: Resolve | None,
    replaces: int | None = None,
    field: str = "arguments",
) -> RoomEntry:
    """Resolve ``request`` with the room's next roll numbers and append its result."""
    system, arguments = request.data["system"], request.data["arguments"]
    resolve = resolve or battles.resolve
    dice = RoomDice(room.server_seed, room.dice_context, room.roll_count + 1)
    try:
        answer = resolve(system, arguments, dice)
    except CombatInputError as exc:
        raise _input_error(exc, field) from exc
    first, last = roll_range(dice.log)
    room.roll_count = dice.last
    Room.objects.filter(pk=room.pk).update(roll_count=room.roll_count)
    data = {
        "request": {"system": system, "arguments": arguments},
        "notation": answer.get("notation", ""),
        "odds": answer.get("odds"),
        "result": answer.get("result"),
        "summary": answer.get("summary", ""),
        "rolls": [r.as_dict() for r in dice.log],
        "first_roll": first,
        "last_roll": last,
        "replaces": replaces,
    }
    text = str(answer.get("summary", ""))
    if replaces is not None:
        text = f"re-roll of #{replaces}: {text}"
    return _append(
        room,
        kind=RoomEntry.Kind.BATTLE_RESULT,
        author=None,
        side=SERVER,
        text=text,
        data=data,
        refers_to=request,
    )


def _input_error(exc: CombatInputError, field: str) -> ApplicationError:
    """The resolver's refusal as the API's: the field under ``notation`` or ``arguments``."""
    inner = exc.field if exc.field not in (None, "", "notation") else None
    code = "invalid_notation" if field == "notation" else "invalid_input"
    return ApplicationError(
        exc.message, field=f"{field}.{inner}" if inner else field, code=code, allowed=exc.allowed
    )


def _battle_result_of(room: Room, entry: RoomEntry) -> RoomEntry:
    """The battle result a void applies to: the entry itself, or a request's latest result."""
    if entry.kind == RoomEntry.Kind.BATTLE_REQUEST:
        latest = entry.replies.filter(kind=RoomEntry.Kind.BATTLE_RESULT).order_by("-number")
        entry = latest.first() or entry
    if entry.kind != RoomEntry.Kind.BATTLE_RESULT:
        raise ApplicationError(
            f"#{entry.number} is no battle: only a battle is voided",
            field="entry",
            code="not_a_battle",
        )
    voided = room.entries.filter(kind=RoomEntry.Kind.RULING, data__voids=entry.number).exists()
    if voided:
        raise ConflictError(f"#{entry.number} is voided already", code="already_voided")
    return entry


def _entry(room: Room, number: int) -> RoomEntry:
    found = room.entries.select_related("refers_to").filter(number=number).first()
    if found is None:
        raise ApplicationError(
            f"the journal has no entry #{number}", field="entry", code="no_entry"
        )
    return found


def _finish(room: Room, result: dict[str, Any], *, by: str) -> RoomEntry:
    now = timezone.now()
    for side in room.sides.exclude(vacation_started_at=None):
        settle_vacation(room, side, now)
    room.status, room.finished_at = Room.Status.FINISHED, now
    room.result = {**result, "decided_by": by}
    room.save(update_fields=["status", "finished_at", "result"])
    who = "every side agrees" if by == "sides" else "the referee decides"
    return _append(
        room,
        kind=RoomEntry.Kind.SYSTEM,
        author=None,
        side=SERVER,
        text=f"The room has ended ({who}): {_result_words(result)}\n"
        f"Server seed revealed: {room.server_seed} (SHA-256 {room.seed_commitment})",
        data={"event": "ended", "result": room.result, "server_seed": room.server_seed},
        notify=True,
    )


def _checked_variant(system: str, rules: str, edition: str) -> tuple[str, str]:
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


def _checked_sides(sides: Sequence[str]) -> list[str]:
    names = [str(s).strip() for s in sides]
    if not MIN_SIDES <= len(names) <= MAX_SIDES:
        raise ApplicationError(f"a room has {MIN_SIDES}-{MAX_SIDES} sides", field="sides")
    for i, n in enumerate(names):
        if not n or len(n) > 40:
            raise ApplicationError("a side's name is 1-40 characters", field=f"sides.{i}")
        if n in (REFEREE, SERVER):
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


def _checked_text(text: str, *, field: str = "text") -> str:
    text = text.strip()
    if not text:
        raise ApplicationError("may not be blank", field=field, code="blank")
    if len(text) > MAX_TEXT:
        raise ApplicationError(f"at most {MAX_TEXT} characters", field=field, code="max_length")
    return text


def _checked_result(sides: Sequence[RoomSide], winners: Sequence[str], text: str) -> dict[str, Any]:
    names = [s.name for s in sides]
    for i, w in enumerate(winners):
        if w not in names:
            raise ApplicationError(
                "not one of the room's sides", field=f"winners.{i}", allowed=names
            )
    ordered = [n for n in names if n in set(winners)]
    return {"winners": ordered, "text": text.strip()[:MAX_TEXT]}


def _result_words(result: Mapping[str, Any]) -> str:
    winners = ", ".join(result["winners"]) or "a draw"
    return f"{winners}" + (f" -- {result['text']}" if result.get("text") else "")


def _plain(value: Any) -> Any:
    return json.loads(json.dumps(value, sort_keys=True))
