"""Unit tables of the Axis & Allies editions, loaded from ``data/*.toml`` and validated.

An edition is data, not code: adding one means adding a TOML file. ``load_edition`` checks every
file on first use and fails with the file and key at fault, and ``edition_units`` applies the
technologies a side holds (and the Low Luck overrides of the heavy bomber) to the base table.

A variant names its base with ``extends = "<edition>"`` and overrides only what differs: top-level
rule flags replace the base's, ``[units.<name>]`` tables are merged field by field into the base's
unit (or add a unit), ``[techs]`` likewise. Rules differ between editions through flags in the data
(``sub_first_strike``, ``air_vs_subs_needs_destroyer``, ``bombard_casualties_fire_back``) and unit
fields (``aa_shots``, ``defenceless``, ``taken_last``, ``supports``), never through edition names in
the engine.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from combat.axis_allies.errors import CombatInputError, EditionDataError

DATA_DIR = Path(__file__).resolve().parent / "data"
KINDS = ("land", "air", "sea")
_INT_FIELDS = {
    "attack",
    "defense",
    "cost",
    "hits",
    "attack_dice",
    "defense_dice",
    "aa_shots",
    "amphibious_attack_bonus",
}
_BOOL_FIELDS = {
    "submarine",
    "anti_sub",
    "bombards",
    "anti_aircraft",
    "casualty",
    "defenceless",
    "taken_last",
}
#: Top-level keys of an edition file, with the check each value must pass.
_TOP_KEYS = {
    "name",
    "extends",
    "sub_first_strike",
    "sbr_damage_capped",
    "air_vs_subs_needs_destroyer",
    "bombard_casualties_fire_back",
    "subs_submerge",
    "bombard_per_landed_unit",
    "two_hit_repair",
    "units",
    "techs",
}
TWO_HIT_REPAIR = ("end_of_turn", "start_of_turn_at_naval_base")


@dataclass(frozen=True)
class UnitType:
    """One unit of an edition's table, with any technologies already applied."""

    name: str
    kind: str
    attack: int
    defense: int
    cost: int
    hits: int = 1
    attack_dice: int = 1
    defense_dice: int = 1
    submarine: bool = False
    anti_sub: bool = False
    bombards: bool = False
    anti_aircraft: bool = False
    casualty: bool = True
    #: AA fire: 0 = one die at every attacking plane, only one gun per battle (Revised, AA50);
    #: n > 0 = each gun fires up to n dice, at most one per plane, guns adding up (AAA, 1942 2E).
    aa_shots: int = 0
    #: Destroyed without a roll when its side has nothing else left and the enemy can hit it
    #: (transports in 1942 2E / G40 / AA50, AAA in 1942 2E / G40).
    defenceless: bool = False
    #: Chosen as a casualty only when nothing else of its side can take the hit (transports).
    taken_last: bool = False
    #: Added to the attack value in an amphibious assault (Balanced Mod marines).
    amphibious_attack_bonus: int = 0
    #: Pairing: each unit of this type raises ONE attacking unit of the listed types (the first
    #: listed that still has an unpaired unit) by the bonus; a unit is raised at most once.
    supports: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def is_air(self) -> bool:
        return self.kind == "air"


@dataclass(frozen=True)
class Tech:
    name: str
    units: Mapping[str, Mapping[str, Any]]
    lowluck: Mapping[str, Mapping[str, Any]]
    sbr_dice: int | None = None


@dataclass(frozen=True)
class Edition:
    key: str
    name: str
    sub_first_strike: str  # "attacker" or "both"
    sbr_damage_capped: bool
    units: Mapping[str, UnitType]
    techs: Mapping[str, Tech]
    #: Aircraft hits cannot fall on submarines unless the aircraft's side has a destroyer.
    air_vs_subs_needs_destroyer: bool = False
    #: Units hit by bombardment fire back in round 1 (removed with the round's casualties).
    bombard_casualties_fire_back: bool = False
    #: Submarines may submerge at the start of a round instead of firing, unless the enemy has
    #: a destroyer (``BattleOptions.*_submerge`` chooses when).
    subs_submerge: bool = False
    #: At most one bombarding ship per land unit unloaded from the sea
    #: (``BattleOptions.landed_from_sea``).
    bombard_per_landed_unit: bool = False
    two_hit_repair: str = "end_of_turn"
    extends: str | None = None


