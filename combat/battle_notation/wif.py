"""World in Flames 2d10 land battles in notation: ``wif ATTACK vs DEFENCE [modifiers]``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from functools import cache
from types import MappingProxyType
from typing import Any

from combat.battle_notation.words import (
    SIGNED,
    Sources,
    Words,
    attack_and_defense,
    attack_and_defense_text,
    check_arguments,
    checked,
    number_text,
    once,
    percent,
    setting,
    to_number,
)
from combat.crt.wif import (
    COLUMNS,
    TERRAINS,
    WEATHERS,
    WifModifiers,
    wif_land_odds,
    wif_land_resolve,
    wif_tables,
)
from combat.dice import Dice

SYSTEM_WORD = "wif"

_WIF_FLAGS: Mapping[str, str] = MappingProxyType(
    {
        "city": "city",
        "river": "all_across_river_or_invading",
        "invading": "all_across_river_or_invading",
        "all_across_river_or_invading": "all_across_river_or_invading",
        "all-across-river-or-invading": "all_across_river_or_invading",
    }
)
_WIF_WEATHER_ALIASES: Mapping[str, str] = MappingProxyType({"winter": "snow"})
_WIF_FRACTIONAL = ("fractional", "fractional_odds", "fractional-odds", "option-26")


@cache
def _wif_fields() -> dict[str, Any]:
    return {spec.name: spec for spec in fields(WifModifiers)}


def _wif_default(name: str) -> Any:
    return getattr(_no_wif_modifiers(), name)


@cache
def _no_wif_modifiers() -> WifModifiers:
    return WifModifiers()


def parse(words: Words, settings: dict[str, Any]) -> dict[str, Any]:
    sources = Sources()
    attack, defense = attack_and_defense(words, sources, "factors")
    chosen: dict[str, Any] = {}
    modifiers: dict[str, Any] = {}
    options: list[str] = []
    known_options = wif_tables().options
    while (word := words.peek()) is not None:
        at = words.i
        words.take()
        if word in COLUMNS:
            once(words, chosen, "column", word, at)
            sources.mark("column", at)
        elif SIGNED.fullmatch(word) or word == "drm":
            value = words.signed("the die-roll modifier") if word == "drm" else to_number(word)
            once(words, chosen, "drm", value, at)
            sources.mark("drm", at)
        elif word in WEATHERS or word in _WIF_WEATHER_ALIASES:
            once(words, modifiers, "weather", _WIF_WEATHER_ALIASES.get(word, word), at)
            sources.mark("modifiers.weather", at)
        elif word in TERRAINS:
            once(words, modifiers, "terrain", word, at)
            sources.mark("modifiers.terrain", at)
        elif word in _WIF_FLAGS:
            once(words, modifiers, _WIF_FLAGS[word], True, at)
            sources.mark(f"modifiers.{_WIF_FLAGS[word]}", at)
        elif word in _WIF_FRACTIONAL:
            setting(words, settings, chosen, "fractional_odds", True)
            sources.mark("fractional_odds", at)
        elif word in known_options:
            if "options" in settings and word not in settings["options"]:
                raise words.error("this room does not play this option", settings["options"], at=at)
            if word in options:
                raise words.error(f"option {word} is already given", at=at)
            options.append(word)
            sources.mark("modifiers.options", at)
        elif "=" in word:
            _count_assignment(words, word, at, modifiers, sources)
        else:
            raise words.error("expected a WiF modifier", _WIF_WORDS, at=at)
    option_set = set(options) | set(settings.get("options", ()))
    if option_set:
        modifiers["options"] = sorted(option_set)
    arguments = canonical(
        {
            "attack": attack,
            "defense": defense,
            **chosen,
            "modifiers": modifiers,
            "fractional_odds": chosen.get(
                "fractional_odds", settings.get("fractional_odds", False)
            ),
        }
    )
    checked(words, sources, lambda: wif_land_odds(**arguments))
    return arguments


def _count_assignment(
    words: Words, word: str, at: int, modifiers: dict[str, Any], sources: Sources
) -> None:
    """``NAME=N`` (a count of ``WifModifiers``) or ``divisions.NAME=N``."""
    key, _, text = word.partition("=")
    name = key.replace("-", "_")
    if name.startswith("divisions."):
        count_name = name.split(".", 1)[1]
        divisions = modifiers.setdefault("divisions", {})
        if count_name in divisions:
            raise words.error(f"{name} is already given", at=at)
        divisions[count_name] = _count_value(words, text, at)
        sources.mark(f"modifiers.{name}", at)
        sources.mark("modifiers.divisions", at)
        return
    specs = _wif_fields()
    spec = specs.get(name)
    if spec is None or spec.metadata["kind"] not in ("count", "optional_count"):
        counts = [s for s, f in specs.items() if f.metadata["kind"].endswith("count")]
        raise words.error(f"{key!r} is not a count of the WiF modifiers", counts, at=at)
    once(words, modifiers, name, _count_value(words, text, at), at)
    sources.mark(f"modifiers.{name}", at)


_WIF_WORDS = (
    "assault",
    "blitz",
    "+N / -N (die-roll modifier)",
    *WEATHERS,
    "winter",
    *TERRAINS,
    "city",
    "river",
    "fractional",
    "OPTION (dif-2 ...)",
    "COUNT=N (attacking_arm=2 ...)",
    "divisions.COUNT=N",
)


def _count_value(words: Words, text: str, at: int) -> int:
    if not text.isdigit():
        raise words.error("expected a whole number after =", at=at)
    return int(text)


#: ``wif_land_odds``'s optional arguments and their defaults.
ODDS_DEFAULTS: Mapping[str, Any] = MappingProxyType(
    {"column": "assault", "drm": 0, "modifiers": None, "fractional_odds": False}
)


def canonical(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The one form of a battle's arguments: every argument present, and in ``modifiers`` only
    the fields that differ from their default (options sorted, zero divisions dropped).

    Values of the wrong type are kept as they are, for the resolver to refuse by name.
    """
    check_arguments(arguments, ("attack", "defense"), tuple(ODDS_DEFAULTS))
    out = {**ODDS_DEFAULTS, **arguments}
    out["modifiers"] = _modifiers(out["modifiers"])
    return out


