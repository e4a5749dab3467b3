"""Axis & Allies battles in notation: ``[a&a] [edition] UNITS vs UNITS [options]``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from inspect import Parameter, signature
from types import MappingProxyType
from typing import Any

from combat.axis_allies import battle_odds, chains, fight
from combat.axis_allies.editions import available_editions, load_edition
from combat.axis_allies.odds import estimated_work
from combat.axis_allies.rules import RULES
from combat.axis_allies.setup import BattleSetup, build_setup
from combat.battle_notation.words import (
    VS,
    Sources,
    Words,
    check_arguments,
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
#: The most work (``_exact_is_affordable``) the exact solver is given for a battle with standard
#: dice off its fast path; past it the odds are a Monte Carlo estimate (up to about 6.5 s). The
#: stand-alone odds API stops such a solve after COMBAT_SECONDS of wall time, which would make
#: a room's answer depend on the server's load; this limit is a count, so the same request
#: always gets the same odds. Measured: 28,200 -> 0.9 s, 52,142 -> 3.7 s, 139,320 -> 18 s.
MAX_EXACT_DICE_WORK = 40_000
#: The same on the fast path (chain cells x hit points): 300 v 300 infantry 54,000,000 -> 1 s,
#: an AA battle of 63 v 56 units 77,000,000 -> 1.9 s, 405 v 400 units 132,000,000 -> 2.9 s,
#: 600 v 600 432,000,000 -> 16 s (where the Monte Carlo estimate takes about 6.5 s).
MAX_EXACT_CHAIN_WORK = 200_000_000
SYSTEM_WORD = "a&a"

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
        # Units of the 1942 2E / Global 1940 2E / Anniversary editions.
        "cruiser": ("cru", "cruiser", "cruisers"),
        "mech_infantry": ("mech", "mech_infantry", "mech-infantry", "mechs"),
        "tactical_bomber": ("tac", "tactical_bomber", "tactical-bomber", "tacs"),
        "aaa": ("aaa",),
        "marine": ("mar", "marine", "marines"),
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
_COMPACT = re.compile(r"(\d+)([a-z_&-]+)")
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
    techs = {side: extra.get(f"techs.{side}", []) for side in _SIDES}
    options = {
        key: extra[key]
        for key in (
            "attacker_first_strike_subs",
            "defender_first_strike_subs",
            "bombard_separately",
        )
        if key in extra
    }
    arguments = canonical(
        {
            "attacker": attacker,
            "defender": defender,
            "rules": chosen.get("rules", settings.get("rules", "dice")),
            "edition": chosen.get("edition", settings.get("edition", "revised")),
            "rounds": extra.get("rounds"),
            "amphibious": extra.get("amphibious", False),
            "attacker_order": extra.get("attacker_order"),
            "defender_order": extra.get("defender_order"),
            "techs": techs,
            "options": options,
        }
    )
    checked(words, sources, lambda: _check_units(words, sources, arguments))
    checked(words, sources, lambda: build_setup(**fight_arguments(arguments)))
    return arguments


def _check_units(words: Words, sources: Sources, arguments: Mapping[str, Any]) -> None:
    units = load_edition(arguments["edition"]).units
    for side in _SIDES:
        for name in arguments[side]:
            if name not in units:
                raise words.error(
                    f"{arguments['edition'].capitalize()} has no {name}",
                    [AA_UNITS[n][0] for n in units if n in AA_UNITS],
                    at=sources.positions[f"{side}.{name}"],
                )


def _aa_force(words: Words, side: str, sources: Sources) -> dict[str, int]:
    """``[COUNT] UNIT { [COUNT] UNIT }`` (also ``3inf``), up to the first other word."""
    force: dict[str, int] = {}
    start = words.i
    while (word := words.peek()) is not None:
        count, name = _counted_unit(words, word)
        if name is None:
            break
        sources.mark(f"{side}.{name}", words.i - 1)  # the unit word
        force[name] = force.get(name, 0) + count
    if words.i == start:
        raise words.error(f"expected the {side}'s units, e.g. 3 inf 1 art", _UNIT_ABBREVIATIONS)
    sources.mark(side, start)
    return {name: n for name, n in force.items() if n}


def _counted_unit(words: Words, word: str) -> tuple[int, str | None]:
    """(count, unit) of the words at the cursor, taken; (0, None) when they are not a unit."""
    compact = _COMPACT.fullmatch(word)
    if compact and _unit_name(compact[2]) is not None:
        words.take()
        return int(compact[1]), _unit_name(compact[2])
    if word.isdigit():
        words.take()
        unit_word = words.peek()
        if unit_word is None or _unit_name(unit_word) is None:
            raise words.error("expected a unit after the count", _UNIT_ABBREVIATIONS)
        words.take()
        return int(word), _unit_name(unit_word)
    name = _unit_name(word)
    if name is not None:
        words.take()
    return 1, name


_AA_OPTION_WORDS = (
    "dice",
    "lowluck",
    "chess",
    *available_editions(),
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
            tech = _tech_name(words.take("a technology, e.g. heavy_bombers"))
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
    text = words.take("units joined by commas, e.g. inf,art")
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


#: ``fight``'s optional arguments and their defaults, read from its signature (the dice apart).
FIGHT_DEFAULTS: Mapping[str, Any] = MappingProxyType(
    {
        name: parameter.default
        for name, parameter in signature(fight).parameters.items()
        if parameter.kind is Parameter.KEYWORD_ONLY and name != "dice"
    }
)


def canonical(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The one form of a battle's arguments: attacker, defender, rules and edition always; the
    other options only when they differ from the default (techs sorted, and a ``{"attacker",
    "defender"}`` mapping only when the defender holds one; zero counts and options dropped).

    Values of the wrong type are kept as they are, for the resolver to refuse by name.
    """
    check_arguments(arguments, ("attacker", "defender"), tuple(FIGHT_DEFAULTS))
    out: dict[str, Any] = {
        "attacker": _force(arguments["attacker"]),
        "defender": _force(arguments["defender"]),
        "rules": arguments.get("rules", "dice"),
        "edition": arguments.get("edition", "revised"),
    }
    if arguments.get("rounds") is not None:
        out["rounds"] = arguments["rounds"]
    if arguments.get("amphibious") is not False and "amphibious" in arguments:
        out["amphibious"] = arguments["amphibious"]
    for key in ("attacker_order", "defender_order"):
        if arguments.get(key):
            out[key] = _listed(arguments[key])
    techs = _techs(arguments.get("techs"))
    if techs:
        out["techs"] = techs
    options = arguments.get("options")
    if isinstance(options, Mapping):
        options = {key: value for key, value in options.items() if value}
    if options:
        out["options"] = options
    return out