def available_editions() -> tuple[str, ...]:
    return _editions_in(DATA_DIR)


@cache
def _editions_in(directory: Path) -> tuple[str, ...]:
    """The edition files of ``directory``, listed once per process (every query validates its
    edition name: listing the directory each time was a tenth of a cheapest-force search)."""
    return tuple(sorted(path.stem for path in directory.glob("*.toml")))


def load_edition(key: str) -> Edition:
    """The validated edition ``key`` (``revised``, ``classic``); CombatInputError if unknown."""
    if not isinstance(key, str) or key not in available_editions():
        raise CombatInputError("edition", f"unknown edition {key!r}", available_editions())
    return _load_edition(key)


@cache
def _load_edition(key: str) -> Edition:
    raw, source = _raw_edition(key, ())
    return _parse_edition(key, raw, source)


def _raw_edition(key: str, seen: tuple[str, ...]) -> tuple[dict[str, Any], str]:
    """The file's table with its ``extends`` chain merged in (the variant's values win)."""
    path = DATA_DIR / f"{key}.toml"
    with path.open("rb") as handle:
        raw = tomllib.load(handle)
    base_key = raw.get("extends")
    if base_key is None:
        return raw, path.name
    if not isinstance(base_key, str) or not (DATA_DIR / f"{base_key}.toml").is_file():
        raise EditionDataError(f"{path.name}: extends: unknown edition {base_key!r}")
    if base_key in seen or base_key == key:
        raise EditionDataError(f"{path.name}: extends: {base_key!r} extends itself")
    base, _ = _raw_edition(base_key, (*seen, key))
    merged = {k: v for k, v in base.items() if k != "extends"}
    for k, v in raw.items():
        if k in ("units", "techs") and isinstance(v, dict):
            table = {name: dict(spec) for name, spec in merged.get(k, {}).items()}
            for name, spec in v.items():
                if not isinstance(spec, dict):
                    raise EditionDataError(f"{path.name}: {k}.{name}: must be a table")
                table[name] = {**table.get(name, {}), **spec}
            merged[k] = table
        else:
            merged[k] = v
    return merged, path.name


def _parse_edition(key: str, raw: dict[str, Any], source: str) -> Edition:
    def fail(where: str, message: str) -> EditionDataError:
        return EditionDataError(f"{source}: {where}: {message}")

    for top in raw:
        if top not in _TOP_KEYS:
            raise fail(top, "unknown key")
    if raw.get("sub_first_strike") not in ("attacker", "both"):
        raise fail("sub_first_strike", "must be 'attacker' or 'both'")
    for flag in (
        "sbr_damage_capped",
        "air_vs_subs_needs_destroyer",
        "bombard_casualties_fire_back",
        "subs_submerge",
        "bombard_per_landed_unit",
    ):
        if flag in raw and not isinstance(raw[flag], bool):
            raise fail(flag, "must be true or false")
    if raw.get("two_hit_repair", "end_of_turn") not in TWO_HIT_REPAIR:
        raise fail("two_hit_repair", f"must be one of {', '.join(TWO_HIT_REPAIR)}")
    if not isinstance(raw.get("name", key), str):
        raise fail("name", "must be a string")
    for table in ("units", "techs"):
        if not isinstance(raw.get(table, {}), dict):
            raise fail(table, "must be a table")
    units: dict[str, UnitType] = {}
    for name, spec in raw.get("units", {}).items():
        units[name] = _parse_unit(name, spec, fail)
    if not units:
        raise fail("units", "no units defined")
    for unit in units.values():
        for target in unit.supports:
            if target not in units:
                raise fail(f"units.{unit.name}.supports", f"unknown unit {target!r}")
    techs = {
        name: _parse_tech(name, spec, units, fail) for name, spec in raw.get("techs", {}).items()
    }
    return Edition(
        key=key,
        name=str(raw.get("name", key)),
        sub_first_strike=raw["sub_first_strike"],
        sbr_damage_capped=bool(raw.get("sbr_damage_capped", True)),
        units=MappingProxyType(units),
        techs=MappingProxyType(techs),
        air_vs_subs_needs_destroyer=bool(raw.get("air_vs_subs_needs_destroyer", False)),
        bombard_casualties_fire_back=bool(raw.get("bombard_casualties_fire_back", False)),
        subs_submerge=bool(raw.get("subs_submerge", False)),
        bombard_per_landed_unit=bool(raw.get("bombard_per_landed_unit", False)),
        two_hit_repair=str(raw.get("two_hit_repair", "end_of_turn")),
        extends=raw.get("extends"),
    )


