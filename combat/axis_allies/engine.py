"""One round of an Axis & Allies battle, as a function from a state to its possible successors.

A round runs these stages (design.md §3); each takes a ``State`` and returns ``(probability,
State)`` pairs, asking the ``Chance`` object for every random outcome:

1. ``aa`` (round 1, a defending AA gun, attacking aircraft): dice, one die per plane hitting on
   1; Low Luck, planes // 6 sure hits and a die for the rest, each full six of one type losing
   one of that type; A&A Chess, planes // 5 (A&A Chess example 5), RYOF<6 rolling the fifth.
2. ``bombardment`` (round 1 of an amphibious assault): the ships' opening fire; casualties are
   removed before they can fire back. Under Low Luck the ships join the round-1 total unless
   ``bombard_separately``; under A&A Chess they fire as a group whose fraction joins the main
   total, as the text does for submarines.
3. ``first_strike``: submarines (both sides in Revised, the attacker's only in the classic game)
   fire first when the enemy has no destroyer; their casualties are removed before firing back.
   Dice: always. A&A Chess: total // 6, the fraction joining the main total. Low Luck: only the
   subs the side chose to fire separately, only when it can have an effect.
4. ``general``: everything else fires at once; casualties are removed together.

Before ``first_strike`` every round, ``stage_submerge`` (editions with ``subs_submerge``)
takes out the submarines whose side's policy says to submerge and whose enemy has no
destroyer; they are counted in ``State.dived_*``, out of the battle for good, and reported as
survivors (``surfaced``). ``battle_result`` reads the result from the units still fighting.

Submarine hits never fall on aircraft ("restricted" hits); where the edition says
``air_vs_subs_needs_destroyer``, aircraft hits never fall on submarines unless the aircraft's side
has a destroyer ("no_subs" hits). In a Low Luck or Chess total that mixes such units with
others, hits are first given to the dice that can hit anything, then to the submarines' dice,
then to the aircraft's (the LL text's 2 subs + 1 fighter example, generalised; our reading).

Editions with ``bombard_casualties_fire_back`` (1942 2E, G40 2E, AA50) have no separate
bombardment stage: the bombarding ships' dice join the attacker's round-1 general fire, so the
units they hit fire back and are removed with the round's other casualties. Under Low Luck with
``bombard_separately`` they stay their own group (own total, own fraction), hits added to the
round's.

``settle`` ends every stage: a side left with only ``defenceless`` units (transports; AAA) while
the enemy has a unit that can hit them loses them without a roll (rulebooks: defenseless
transports; "a territory containing AAA units and no combat units ... automatically destroyed").

After the round, under COF+R, a round that ends the battle (a side destroyed or the round limit
reached) rolls each side's remaining fraction. ``play_round`` returns the merged successors.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from combat.axis_allies.anti_aircraft import aa_loss_outcomes
from combat.axis_allies.rules import (
    ATTACKER,
    DEFENDER,
    Chance,
    DieRoll,
    RollingChance,
    carried_hits,
    convolve,
    total_hits,
)
from combat.axis_allies.setup import BattleSetup, SideSetup


class State(NamedTuple):
    att: tuple[int, ...]
    dfn: tuple[int, ...]
    first_round: bool = True
    carry_att: int = 0  # COF running fractions (negative: a deficit)
    carry_def: int = 0
    bonus_att: int = 0  # fraction of an opening group, joining this round's main total
    bonus_def: int = 0
    struck_att: int = 0  # subs that already fired this round (first strike)
    struck_def: int = 0
    dived_att: int = 0  # submarines that submerged: out of the battle, not lost
    dived_def: int = 0


Branches = list[tuple[float, State]]


class Fire(NamedTuple):
    """What one side's group fired in a stage, for the battle report."""

    side: str
    stage: str
    strength: int  # dice rolled (dice) or the firepower total (Low Luck, A&A Chess)
    hits: int
    rolls: tuple[DieRoll, ...]


