"""How each combat rule turns firepower into hits, and where the randomness comes from.

Rules (design.md §3): ``dice`` (one die per unit), ``lowluck`` (DAAK Low Luck: total // 6 sure
hits, the remainder rolled on one die) and the five A&A Chess variants of the IA&ACF text:

============  ========================  ===============================  ======  ===========
rule          remainder >= threshold     remainder below threshold        carry   final roll
============  ========================  ===============================  ======  ===========
chess         hit                        ignored                          no      no
chess-ryof    hit                        rolled: hit on a die <= rem      no      no
chess-ryof6   rolled like the rest       rolled: hit on a die <= rem      no      no
chess-cof     hit (leaves a deficit)     carried to the next assault      yes     no
chess-cof-r   hit (leaves a deficit)     carried; rolled in final assault yes     yes
lowluck       (no threshold)             rolled: hit on a die <= rem      no      no
============  ========================  ===============================  ======  ===========

Thresholds (chess family): the attacker's remainder counts from 5, the defender's from 4.

Randomness is a ``Chance`` object. ``ExactChance`` answers every question with the full list of
outcomes and their probabilities (for ``battle_odds``); ``RollingChance`` rolls injected dice and
answers with the single outcome that happened, logging every die (for ``fight``). The round
logic in ``engine`` is written once against this interface, so the two cannot disagree.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from math import comb

from combat.axis_allies.errors import CombatInputError
from combat.dice import Dice

ATTACKER, DEFENDER = "attacker", "defender"


@dataclass(frozen=True)
class RuleSet:
    key: str
    per_die: bool = False  # standard dice: each unit rolls
    attacker_threshold: int = 6  # remainders at or above count as a hit (6 = never)
    defender_threshold: int = 6
    roll_fraction: bool = False  # a remainder below the threshold is rolled on one die
    carry: bool = False  # COF: remainders carry to the next assault
    final_roll: bool = False  # COF+R: a die for the remainder in the final assault
    chess: bool = False  # A&A Chess family (AA by fifths, E-runs by 2.5)

    def threshold(self, side: str) -> int:
        return self.attacker_threshold if side == ATTACKER else self.defender_threshold

    @property
    def deterministic(self) -> bool:
        """True when no die is ever rolled in a battle (orthodox chess, COF)."""
        return not (self.per_die or self.roll_fraction or self.final_roll)


RULES: dict[str, RuleSet] = {
    "dice": RuleSet("dice", per_die=True),
    "lowluck": RuleSet("lowluck", roll_fraction=True),
    "chess": RuleSet("chess", attacker_threshold=5, defender_threshold=4, chess=True),
    "chess-ryof": RuleSet(
        "chess-ryof", attacker_threshold=5, defender_threshold=4, roll_fraction=True, chess=True
    ),
    "chess-ryof6": RuleSet("chess-ryof6", roll_fraction=True, chess=True),
    "chess-cof": RuleSet(
        "chess-cof", attacker_threshold=5, defender_threshold=4, carry=True, chess=True
    ),
    "chess-cof-r": RuleSet(
        "chess-cof-r",
        attacker_threshold=5,
        defender_threshold=4,
        carry=True,
        final_roll=True,
        chess=True,
    ),
}


def get_rules(key: str) -> RuleSet:
    if not isinstance(key, str) or key not in RULES:
        raise CombatInputError("rules", f"unknown rules {key!r}", RULES)
    return RULES[key]


# --- Chance ---------------------------------------------------------------------------------

Outcomes = list[tuple[float, int]]


@dataclass(frozen=True)
class DieRoll:
    """One die as the report shows it: who rolled it for what, and whether it hit."""

    side: str
    stage: str
    counter: int
    sides: int
    value: int
    needed: int | None  # None: the face itself counts (bombing damage), not a hit test

    @property
    def hit(self) -> bool | None:
        return None if self.needed is None else self.value <= self.needed

    def as_dict(self) -> dict[str, object]:
        return {
            "side": self.side,
            "stage": self.stage,
            "counter": self.counter,
            "sides": self.sides,
            "value": self.value,
            "needed": self.needed,
            "hit": self.hit,
        }


class ExactChance:
    """Every outcome with its probability."""

    exact = True

    def dice(self, count: int, needed: int, sides: int, side: str, stage: str) -> Outcomes:
        """Hits among ``count`` dice that each hit on a roll <= ``needed``."""
        return list(_binomial(count, min(needed, sides), sides))

    def below(self, needed: int, sides: int, side: str, stage: str) -> Outcomes:
        """One die: 1 hit on a roll <= ``needed``, else 0."""
        p = min(needed, sides) / sides
        return [(q, hits) for q, hits in ((1 - p, 0), (p, 1)) if q > 0]


@cache
def _binomial(count: int, needed: int, sides: int) -> tuple[tuple[float, int], ...]:
    p = needed / sides
    if p <= 0 or count == 0:
        return ((1.0, 0),)
    if p >= 1:
        return ((1.0, count),)
    return tuple((binomial_term(count, k, p), k) for k in range(count + 1))


#: Binomial coefficients up to this size multiply as floats; past it (from about 1,030 dice)
#: ``float(comb(n, k))`` overflows, and the term is made from logarithms instead.
_FLOAT_COMB = 2**1000


def binomial_term(count: int, k: int, p: float) -> float:
    """comb(count, k) p^k (1-p)^(count-k), for 0 < p < 1.

    The plain product while the coefficient fits a float (the same value as ever); past that in
    logarithms, where the coefficient can be thousands of digits long (999 heavy bombers roll
    1,998 dice: an OverflowError, a 500, before).
    """
    coefficient = comb(count, k)
    if coefficient < _FLOAT_COMB:
        return coefficient * p**k * (1 - p) ** (count - k)
    return math.exp(math.log(coefficient) + k * math.log(p) + (count - k) * math.log1p(-p))


@dataclass
class RollingChance:
    """Rolls injected dice; answers with what happened and logs every die."""

    source: Dice | None
    rolls: list[DieRoll] = field(default_factory=list)
    exact = False

    def _roll(self, sides: int, needed: int | None, side: str, stage: str) -> DieRoll:
        if self.source is None:
            raise CombatInputError("dice", "these rules roll dice; pass a Dice object")
        value = self.source.roll(sides)
        log = getattr(self.source, "log", None)
        counter = log[-1].counter if log else len(self.rolls)
        roll = DieRoll(side, stage, counter, sides, value, needed)
        self.rolls.append(roll)
        return roll

    def face(self, sides: int, side: str, stage: str) -> int:
        """Roll one die whose face is the result (bombing damage), logged like the others."""
        return self._roll(sides, None, side, stage).value

    def dice(self, count: int, needed: int, sides: int, side: str, stage: str) -> Outcomes:
        if needed <= 0:
            return [(1.0, 0)]
        return [
            (1.0, sum(self._roll(sides, needed, side, stage).value <= needed for _ in range(count)))
        ]

    def below(self, needed: int, sides: int, side: str, stage: str) -> Outcomes:
        return [(1.0, int(self._roll(sides, needed, side, stage).value <= needed))]


Chance = ExactChance | RollingChance

#: The one ExactChance every exact computation shares (it holds no state).
EXACT = ExactChance()


def convolve(distributions: Iterable[Outcomes]) -> Outcomes:
    """Distribution of the sum of independent hit counts."""
    total: dict[int, float] = {0: 1.0}
    for dist in distributions:
        if len(dist) == 1 and dist[0][1] == 0:
            continue
        nxt: dict[int, float] = {}
        for hits_a, p_a in total.items():
            for p_b, hits_b in dist:
                nxt[hits_a + hits_b] = nxt.get(hits_a + hits_b, 0.0) + p_a * p_b
        total = nxt
    return [(p, hits) for hits, p in sorted(total.items())]


def total_hits(
    total: int, threshold: int, rules: RuleSet, chance: Chance, side: str, stage: str
) -> Outcomes:
    """Hits from a firepower total under Low Luck or A&A Chess (no carry)."""
    sure, remainder = divmod(total, 6)
    if remainder == 0:
        return [(1.0, sure)]
    if remainder >= threshold:
        return [(1.0, sure + 1)]
    if rules.roll_fraction:
        return [(p, sure + extra) for p, extra in chance.below(remainder, 6, side, stage)]
    return [(1.0, sure)]


def carried_hits(running: int, threshold: int) -> tuple[int, int]:
    """COF: (hits, new carry) from the running total of one assault.

    A remainder at or above the threshold is a hit at once and leaves a deficit (remainder - 6),
    so the side needs a full six points again for its next hit (the text's "deficit in the
    running total"); a smaller remainder is carried as it is.
    """
    if running <= 0:
        return 0, running
    hits, remainder = divmod(running, 6)
    if remainder >= threshold:
        return hits + 1, remainder - 6
    return hits, remainder
