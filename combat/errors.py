"""The error every combat resolver raises for bad input: it names the field and the allowed values.

A ValueError subclass so callers can catch it as the standard "bad value" error; the HTTP layer
(games.web.exceptions) turns it into a 400 whose body carries ``field``, ``message`` and
``allowed``.
"""

from __future__ import annotations

from collections.abc import Iterable


class CombatInputError(ValueError):
    """Bad input to a resolver: ``field`` is where, ``allowed`` lists the accepted values."""

    def __init__(self, field: str, message: str, allowed: Iterable[object] | None = None) -> None:
        self.field = field
        self.message = message
        self.allowed = sorted(str(a) for a in allowed) if allowed is not None else None
        text = f"{field}: {message}"
        if self.allowed is not None:
            text += f" (allowed: {', '.join(self.allowed)})"
        super().__init__(text)