class Recorder:
    """Collects ``Fire`` entries while ``fight`` plays a round (exact mode passes None)."""

    def __init__(self, chance: RollingChance) -> None:
        self.chance = chance
        self.fires: list[Fire] = []
        self._mark = len(chance.rolls)

    def record(self, side: str, stage: str, strength: int, hits: int) -> None:
        rolls = tuple(self.chance.rolls[self._mark :])
        self._mark = len(self.chance.rolls)
        self.fires.append(Fire(side, stage, strength, hits, rolls))


# --- helpers --------------------------------------------------------------------------------


def _side_state(state: State, role: str) -> tuple[int, ...]:
    return state.att if role == ATTACKER else state.dfn


def merge(branches: Iterable[tuple[float, State]]) -> Branches:
    total: dict[State, float] = {}
    for p, s in branches:
        total[s] = total.get(s, 0.0) + p
    return [(p, s) for s, p in total.items()]


def _expand(branches: Branches, stage: Callable[[State], Branches]) -> Branches:
    if len(branches) == 1 and branches[0][0] == 1.0:
        return stage(branches[0][1])
    return merge((p * q, s2) for p, s in branches for q, s2 in stage(s))


#: What a die may hit: anything, anything but aircraft (submarines), anything but submarines
#: (aircraft without a friendly destroyer, where the edition says so).
ANY, NO_AIR, NO_SUBS = 0, 1, 2


class Volley(NamedTuple):
    """Dice of one firing group: (needed, number of dice, target class) per kind of die; the
    class is ``ANY``, ``NO_AIR`` or ``NO_SUBS`` (0 is falsy: "unrestricted")."""

    dice: tuple[tuple[int, int, int], ...]

    @property
    def total(self) -> int:
        return sum(needed * n for needed, n, _r in self.dice)

    @property
    def dice_count(self) -> int:
        return sum(n for _needed, n, _r in self.dice)

    @property
    def air_capable(self) -> int:
        return sum(n for _needed, n, restricted in self.dice if not restricted)

    def dice_of(self, target_class: int) -> int:
        return sum(n for _needed, n, c in self.dice if c == target_class)


def volley(
    side: SideSetup,
    state: tuple[int, ...],
    *,
    subs: str,
    sub_limit: int | None = None,
    skip_subs: int = 0,
    air_vs_subs_needs_destroyer: bool = False,
) -> Volley:
    """The dice a side fires. ``subs``: "only", "without" or "with" submarines.

    ``skip_subs`` leaves out subs that fired first this round; ``sub_limit`` caps how many fire.
    Pairing (attack only): each supporter raises one unit of the types it supports, the first
    listed that still has an unraised unit; a unit is raised once (artillery with infantry or
    mech infantry; a fighter or a tank with a tactical bomber).
    """
    alive = side.alive(state)
    attack = side.role == ATTACKER
    dice: list[tuple[int, int, int]] = []
    boosted_of: dict[str, int] = {}
    if attack:
        for name, n in alive.items():
            supports = side.units[name].supports
            left = n
            for target in supports:
                if not left:
                    break
                free = alive.get(target, 0) - boosted_of.get(target, 0)
                take = min(left, max(free, 0))
                if take:
                    boosted_of[target] = boosted_of.get(target, 0) + take
                    left -= take
    bonus_of = {
        target: bonus for name in alive for target, bonus in side.units[name].supports.items()
    }
    air_class = ANY
    if air_vs_subs_needs_destroyer and not any(side.units[n].anti_sub for n in alive):
        air_class = NO_SUBS
    for name, n in alive.items():
        unit = side.units[name]
        if unit.submarine:
            if subs == "without":
                continue
            n = max(0, n - skip_subs)
            if sub_limit is not None:
                n = min(n, sub_limit)
        elif subs == "only":
            continue
        value = unit.attack if attack else unit.defense
        per_unit = unit.attack_dice if attack else unit.defense_dice
        target_class = NO_AIR if unit.submarine else air_class if unit.is_air else ANY
        boosted = min(n, boosted_of.get(name, 0)) if attack else 0
        if boosted:
            dice.append((value + bonus_of[name], boosted * per_unit, target_class))
        if n - boosted:
            dice.append((value, (n - boosted) * per_unit, target_class))
    return Volley(tuple(d for d in dice if d[1] > 0 and d[0] > 0))


