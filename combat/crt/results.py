"""What every CRT resolver returns: the exact odds of each result, and one resolved result."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Modifier:
    """One line of the explanation: a condition, how many times it applies, what it is worth."""

    condition: str
    count: float
    value: float  # the total this line adds (count x value per item, after any cap)

    def as_dict(self) -> dict[str, Any]:
        return {"condition": self.condition, "count": self.count, "value": self.value}


@dataclass(frozen=True)
class CrtOdds:
    """The odds of a battle on a CRT before any die is rolled.

    ``odds_level`` is the printed odds level the ratio falls to (WiF "3:1", France 1944 "3-2");
    ``column`` the table column used ("assault"/"blitz" in WiF; the odds column after shifts in
    France 1944); ``odds_drm`` the modifier the odds give (WiF; 0 where odds pick a column);
    ``drm`` the total die-roll modifier applied; ``distribution`` maps every result code, as
    printed in the table, to its exact probability.
    """

    table: str
    odds_level: str
    column: str
    odds_drm: float
    drm: float
    explanation: tuple[Modifier, ...]
    distribution: Mapping[str, float]

    @property
    def total_drm(self) -> float:
        return self.drm

    def as_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "odds_level": self.odds_level,
            "column": self.column,
            "odds_drm": self.odds_drm,
            "drm": self.drm,
            "total_drm": self.drm,
            "explanation": [m.as_dict() for m in self.explanation],
            "distribution": dict(self.distribution),
        }


@dataclass(frozen=True)
class CrtResult:
    """One resolution: the odds, the dice (with their counters), the row read, the result."""

    odds: CrtOdds
    rolls: tuple[dict[str, int], ...]  # {"counter", "sides", "value"} per die
    row: int  # the table row read after modifiers and clamping
    code: str  # the result as printed
    outcome: Mapping[str, Any] = field(default_factory=dict)  # the code parsed into its parts

    def as_dict(self) -> dict[str, Any]:
        return {
            "odds": self.odds.as_dict(),
            "rolls": list(self.rolls),
            "row": self.row,
            "code": self.code,
            "outcome": dict(self.outcome),
        }
