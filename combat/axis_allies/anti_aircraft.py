"""Anti-aircraft fire under each rule: which planes are lost, with what probability.

* dice: every plane is shot at by each AA gun it meets, one die hitting on 1; a plane shot
  down at the first gun does not meet the second.
* lowluck (LL text 5c): n planes -> n // 6 sure hits and one die hitting on <= n % 6, per gun.
  "If 4 airplanes attack, the defender has to roll one dice, and if he throws a 4 or less, one
  fighter is lost. If 8 airplanes attack, 1 fighter is lost and if the defender throws a 2 or
  less, one more fighter is hit." Each full six planes of one type loses one of that type; the
  other hits fall on the planes outside those sixes, in the owner's order of loss.
* A&A Chess (example 5): planes x AA guns met, divided by 5, the fraction ignored; the owner
  chooses the losses. RYOF<6 rolls the fraction too: a d5 hitting on <= the remainder keeps the
  average at exactly one plane per five (our reading; a d6 would not).
"""

from __future__ import annotations

from collections.abc import Sequence

from combat.axis_allies.rules import DEFENDER, Chance, RuleSet, total_hits

Losses = dict[str, int]


def aa_loss_outcomes(
    rules: RuleSet,
    planes: dict[str, int],
    encounters: int,
    order: Sequence[str],
    chance: Chance,
    *,
    shots: int | None = None,
) -> list[tuple[float, Losses]]:
    """(probability, planes lost by type) for ``planes`` flying past ``encounters`` AA guns.

    ``shots`` (AAA, 1942 2E / G40 2E): the guns fire min(shots, planes) dice at 1, at most one
    per plane, and the attacker loses the planes his order of loss gives up first. Dice: a
    binomial; Low Luck: dice // 6 sure hits and one die for the rest (the AA rule of the LL
    text with the dice count in place of the planes); A&A Chess: dice // 5, as for AA guns.
    """
    order = [name for name in order if name in planes] + sorted(set(planes) - set(order))
    if shots is not None:
        dice = min(shots, sum(planes.values())) * encounters
        if rules.per_die:
            pooled = chance.dice(dice, 1, 6, DEFENDER, "aa")
        elif rules.key == "lowluck":
            pooled = total_hits(dice, 6, _LOWLUCK, chance, DEFENDER, "aa")
        else:
            sure, remainder = divmod(dice, 5)
            pooled = [(1.0, sure)]
            if rules.roll_fraction and rules.attacker_threshold == 6 and remainder:  # RYOF<6
                pooled = [(p, sure + x) for p, x in chance.below(remainder, 5, DEFENDER, "aa")]
        return _merge((p, _in_order(hits, planes, order)) for p, hits in pooled)
    if rules.per_die:
        branches: list[tuple[float, Losses]] = [(1.0, {})]
        for _ in range(encounters):
            branches = _dice_encounter(branches, planes, order, chance)
        return _merge(branches)
    if rules.key == "lowluck":
        branches = [(1.0, {})]
        for _ in range(encounters):
            branches = _lowluck_encounter(branches, planes, order, chance)
        return _merge(branches)
    total = sum(planes.values()) * encounters
    sure, remainder = divmod(total, 5)
    outcomes = [(1.0, sure)]
    if rules.roll_fraction and rules.attacker_threshold == 6 and remainder:  # RYOF<6
        outcomes = [(p, sure + extra) for p, extra in chance.below(remainder, 5, DEFENDER, "aa")]
    return _merge((p, _in_order(hits, planes, order)) for p, hits in outcomes)


def _remaining(planes: dict[str, int], lost: Losses) -> dict[str, int]:
    return {n: c - lost.get(n, 0) for n, c in planes.items() if c - lost.get(n, 0) > 0}


def _dice_encounter(branches, planes, order, chance):
    result = []
    for p, lost in branches:
        alive = _remaining(planes, lost)
        partial: list[tuple[float, Losses]] = [(p, dict(lost))]
        for name in order:
            if not alive.get(name):
                continue
            nxt = []
            for q, so_far in partial:
                for r, hits in chance.dice(alive[name], 1, 6, DEFENDER, "aa"):
                    new = dict(so_far)
                    if hits:
                        new[name] = new.get(name, 0) + hits
                    nxt.append((q * r, new))
            partial = nxt
        result.extend(partial)
    return result


def _lowluck_encounter(branches, planes, order, chance):
    result = []
    for p, lost in branches:
        alive = _remaining(planes, lost)
        n = sum(alive.values())
        if not n:
            result.append((p, lost))
            continue
        for q, hits in total_hits(n, 6, _LOWLUCK, chance, DEFENDER, "aa"):
            new = dict(lost)
            by_type = {name: count // 6 for name, count in alive.items()}
            sure_by_type = min(hits, sum(by_type.values()))
            for name in order:  # full sixes of one type lose one of that type
                take = min(by_type.get(name, 0), sure_by_type)
                if take:
                    new[name] = new.get(name, 0) + take
                    sure_by_type -= take
            extra = hits - sum(new.values()) + sum(lost.values())
            pool = {name: count % 6 for name, count in alive.items()}
            for name, k in _in_order(extra, pool, order).items():
                new[name] = new.get(name, 0) + k
            leftover = hits - (sum(new.values()) - sum(lost.values()))
            if leftover:  # more hits than planes outside full sixes: any plane, in order
                for name, k in _in_order(
                    leftover, _remaining(alive, _diff(new, lost)), order
                ).items():
                    new[name] = new.get(name, 0) + k
            result.append((p * q, new))
    return result


def _diff(new: Losses, old: Losses) -> Losses:
    return {n: new[n] - old.get(n, 0) for n in new}


def _in_order(hits: int, planes: dict[str, int], order: Sequence[str]) -> Losses:
    lost: Losses = {}
    for name in order:
        if hits <= 0:
            break
        take = min(planes.get(name, 0), hits)
        if take:
            lost[name] = take
            hits -= take
    return lost


def _merge(branches) -> list[tuple[float, Losses]]:
    total: dict[tuple[tuple[str, int], ...], float] = {}
    for p, lost in branches:
        key = tuple(sorted((n, k) for n, k in lost.items() if k))
        total[key] = total.get(key, 0.0) + p
    return [(p, dict(key)) for key, p in total.items()]


# Low Luck rolls its fraction; built here to avoid importing RULES in a cycle.
_LOWLUCK = RuleSet("lowluck", roll_fraction=True)
