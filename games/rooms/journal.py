"""The journal's write services: notes, battles, disputes, turns, vacations and the result.

One transaction each, the room row locked first (``writing``), so journal and roll numbers are
allocated one post at a time. Entries are only ever inserted -- there is no service that changes
or deletes one; a correction is a later referee entry.

Decisions where the issue is silent:

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

A referee who plays a side (an unrated room only: ``setup``) does not change a result alone.
Their ``voided`` and ``corrected`` rulings and their decided result are written as *proposals*
(a ruling entry with ``pending``), which take effect only when every other side accepts them
(``accept_ruling``) or a staff user who is not the referee does (a staff review); any of them
may reject one instead (``reject_ruling``). The proposal stays in the journal either way, and
the entry that settles it names it (``settles``). A battle is re-rolled at most once: the
re-roll stands (409 ``rerolled_once``), and the journal keeps both results.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from combat.errors import CombatInputError
from games.hooks import RoomFinished, on_room_finished
from games.models import Room, RoomEntry, RoomSide
from games.rooms import access, battle_work
from games.rooms.core import battles, timecontrol
from games.rooms.core.audit import Resolve
from games.rooms.core.rolls import RoomDice, roll_range
from games.rooms.writing import (
    MAX_TEXT,
    REFEREE,
    SERVER,
    STAFF,
    append,
    checked_text,
    locked_visible,
    require_running,
    running_side,
    settle_vacation,
)
from games.web.exceptions import (
    ApplicationError,
    ConflictError,
    ForbiddenError,
    ThrottledError,
    UnavailableError,
)

DECISIONS = ("upheld", "voided", "corrected")


# --- the journal --------------------------------------------------------------------------------


def post_note(*, room_id: int, user: Any, text: str) -> RoomEntry:
    """A move note in free text."""
    with transaction.atomic():
        room, side = running_side(room_id, user)
        return append(
            room, kind=RoomEntry.Kind.NOTE, author=user, side=side.name, text=checked_text(text)
        )


def request_battle(
    *,
    room_id: int,
    user: Any,
    notation: str | None = None,
    arguments: Mapping[str, Any] | None = None,
    resolve: Resolve | None = None,
) -> tuple[RoomEntry, RoomEntry]:
    """A battle request (notation or the resolver's JSON arguments) and its result.

    The battle is rolled *before* the room is locked (``_rolled_early``): the odds of a big A&A
    battle take up to a few seconds, which must not hold the room's row lock and transaction.
    """
    if (notation is None) == (arguments is None):
        raise ApplicationError("give notation or arguments (one of them)", field="notation")
    field = "notation" if notation is not None else "arguments"
    line = checked_text(notation, field="notation") if notation is not None else ""
    early = _rolled_early(room_id, user, notation=line, arguments=arguments, resolve=resolve)
    with transaction.atomic():
        room, side = running_side(room_id, user)
        system, args, canonical = _canonical(room, line, arguments, field)
        request = append(
            room,
            kind=RoomEntry.Kind.BATTLE_REQUEST,
            author=user,
            side=side.name,
            text=line or canonical,
            data={"system": system, "arguments": args, "notation": canonical, "written": line},
        )
        result = _roll_battle(room, request, resolve=resolve, field=field, early=early)
    return request, result


def _canonical(
    room: Room, line: str, arguments: Mapping[str, Any] | None, field: str
) -> tuple[str, dict[str, Any], str]:
    """(system, arguments, canonical line) of a request, read with the room's variant; the
    resolver's refusal as a 400 naming the field."""
    variant = battles.room_variant(room.system, room.rules, room.edition)
    try:
        if arguments is None:
            return battles.from_notation(line, system=room.system, variant=variant)
        return battles.from_arguments(dict(arguments), system=room.system, variant=variant)
    except CombatInputError as exc:
        raise _input_error(exc, field) from exc
    except (TypeError, ValueError, KeyError) as exc:
        raise ApplicationError(
            f"not a battle of {room.system}: {exc}", field=field, code="invalid_input"
        ) from exc


def challenge(*, room_id: int, user: Any, entry: int, text: str) -> RoomEntry:
    """A side disputes an earlier entry; everyone is told."""
    with transaction.atomic():
        room, side = running_side(room_id, user)
        target = _entry(room, entry)
        return append(
            room,
            kind=RoomEntry.Kind.CHALLENGE,
            author=user,
            side=side.name,
            text=f"#{target.number}: {checked_text(text)}",
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
        room = locked_visible(room_id, user)
        access.require_referee(room, user)
        require_running(room)
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
        if decision != "upheld" and _referee_side(room) is not None:
            if decision == "voided":
                _battle_result_of(room, disputed)  # refused now, not when accepted
            return [
                _propose(
                    room,
                    user,
                    target,
                    words=f"{decision} #{disputed.number}"
                    + (f": {checked_text(text)}" if text else ""),
                    data={
                        "decision": decision,
                        "entry": target.number,
                        "disputed": disputed.number,
                        "text": text,
                    },
                )
            ]
        if decision != "voided":
            ruling = append(
                room,
                kind=RoomEntry.Kind.RULING,
                author=user,
                side=REFEREE,
                text=f"{decision} #{disputed.number}" + (f": {checked_text(text)}" if text else ""),
                data={"decision": decision, "entry": target.number, "disputed": disputed.number},
                refers_to=target,
            )
            return [ruling]
        voided = _battle_result_of(room, disputed)
        ruling = append(
            room,
            kind=RoomEntry.Kind.RULING,
            author=user,
            side=REFEREE,
            text=f"voided #{voided.number}; the battle is rolled again"
            + (f": {checked_text(text)}" if text else ""),
            data={
                "decision": decision,
                "entry": target.number,
                "disputed": disputed.number,
                "voids": voided.number,
            },
            refers_to=target,
        )
        return [ruling, _reroll(room, voided, resolve)]


def review_ruling(
    *,
    room_id: int,
    user: Any,
    entry: int,
    accept: bool,
    text: str = "",
    resolve: Resolve | None = None,
) -> list[RoomEntry]:
    """Another side (or a staff user who is not the referee) accepts or rejects a playing
    referee's proposal ``entry``: rejected, it never takes effect; accepted by every other
    side or by staff, it does (a void's re-roll, a correction, the room's end)."""
    with transaction.atomic():
        room = locked_visible(room_id, user)
        require_running(room)
        proposal = _entry(room, entry)
        if proposal.kind != RoomEntry.Kind.RULING or not proposal.data.get("pending"):
            raise ApplicationError(
                f"#{proposal.number} is no ruling awaiting agreement",
                field="entry",
                code="not_pending",
            )
        if room.entries.filter(data__settles=proposal.number).exists():
            raise ConflictError(f"ruling #{proposal.number} is settled already", code="settled")
        reviewer, others = _reviewer(room, user)
        note = f": {checked_text(text)}" if text.strip() else ""
        if not accept:
            return [
                append(
                    room,
                    kind=RoomEntry.Kind.SYSTEM,
                    author=user,
                    side=reviewer,
                    text=f"{_by(reviewer, user)} rejects ruling #{proposal.number}; it has no "
                    f"effect{note}",
                    data={"event": "ruling_rejected", "settles": proposal.number},
                    refers_to=proposal,
                    notify=True,
                )
            ]
        agreed = {
            e.side
            for e in room.entries.filter(
                data__event="ruling_accepted", data__ruling=proposal.number
            )
        }
        if reviewer in agreed:
            raise ConflictError(
                f"{reviewer} accepted ruling #{proposal.number} already", code="already_accepted"
            )
        agreed.add(reviewer)
        if reviewer != STAFF and not set(others) <= agreed:
            waiting = ", ".join(n for n in others if n not in agreed)
            return [
                append(
                    room,
                    kind=RoomEntry.Kind.SYSTEM,
                    author=user,
                    side=reviewer,
                    text=f"{reviewer} accepts ruling #{proposal.number}{note} (waiting for "
                    f"{waiting})",
                    data={"event": "ruling_accepted", "ruling": proposal.number},
                    refers_to=proposal,
                )
            ]
        return _apply(room, user, reviewer, proposal, note, resolve)


def end_turn(*, room_id: int, user: Any, text: str = "") -> RoomEntry:
    """The side to move ends its turn; the next side in turn order moves (a new round after
    the last). The new turn's clock starts now."""
    with transaction.atomic():
        room, side = running_side(room_id, user)
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
        return append(
            room,
            kind=RoomEntry.Kind.SYSTEM,
            author=user,
            side=side.name,
            text=words + (f"\n{checked_text(note)}" if note else ""),
            data={"event": "end_turn", "turn": room.turn_number, "to_move": nxt},
        )


def declare_vacation(*, room_id: int, user: Any, days: int) -> RoomEntry:
    """The side's clock stops for up to ``days`` of its vacation days (used day by day)."""
    with transaction.atomic():
        room = locked_visible(room_id, user)
        side = access.require_side(room, user)
        require_running(room)
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
        return append(
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
        room, side = running_side(room_id, user)
        sides = list(room.sides.all())
        result = _checked_result(sides, winners, text)
        side.agreed_result = result
        side.save(update_fields=["agreed_result"])
        entries = [
            append(
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
        room = locked_visible(room_id, user)
        access.require_referee(room, user)
        require_running(room)
        result = _checked_result(list(room.sides.all()), winners, text)
        if _referee_side(room) is not None:
            return _propose(
                room,
                user,
                None,
                words=f"the result: {_result_words(result)}",
                data={"decision": "result", "result": result},
            )
        return _finish(room, result, by="referee")


# --- the clock's writes (games.rooms.clock calls these under the room's lock) ----------


def write_timeout(room: Room, side: RoomSide, now: datetime) -> RoomEntry:
    """The side to move is past its grace period: said once per turn. The caller holds the
    room's lock."""
    room.turn_timed_out_at = now
    room.save(update_fields=["turn_timed_out_at"])
    return append(
        room,
        kind=RoomEntry.Kind.SYSTEM,
        author=None,
        side=SERVER,
        text=f"{side.name}'s turn timed out",
        data={"event": "timeout", "side": side.name},
        notify=True,
    )


# --- helpers -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Rolled:
    """A battle rolled from roll number ``first`` of its room: the resolver's answer and dice."""

    first: int
    system: str
    arguments: dict[str, Any]
    answer: Mapping[str, Any]
    dice: RoomDice


def _resolved(
    room: Room,
    system: str,
    arguments: dict[str, Any],
    first: int,
    resolve: Resolve | None,
    *,
    user: Any,
    field: str = "notation",
    charged: bool = True,
) -> _Rolled:
    """Roll the battle from roll number ``first``, priced and in its lane (``battle_work``: a
    battle past the price limit or the player's budget is refused before any work, and a small
    one never waits for a big one)."""
    dice = RoomDice(room.server_seed, room.dice_context, first)
    with battle_work.battle_slot(system, arguments, user=user, field=field, charged=charged):
        answer = (resolve or battles.resolve)(system, arguments, dice)
    return _Rolled(first, system, arguments, answer, dice)


def _rolled_early(
    room_id: int,
    user: Any,
    *,
    notation: str,
    arguments: Mapping[str, Any] | None,
    resolve: Resolve | None,
) -> _Rolled | None:
    """The battle rolled with the room's next roll numbers as they stand now, outside any lock
    (None when the room cannot take it: the locked path then raises the proper error). Under
    the lock ``_roll_battle`` keeps it only if no other battle took those numbers meanwhile."""
    if not getattr(user, "is_authenticated", False):
        return None
    room = Room.objects.filter(pk=room_id, status=Room.Status.RUNNING).first()
    if room is None or not room.sides.filter(user=user).exists():
        return None
    try:
        field = "notation" if arguments is None else "arguments"
        system, args, _ = _canonical(room, notation, arguments, field)
        return _resolved(room, system, args, room.roll_count + 1, resolve, user=user, field=field)
    except (ApplicationError, CombatInputError) as exc:
        if isinstance(exc, UnavailableError | ThrottledError) or getattr(exc, "code", "") == (
            "too_large"
        ):
            raise
        return None  # refused again, with its field, under the lock


def _roll_battle(
    room: Room,
    request: RoomEntry,
    *,
    resolve: Resolve | None,
    replaces: int | None = None,
    field: str = "arguments",
    early: _Rolled | None = None,
) -> RoomEntry:
    """Resolve ``request`` with the room's next roll numbers and append its result (``early``,
    rolled before the lock, when it used those very numbers for this very battle)."""
    system, arguments = request.data["system"], request.data["arguments"]
    first_free = room.roll_count + 1
    rolled = early
    if rolled is None or (rolled.first, rolled.system, rolled.arguments) != (
        first_free,
        system,
        arguments,
    ):
        try:
            rolled = _resolved(
                room,
                system,
                arguments,
                first_free,
                resolve,
                user=request.author,  # who asked: charged for it (a re-roll is not)
                field=field,
                charged=replaces is None,
            )
        except CombatInputError as exc:
            raise _input_error(exc, field) from exc
    answer, dice = rolled.answer, rolled.dice
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
    return append(
        room,
        kind=RoomEntry.Kind.BATTLE_RESULT,
        author=None,
        side=SERVER,
        text=text,
        data=data,
        refers_to=request,
    )


def _referee_side(room: Room) -> RoomSide | None:
    """The side the referee plays, if they play one (possible in an unrated room only)."""
    return room.sides.filter(user_id=room.referee_id).first()


def _propose(
    room: Room, user: Any, target: RoomEntry | None, *, words: str, data: dict[str, Any]
) -> RoomEntry:
    """A playing referee's ruling that changes a result, written as a proposal (one at a time
    per room, so two cannot be accepted into a contradiction)."""
    waiting = _pending(room)
    if waiting is not None:
        raise ConflictError(
            f"ruling #{waiting.number} awaits the other sides or a staff review",
            code="ruling_pending",
        )
    others = [s.name for s in room.sides.exclude(user_id=room.referee_id).order_by("position")]
    return append(
        room,
        kind=RoomEntry.Kind.RULING,
        author=user,
        side=REFEREE,
        text=f"proposed: {words} -- the referee plays a side, so this takes effect when "
        f"{', '.join(others)} accept{'s' if len(others) == 1 else ''} it or staff reviews it",
        data={**data, "pending": True, "awaiting": others},
        refers_to=target,
    )


def _pending(room: Room) -> RoomEntry | None:
    """The room's proposal that no later entry settles yet."""
    settled = {
        d["settles"]
        for d in room.entries.filter(data__has_key="settles").values_list("data", flat=True)
    }
    proposals = room.entries.filter(kind=RoomEntry.Kind.RULING, data__pending=True)
    return next((p for p in proposals if p.number not in settled), None)


def _reviewer(room: Room, user: Any) -> tuple[str, list[str]]:
    """(who reviews: a side's name, or STAFF; the sides whose agreement a proposal needs)."""
    others = [s for s in room.sides.order_by("position") if s.user_id != room.referee_id]
    own = next((s for s in others if s.user_id == user.pk), None)
    if own is not None:
        return own.name, [s.name for s in others]
    if user.is_staff and user.pk != room.referee_id:
        return STAFF, [s.name for s in others]
    raise ForbiddenError(
        "a playing referee's ruling is accepted or rejected by the other sides or by staff",
        code="not_other_side",
    )


def _apply(
    room: Room,
    user: Any,
    reviewer: str,
    proposal: RoomEntry,
    note: str,
    resolve: Resolve | None,
) -> list[RoomEntry]:
    """The accepted proposal takes effect, in an entry that settles it."""
    data = proposal.data
    who = _by(reviewer, user) if reviewer == STAFF else "every other side"
    effect: dict[str, Any] = {"event": "ruling_applied", "settles": proposal.number}
    if data["decision"] == "voided":
        voided = _battle_result_of(room, room.entries.get(number=data["disputed"]))
        effect["voids"] = voided.number
        words = f"voided #{voided.number}; the battle is rolled again"
    elif data["decision"] == "corrected":
        words = f"corrected #{data['disputed']}: {data['text']}"
    else:
        words = f"the result is {_result_words(data['result'])}"
    applied = append(
        room,
        kind=RoomEntry.Kind.RULING,
        author=user,
        side=reviewer,
        text=f"ruling #{proposal.number} accepted by {who}{note}: {words}",
        data=effect,
        refers_to=proposal,
    )
    if data["decision"] == "voided":
        return [applied, _reroll(room, voided, resolve)]
    if data["decision"] == "result":
        return [applied, _finish(room, data["result"], by="referee")]
    return [applied]


def _by(reviewer: str, user: Any) -> str:
    return f"staff ({user.get_username()})" if reviewer == STAFF else reviewer


def _reroll(room: Room, voided: RoomEntry, resolve: Resolve | None) -> RoomEntry:
    request = voided.refers_to
    assert request is not None  # a result always names its request
    return _roll_battle(room, request, resolve=resolve, replaces=voided.number)


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
    if entry.data.get("replaces") is not None:
        raise ConflictError(
            f"#{entry.number} re-rolls #{entry.data['replaces']}: a battle is re-rolled at "
            "most once, and the re-roll stands",
            code="rerolled_once",
        )
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
    room_id = room.pk
    finished = RoomFinished(room_id, rated=room.rated)
    transaction.on_commit(lambda: on_room_finished.send(finished))
    who = "every side agrees" if by == "sides" else "the referee decides"
    return append(
        room,
        kind=RoomEntry.Kind.SYSTEM,
        author=None,
        side=SERVER,
        text=f"The room has ended ({who}): {_result_words(result)}\n"
        f"Server seed revealed: {room.server_seed} (SHA-256 {room.seed_commitment})",
        data={"event": "ended", "result": room.result, "server_seed": room.server_seed},
        notify=True,
    )


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