def side_volley(setup: BattleSetup, role: str, state: tuple[int, ...], **kwargs) -> Volley:
    """``volley`` with the edition's target rules."""
    return volley(
        setup.side(role),
        state,
        air_vs_subs_needs_destroyer=setup.edition.air_vs_subs_needs_destroyer,
        **kwargs,
    )


Hits = tuple[int, int, int]  # (general, restricted: not on aircraft, no_subs: not on submarines)


def _volley_hits(
    setup: BattleSetup, role: str, v: Volley, chance: Chance, stage: str, bonus: int = 0
) -> list[tuple[float, Hits]]:
    """(general, restricted, no_subs) hit outcomes of one volley under the battle's rules."""
    rules = setup.rules
    if rules.per_die:
        pools = [
            convolve(chance.dice(n, need, 6, role, stage) for need, n, c in v.dice if c == cls)
            for cls in (ANY, NO_AIR, NO_SUBS)
        ]
        return [
            (pg * pr * pa, (g, r, a))
            for pg, g in pools[0]
            for pr, r in pools[1]
            for pa, a in pools[2]
        ]
    hits = total_hits(v.total + bonus, rules.threshold(role), rules, chance, role, stage)
    return [(p, _split(h, v)) for p, h in hits]


def _split(hits: int, v: Volley) -> Hits:
    """A total's hits by what they may hit: first as many as the dice that hit anything, then the
    submarines' dice, then the aircraft's (more than there are dice stay general)."""
    general = min(hits, v.dice_of(ANY))
    restricted = min(hits - general, v.dice_of(NO_AIR))
    no_subs = min(hits - general - restricted, v.dice_of(NO_SUBS))
    return general + (hits - general - restricted - no_subs), restricted, no_subs


def side_results(
    side: SideSetup, state: tuple[int, ...], hits: list[tuple[float, Hits]]
) -> dict[tuple[int, ...], float]:
    """Where ``side`` ends up after each hit outcome, merged: {new side state: probability}."""
    return side_results_with(side.apply_hits, state, hits)


def side_results_with(apply_hits, state, hits) -> dict[tuple[int, ...], float]:
    results: dict[tuple[int, ...], float] = {}
    for p, (g, r, a) in hits:
        key = apply_hits(state, g, r, a)
        results[key] = results.get(key, 0.0) + p
    return results


def general_hits(setup: BattleSetup, role: str, side_state: tuple[int, ...]):
    """Hit outcomes a side deals in a later round's general stage (no subs, nothing carried)."""
    from combat.axis_allies.rules import EXACT

    v = side_volley(setup, role, side_state, subs="with")
    return _volley_hits(setup, role, v, EXACT, "general")


def _exchange(
    setup: BattleSetup,
    state: State,
    att_out: list[tuple[float, Hits]],
    def_out: list[tuple[float, Hits]],
    make,
) -> Branches:
    """Apply both sides' hits simultaneously; ``make(att, dfn)`` builds each resulting state.

    The results are distinct pairs of distinct side states, so nothing needs merging.
    """
    def_results = side_results(setup.defender, state.dfn, att_out)
    att_results = side_results(setup.attacker, state.att, def_out)
    return [(pa * pd, make(a, d)) for a, pa in att_results.items() for d, pd in def_results.items()]


def _hits_of(outcomes) -> int:
    """Hits of a single (rolled) outcome, for the report."""
    return sum(sum(hits) for _p, hits in outcomes) if len(outcomes) == 1 else -1


