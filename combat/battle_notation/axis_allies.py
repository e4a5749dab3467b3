"""Axis & Allies battles in notation: ``[a&a] [edition] UNITS vs UNITS [options]``."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from combat.axis_allies import battle_odds, fight
from combat.axis_allies.editions import available_editions, load_edition
from combat.axis_allies.odds import estimated_work
from combat.axis_allies.rules import RULES
from combat.axis_allies.setup import build_setup
from combat.battle_notation.words import (
    VS,
    Sources,
    Words,
    checked,
    once,
    percent,
    setting,
)
from combat.dice import Dice
from combat.errors import CombatInputError

#: The largest Monte Carlo estimate (runs x units) made for a battle past the exact solver, the
#: stand-alone odds API's own limit (combat.api.views.MAX_MONTE_CARLO_WORK).
MAX_MONTE_CARLO_WORK = 500_000
MONTE_CARLO_RUNS = 2000
SYSTEM_WORD = "a&a"

# --- Axis & Allies --------------------------------------------------------------------------

#: Each unit's canonical abbreviation (the notation's own) and the words accepted for it. Plural
#: "s" is accepted on any of them.
AA_UNITS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "infantry": ("inf", "infantry", "infantries", "infs"),
        "artillery": ("art", "arty", "artillery", "artilleries"),
        "armor": ("arm", "armor", "armour", "tank", "tnk", "arms"),
        "fighter": ("ftr", "fighter", "fig", "fgt"),
        "bomber": ("bmb", "bomber", "bom", "hb"),
        "submarine": ("sub", "submarine"),
        "transport": ("tra", "trn", "trans", "transport", "tpt"),
        "destroyer": ("des", "destroyer", "dd", "dst"),
        "battleship": ("bb", "bat", "bs", "battleship"),
        "carrier": ("car", "ac", "cv", "carrier"),
        "aa_gun": ("aa", "aa_gun", "aa-gun", "aag", "aagun"),
    }
)
_UNIT_WORDS: Mapping[str, str] = MappingProxyType(
    {word: name for name, aliases in AA_UNITS.items() for word in aliases}
)
_UNIT_ABBREVIATIONS = tuple(aliases[0] for aliases in AA_UNITS.values())
_RULES_WORDS: Mapping[str, str] = MappingProxyType(
    {
        **{key: key for key in RULES},
        "ll": "lowluck",
        "low-luck": "lowluck",
        "low_luck": "lowluck",
        "diceless": "chess",
    }
)
_TECH_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "jets": "jet_fighters",
        "heavies": "heavy_bombers",
        "supersubs": "super_submarines",
    }
)
_AMPHIBIOUS = ("amphibious", "amphib")
_SIDES = ("attacker", "defender")


def _unit_name(word: str) -> str | None:
    name = _UNIT_WORDS.get(word)
    if name is None and word.endswith("s"):
        name = _UNIT_WORDS.get(word[:-1])
    return name


def _tech_name(word: str) -> str:
    word = _TECH_ALIASES.get(word, word)
    return word.replace("-", "_")


def parse(words: Words, settings: dict[str, Any]) -> dict[str, Any]:
    sources = Sources()
    chosen: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    _aa_options(words, settings, chosen, extra, sources)
    attacker = _aa_force(words, "attacker", sources)
    if words.peek() not in VS:
        raise words.error("expected a unit (e.g. 3 inf) or vs", _UNIT_ABBREVIATIONS)
    words.take()
    defender = _aa_force(words, "defender", sources)
    _aa_options(words, settings, chosen, extra, sources)
    if words.peek() is not None:
        raise words.error("expected an option", _AA_OPTION_WORDS)
    arguments: dict[str, Any] = {
        "attacker": attacker,
        "defender": defender,
        "rules": chosen.get("rules", settings.get("rules", "dice")),
        "edition": chosen.get("edition", settings.get("edition", "revised")),
    }
    arguments.update(_aa_extras(extra))
    checked(words, sources, lambda: _check_units(words, sources, arguments))
    checked(words, sources, lambda: build_setup(**_fight_arguments(arguments)))
    return arguments


def _check_units(words: Words, sources: Sources, arguments: Mapping[str, Any]) -> None:
    units = load_edition(arguments["edition"]).units
    for side in _SIDES:
        for name in arguments[side]:
            if name not in units:
                raise words.error(
                    f"{name} is not a unit of the {arguments['edition']} edition",
                    [AA_UNITS[n][0] for n in units if n in AA_UNITS],
                    at=sources.positions[f"{side}.{name}"],
                )


def _aa_force(words: Words, side: str, sources: Sources) -> dict[str, int]:
    force: dict[str, int] = {}
    start = words.i
    while True:
        word = words.peek()
        if word is None:
            break
        count = 1
        if word.isdigit():
            unit_word = words.peek(1)
            if unit_word is None or _unit_name(unit_word) is None:
                words.i += 1
                raise words.error("expected a unit after the count", _UNIT_ABBREVIATIONS)
            count = int(word)
            words.i += 1
        elif _unit_name(word) is None:
            break
        at = words.i
        name = _unit_name(words.take())
        assert name is not None
        sources.mark(f"{side}.{name}", at)
        force[name] = force.get(name, 0) + count
    if words.i == start:
        raise words.error(f"expected the {side}'s units, e.g. 3 inf 1 art", _UNIT_ABBREVIATIONS)
    sources.mark(side, start)
    return {name: n for name, n in force.items() if n}


_AA_OPTION_WORDS = (
    "dice",
    "lowluck",
    "chess",
    "classic",
    "revised",
    "rounds N",
    "amphibious",
    "bombard-separately",
    "attacker-first-strike-subs N",
    "defender-first-strike-subs N",
    "tech NAME",
    "defender-tech NAME",
    "attacker-order UNIT,UNIT",
    "defender-order UNIT,UNIT",
)


def _aa_options(
    words: Words,
    settings: dict[str, Any],
    chosen: dict[str, Any],
    extra: dict[str, Any],
    sources: Sources,
) -> None:
    """Option words, until a word that is not one (a unit, vs, or the end)."""
    while (word := words.peek()) is not None:
        at = words.i
        if word in _RULES_WORDS:
            words.take()
            setting(words, settings, chosen, "rules", _RULES_WORDS[word])
            sources.mark("rules", at)
        elif word in available_editions():
            words.take()
            setting(words, settings, chosen, "edition", word)
            sources.mark("edition", at)
        elif word in ("rounds", "round"):
            words.take()
            once(words, extra, "rounds", words.count("the number of rounds"), at)
            sources.mark("rounds", at)
        elif word in _AMPHIBIOUS:
            words.take()
            once(words, extra, "amphibious", True, at)
            sources.mark("amphibious", at)
        elif word in ("bombard-separately", "bombard_separately"):
            words.take()
            once(words, extra, "bombard_separately", True, at)
            sources.mark("options", at)
        elif word.replace("_", "-") in (
            "attacker-first-strike-subs",
            "defender-first-strike-subs",
        ):
            words.take()
            key = word.replace("-", "_")
            once(words, extra, key, words.count("how many submarines fire first"), at)
            sources.mark(f"options.{key}", at)
        elif word in ("tech", "attacker-tech", "defender-tech"):
            words.take()
            side = "defender" if word == "defender-tech" else "attacker"
            tech_at = words.i
            tech = _tech_name(words.take())
            held = extra.setdefault(f"techs.{side}", [])
            if tech in held:
                raise words.error(f"{tech} is already given", at=tech_at)
            held.append(tech)
            sources.mark(f"techs.{side}", tech_at)
            sources.mark("techs", tech_at)
        elif word.replace("_", "-") in ("attacker-order", "defender-order"):
            words.take()
            key = word.replace("-", "_")
            names_at = words.i
            once(words, extra, key, _unit_list(words), at)
            sources.mark(key, names_at)
        else:
            return


def _unit_list(words: Words) -> list[str]:
    at = words.i
    text = words.take()
    names = []
    for part in text.split(","):
        name = _unit_name(part)
        if name is None:
            raise words.error(
                f"{part!r} is not a unit: expected units joined by commas, e.g. inf,art",
                _UNIT_ABBREVIATIONS,
                at=at,
            )
        names.append(name)
    return names


def _aa_extras(extra: Mapping[str, Any]) -> dict[str, Any]:
    """The optional ``fight`` arguments in canonical form (defaults left out)."""
    out: dict[str, Any] = {}
    if extra.get("rounds") is not None:
        out["rounds"] = extra["rounds"]
    if extra.get("amphibious"):
        out["amphibious"] = True
    for key in ("attacker_order", "defender_order"):
        if extra.get(key):
            out[key] = list(extra[key])
    attacker_techs = sorted(extra.get("techs.attacker", ()))
    defender_techs = sorted(extra.get("techs.defender", ()))
    if defender_techs:
        out["techs"] = {"attacker": attacker_techs, "defender": defender_techs}
    elif attacker_techs:
        out["techs"] = attacker_techs
    options: dict[str, Any] = {}
    for key in ("attacker_first_strike_subs", "defender_first_strike_subs"):
        if extra.get(key):
            options[key] = extra[key]
    if extra.get("bombard_separately"):
        options["bombard_separately"] = True
    if options:
        out["options"] = options
    return out


def _fight_arguments(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments as ``fight`` / ``build_setup`` take them (every optional one present)."""
    return {
        "attacker": arguments["attacker"],
        "defender": arguments["defender"],
        "rules": arguments["rules"],
        "edition": arguments["edition"],
        "rounds": arguments.get("rounds"),
        "attacker_order": arguments.get("attacker_order"),
        "defender_order": arguments.get("defender_order"),
        "amphibious": arguments.get("amphibious", False),
        "techs": arguments.get("techs", ()),
        "options": arguments.get("options"),
    }


