"""Checking an ended room's dice: the core of ``manage.py verify_room``.

What ``games.play.verify`` does for a game's log, done for a room's journal:

1. ``SHA-256(server_seed)`` equals the ``seed_commitment`` published when the room was created;
2. the battle results, in journal order, use the room's roll numbers 1..N exactly once, in
   order, with no gap (a voided battle's rolls stay in the sequence, its re-roll follows);
3. every logged roll re-derives from the seed on its own (``combat.dice.derive_roll`` with the
   roll number as the counter);
4. resolving each battle's request again with dice replayed from its first number makes the
   same rolls and the same result (the resolver is injected, so this module stays pure);
5. N is the room's own roll counter.

The first difference stops the check and is reported with the journal number it was found at.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from combat.dice import Dice, commitment_of, derive_roll
from games.rooms.core.rolls import RoomDice

#: ``resolve(system, arguments, dice)`` -> the resolver's answer (with ``result``, ``summary``).
Resolve = Callable[[str, Mapping[str, Any], Dice], Mapping[str, Any]]


@dataclass(frozen=True)
class BattleRecord:
    """One battle result entry as the check needs it."""

    entry: int
    system: str
    arguments: Mapping[str, Any]
    rolls: Sequence[Mapping[str, Any]]
    result: Any
    summary: str


@dataclass(frozen=True)
class RoomAuditData:
    room_id: int | None
    server_seed: str
    seed_commitment: str
    context: str
    roll_count: int
    battles: Sequence[BattleRecord]


@dataclass
class AuditReport:
    """What the check did and found; ``ok`` when nothing differed."""

    room_id: int | None
    battles: int = 0
    rolls: int = 0
    mismatch: str | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.mismatch is None

    def lines(self) -> list[str]:
        out = [f"room {self.room_id}: {self.battles} battles replayed, {self.rolls} rolls checked"]
        out += self.notes
        out.append(f"FAILED: {self.mismatch}" if self.mismatch is not None else "OK")
        return out


def audit_room(data: RoomAuditData, resolve: Resolve) -> AuditReport:
    """Check every roll and battle of ``data``; the first difference is reported."""
    report = AuditReport(room_id=data.room_id)
    report.mismatch = _check(data, resolve, report)
    return report


def _check(data: RoomAuditData, resolve: Resolve, report: AuditReport) -> str | None:
    commitment = commitment_of(data.server_seed)
    if commitment != data.seed_commitment.lower():
        return (
            f"the seeds: SHA-256 of the server seed is {commitment}, the published commitment "
            f"is {data.seed_commitment}"
        )
    expected = 1
    for battle in data.battles:
        where = f"entry #{battle.entry}"
        for roll in battle.rolls:
            number, sides, value = int(roll["number"]), int(roll["sides"]), int(roll["value"])
            if number != expected:
                return f"{where}: roll number {number} where {expected} was next (gap or reuse)"
            derived = derive_roll(data.server_seed, data.context, number, sides)
            if derived != value:
                return f"{where}: roll {number} (d{sides}) logged {value}, the seed gives {derived}"
            expected += 1
        dice = RoomDice(data.server_seed, data.context, expected - len(battle.rolls))
        try:
            answer = resolve(battle.system, battle.arguments, dice)
        except Exception as exc:  # a forged request the resolver trips on is a mismatch too
            return f"{where}: the resolver refuses the logged request: {exc}"
        replayed = [r.as_dict() for r in dice.log]
        if replayed != [dict(r) for r in battle.rolls]:
            return (
                f"{where}: rolls logged {_short(battle.rolls)}, the replay rolled "
                f"{_short(replayed)}"
            )
        if _plain(answer.get("result")) != _plain(battle.result):
            return (
                f"{where}: result logged {_short(battle.result)}, the replay gives "
                f"{_short(answer.get('result'))}"
            )
        report.battles += 1
        report.rolls += len(battle.rolls)
    if expected - 1 != data.roll_count:
        return f"the room's counter says {data.roll_count} rolls, the journal holds {expected - 1}"
    return None


def _plain(value: Any) -> Any:
    """JSON-shaped, as the journal stores it."""
    return json.loads(json.dumps(value, sort_keys=True))


def _short(value: Any, limit: int = 160) -> str:
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= limit else text[:limit] + "..."