# --- stages ---------------------------------------------------------------------------------


def stage_aa(setup: BattleSetup, state: State, chance: Chance, rec: Recorder | None) -> Branches:
    if not (state.first_round and setup.aa_gun):
        return [(1.0, state)]
    if setup.aa_shots and not any(state.dfn):
        return [(1.0, state)]  # AAA with no combat units: destroyed before they fire
    side = setup.attacker
    planes = {n: c for n, c in side.alive(state.att).items() if side.units[n].is_air}
    if not planes:
        return [(1.0, state)]
    shots = setup.aa_shots or None
    outcomes = aa_loss_outcomes(setup.rules, planes, 1, side.order, chance, shots=shots)
    if rec is not None:
        fired = sum(planes.values()) if shots is None else min(shots, sum(planes.values()))
        rec.record(DEFENDER, "aa", fired, sum(outcomes[0][1].values()))
    return merge((p, state._replace(att=side.remove(state.att, losses))) for p, losses in outcomes)


def stage_bombardment(
    setup: BattleSetup, state: State, chance: Chance, rec: Recorder | None
) -> Branches:
    if not (state.first_round and setup.bombarders):
        return [(1.0, state)]
    if setup.edition.bombard_casualties_fire_back:
        return [(1.0, state)]  # they fire with the attacker's round-1 general fire
    if setup.rules.key == "lowluck" and not setup.options.bombard_separately:
        return [(1.0, state)]  # they join the round-1 total in the general stage
    v = _bombard_volley(setup)
    if setup.rules.per_die or setup.rules.key == "lowluck":
        out = _volley_hits(setup, ATTACKER, v, chance, "bombardment")
        bonus = 0
    else:  # A&A Chess: whole sixes now, the fraction joins the main total
        out = [(1.0, (v.total // 6, 0, 0))]
        bonus = v.total % 6
    if rec is not None:
        rec.record(
            ATTACKER, "bombardment", v.dice_count if setup.rules.per_die else v.total, _hits_of(out)
        )
    branches = []
    for p, (g, r, a) in out:
        dfn = setup.defender.apply_hits(state.dfn, g, r, a)
        branches.append((p, state._replace(dfn=dfn, bonus_att=state.bonus_att + bonus)))
    return merge(branches)


def _bombard_volley(setup: BattleSetup) -> Volley:
    return Volley(
        tuple(
            (unit.attack, n * unit.attack_dice, ANY)
            for unit, n in setup.bombarders
            if unit.attack > 0
        )
    )


def _first_strikers(setup: BattleSetup, state: State, role: str) -> int:
    """How many of ``role``'s submarines fire first this round."""
    if setup.edition.sub_first_strike == "attacker" and role == DEFENDER:
        return 0
    side, enemy = setup.side(role), setup.side(_other(role))
    own, enemy_state = _side_state(state, role), _side_state(state, _other(role))
    if enemy.has(enemy_state, lambda u: u.anti_sub):
        return 0
    subs = sum(n for name, n in side.alive(own).items() if side.units[name].submarine)
    if setup.rules.key != "lowluck":
        return subs
    chosen = min(subs, setup.options.first_strike_subs(role))
    would_fire_back = enemy.has(
        enemy_state,
        lambda u: not u.is_air and (u.attack if enemy.role == ATTACKER else u.defense) > 0,
    )
    return chosen if would_fire_back else 0


def _other(role: str) -> str:
    return DEFENDER if role == ATTACKER else ATTACKER


def stage_first_strike(
    setup: BattleSetup, state: State, chance: Chance, rec: Recorder | None
) -> Branches:
    strikers = {role: _first_strikers(setup, state, role) for role in (ATTACKER, DEFENDER)}
    if not any(strikers.values()):
        return [(1.0, state)]
    outcomes = {}
    bonus = {ATTACKER: 0, DEFENDER: 0}
    for role, n in strikers.items():
        v = side_volley(setup, role, _side_state(state, role), subs="only", sub_limit=n)
        if not n or not v.dice:
            outcomes[role] = [(1.0, (0, 0, 0))]
        elif setup.rules.per_die or setup.rules.key == "lowluck":
            outcomes[role] = [
                (p, (0, sum(hits), 0))
                for p, hits in _volley_hits(setup, role, v, chance, "first_strike")
            ]
        else:  # A&A Chess: "the fraction is added to the normal remaining attack total"
            outcomes[role] = [(1.0, (0, v.total // 6, 0))]
            bonus[role] = v.total % 6
        if rec is not None and n:
            rec.record(
                role,
                "first_strike",
                v.dice_count if setup.rules.per_die else v.total,
                _hits_of(outcomes[role]),
            )

    def make(att: tuple[int, ...], dfn: tuple[int, ...]) -> State:
        return state._replace(
            att=att,
            dfn=dfn,
            struck_att=strikers[ATTACKER],
            struck_def=strikers[DEFENDER],
            bonus_att=state.bonus_att + bonus[ATTACKER],
            bonus_def=state.bonus_def + bonus[DEFENDER],
        )

    return _exchange(setup, state, outcomes[ATTACKER], outcomes[DEFENDER], make)


def stage_general(
    setup: BattleSetup, state: State, chance: Chance, rec: Recorder | None
) -> Branches:
    rules = setup.rules
    outcomes = {}
    carries = {ATTACKER: state.carry_att, DEFENDER: state.carry_def}
    for role in (ATTACKER, DEFENDER):
        struck = state.struck_att if role == ATTACKER else state.struck_def
        v = side_volley(setup, role, _side_state(state, role), subs="with", skip_subs=struck)
        separate: Volley | None = None
        if role == ATTACKER and state.first_round and setup.bombarders:
            fire_back = setup.edition.bombard_casualties_fire_back
            lowluck_joined = rules.key == "lowluck" and not setup.options.bombard_separately
            if lowluck_joined or (fire_back and rules.key != "lowluck"):
                v = Volley(v.dice + _bombard_volley(setup).dice)
            elif fire_back:  # Low Luck, bombarding as its own group
                separate = _bombard_volley(setup)
        bonus = state.bonus_att if role == ATTACKER else state.bonus_def
        if rules.carry:
            hits, carries[role] = carried_hits(
                carries[role] + v.total + bonus, rules.threshold(role)
            )
            outcomes[role] = [(1.0, _split(hits, v))]
        else:
            outcomes[role] = _volley_hits(setup, role, v, chance, "general", bonus)
        if separate is not None:
            if rec is not None:
                rec.record(role, "general", v.total + bonus, _hits_of(outcomes[role]))
            extra = _volley_hits(setup, role, separate, chance, "bombardment")
            if rec is not None:
                rec.record(role, "bombardment", separate.total, _hits_of(extra))
            outcomes[role] = _add_hits(outcomes[role], extra)
            continue
        if rec is not None and (v.dice or bonus or rules.carry):
            rec.record(
                role,
                "general",
                v.dice_count if rules.per_die else v.total + bonus,
                _hits_of(outcomes[role]),
            )

    ca, cd = carries[ATTACKER], carries[DEFENDER]

    def make(att: tuple[int, ...], dfn: tuple[int, ...]) -> State:
        # The general stage closes the round: the next state is a later round's.
        return State(att, dfn, False, ca, cd, dived_att=state.dived_att, dived_def=state.dived_def)

    return _exchange(setup, state, outcomes[ATTACKER], outcomes[DEFENDER], make)


def _add_hits(
    first: list[tuple[float, Hits]], second: list[tuple[float, Hits]]
) -> list[tuple[float, Hits]]:
    """The outcomes of two independent groups' hits together, merged."""
    total: dict[Hits, float] = {}
    for p, (g1, r1, a1) in first:
        for q, (g2, r2, a2) in second:
            key = (g1 + g2, r1 + r2, a1 + a2)
            total[key] = total.get(key, 0.0) + p * q
    return [(p, hits) for hits, p in total.items()]


def stage_final_fraction(
    setup: BattleSetup, state: State, chance: Chance, rec: Recorder | None, last_round: bool
) -> Branches:
    """COF+R: "a single die may be cast to resolve any remaining relevant fraction ... in
    [the] final assault". Final = a side was destroyed or the round limit is reached."""
    rules = setup.rules
    ended = not (setup.attacker.any_alive(state.att) and setup.defender.any_alive(state.dfn))
    if not (rules.final_roll and (ended or last_round)):
        return [(1.0, state)]
    outcomes = {}
    for role, carry in ((ATTACKER, state.carry_att), (DEFENDER, state.carry_def)):
        if 0 < carry < rules.threshold(role):
            outcomes[role] = [(p, (h, 0, 0)) for p, h in chance.below(carry, 6, role, "final_roll")]
            if rec is not None:
                rec.record(role, "final_roll", carry, _hits_of(outcomes[role]))
        else:
            outcomes[role] = [(1.0, (0, 0, 0))]
    return _exchange(
        setup,
        state,
        outcomes[ATTACKER],
        outcomes[DEFENDER],
        lambda att, dfn: state._replace(att=att, dfn=dfn, carry_att=0, carry_def=0),
    )


def play_round(
    setup: BattleSetup,
    state: State,
    chance: Chance,
    *,
    last_round: bool = False,
    rec: Recorder | None = None,
) -> Branches:
    """Every state the round can end in, with its probability (one state when rolling)."""
    branches: Branches = [(1.0, settle(setup, state))]
    if state.first_round:
        branches = _expand(branches, lambda s: stage_aa(setup, s, chance, rec))
        branches = _expand(
            branches, lambda s: _unless_over(setup, s, stage_bombardment, chance, rec)
        )
    if setup.may_submerge:
        branches = [(p, stage_submerge(setup, s, rec)) for p, s in branches]
    branches = _expand(branches, lambda s: _unless_over(setup, s, stage_first_strike, chance, rec))
    branches = _expand(branches, lambda s: _unless_over(setup, s, stage_general, chance, rec))
    if setup.rules.final_roll:
        branches = _expand(
            branches, lambda s: stage_final_fraction(setup, s, chance, rec, last_round)
        )
    if setup.has_defenceless:
        settled = [(p, settle(setup, s)) for p, s in branches]
        if any(a is not b for (_p, a), (_q, b) in zip(branches, settled, strict=True)):
            branches = merge(settled)  # only when a side was destroyed: states may now meet
    return branches


def stage_submerge(setup: BattleSetup, state: State, rec: Recorder | None) -> State:
    """Submarines submerging instead of firing, at the start of a round (before the surprise
    strike), by each side's ``BattleOptions.submerge`` policy, never while the enemy has a
    destroyer. A submerged sub leaves the battle for good and survives it (``dived_*``)."""
    if is_over(setup, state):
        return state
    for role in (ATTACKER, DEFENDER):
        policy = setup.options.submerge_policy(role)
        if policy == "never":
            continue
        side, enemy = setup.side(role), setup.side(_other(role))
        own, enemy_state = _side_state(state, role), _side_state(state, _other(role))
        subs = {name: n for name, n in side.alive(own).items() if side.units[name].submarine}
        if not subs or enemy.has(enemy_state, lambda u: u.anti_sub):
            continue
        if policy == "when_cannot_hit" and enemy.has(enemy_state, lambda u: not u.is_air):
            continue  # a ship to shoot at: the subs fight
        left = side.remove(own, subs)
        dived = sum(subs.values())
        if rec is not None:
            rec.record(role, "submerge", dived, 0)
        if role == ATTACKER:
            state = state._replace(att=left, dived_att=state.dived_att + dived)
        else:
            state = state._replace(dfn=left, dived_def=state.dived_def + dived)
    return state


def surfaced(setup: BattleSetup, state: State) -> State:
    """``state`` with its submerged submarines back among the survivors (for reports: they
    left the battle, they were not lost)."""
    if not (state.dived_att or state.dived_def):
        return state
    att = _with_subs(setup.attacker, state.att, state.dived_att)
    dfn = _with_subs(setup.defender, state.dfn, state.dived_def)
    return state._replace(att=att, dfn=dfn, dived_att=0, dived_def=0)


def _with_subs(side: SideSetup, state: tuple[int, ...], count: int) -> tuple[int, ...]:
    if not count:
        return state
    counts = list(state)
    for i, (name, hp) in enumerate(side.slots):
        if side.units[name].submarine and hp == side.units[name].hits:
            counts[i] += count
            break
    return tuple(counts)


def battle_result(setup: BattleSetup, state: State, stalemate: bool) -> str:
    """How a battle that stopped at ``state`` ended, from the units still in it: a side whose
    units all died or submerged is out; both out is a draw (even when submerged submarines
    survive it). Both in: a stalemate when nobody can score, else the attacker withdrew (the
    defender's)."""
    a = setup.attacker.any_alive(state.att)
    d = setup.defender.any_alive(state.dfn)
    if a and not d:
        return "attacker"
    if d and not a:
        return "defender"
    if not (a or d):
        return "draw"
    return "stalemate" if stalemate else "defender"


def settle(setup: BattleSetup, state: State) -> State:
    """Destroy a side's defenceless units when they are all it has left and the enemy has a unit
    that can hit them (defenseless transports; AAA with no combat units)."""
    if not setup.has_defenceless:
        return state
    att, dfn = state.att, state.dfn
    att_alone, att_hits = _settle_tests(setup.attacker, att)
    dfn_alone, dfn_hits = _settle_tests(setup.defender, dfn)
    if dfn_alone and att_hits:
        dfn = tuple(0 for _ in dfn)
        dfn_hits = False  # nothing left to hit with
    if att_alone and dfn_hits:
        att = tuple(0 for _ in att)
    if att is state.att and dfn is state.dfn:
        return state
    return state._replace(att=att, dfn=dfn)


def _settle_tests(side: SideSetup, state: tuple[int, ...]) -> tuple[bool, bool]:
    """(only defenceless units left, a unit that can hit them left), remembered per state."""
    found = side.settle_cache.get(state)
    if found is None:
        found = side.settle_cache[state] = (
            _only_defenceless(side, state),
            _can_hit(side, state),
        )
    return found


def _only_defenceless(side: SideSetup, state: tuple[int, ...]) -> bool:
    """Units left, all defenceless (slot flags precomputed: this runs on every branch)."""
    fighting = side.fighting_slots
    return any(state) and not any(n for n, f in zip(state, fighting, strict=True) if f)


def _can_hit(side: SideSetup, state: tuple[int, ...]) -> bool:
    return side.has(
        state,
        lambda u: not u.defenceless and (u.attack if side.role == ATTACKER else u.defense) > 0,
    )


def _unless_over(
    setup: BattleSetup, state: State, stage, chance: Chance, rec: Recorder | None
) -> Branches:
    """Once a side is gone nobody is left to fire at: the round's later stages are skipped."""
    if is_over(setup, state):
        return [
            (
                1.0,
                State(
                    state.att,
                    state.dfn,
                    False,
                    state.carry_att,
                    state.carry_def,
                    dived_att=state.dived_att,
                    dived_def=state.dived_def,
                ),
            )
        ]
    return stage(setup, state, chance, rec)


def is_over(setup: BattleSetup, state: State) -> bool:
    return not (setup.attacker.any_alive(state.att) and setup.defender.any_alive(state.dfn))


def initial_state(setup: BattleSetup) -> State:
    """The opening state; a side that starts with only defenceless units is already gone."""
    return settle(setup, State(setup.attacker.initial, setup.defender.initial))
