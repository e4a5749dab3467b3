"""Poker errors: bad input (``PokerInputError``) and moves the rules forbid (``IllegalAction``).

Two kinds, as python-chess separates a malformed move from one the position forbids: a caller who
sends "Xx" for a card has a bug to fix, while a player who checks facing a bet made a rules mistake
the UI should explain. Both are ValueErrors, so the HTTP layer can turn either into a 400.
"""

from __future__ import annotations

from collections.abc import Iterable

from combat.errors import CombatInputError


class PokerInputError(CombatInputError):
    """Malformed input (cards, a hand's set-up): ``field`` is where, ``allowed`` what is accepted.

    The same attributes as the Axis & Allies ``CombatInputError`` (``field``, ``message``,
    ``allowed``), so one HTTP error shape covers both. ``allowed`` is kept out of ``str()`` when it
    is long (the 52 cards), the message then says the rule in words instead.
    """

    def __init__(self, field: str, message: str, allowed: Iterable[object] | None = None) -> None:
        self.field = field
        self.message = message
        self.allowed = sorted(str(a) for a in allowed) if allowed is not None else None
        text = f"{field}: {message}"
        if self.allowed is not None and len(self.allowed) <= 12:
            text += f" (allowed: {', '.join(self.allowed)})"
        ValueError.__init__(self, text)  # the message differs from CombatInputError's: no 52 cards


class IllegalAction(ValueError):
    """An action the rules do not allow now: ``code`` names the rule, ``reason`` explains it.

    ``code`` is a short stable key ("not-your-turn", "must-call", ...) for clients and tests;
    ``reason`` is the sentence shown to the player. The state the action was applied to is
    unchanged (nothing mutates), so the caller simply asks again.
    """

    def __init__(
        self, code: str, reason: str, *, player: str | None = None, phase: str | None = None
    ) -> None:
        self.code = code
        self.reason = reason
        self.player = player
        self.phase = phase
        where = f" [{phase}{', ' + player if player else ''}]" if phase else ""
        super().__init__(f"{code}: {reason}{where}")
