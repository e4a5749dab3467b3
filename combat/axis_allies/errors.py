"""Errors of the Axis & Allies resolver (bad input raises the shared ``CombatInputError``)."""

from __future__ import annotations

from combat.errors import CombatInputError

#: The most units one side (or one raid, or one AA volley) may bring. Real A&A battles stay far
#: below; the cap keeps one request from tying up a worker with tens of thousands of rolls.
MAX_UNITS = 1000


__all__ = ["MAX_UNITS", "CombatInputError", "EditionDataError"]


class EditionDataError(ValueError):
    """An edition data file is malformed; raised at load time, naming the file and the key."""
