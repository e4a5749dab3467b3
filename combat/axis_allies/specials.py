"""Anti-aircraft fire, strategic bombing raids, rockets and technology rolls.

Decisions (design.md §3 and the rule texts):

* Low Luck bombing. The LL text's damage tables did not survive, so they are derived: the
  expected damage E of the raid under the standard rules (each bomber's dice, the total capped
  at the territory's IPC value V in Revised; with an AA gun each bomber first survives with
  probability 5/6) is dealt as floor(E), plus one more when a die is <= round(6 x frac(E))
  (halves round up). For one bomber without AA, E = mean(min(d6, V)); with AA, 5/6 of that, as
  design.md states; for several bombers we take the raid's own expectation, which keeps the
  average of the standard game for the whole raid. With an AA gun no bomber is lost; instead the
  attacker pays a fee averaging 15/6 = 2.5 IPC per bomber: floor(2.5 n), plus 1 on a die <= 3
  when n is odd (one die for the raid, as LL rolls one die per group).
  ``sbr_rule``: "lowluck" (the text's standard: 3 IPC per bomber reserved when purchasing, the
  overpayment refunded at the end of the turn), "A" (the fee is paid at the end of the turn, no
  reserve) and "B" ("AA shoots at each bomber [the LL AA rule], surviving bombers make 1-6 IPC
  of damage").
* Rockets are a bombing raid by one bomber without AA (LL text 5e). Dice: 1d6 capped at V.
  A&A Chess: "always considered to be a value of 3"; RYOF<6 rolls the half (3, or 4 on <= 3).
* A&A Chess economic bomber runs: 2.5 per bomber that survives AA, the fraction ignored (RYOF<6:
  rolled); a heavy bomber counts once per die it rolls ("treated according to their given
  increase").
* Technology. Low Luck: k dice bought in one turn cost 5 + 6 + ... + (4 + k); a roll needs 3 to 6
  dice held and succeeds on one die <= dice held. The text's example 2 ("4 dice ... for 18 IPC")
  contradicts its other examples; 18 is the price of 3 dice, 4 cost 26. Standard dice and the
  A&A Chess variants (whose text has no technology rule): one die per 5 IPC, success on any 6.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from combat.axis_allies.anti_aircraft import aa_loss_outcomes
from combat.axis_allies.editions import load_edition, sbr_dice
from combat.axis_allies.errors import MAX_UNITS, CombatInputError
from combat.axis_allies.rules import ATTACKER, DEFENDER, EXACT, RollingChance, get_rules
from combat.dice import Dice

SBR_RULES = ("lowluck", "A", "B")
LL_FEE_RESERVED_PER_BOMBER = 3
LL_TECH_MIN_DICE, LL_TECH_MAX_DICE = 3, 6
STANDARD_TECH_DIE_COST = 5


def _count(field_name: str, value: object, minimum: int = 0, maximum: int = MAX_UNITS) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise CombatInputError(field_name, f"must be a whole number >= {minimum}, got {value!r}")
    if value > maximum:
        raise CombatInputError(field_name, f"at most {maximum}, got {value}")
    return value


def _rolls(chance: RollingChance) -> list[dict[str, object]]:
    return [r.as_dict() for r in chance.rolls]


def _chance(rules_key: str, dice: Dice | None, needs_dice: bool) -> RollingChance:
    if needs_dice and dice is None:
        raise CombatInputError("dice", f"rules {rules_key!r} roll dice here; pass a Dice object")
    return RollingChance(dice)


# --- AA fire ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class AAReport:
    lost: Mapping[str, int]
    survivors: Mapping[str, int]
    rolls: list[dict[str, object]]
    probabilities: list[dict[str, Any]]  # every possible loss with its chance

    def as_dict(self) -> dict[str, Any]:
        return {
            "lost": dict(self.lost),
            "survivors": dict(self.survivors),
            "rolls": self.rolls,
            "probabilities": self.probabilities,
        }


def aa_fire(
    planes: Mapping[str, int],
    *,
    rules: str = "dice",
    aa_guns: int = 1,
    dice: Dice | None = None,
    edition: str = "revised",
    order: list[str] | None = None,
) -> AAReport:
    """Fire ``aa_guns`` AA guns (the number met on the way) at ``planes``.

    ``planes`` is {type: count}, or a plain number of planes (reported as "planes").
    """
    rule_set, ed = get_rules(rules), load_edition(edition)
    encounters = _count("aa_guns", aa_guns, 1, maximum=100)
    if isinstance(planes, int) and not isinstance(planes, bool):
        # A bare number counts planes of one kind, as the rule texts' examples do ("4 planes").
        planes = {"planes": _count("planes", planes, 1)}
        air = ["planes"]
    elif isinstance(planes, Mapping):
        air = [n for n, u in ed.units.items() if u.is_air]
    else:
        raise CombatInputError("planes", 'must be a count or an object, e.g. {"fighter": 3}')
    counts = {}
    for name, n in planes.items():
        if name not in air:
            raise CombatInputError(f"planes.{name}", "not an aircraft of this edition", air)
        if _count(f"planes.{name}", n):
            counts[name] = n
    if not counts:
        raise CombatInputError("planes", "no aircraft")
    if sum(counts.values()) > MAX_UNITS:
        raise CombatInputError("planes", f"at most {MAX_UNITS} aircraft")
    loss_order = (
        list(order)
        if order is not None
        else sorted(counts, key=lambda n: (ed.units[n].cost if n in ed.units else 0, n))
    )
    needs_dice = rule_set.per_die or rule_set.key in ("lowluck", "chess-ryof6")
    chance = _chance(rules, dice, needs_dice)
    ((_p, lost),) = aa_loss_outcomes(rule_set, counts, encounters, loss_order, chance)
    spread = sorted(
        aa_loss_outcomes(rule_set, counts, encounters, loss_order, EXACT), key=lambda item: -item[0]
    )
    return AAReport(
        lost=lost,
        survivors={n: c - lost.get(n, 0) for n, c in counts.items() if c - lost.get(n, 0)},
        rolls=_rolls(chance),
        probabilities=[{"lost": lost_, "probability": p} for p, lost_ in spread],
    )


# --- Strategic bombing and rockets ----------------------------------------------------------


@dataclass(frozen=True)
class BombingReport:
    bombers: int
    bombers_lost: int
    damage: int
    expected_damage: float
    fee: int = 0  # Low Luck with AA: what the raid costs the attacker instead of bombers
    fee_reserved: int = 0  # set aside at purchase (LL standard rule); the rest is refunded
    rolls: list[dict[str, object]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "bombers": self.bombers,
            "bombers_lost": self.bombers_lost,
            "damage": self.damage,
            "expected_damage": self.expected_damage,
            "fee": self.fee,
            "fee_reserved": self.fee_reserved,
            "fee_refund": self.fee_reserved - self.fee if self.fee_reserved else 0,
            "rolls": self.rolls,
        }


@cache
def _sum_distribution(dice_count: int) -> tuple[tuple[int, float], ...]:
    """Distribution of the sum of ``dice_count`` d6."""
    dist = {0: 1.0}
    for _ in range(dice_count):
        nxt: dict[int, float] = {}
        for total, p in dist.items():
            for face in range(1, 7):
                nxt[total + face] = nxt.get(total + face, 0.0) + p / 6
        dist = nxt
    return tuple(sorted(dist.items()))


def expected_raid_damage(bombers: int, dice_per_bomber: int, cap: int | None, aa: bool) -> float:
    """Expected damage of a standard-dice raid (the Low Luck target average)."""
    survive = 5 / 6 if aa else 1.0
    expected = 0.0
    for k in range(bombers + 1):
        p_k = math.comb(bombers, k) * survive**k * (1 - survive) ** (bombers - k)
        if p_k == 0:
            continue
        e_k = sum(
            p * (min(total, cap) if cap is not None else total)
            for total, p in _sum_distribution(k * dice_per_bomber)
        )
        expected += p_k * e_k
    return expected


def _average_with_one_die(expected: float, chance: RollingChance, side: str, stage: str) -> int:
    """floor(E), plus one on a die <= round-half-up(6 x frac(E)): the LL "+/- 1" spread."""
    whole = math.floor(expected + 1e-9)
    sixths = math.floor((expected - whole) * 6 + 0.5)
    if sixths <= 0:
        return whole
    if sixths >= 6:
        return whole + 1
    ((_p, extra),) = chance.below(sixths, 6, side, stage)
    return whole + extra


def strategic_bombing(
    bombers: int,
    ipc_value: int,
    *,
    rules: str = "dice",
    aa: bool = True,
    heavy: bool = False,
    dice: Dice | None = None,
    edition: str = "revised",
    sbr_rule: str = "lowluck",
) -> BombingReport:
    """Resolve a bombing raid by ``bombers`` on a territory worth ``ipc_value``."""
    rule_set, ed = get_rules(rules), load_edition(edition)
    n = _count("bombers", bombers, 1)
    value = _count("ipc_value", ipc_value, 0, maximum=10_000)
    if not isinstance(aa, bool):
        raise CombatInputError("aa", "must be true or false")
    if not isinstance(heavy, bool):
        raise CombatInputError("heavy", "must be true or false")
    if sbr_rule not in SBR_RULES:
        raise CombatInputError("sbr_rule", f"unknown rule {sbr_rule!r}", SBR_RULES)
    per_bomber = sbr_dice(ed, heavy)
    cap = value if ed.sbr_damage_capped else None
    expected = expected_raid_damage(n, per_bomber, cap, aa)
    if rule_set.chess:
        return _chess_raid(rule_set, n, per_bomber, cap, aa, dice, expected)
    if rule_set.key == "lowluck" and sbr_rule != "B":
        return _lowluck_raid(n, aa, dice, expected, reserve=sbr_rule == "lowluck")
    # Standard dice, and LL option B: AA per the battle rule, survivors roll their damage.
    chance = _chance(rules, dice, True)
    lost = 0
    if aa:
        ((_p, losses),) = aa_loss_outcomes(rule_set, {"bomber": n}, 1, ["bomber"], chance)
        lost = losses.get("bomber", 0)
    damage = sum(chance.face(6, ATTACKER, "damage") for _ in range((n - lost) * per_bomber))
    return BombingReport(
        n, lost, min(damage, cap) if cap is not None else damage, expected, rolls=_rolls(chance)
    )


def _lowluck_raid(
    n: int, aa: bool, dice: Dice | None, expected: float, reserve: bool
) -> BombingReport:
    chance = _chance("lowluck", dice, True)
    damage = _average_with_one_die(expected, chance, ATTACKER, "damage")
    fee = 0
    if aa:
        fee = _average_with_one_die(2.5 * n, chance, DEFENDER, "fee")
    return BombingReport(
        n,
        0,
        damage,
        expected,
        fee=fee,
        fee_reserved=LL_FEE_RESERVED_PER_BOMBER * n if aa and reserve else 0,
        rolls=_rolls(chance),
    )


def _chess_raid(rule_set, n, per_bomber, cap, aa, dice, expected) -> BombingReport:
    roll_all = rule_set.roll_fraction and rule_set.attacker_threshold == 6  # RYOF<6
    chance = _chance(rule_set.key, dice, roll_all)
    lost = 0
    if aa:
        ((_p, losses),) = aa_loss_outcomes(rule_set, {"bomber": n}, 1, ["bomber"], chance)
        lost = losses.get("bomber", 0)
    run = 2.5 * per_bomber * (n - lost)
    damage = _average_with_one_die(run, chance, ATTACKER, "damage") if roll_all else int(run)
    if cap is not None:
        damage = min(damage, cap)
    return BombingReport(n, lost, damage, expected, rolls=_rolls(chance))


def rocket_attack(
    ipc_value: int, *, rules: str = "dice", dice: Dice | None = None, edition: str = "revised"
) -> BombingReport:
    """One rocket on a territory worth ``ipc_value``: a raid by one bomber without AA."""
    rule_set, ed = get_rules(rules), load_edition(edition)
    value = _count("ipc_value", ipc_value, 0, maximum=10_000)
    cap = value if ed.sbr_damage_capped else None
    expected = expected_raid_damage(1, 1, cap, aa=False)
    if rule_set.chess:
        roll_all = rule_set.roll_fraction and rule_set.attacker_threshold == 6
        chance = _chance(rules, dice, roll_all)
        damage = _average_with_one_die(3.5, chance, ATTACKER, "damage") if roll_all else 3
        return BombingReport(
            1, 0, min(damage, cap) if cap is not None else damage, expected, rolls=_rolls(chance)
        )
    if rule_set.key == "lowluck":
        return _lowluck_raid(1, False, dice, expected, reserve=False)
    chance = _chance(rules, dice, True)
    damage = chance.face(6, ATTACKER, "damage")
    return BombingReport(
        1, 0, min(damage, cap) if cap is not None else damage, expected, rolls=_rolls(chance)
    )


# --- Technology -----------------------------------------------------------------------------


@dataclass(frozen=True)
class TechReport:
    dice_held: int
    success: bool
    chance_of_success: float
    rolls: list[dict[str, object]]

    def as_dict(self) -> dict[str, Any]:
        return {
            "dice_held": self.dice_held,
            "success": self.success,
            "chance_of_success": self.chance_of_success,
            "rolls": self.rolls,
        }


def tech_dice_cost(k: int) -> int:
    """IPC price of buying ``k`` Low Luck tech dice in one turn: 5 + 6 + ... + (4 + k)."""
    k = _count("k", k, 1)
    if k > LL_TECH_MAX_DICE:
        raise CombatInputError("k", f"at most {LL_TECH_MAX_DICE} dice can be held")
    return k * (k + 9) // 2


def tech_roll(dice_held: int, *, rules: str = "dice", dice: Dice | None) -> TechReport:
    """Roll for a technology with ``dice_held`` dice (bought this turn or saved up)."""
    rule_set = get_rules(rules)
    held = _count("dice_held", dice_held, 1, maximum=100)
    chance = _chance(rules, dice, True)
    if rule_set.key == "lowluck":
        if not LL_TECH_MIN_DICE <= held <= LL_TECH_MAX_DICE:
            raise CombatInputError(
                "dice_held",
                f"Low Luck rolls with {LL_TECH_MIN_DICE} to {LL_TECH_MAX_DICE} "
                f"dice held, got {held}",
            )
        ((_p, hit),) = chance.below(held, 6, ATTACKER, "tech")
        return TechReport(held, bool(hit), held / 6, _rolls(chance))
    sixes = 0
    for _ in range(held):
        ((_p, miss),) = chance.below(5, 6, ATTACKER, "tech")  # hit = a 6, i.e. not <= 5
        sixes += 1 - miss
    rolls = [dict(r, needed=6, hit=r["value"] == 6) for r in _rolls(chance)]
    return TechReport(held, sixes > 0, 1 - (5 / 6) ** held, rolls)
