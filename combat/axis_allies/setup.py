"""Turning a request into a ``BattleSetup``: validated forces, casualty order, options.

Everything a caller can get wrong is checked here, before any die is rolled, and reported as a
``CombatInputError`` naming the field (``attacker.tank``, ``rounds``...) and the allowed values.

Decisions recorded here (design.md §3 and the rule texts):

* Default order of loss: lowest combat value first, counting the support a unit gives (an
  artillery that has an infantry to pair with counts 2 + 1), then cheapest first. Explicit orders
  list unit names, first lost first; units left out follow in the default order. Undamaged
  two-hit units always absorb hits before anything is lost, whatever the order.
* Only combatants are in a side's state: AA guns fire once at attacking aircraft and are never
  casualties (they are captured, not destroyed); bombarding ships fire in round 1 of an
  amphibious assault and are never hit. Neither counts as "units left".
* At most one AA gun fires per battle (several in one territory do not add up).
* ``techs``: a list applies to the attacker; ``{"attacker": [...], "defender": [...]}`` gives each
  side its own (jet fighters only matter on defence, for instance).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
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
    """

    attacker_first_strike_subs: int | None = None
    defender_first_strike_subs: int | None = None
    bombard_separately: bool = False

    def first_strike_subs(self, side: str) -> int:
        value = (
            self.attacker_first_strike_subs if side == ATTACKER else self.defender_first_strike_subs
        )
        return value or 0


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
        self._hits_cache: dict[tuple[tuple[int, ...], int, int], tuple[int, ...]] = {}

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

    def apply_hits(self, state: tuple[int, ...], general: int, restricted: int) -> tuple[int, ...]:
        """The state after taking hits; ``restricted`` hits cannot fall on aircraft.

        Restricted hits are placed first (they have fewer possible targets), each kind absorbing
        on undamaged multi-hit units before anything is lost, then losing units in order. That
        loses exactly the units the owner's order prefers among all legal placements.
        """
        key = (state, general, restricted)
        cached = self._hits_cache.get(key)
        if cached is not None:
            return cached
        counts = list(state)
        self._place(counts, restricted, air_ok=False)
        self._place(counts, general, air_ok=True)
        result = tuple(counts)
        self._hits_cache[key] = result
        return result

    def _place(self, counts: list[int], hits: int, air_ok: bool) -> None:
        if hits <= 0:
            return
        eligible = [
            i for i, (name, _hp) in enumerate(self.slots) if air_ok or not self.units[name].is_air
        ]
        # Absorb: each hit takes one hit point off an undamaged multi-hit unit.
        for i in eligible:
            name, hp = self.slots[i]
            if hp > 1 and counts[i] and hits:
                moved = min(counts[i], hits)
                counts[i] -= moved
                counts[self.slot_index[(name, hp - 1)]] += moved
                hits -= moved
        # Lose units in order, damaged ones of a type first.
        for i in eligible:
            if not hits:
                return
            name, hp = self.slots[i]
            if hp != 1:
                continue
            lost = min(counts[i], hits)
            counts[i] -= lost
            hits -= lost


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

    def side(self, role: str) -> SideSetup:
        return self.attacker if role == ATTACKER else self.defender


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

    bombarders, att_combat = _split_bombarders(
        att_counts, att_units, def_counts, def_units, amphibious
    )
    aa_gun = _check_aa_guns(att_combat, def_counts, def_units)
    def_combat = {n: c for n, c in def_counts.items() if def_units[n].casualty}
    if not att_combat:
        raise CombatInputError("attacker", "needs at least one unit that fights")

    att_order = _casualty_order(ATTACKER, att_units, att_combat, attacker_order, "attacker_order")
    def_order = _casualty_order(DEFENDER, def_units, def_combat, defender_order, "defender_order")
    return BattleSetup(
        rules=rule_set,
        edition=ed,
        attacker=SideSetup(ATTACKER, att_units, att_combat, att_order),
        defender=SideSetup(DEFENDER, def_units, def_combat, def_order),
        bombarders=tuple((att_units[n], c) for n, c in bombarders.items()),
        aa_gun=aa_gun,
        options=parse_options(options),
        rounds=rounds,
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
            value += sum(bonus for target, bonus in unit.supports.items() if present.get(target))
        else:
            value = unit.defense * unit.defense_dice
        return value, unit.cost, name

    return key


def _casualty_order(role, units, present, explicit, field_name) -> tuple[str, ...]:
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