def _units_text(force: Mapping[str, int], edition: str) -> str:
    order = list(load_edition(edition).units) if edition in available_editions() else []
    names = sorted(force, key=lambda n: (order.index(n) if n in order else len(order), n))
    return " ".join(f"{force[n]} {_abbreviation(n)}" for n in names)


def _abbreviation(name: str) -> str:
    return AA_UNITS[name][0] if name in AA_UNITS else name


def format_line(arguments: Mapping[str, Any]) -> str:
    edition = arguments["edition"]
    parts = [
        SYSTEM_WORD,
        edition,
        _units_text(arguments["attacker"], edition),
        "vs",
        _units_text(arguments["defender"], edition),
        arguments["rules"],
    ]
    if arguments.get("rounds") is not None:
        parts.append(f"rounds {arguments['rounds']}")
    if arguments.get("amphibious"):
        parts.append("amphibious")
    options = arguments.get("options") or {}
    if options.get("bombard_separately"):
        parts.append("bombard-separately")
    for key in ("attacker_first_strike_subs", "defender_first_strike_subs"):
        if options.get(key):
            parts.append(f"{key.replace('_', '-')} {options[key]}")
    techs = arguments.get("techs") or ()
    if isinstance(techs, Mapping):
        parts.extend(f"tech {t}" for t in techs.get("attacker", ()))
        parts.extend(f"defender-tech {t}" for t in techs.get("defender", ()))
    else:
        parts.extend(f"tech {t}" for t in techs)
    for key in ("attacker_order", "defender_order"):
        if arguments.get(key):
            names = ",".join(_abbreviation(n) for n in arguments[key])
            parts.append(f"{key.replace('_', '-')} {names}")
    return " ".join(parts)


