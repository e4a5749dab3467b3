"""Turning a request into a ``BattleSetup``: validated forces, casualty order, options.

Everything a caller can get wrong is checked here, before any die is rolled, and reported as a
``CombatInputError`` naming the field (``attacker.tank``, ``rounds``...) and the allowed values.

Decisions recorded here (design.md §3 and the rule texts):

* Default order of loss: lowest combat value first, counting the support a unit gives (an
  artillery that has an infantry to pair with counts 2 + 1), then cheapest first. Explicit orders
  list unit names, first lost first; units left out follow in the default order. Undamaged
  two-hit units always absorb hits before anything is lost, whatever the order.
* Only combatants are in a side's state: AA guns (``casualty = false``: Revised, AA50) fire once
  at attacking aircraft and are never casualties (they are captured, not destroyed); bombarding
  ships fire in round 1 of an amphibious assault and are never hit. Neither counts as "units
  left". AAA (``casualty = true``: 1942 2E, G40 2E) are in the defender's state with defence 0.
* AA guns with ``aa_shots = 0`` (Revised, AA50): at most one fires per battle (several in one
  territory do not add up), one die at every plane. With ``aa_shots = n`` (AAA): the guns add
  up, min(n x guns, planes) dice, at most one per plane, and the attacker chooses the planes lost
  (his order of loss among his aircraft): 1942 2E / G40 2E AAA text, TripleA "Choose AA
  Casualties" = true in the 1942 2E and G40 Balanced files.
* Units with ``taken_last`` (transports) always come last in the order of loss, whatever order
  the caller gives (rulebooks: transports are chosen as casualties only when nothing else can be).
* Hits come in three pools: general, submarine hits (never on aircraft) and, where the edition
  says so, aircraft hits without a friendly destroyer (never on submarines). ``apply_hits`` takes
  the owner's preferred legal casualties: every hit that can be placed is placed.
* ``amphibious_attack_bonus`` (Balanced Mod marines) is added to the unit's attack when
  ``amphibious`` is set.
* ``techs``: a list applies to the attacker; ``{"attacker": [...], "defender": [...]}`` gives each
  side its own (jet fighters only matter on defence, for instance).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

from combat.axis_allies.editions import (
    Edition,
    UnitType,
    check_techs,
    edition_units,
    load_edition,
)
from combat.axis_allies.errors import MAX_UNITS, CombatInputError
from combat.axis_allies.rules import ATTACKER, DEFENDER, RuleSet, get_rules


@dataclass(frozen=True)
class BattleOptions:
    """Choices the rule texts leave to the players.

    * ``attacker_first_strike_subs`` / ``defender_first_strike_subs`` (Low Luck only): how many
      submarines fire as their own first-strike group. The text's default is to add them to the
      side's total (None or 0); the choice is honoured only in rounds where the first strike
      can have an effect (no enemy destroyer, and an enemy ship that would fire back).
    * ``bombard_separately`` (Low Luck only): bombarding ships fire as an opening-fire group
      instead of joining the round-1 total (the text's rule b, "analogue to a)").
    * ``attacker_submerge`` / ``defender_submerge`` (editions with ``subs_submerge``): when a
      side's submarines submerge at the start of a round instead of firing (never while the
      enemy has a destroyer). ``"when_cannot_hit"`` (default): when every enemy unit still in
      the battle is an aircraft, which subs cannot hit; the player's obvious choice, and what
      turns the old "subs and planes can never hit each other" stalemate into an end.
      ``"always"``: at the first chance (a side that keeps its subs out of the fight).
      ``"never"``: they fight on. Submerged subs survive the battle.
    * ``landed_from_sea`` (amphibious assaults): the land units unloaded from transports. Where
      the edition limits bombardment to one ship per such unit (``bombard_per_landed_unit``),
      more bombarding ships than this are refused; None: not checked.
    """

    attacker_first_strike_subs: int | None = None
    defender_first_strike_subs: int | None = None
    bombard_separately: bool = False
    attacker_submerge: str = "when_cannot_hit"
    defender_submerge: str = "when_cannot_hit"
    landed_from_sea: int | None = None

    def submerge_policy(self, side: str) -> str:
        return self.attacker_submerge if side == ATTACKER else self.defender_submerge

    def first_strike_subs(self, side: str) -> int:
        value = (
            self.attacker_first_strike_subs if side == ATTACKER else self.defender_first_strike_subs
        )
        return value or 0


#: ``BattleOptions.attacker_submerge`` / ``defender_submerge`` values.
SUBMERGE_POLICIES = ("never", "when_cannot_hit", "always")


def parse_options(options: Mapping[str, Any] | BattleOptions | None) -> BattleOptions:
    if options is None:
        return BattleOptions()
    if isinstance(options, BattleOptions):
        return options
    if not isinstance(options, Mapping):
        raise CombatInputError("options", "must be an object", BattleOptions.__dataclass_fields__)
    allowed = BattleOptions.__dataclass_fields__
    for key in options:
        if key not in allowed:
            raise CombatInputError(f"options.{key}", "unknown option", allowed)
    for key in ("attacker_first_strike_subs", "defender_first_strike_subs"):
        value = options.get(key)
        if value is not None and (not _is_count(value)):
            raise CombatInputError(f"options.{key}", "must be a whole number >= 0")
    if not isinstance(options.get("bombard_separately", False), bool):
        raise CombatInputError("options.bombard_separately", "must be true or false")
    for key in ("attacker_submerge", "defender_submerge"):
        if key in options and options[key] not in SUBMERGE_POLICIES:
            raise CombatInputError(f"options.{key}", "unknown policy", SUBMERGE_POLICIES)
    value = options.get("landed_from_sea")
    if value is not None and not _is_count(value):
        raise CombatInputError("options.landed_from_sea", "must be a whole number >= 0")
    return BattleOptions(**options)


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


class SideSetup:
    """One side's unit types, casualty order and state layout.

    A side's state is a tuple of counts, one per *slot*: a slot is (unit, hit points left), so a
    two-hit battleship has an undamaged and a damaged slot. Slots follow the casualty order.
    """

    def __init__(
        self,
        role: str,
        units: Mapping[str, UnitType],
        counts: Mapping[str, int],
        order: Sequence[str],
    ) -> None:
        self.role = role
        self.units = dict(units)
        self.order = tuple(order)
        self.slots: tuple[tuple[str, int], ...] = tuple(
            (name, hp) for name in self.order for hp in range(self.units[name].hits, 0, -1)
        )
        self.slot_index = {slot: i for i, slot in enumerate(self.slots)}
        self.initial = tuple(
            counts.get(name, 0) if hp == self.units[name].hits else 0 for name, hp in self.slots
        )
        self._hits_cache: dict[tuple[tuple[int, ...], int, int, int], tuple[int, ...]] = {}
        #: per slot: is the unit not defenceless (``engine.settle``'s test, on every branch)
        self.fighting_slots = tuple(not self.units[name].defenceless for name, _hp in self.slots)
        #: ``engine.settle``'s two tests per state, remembered (they run on every branch)
        self.settle_cache: dict[tuple[int, ...], tuple[bool, bool]] = {}

    def alive(self, state: tuple[int, ...]) -> dict[str, int]:
        counts: dict[str, int] = {}
        for (name, _hp), n in zip(self.slots, state, strict=True):
            if n:
                counts[name] = counts.get(name, 0) + n
        return counts

    def hit_points(self, state: tuple[int, ...]) -> int:
        return sum(hp * n for (_name, hp), n in zip(self.slots, state, strict=True))

    def any_alive(self, state: tuple[int, ...]) -> bool:
        return any(state)

    def has(self, state: tuple[int, ...], predicate) -> bool:
        return any(
            n and predicate(self.units[name])
            for (name, _hp), n in zip(self.slots, state, strict=True)
        )

    def cost_of(self, counts: Mapping[str, int]) -> int:
        return sum(self.units[name].cost * n for name, n in counts.items())

    def remove(self, state: tuple[int, ...], losses: Mapping[str, int]) -> tuple[int, ...]:
        """The state without ``losses`` (unit -> count), damaged ones of a type first."""
        counts = list(state)
        for name, lost in losses.items():
            for hp in range(1, self.units[name].hits + 1):
                i = self.slot_index[(name, hp)]
                taken = min(counts[i], lost)
                counts[i] -= taken
                lost -= taken
        return tuple(counts)

    def apply_hits(
        self, state: tuple[int, ...], general: int, restricted: int, no_subs: int = 0
    ) -> tuple[int, ...]:
        """The state after taking hits: ``restricted`` (submarine) hits cannot fall on aircraft,
        ``no_subs`` (aircraft without a destroyer) hits cannot fall on submarines.

        The owner's choice, made greedily: hit points are offered in order of preference (first
        one hit point of every undamaged multi-hit unit, in slot order; then units, in the order
        of loss, damaged ones of a type first), and each is taken when the hits can still be
        matched to the hit points taken so far. Placements form a transversal matroid, so the
        greedy choice places every hit that can be placed and loses what the order prefers.
        Matching (Hall): subs taken <= restricted + general, aircraft taken <= no_subs + general,
        all taken <= all hits.
        """
        key = (state, general, restricted, no_subs)
        cached = self._hits_cache.get(key)
        if cached is not None:
            return cached
        counts = list(state)
        total = general + restricted + no_subs
        taken = {"sub": 0, "air": 0, "all": 0}
        room = {"sub": restricted + general, "air": no_subs + general}

        def take(kind: str, wanted: int) -> int:
            k = min(wanted, total - taken["all"])
            if kind in room:
                k = min(k, room[kind] - taken[kind])
                taken[kind] += max(k, 0)
            k = max(k, 0)
            taken["all"] += k
            return k

        for i, (name, hp) in enumerate(self.slots):  # absorb on undamaged multi-hit units
            if hp > 1 and counts[i]:
                moved = take(self._kind(name), counts[i])
                counts[i] -= moved
                counts[self.slot_index[(name, hp - 1)]] += moved
        for i, wanted in self._loss_groups(counts):  # then lose units in order
            counts[i] -= take(self._kind(self.slots[i][0]), wanted)
        result = tuple(counts)
        self._hits_cache[key] = result
        return result

    def _loss_groups(self, counts: list[int]) -> list[tuple[int, int]]:
        """(slot, units) offered as losses, most preferred first: the one-hit-point slots in
        order (a subclass may hold some back to the end, e.g. "keep one land unit")."""
        return [(i, counts[i]) for i, (_name, hp) in enumerate(self.slots) if hp == 1 and counts[i]]

    def _kind(self, name: str) -> str:
        unit = self.units[name]
        return "air" if unit.is_air else "sub" if unit.submarine else "other"


@dataclass(frozen=True, eq=False)
class BattleSetup:
    rules: RuleSet
    edition: Edition
    attacker: SideSetup
    defender: SideSetup
    bombarders: tuple[tuple[UnitType, int], ...]
    aa_gun: bool
    options: BattleOptions
    rounds: int | None
    #: AAA dice limit (sum of ``aa_shots`` over the defending guns); 0: one die at every plane.
    aa_shots: int = 0

    def side(self, role: str) -> SideSetup:
        return self.attacker if role == ATTACKER else self.defender

    @cached_property
    def may_submerge(self) -> bool:
        """Can a submarine submerge in this battle (the edition allows it, one is present,
        and its side's policy is not "never")?"""
        if not self.edition.subs_submerge:
            return False
        return any(
            side.units[name].submarine and self.options.submerge_policy(side.role) != "never"
            for side in (self.attacker, self.defender)
            for name in side.order
        )

    @cached_property
    def has_defenceless(self) -> bool:
        """Does either side hold a unit destroyed when left alone (transports, AAA)?"""
        return any(
            side.units[name].defenceless
            for side in (self.attacker, self.defender)
            for name in side.order
        )


def build_setup(
    attacker: Mapping[str, int],
    defender: Mapping[str, int],
    *,
    rules: str,
    edition: str,
    rounds: int | None,
    attacker_order: Sequence[str] | None,
    defender_order: Sequence[str] | None,
    amphibious: bool,
    techs: Iterable[str] | Mapping[str, Iterable[str]],
    options: Mapping[str, Any] | BattleOptions | None,
) -> BattleSetup:
    rule_set = get_rules(rules)
    ed = load_edition(edition)
    if rounds is not None and (not _is_count(rounds) or rounds < 1):
        raise CombatInputError("rounds", "must be a whole number >= 1, or null for to the end")
    if not isinstance(amphibious, bool):
        raise CombatInputError("amphibious", "must be true or false")
    att_techs, def_techs = _split_techs(ed, techs)
    lowluck = rule_set.key == "lowluck"
    att_units = edition_units(ed, att_techs, lowluck)
    def_units = edition_units(ed, def_techs, lowluck)
    att_counts = _parse_force(ATTACKER, attacker, ed, att_units)
    def_counts = _parse_force(DEFENDER, defender, ed, def_units)

    if amphibious:
        att_units = {
            name: replace(unit, attack=unit.attack + unit.amphibious_attack_bonus)
            if unit.amphibious_attack_bonus
            else unit
            for name, unit in att_units.items()
        }
    bombarders, att_combat = _split_bombarders(
        att_counts, att_units, def_counts, def_units, amphibious
    )
    aa_gun = _check_aa_guns(att_combat, def_counts, def_units)
    aa_shots = sum(
        def_units[n].aa_shots * c for n, c in def_counts.items() if def_units[n].anti_aircraft
    )
    def_combat = {n: c for n, c in def_counts.items() if def_units[n].casualty}
    if not att_combat:
        raise CombatInputError("attacker", "needs at least one unit that fights")
    parsed_options = parse_options(options)
    _check_bombard_limit(ed, bombarders, parsed_options)

    att_order = _casualty_order(ATTACKER, att_units, att_combat, attacker_order, "attacker_order")
    def_order = _casualty_order(DEFENDER, def_units, def_combat, defender_order, "defender_order")
    return BattleSetup(
        rules=rule_set,
        edition=ed,
        attacker=SideSetup(ATTACKER, att_units, att_combat, att_order),
        defender=SideSetup(DEFENDER, def_units, def_combat, def_order),
        bombarders=tuple((att_units[n], c) for n, c in bombarders.items()),
        aa_gun=aa_gun,
        options=parsed_options,
        rounds=rounds,
        aa_shots=aa_shots,
    )


def _check_bombard_limit(ed: Edition, bombarders: Mapping[str, int], options: BattleOptions):
    """One bombarding ship per land unit unloaded from the sea, where the edition says so."""
    landed = options.landed_from_sea
    if landed is None or not ed.bombard_per_landed_unit:
        return
    ships = sum(bombarders.values())
    if ships > landed:
        raise CombatInputError(
            "options.landed_from_sea",
            f"{ships} bombarding ships but {landed} land units unloaded from the sea: in "
            f"{ed.key} at most one ship bombards per land unit unloaded",
        )


def _split_techs(ed: Edition, techs) -> tuple[frozenset[str], frozenset[str]]:
    if isinstance(techs, str):
        raise CombatInputError("techs", "must be a list of technologies", ed.techs)
    if isinstance(techs, Mapping):
        for key in techs:
            if key not in (ATTACKER, DEFENDER):
                raise CombatInputError(f"techs.{key}", "unknown side", (ATTACKER, DEFENDER))
        return (
            check_techs(ed, techs.get(ATTACKER, ()), "techs.attacker"),
            check_techs(ed, techs.get(DEFENDER, ()), "techs.defender"),
        )
    return check_techs(ed, techs, "techs"), frozenset()


def _parse_force(
    side: str, force: Mapping[str, int], ed: Edition, units: Mapping[str, UnitType]
) -> dict[str, int]:
    if not isinstance(force, Mapping):
        raise CombatInputError(side, 'must be an object of unit counts, e.g. {"infantry": 3}')
    counts = {}
    for name, count in force.items():
        if name not in units:
            raise CombatInputError(f"{side}.{name}", f"not a unit of the {ed.key} edition", units)
        if not _is_count(count):
            raise CombatInputError(f"{side}.{name}", f"must be a whole number >= 0, got {count!r}")
        if count:
            counts[name] = count
    if not counts:
        raise CombatInputError(side, "has no units")
    if sum(counts.values()) > MAX_UNITS:
        raise CombatInputError(side, f"at most {MAX_UNITS} units a side")
    return counts


def _split_bombarders(att_counts, att_units, def_counts, def_units, amphibious):
    att_sea = {n for n in att_counts if att_units[n].kind == "sea"}
    land_battle = any(att_units[n].kind == "land" for n in att_counts) or any(
        def_units[n].kind == "land" for n in def_counts
    )
    def_sea = [n for n in def_counts if def_units[n].kind == "sea"]
    if land_battle and def_sea:
        raise CombatInputError(
            f"defender.{def_sea[0]}",
            "ships cannot defend a land battle; fight the sea battle on its own",
        )
    if not land_battle:
        if amphibious:
            raise CombatInputError("amphibious", "an amphibious assault needs land units")
        return {}, dict(att_counts)
    if att_sea and not amphibious:
        raise CombatInputError(
            f"attacker.{sorted(att_sea)[0]}",
            "ships take part in a land battle only as bombardment of an "
            "amphibious assault (set amphibious: true)",
        )
    for name in sorted(att_sea):
        if not att_units[name].bombards:
            allowed = [n for n, u in att_units.items() if u.bombards]
            raise CombatInputError(f"attacker.{name}", "cannot bombard", allowed)
    bombarders = {n: att_counts[n] for n in sorted(att_sea)}
    return bombarders, {n: c for n, c in att_counts.items() if n not in att_sea}


def _check_aa_guns(att_combat, def_counts, def_units) -> bool:
    for name in att_combat:
        if name in def_units and def_units[name].anti_aircraft:
            raise CombatInputError(f"attacker.{name}", "AA guns do not attack")
    return any(def_units[n].anti_aircraft for n in def_counts)


def default_order_key(role: str, units: Mapping[str, UnitType], present: Mapping[str, int]):
    """Sort key for the default order of loss: value plus support given, then cost."""

    def key(name: str) -> tuple[int, int, str]:
        unit = units[name]
        if role == ATTACKER:
            value = unit.attack * unit.attack_dice
            value += max(
                (bonus for target, bonus in unit.supports.items() if present.get(target)),
                default=0,
            )
        else:
            value = unit.defense * unit.defense_dice
        return value, unit.cost, name

    return key


def _casualty_order(role, units, present, explicit, field_name) -> tuple[str, ...]:
    return _last_ones_last(units, _chosen_order(role, units, present, explicit, field_name))


def _last_ones_last(units, order: tuple[str, ...]) -> tuple[str, ...]:
    """Units taken last (transports) after every other, each group keeping its order."""
    return tuple(n for n in order if not units[n].taken_last) + tuple(
        n for n in order if units[n].taken_last
    )


def _chosen_order(role, units, present, explicit, field_name) -> tuple[str, ...]:
    default = sorted(present, key=default_order_key(role, units, present))
    if explicit is None:
        return tuple(default)
    if isinstance(explicit, str) or not isinstance(explicit, Sequence):
        raise CombatInputError(field_name, "must be a list of unit names, first lost first")
    casualty_units = [n for n, u in units.items() if u.casualty]
    seen = []
    for name in explicit:
        if name not in casualty_units:
            raise CombatInputError(
                field_name, f"{name!r} is not a unit that can be lost", casualty_units
            )
        if name in seen:
            raise CombatInputError(field_name, f"{name!r} is listed twice")
        seen.append(name)
    listed = [n for n in seen if n in present]
    return tuple(listed + [n for n in default if n not in listed])
