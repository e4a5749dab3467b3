"""A room's dice: one numbered stream per room, so a moderator can audit roll 1..N.

Every roll of a room has a number in the room's own sequence, 1, 2, 3... across all its
battles (the room row keeps the last number used). Roll ``n`` with ``sides`` sides is
``combat.dice.derive_roll(server_seed, "room:<id>", n, sides)``: the commit-reveal procedure of
``combat.dice`` with the roll number as its counter, so anyone with the revealed seed recomputes
any roll on its own, in any order. A battle voided by the referee keeps its numbers (they were
rolled and published); its re-roll takes the next free numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from combat.dice import derive_roll


@dataclass(frozen=True)
class NumberedRoll:
    """One roll of a room: its number in the room's sequence, the die and the result."""

    number: int
    sides: int
    value: int

    @property
    def counter(self) -> int:
        """The counter ``derive_roll`` used: the roll's number (the name ``combat.dice.Roll``
        gives it, which resolvers read from a dice log)."""
        return self.number

    def as_dict(self) -> dict[str, int]:
        return {"number": self.number, "sides": self.sides, "value": self.value}


@dataclass
class RoomDice:
    """Dice over a room's stream starting at roll number ``first``; every roll logged."""

    seed: str
    context: str
    first: int
    log: list[NumberedRoll] = field(default_factory=list)

    def roll(self, sides: int = 6) -> int:
        number = self.first + len(self.log)
        value = derive_roll(self.seed, self.context, number, sides)
        self.log.append(NumberedRoll(number, sides, value))
        return value

    @property
    def last(self) -> int:
        """The number of the last roll made (``first - 1`` when none was)."""
        return self.first + len(self.log) - 1


def roll_range(rolls: list[NumberedRoll]) -> tuple[int | None, int | None]:
    """(first, last) roll numbers of a battle, (None, None) when it rolled nothing (chess)."""
    if not rolls:
        return None, None
    return rolls[0].number, rolls[-1].number
