"""Unit tables of the Axis & Allies editions, loaded from ``data/*.toml`` and validated.

An edition is data, not code: adding one means adding a TOML file. ``load_edition`` checks every
file on first use and fails with the file and key at fault, and ``edition_units`` applies the
technologies a side holds (and the Low Luck overrides of the heavy bomber) to the base table.
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
_INT_FIELDS = {"attack", "defense", "cost", "hits", "attack_dice", "defense_dice"}
_BOOL_FIELDS = {"submarine", "anti_sub", "bombards", "anti_aircraft", "casualty"}


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


def available_editions() -> tuple[str, ...]:
    return tuple(sorted(path.stem for path in DATA_DIR.glob("*.toml")))


def load_edition(key: str) -> Edition:
    """The validated edition ``key`` (``revised``, ``classic``); CombatInputError if unknown."""
    if not isinstance(key, str) or key not in available_editions():
        raise CombatInputError("edition", f"unknown edition {key!r}", available_editions())
    return _load_edition(key)


@cache
def _load_edition(key: str) -> Edition:
    path = DATA_DIR / f"{key}.toml"
    with path.open("rb") as handle:
        raw = tomllib.load(handle)
    return _parse_edition(key, raw, path.name)


def _parse_edition(key: str, raw: dict[str, Any], source: str) -> Edition:
    def fail(where: str, message: str) -> EditionDataError:
        return EditionDataError(f"{source}: {where}: {message}")

    if raw.get("sub_first_strike") not in ("attacker", "both"):
        raise fail("sub_first_strike", "must be 'attacker' or 'both'")
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
    )


def _parse_unit(name: str, spec: dict[str, Any], fail) -> UnitType:
    where = f"units.{name}"
    if spec.get("kind") not in KINDS:
        raise fail(f"{where}.kind", f"must be one of {', '.join(KINDS)}")
    for required in ("attack", "defense", "cost"):
        if required not in spec:
            raise fail(where, f"missing {required!r}")
    _check_fields(where, spec, fail, allowed=_INT_FIELDS | _BOOL_FIELDS | {"kind", "supports"})
    supports = spec.get("supports", {})
    if not all(isinstance(v, int) and v > 0 for v in supports.values()):
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