def _modifiers(modifiers: Any) -> Any:
    """The situation without the fields left at their default (mappings and lists copied)."""
    if modifiers is None:
        return {}
    if not isinstance(modifiers, Mapping):
        return modifiers
    defaults = {spec.name for spec in fields(WifModifiers)}
    out: dict[str, Any] = {}
    for name, value in modifiers.items():
        if name == "divisions" and isinstance(value, Mapping):
            kept = {k: v for k, v in value.items() if v != 0}
            if kept:
                out[name] = kept
        elif name == "options" and isinstance(value, list | tuple | set | frozenset):
            if value:
                out[name] = sorted(value)
        elif name not in defaults or value != _wif_default(name):
            out[name] = value
    return out


def format_line(arguments: Mapping[str, Any]) -> str:
    parts = [SYSTEM_WORD, *attack_and_defense_text(arguments), arguments["column"]]
    if arguments.get("drm"):
        parts.append(number_text(arguments["drm"], signed=True))
    modifiers = arguments.get("modifiers") or {}
    for name in ("weather", "terrain"):
        if name in modifiers:
            parts.append(modifiers[name])
    for name in ("city", "all_across_river_or_invading"):
        if modifiers.get(name):
            parts.append("city" if name == "city" else "river")
    if arguments.get("fractional_odds"):
        parts.append("fractional")
    parts.extend(sorted(modifiers.get("options", ())))
    for name, spec in _wif_fields().items():
        if spec.metadata["kind"] in ("count", "optional_count") and name in modifiers:
            parts.append(f"{name}={modifiers[name]}")
    for name, count in sorted((modifiers.get("divisions") or {}).items()):
        parts.append(f"divisions.{name}={count}")
    return " ".join(parts)


def resolve(arguments: Mapping[str, Any], dice: Dice) -> tuple[dict[str, Any], dict[str, Any], str]:
    odds = wif_land_odds(**arguments).as_dict()
    result = wif_land_resolve(**arguments, dice=dice).as_dict()
    code = result["code"]
    chance = percent(odds["distribution"][code])
    summary = f"{code} on row {result['row']}: {result['outcome']['summary']} ({chance} odds)"
    return odds, result, summary
