"""What the resolver hands back: a played battle, and the exact odds of one."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from combat.axis_allies.engine import Fire
from combat.axis_allies.rules import DieRoll

#: Every way a battle can end. "defender" includes an attacker that withdrew at a round limit
#: (the defender holds); "stalemate" is a battle in which neither side can ever score again.
RESULTS = ("attacker", "defender", "draw", "stalemate")


@dataclass(frozen=True)
class RoundReport:
    number: int
    attacker_hits: int  # hits the attacker scored this round (all stages)
    defender_hits: int  # hits the defender scored, AA fire included
    attacker_casualties: Mapping[str, int]  # units the attacker lost
    defender_casualties: Mapping[str, int]
    fire: tuple[Fire, ...]

    @property
    def rolls(self) -> tuple[DieRoll, ...]:
        return tuple(roll for fire in self.fire for roll in fire.rolls)

    def as_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "attacker_hits": self.attacker_hits,
            "defender_hits": self.defender_hits,
            "attacker_casualties": dict(self.attacker_casualties),
            "defender_casualties": dict(self.defender_casualties),
            "fire": [
                {
                    "side": f.side,
                    "stage": f.stage,
                    "strength": f.strength,
                    "hits": f.hits,
                    "rolls": [r.as_dict() for r in f.rolls],
                }
                for f in self.fire
            ],
        }


@dataclass(frozen=True)
class BattleReport:
    rules: str
    edition: str
    rounds: tuple[RoundReport, ...]
    winner: str
    attacker_survivors: Mapping[str, int]
    defender_survivors: Mapping[str, int]
    attacker_damaged: Mapping[str, int]  # survivors carrying damage (two-hit battleships)
    defender_damaged: Mapping[str, int]

    @property
    def rolls(self) -> tuple[DieRoll, ...]:
        return tuple(roll for rnd in self.rounds for roll in rnd.rolls)

    def as_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "edition": self.edition,
            "winner": self.winner,
            "attacker_survivors": dict(self.attacker_survivors),
            "defender_survivors": dict(self.defender_survivors),
            "attacker_damaged": dict(self.attacker_damaged),
            "defender_damaged": dict(self.defender_damaged),
            "rounds": [r.as_dict() for r in self.rounds],
        }


@dataclass(frozen=True)
class Outcome:
    attacker_left: Mapping[str, int]
    defender_left: Mapping[str, int]
    result: str
    probability: float

    def as_dict(self) -> dict[str, Any]:
        return {
            "attacker_left": dict(self.attacker_left),
            "defender_left": dict(self.defender_left),
            "result": self.result,
            "probability": self.probability,
        }


@dataclass(frozen=True)
class BattleOdds:
    rules: str
    edition: str
    attacker_wins: float
    defender_wins: float
    draw: float
    stalemate: float
    expected_attacker_survivors: Mapping[str, float]
    expected_defender_survivors: Mapping[str, float]
    expected_ipc_swing: float  # E[IPC value the defender loses] - E[IPC value the attacker loses]
    # Builds ``outcomes``: thousands of them behind an AA gun, which took as long as the rest
    # of the answer, and the odds themselves (what the AI asks for) do not need them.
    outcome_list: Callable[[], tuple[Outcome, ...]] = field(repr=False, compare=False)
    method: str = "exact"

    @cached_property
    def outcomes(self) -> tuple[Outcome, ...]:
        """Every distinct end (survivors and result) with its chance, most likely first."""
        return self.outcome_list()

    def as_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "edition": self.edition,
            "method": self.method,
            "attacker_wins": self.attacker_wins,
            "defender_wins": self.defender_wins,
            "draw": self.draw,
            "stalemate": self.stalemate,
            "expected_attacker_survivors": dict(self.expected_attacker_survivors),
            "expected_defender_survivors": dict(self.expected_defender_survivors),
            "expected_ipc_swing": self.expected_ipc_swing,
            "outcomes": [o.as_dict() for o in self.outcomes],
        }
