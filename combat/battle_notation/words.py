"""The words of a battle line: a cursor that names the word at fault, numbers, and the errors.

Shared by the three systems' grammars (``axis_allies``, ``wif``, ``france_1944``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from decimal import Decimal
from typing import Any

from combat.errors import CombatInputError

VS = ("vs", "v", "versus", "against")
NUMBER = re.compile(r"\d+(\.\d+)?")
SIGNED = re.compile(r"[+-]\d+(\.\d+)?")


class BattleNotationError(CombatInputError):
    """A line that is not a battle request: ``word`` (None at the end of the line) is at fault.

    ``position`` is the word's index in the line (0 for the first word; None at the end).
    ``field`` is always ``notation``; the message names the word, its position counted from 1
    ("word 3") and what was expected there.
    """

    def __init__(
        self,
        word: str | None,
        position: int | None,
        message: str,
        allowed: Sequence[object] | None = None,
    ) -> None:
        self.word = word
        self.position = position
        where = "the line ends" if word is None else f"{word!r} (word {(position or 0) + 1})"
        super().__init__("notation", f"{where}: {message}", allowed)


# --- tokens ---------------------------------------------------------------------------------


class Words:
    """The line's words with a cursor; every error names the word at the cursor (or the end)."""

    def __init__(self, line: str) -> None:
        # "3 inf, 1 art vs 4 inf": a comma after a word only separates, as a space does.
        self.words = [w for w in (word.rstrip(",") for word in line.lower().split()) if w]
        self.i = 0

    def peek(self, ahead: int = 0) -> str | None:
        j = self.i + ahead
        return self.words[j] if j < len(self.words) else None

    def take(self, expected: str = "the rest of the battle") -> str:
        word = self.peek()
        if word is None:
            raise BattleNotationError(None, None, f"expected {expected}")
        self.i += 1
        return word

    def error(
        self, message: str, allowed: Sequence[object] | None = None, at: int | None = None
    ) -> BattleNotationError:
        j = self.i if at is None else at
        word = self.words[j] if j < len(self.words) else None
        return BattleNotationError(word, j if word is not None else None, message, allowed)

    def number(self, what: str) -> int | float:
        word = self.peek()
        if word is None or not NUMBER.fullmatch(word):
            raise self.error(f"expected {what} (a number such as 12 or 4.5)")
        self.i += 1
        return to_number(word)

    def count(self, what: str) -> int:
        word = self.peek()
        if word is None or not word.isdigit():
            raise self.error(f"expected {what} (a whole number)")
        self.i += 1
        return int(word)

    def signed(self, what: str) -> int | float:
        word = self.peek()
        if word is None or not (SIGNED.fullmatch(word) or NUMBER.fullmatch(word)):
            raise self.error(f"expected {what} (a number such as +2 or -1)")
        self.i += 1
        return to_number(word)


def to_number(word: str) -> int | float:
    text = word.lstrip("+")
    return float(text) if "." in text else int(text)


def number_text(value: int | float, signed: bool = False) -> str:
    """A number as the notation writes it: whole numbers bare, others as their decimal."""
    text = format(Decimal(repr(value)), "f") if isinstance(value, float) else str(value)
    if signed and not text.startswith("-"):
        text = "+" + text
    return text


class Sources:
    """Which word set which argument, so a resolver's error can name the word at fault."""

    def __init__(self) -> None:
        self.positions: dict[str, int] = {}

    def mark(self, field: str, position: int) -> None:
        self.positions.setdefault(field, position)

    def wrap(self, words: Words, error: CombatInputError) -> BattleNotationError:
        field = error.field
        while True:
            if field in self.positions:
                return words.error(
                    f"{error.field}: {error.message}", error.allowed, at=self.positions[field]
                )
            if "." not in field:
                break
            field = field.rsplit(".", 1)[0]
        return words.error(f"{error.field}: {error.message}", error.allowed, at=0)


def checked(words: Words, sources: Sources, check: Callable[[], object]) -> None:
    try:
        check()
    except BattleNotationError:
        raise
    except CombatInputError as error:
        raise sources.wrap(words, error) from error


def percent(p: float) -> str:
    return f"{p * 100:.1f}%"


def setting(
    words: Words, settings: dict[str, Any], chosen: dict[str, Any], key: str, value: Any
) -> None:
    """Record ``key = value`` from the word at the cursor (already read): once, and as the room."""
    at = words.i - 1
    if key in chosen:
        raise words.error(f"{key} is already given ({chosen[key]})", at=at)
    if key in settings and settings[key] != value:
        raise words.error(f"this room plays {key} {settings[key]}", at=at)
    chosen[key] = value


def once(words: Words, extra: dict[str, Any], key: str, value: Any, at: int) -> None:
    if key in extra:
        raise words.error(f"{key} is already given", at=at)
    extra[key] = value


def attack_and_defense(
    words: Words, sources: Sources, what: str
) -> tuple[int | float, int | float]:
    """The CRT systems' opening ``ATTACK vs DEFENCE`` (``what``: factors, strength)."""
    sources.mark("attack", words.i)
    attack = words.number(f"the attack {what}")
    if words.peek() not in VS:
        raise words.error(f"expected vs between the attack and defence {what}", VS)
    words.take()
    sources.mark("defense", words.i)
    return attack, words.number(f"the defence {what}")


def attack_and_defense_text(arguments: Mapping[str, Any]) -> tuple[str, str, str]:
    """``ATTACK vs DEFENCE`` as the canonical line writes it."""
    return number_text(arguments["attack"]), "vs", number_text(arguments["defense"])


def check_arguments(
    arguments: Any, required: Sequence[str], optional: Sequence[str]
) -> Mapping[str, Any]:
    """A request's arguments built by hand (or sent as JSON): an object with the resolver's
    required keys and no unknown key, or a ``CombatInputError`` naming the key."""
    if not isinstance(arguments, Mapping):
        raise CombatInputError("arguments", "must be an object of the resolver's arguments")
    for key in required:
        if key not in arguments:
            raise CombatInputError(key, "required")
    known = (*required, *optional)
    for key in arguments:
        if key not in known:
            raise CombatInputError(str(key), "not an argument of this resolver", known)
    return arguments
