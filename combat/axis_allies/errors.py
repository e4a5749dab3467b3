"""Errors of the Axis & Allies resolver: each names the field and what would have been allowed."""

from __future__ import annotations

from collections.abc import Iterable

#: The most units one side (or one raid, or one AA volley) may bring. Real A&A battles stay far
#: below; the cap keeps one request from tying up a worker with tens of thousands of rolls.
MAX_UNITS = 1000


class CombatInputError(ValueError):
    """Bad input to the resolver: ``field`` is where, ``allowed`` lists the accepted values.

    A ValueError subclass so callers can catch it as the standard "bad value" error; the HTTP
    layer turns it into a 400 whose body carries ``field`` and the message.
    """

    def __init__(self, field: str, message: str, allowed: Iterable[object] | None = None) -> None:
        self.field = field
        self.message = message
        self.allowed = sorted(str(a) for a in allowed) if allowed is not None else None
        text = f"{field}: {message}"
        if self.allowed is not None:
            text += f" (allowed: {', '.join(self.allowed)})"
        super().__init__(text)


class EditionDataError(ValueError):
    """An edition data file is malformed; raised at load time, naming the file and the key."""
