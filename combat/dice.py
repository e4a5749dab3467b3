"""Dice as an injected input: verifiable seeded dice, fixed dice for tests, and verification.

Every random number in Warboard comes from an object with ``roll(sides)``; nothing reads a global
random source, so a battle or a game replays to the same state from its seed (design.md §2).

The commit-reveal scheme players can check by hand:

1. The server draws a secret ``seed`` and publishes ``commitment = SHA-256(seed)`` (hex) before
   any die is rolled.
2. Roll number ``counter`` (0, 1, 2, ... in the order rolled) with ``sides`` sides is::

       attempt = 0
       loop:
           x = int(HMAC-SHA256(key=seed, msg=f"{context}:{counter}:{attempt}"), big-endian)
           if x < 2**256 - (2**256 % sides): return x % sides + 1
           attempt += 1

   The rejection step removes modulo bias (it triggers with probability below 2**-250).
3. After the battle or game the seed is revealed; anyone recomputes every logged roll with
   ``verify`` (or the procedure above in any language) and checks SHA-256(seed) == commitment.

Strings are encoded as UTF-8. ``context`` names what is rolled for (a battle or game id, plus a
client seed when the players supplied one), so one seed never yields the same stream twice.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar, runtime_checkable

_SPACE = 1 << 256
T = TypeVar("T")


@runtime_checkable
class Dice(Protocol):
    """A source of die rolls: ``roll(sides)`` returns an int in 1..sides."""

    def roll(self, sides: int = 6) -> int: ...


@dataclass(frozen=True)
class Roll:
    """One logged roll: its position in the stream, the die and the result."""

    counter: int
    sides: int
    value: int

    def as_dict(self) -> dict[str, int]:
        return {"counter": self.counter, "sides": self.sides, "value": self.value}


class DiceError(ValueError):
    """A die was asked for that cannot be rolled (sides < 2) or a fixed sequence ran out."""


def _as_bytes(seed: bytes | str) -> bytes:
    return seed if isinstance(seed, bytes) else seed.encode("utf-8")


def commitment_of(seed: bytes | str) -> str:
    """The published SHA-256 commitment (hex) of a seed."""
    return hashlib.sha256(_as_bytes(seed)).hexdigest()


def new_seed() -> str:
    """A fresh secret server seed: 256 random bits as hex, from the operating system's CSPRNG."""
    import secrets

    return secrets.token_hex(32)


def derive_roll(seed: bytes | str, context: str, counter: int, sides: int) -> int:
    """Roll ``counter`` of the stream (seed, context): the procedure in the module docstring."""
    _check_sides(sides)
    key = _as_bytes(seed)
    limit = _SPACE - (_SPACE % sides)
    attempt = 0
    while True:
        message = f"{context}:{counter}:{attempt}".encode()
        x = int.from_bytes(hmac.new(key, message, hashlib.sha256).digest(), "big")
        if x < limit:
            return x % sides + 1
        attempt += 1


def _check_sides(sides: int) -> None:
    if not isinstance(sides, int) or sides < 2:
        raise DiceError(f"sides: a die needs at least 2 sides, got {sides!r}")


@dataclass
class SeededDice:
    """Verifiable dice: HMAC-SHA256 of (seed, context, counter), every roll logged."""

    seed: bytes | str
    context: str = ""
    log: list[Roll] = field(default_factory=list)

    @property
    def commitment(self) -> str:
        return commitment_of(self.seed)

    def roll(self, sides: int = 6) -> int:
        counter = len(self.log)
        value = derive_roll(self.seed, self.context, counter, sides)
        self.log.append(Roll(counter, sides, value))
        return value


@dataclass
class FixedDice:
    """Dice that return the given values in order: for tests and rule-book examples."""

    values: Sequence[int]
    log: list[Roll] = field(default_factory=list)

    def roll(self, sides: int = 6) -> int:
        _check_sides(sides)
        counter = len(self.log)
        if counter >= len(self.values):
            raise DiceError(
                f"FixedDice: roll {counter + 1} asked for, only {len(self.values)} given"
            )
        value = self.values[counter]
        if not 1 <= value <= sides:
            raise DiceError(f"FixedDice: value {value} at roll {counter} is not on a d{sides}")
        self.log.append(Roll(counter, sides, value))
        return value

    @property
    def remaining(self) -> int:
        return len(self.values) - len(self.log)


def verify(
    seed: bytes | str,
    commitment: str,
    context: str,
    rolls: Iterable[Roll | Mapping[str, int]],
) -> bool:
    """True when ``seed`` matches ``commitment`` and reproduces every logged roll.

    ``rolls`` may be ``Roll`` objects or dicts with ``counter``, ``sides`` and ``value`` (the
    shape the API returns); they need not be the whole stream, each is checked at its counter.
    """
    if not hmac.compare_digest(commitment_of(seed), commitment.lower()):
        return False
    for roll in rolls:
        counter, sides, value = (
            (roll.counter, roll.sides, roll.value)
            if isinstance(roll, Roll)
            else (int(roll["counter"]), int(roll["sides"]), int(roll["value"]))
        )
        if sides < 2 or derive_roll(seed, context, counter, sides) != value:
            return False
    return True


def shuffle(items: Sequence[T], dice: Dice) -> tuple[T, ...]:
    """``items`` in Fisher-Yates order, drawn from ``dice`` so a shuffle is logged and replayable.

    For ``i`` from ``n`` down to 2, ``j = dice.roll(i)`` and the items at positions ``i`` and ``j``
    (1-based) swap: exactly ``n - 1`` rolls, so anyone can redo a shuffle by hand from the log.
    Every deck of the project (Risk cards, poker cards) is shuffled this way.
    """
    order = list(items)
    for i in range(len(order), 1, -1):
        j = dice.roll(i)
        order[i - 1], order[j - 1] = order[j - 1], order[i - 1]
    return tuple(order)


class RandomDice:
    """Fast seeded dice for Monte Carlo comparisons (not verifiable, never used for real play)."""

    def __init__(self, seed: int | str | bytes = 0) -> None:
        import random

        self._random = random.Random(seed)

    def roll(self, sides: int = 6) -> int:
        _check_sides(sides)
        return self._random.randint(1, sides)