def _force(force: Any) -> Any:
    if isinstance(force, Mapping):
        return {name: count for name, count in force.items() if count != 0}
    return force


def _listed(value: Any) -> Any:
    return list(value) if isinstance(value, list | tuple) else value


def _techs(techs: Any) -> Any:
    if isinstance(techs, Mapping) and set(techs) <= set(_SIDES):
        attacker = _sorted(techs.get("attacker", ()))
        defender = _sorted(techs.get("defender", ()))
        return {"attacker": attacker, "defender": defender} if defender else attacker
    return _sorted(techs) if techs else techs


def _sorted(names: Any) -> Any:
    if isinstance(names, list | tuple) and all(isinstance(n, str) for n in names):
        return sorted(names)
    return names


def fight_arguments(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments as ``fight`` / ``build_setup`` take them (every optional one present)."""
    check_arguments(arguments, ("attacker", "defender"), tuple(FIGHT_DEFAULTS))
    return {
        "attacker": arguments["attacker"],
        "defender": arguments["defender"],
        **{key: arguments.get(key, default) for key, default in FIGHT_DEFAULTS.items()},
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
    """The battle's odds as the odds API computes them: exact, or a Monte Carlo estimate with a
    fixed seed past the exact solver's own limits or this module's (``_exact_is_affordable``)."""
    kwargs = fight_arguments(arguments)
    attacker, defender = kwargs.pop("attacker"), kwargs.pop("defender")
    if _exact_is_affordable(build_setup(attacker=attacker, defender=defender, **kwargs)):
        try:
            return battle_odds(attacker, defender, **kwargs).as_dict()
        except CombatInputError as error:
            if error.field != "method":
                raise
    units = estimated_work(attacker, defender, method="monte-carlo", runs=1, **kwargs)
    runs = max(1, min(MONTE_CARLO_RUNS, MAX_MONTE_CARLO_WORK // max(units, 1)))
    odds = battle_odds(attacker, defender, method="monte-carlo", runs=runs, seed=0, **kwargs)
    return odds.as_dict()


def _exact_is_affordable(setup: BattleSetup) -> bool:
    """Whether the exact solver's work stays within this module's counted limits.

    Both measures are a number of cells or states times the hit points in play, which the hit
    distributions computed for each of them grow with. The fast path (whole battles without
    submarines: with them, destroyer cover can send even an applicable battle down the general
    path) counts its chain cells (with an AA gun, every starting force's); the general path,
    with standard dice, its states (hit points left on each side). Low Luck and A&A Chess are
    cheap on the general path.
    """
    attacker_hp = setup.attacker.hit_points(setup.attacker.initial)
    defender_hp = setup.defender.hit_points(setup.defender.initial)
    hit_points = attacker_hp + defender_hp
    subs = any(
        side.units[name].submarine
        for side in (setup.attacker, setup.defender)
        for name in side.order
    )
    if setup.rounds is None and chains.applicable(setup) and not subs:
        return chains.size(setup) * hit_points <= MAX_EXACT_CHAIN_WORK
    if not setup.rules.per_die:
        return True
    states = (attacker_hp + 1) * (defender_hp + 1)
    return states * hit_points <= MAX_EXACT_DICE_WORK


_AA_RESULT_CHANCE = {
    "attacker": "attacker_wins",
    "defender": "defender_wins",
    "draw": "draw",
    "stalemate": "stalemate",
}


def resolve(arguments: Mapping[str, Any], dice: Dice) -> tuple[dict[str, Any], dict[str, Any], str]:
    kwargs = fight_arguments(arguments)
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