def _parse_unit(name: str, spec: dict[str, Any], fail) -> UnitType:
    where = f"units.{name}"
    if not isinstance(spec, dict):
        raise fail(where, "must be a table")
    if spec.get("kind") not in KINDS:
        raise fail(f"{where}.kind", f"must be one of {', '.join(KINDS)}")
    for required in ("attack", "defense", "cost"):
        if required not in spec:
            raise fail(where, f"missing {required!r}")
    _check_fields(where, spec, fail, allowed=_INT_FIELDS | _BOOL_FIELDS | {"kind", "supports"})
    supports = spec.get("supports", {})
    if not isinstance(supports, dict) or not all(
        isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in supports.values()
    ):
        raise fail(f"{where}.supports", "bonuses must be positive integers")
    fields = {k: v for k, v in spec.items() if k != "supports"}
    return UnitType(name=name, supports=MappingProxyType(dict(supports)), **fields)


def _check_fields(where: str, spec: Mapping[str, Any], fail, allowed: set[str]) -> None:
    for key, value in spec.items():
        if key not in allowed:
            raise fail(f"{where}.{key}", "unknown field")
        if key in _INT_FIELDS and (
            not isinstance(value, int) or isinstance(value, bool) or value < 0
        ):
            raise fail(f"{where}.{key}", "must be a non-negative integer")
        if key in _BOOL_FIELDS and not isinstance(value, bool):
            raise fail(f"{where}.{key}", "must be true or false")


def _parse_tech(name: str, spec: dict[str, Any], units: Mapping[str, UnitType], fail) -> Tech:
    changes = {}
    for section in ("units", "lowluck"):
        for unit, fields in spec.get(section, {}).items():
            if unit not in units:
                raise fail(f"techs.{name}.{section}", f"unknown unit {unit!r}")
            _check_fields(
                f"techs.{name}.{section}.{unit}", fields, fail, _INT_FIELDS | _BOOL_FIELDS
            )
        changes[section] = MappingProxyType(dict(spec.get(section, {})))
    return Tech(name, changes["units"], changes["lowluck"], spec.get("sbr_dice"))


def check_techs(edition: Edition, techs: Iterable[str], field_name: str) -> frozenset[str]:
    if isinstance(techs, str | bytes) or not isinstance(techs, Iterable):
        raise CombatInputError(field_name, "must be a list of technologies", edition.techs)
    held = []
    for tech in techs:
        if not isinstance(tech, str) or tech not in edition.techs:
            raise CombatInputError(field_name, f"unknown technology {tech!r}", edition.techs)
        held.append(tech)
    return frozenset(held)


def edition_units(edition: Edition, techs: frozenset[str], lowluck: bool) -> dict[str, UnitType]:
    """The edition's units with the held technologies applied (Low Luck overrides last)."""
    units = dict(edition.units)
    for tech_name in sorted(techs):
        tech = edition.techs[tech_name]
        sections = (tech.units, tech.lowluck) if lowluck else (tech.units,)
        for section in sections:
            for unit, fields in section.items():
                units[unit] = replace(units[unit], **fields)
    return units


def sbr_dice(edition: Edition, heavy: bool) -> int:
    """Dice one bomber rolls for bombing damage: 1, or the heavy-bomber tech's count."""
    if not heavy:
        return 1
    tech = edition.techs.get("heavy_bombers")
    if tech is None or tech.sbr_dice is None:
        raise CombatInputError("heavy", f"edition {edition.key!r} has no heavy bombers")
    return tech.sbr_dice