def aa_odds(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The battle's odds as the odds API computes them: exact, or past the exact solver's
    limits a Monte Carlo estimate with a fixed seed (module docstring)."""
    kwargs = _fight_arguments(arguments)
    attacker, defender = kwargs.pop("attacker"), kwargs.pop("defender")
    try:
        return battle_odds(attacker, defender, **kwargs).as_dict()
    except CombatInputError as error:
        if error.field != "method":
            raise
    units = estimated_work(attacker, defender, method="monte-carlo", runs=1, **kwargs)
    runs = max(1, min(MONTE_CARLO_RUNS, MAX_MONTE_CARLO_WORK // max(units, 1)))
    odds = battle_odds(attacker, defender, method="monte-carlo", runs=runs, seed=0, **kwargs)
    return odds.as_dict()


_AA_RESULT_CHANCE = {
    "attacker": "attacker_wins",
    "defender": "defender_wins",
    "draw": "draw",
    "stalemate": "stalemate",
}


def resolve(arguments: Mapping[str, Any], dice: Dice) -> tuple[dict[str, Any], dict[str, Any], str]:
    kwargs = _fight_arguments(arguments)
    attacker, defender = kwargs.pop("attacker"), kwargs.pop("defender")
    odds = aa_odds(arguments)
    report = fight(attacker, defender, dice=dice, **kwargs).as_dict()
    chance = percent(odds[_AA_RESULT_CHANCE[report["winner"]]])
    summary = f"{_aa_summary(report, arguments['edition'])} ({chance} odds)"
    return odds, report, summary


def _aa_summary(report: Mapping[str, Any], edition: str) -> str:
    attacker_left = _units_text(report["attacker_survivors"], edition)
    defender_left = _units_text(report["defender_survivors"], edition)
    winner = report["winner"]
    if winner == "attacker":
        return f"attacker wins with {attacker_left} left"
    if winner == "draw":
        return "draw: both sides destroyed"
    if winner == "stalemate":
        return (
            f"stalemate: neither side can score; the attacker withdraws with {attacker_left}, "
            f"the defender holds with {defender_left}"
        )
    if attacker_left:
        return f"defender holds with {defender_left} left; the attacker withdraws with " + (
            attacker_left
        )
    return f"defender wins with {defender_left} left"
