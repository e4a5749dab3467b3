"""Battle requests in a line of text, for rooms whose players fight on their own boards (issue 18).

A room's journal takes lines such as ``3 inf 1 art 2 arm vs 4 inf 1 ftr lowluck`` or
``wif 18 vs 6 blitz +2 winter``; ``parse_battle`` turns one into a ``BattleRequest`` (the system
and the resolver's keyword arguments, as the stand-alone API bodies carry them),
``format_battle`` writes the canonical line back, and ``resolve_battle`` rolls it with injected
dice and returns the result with the exact odds it had. Pure Python: the room (``games``) loads
the line and the dice, calls these and stores the dict. The grammar, word by word, is in
``docs/battle_notation.md``.

Decisions (where the issue is silent):

* **No system word** means Axis & Allies, unless the room passes ``system``: the issue's own
  example ``3 inf 1 art 2 arm vs 4 inf 1 ftr lowluck`` has none. World in Flames and France 1944
  lines start with ``wif`` / ``f44`` outside a room of that system. A system word that differs
  from the room's ``system`` is refused.
* **The room's variant wins**: ``variant`` (A&A ``edition`` and ``rules``; WiF
  ``fractional_odds`` and ``options``) fills what the line leaves out, and a line that says
  otherwise (``dice`` in a Low Luck room) is refused naming the word: a room plays one rule set,
  and a player must not pick the luckier rules battle by battle. Repeating the room's setting is
  allowed, so a canonical line (which always spells out edition and rules) parses in its room.
* **Canonical arguments**: A&A always carries attacker, defender, rules and edition, and the
  other ``fight`` options only when they differ from the default; WiF always carries attack,
  defense, column, drm, modifiers (only the situation's non-default fields, options as a sorted
  list) and fractional_odds; France 1944 all eight arguments. So two lines that mean the same
  battle give equal requests, and ``parse_battle(format_battle(r)) == r``.
* **WiF ``winter``** is not one of the CRT's weathers (fine, rain, storm, snow, blizzard); the
  issue's example uses it, and it is read as ``snow``, the ordinary winter weather (a blizzard is
  written ``blizzard``). The canonical line writes ``snow``.
* **France 1944 ``assault``** (and ``deliberate``) is read as the set-piece combat, the planned
  attack; ``mobile`` is the other type. Morale is ``morale 4 vs 3`` (attacker, then defender
  before adjustments), the units ``units 5`` (HQs not counted).
* **A&A unit words** may be singular, plural, abbreviated or full (``inf``, ``infantry``,
  ``tanks``, ``bb``...); a count before a unit word is optional (``ftr`` is one fighter) and the
  same unit named twice adds up. A unit of the other edition (``art`` in classic) is refused
  naming the word.
* **Odds**: A&A odds are ``combat.axis_allies.battle_odds`` exactly, within the exact solver's own
  limits; a battle past them (hundreds of units, or thousands of AA outcomes) gets a Monte Carlo
  estimate with a fixed seed and the runs the stand-alone odds API allows (at most
  ``MAX_MONTE_CARLO_WORK`` runs x units), marked ``"method": "monte-carlo"``. No wall-clock
  limit is used, so the answer depends only on the request and the dice. The CRT systems' odds
  are the odds functions' (``wif_land_odds`` / ``france_1944_odds``), which are cheap.
* Every line is checked by the resolver when parsed (not only when rolled), and a resolver error
  is reported against the word that set the argument at fault.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, fields
from decimal import Decimal
from functools import cache
from types import MappingProxyType
from typing import Any

from combat.axis_allies import battle_odds, fight
from combat.axis_allies.editions import available_editions, load_edition
from combat.axis_allies.odds import estimated_work
from combat.axis_allies.rules import RULES
from combat.axis_allies.setup import build_setup
from combat.crt.france_1944 import france_1944_odds, france_1944_resolve
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
from combat.errors import CombatInputError

SYSTEMS = ("axis_allies", "wif", "france_1944")

#: The word each system's canonical line starts with, and the words accepted for it.
SYSTEM_WORDS: Mapping[str, str] = MappingProxyType(
    {"axis_allies": "a&a", "wif": "wif", "france_1944": "f44"}
)
_SYSTEM_ALIASES: Mapping[str, str] = MappingProxyType(
    {
        "a&a": "axis_allies",
        "aa": "axis_allies",
        "axis&allies": "axis_allies",
        "axis_allies": "axis_allies",
        "axis-allies": "axis_allies",
        "wif": "wif",
        "world_in_flames": "wif",
        "world-in-flames": "wif",
        "f44": "france_1944",
        "france_1944": "france_1944",
        "france-1944": "france_1944",
        "france1944": "france_1944",
    }
)

#: The largest Monte Carlo estimate (runs x units) made for a battle past the exact solver, the
#: stand-alone odds API's own limit (combat.api.views.MAX_MONTE_CARLO_WORK).
MAX_MONTE_CARLO_WORK = 500_000
MONTE_CARLO_RUNS = 2000

_VS = ("vs", "v", "versus", "against")
_NUMBER = re.compile(r"\d+(\.\d+)?")
_SIGNED = re.compile(r"[+-]\d+(\.\d+)?")


class BattleNotationError(CombatInputError):
    """A line that is not a battle request: ``word`` (None at the end of the line) is at fault.

    ``field`` is always ``notation``; the message names the word, its position (1-based) and
    what was expected there.
    """

    def __init__(
        self,
        word: str | None,
        position: int | None,
        message: str,
        allowed: Sequence[object] | None = None,
    ) -> None:
        self.word = word
        self.position = position
        where = "the line ends" if word is None else f"{word!r} (word {(position or 0) + 1})"
        super().__init__("notation", f"{where}: {message}", allowed)


@dataclass(frozen=True)
class BattleRequest:
    """A battle in a resolver's own terms: ``arguments`` are its keyword arguments as JSON."""

    system: str
    arguments: dict[str, Any]


# --- tokens ---------------------------------------------------------------------------------


class _Words:
    """The line's words with a cursor; every error names the word at the cursor (or the end)."""

    def __init__(self, line: str) -> None:
        self.words = line.lower().split()
        self.i = 0

    def peek(self, ahead: int = 0) -> str | None:
        j = self.i + ahead
        return self.words[j] if j < len(self.words) else None

    def take(self) -> str:
        word = self.peek()
        if word is None:
            raise BattleNotationError(None, None, "the battle is not complete")
        self.i += 1
        return word

    def error(
        self, message: str, allowed: Sequence[object] | None = None, at: int | None = None
    ) -> BattleNotationError:
        j = self.i if at is None else at
        word = self.words[j] if j < len(self.words) else None
        return BattleNotationError(word, j if word is not None else None, message, allowed)

    def number(self, what: str) -> int | float:
        word = self.peek()
        if word is None or not _NUMBER.fullmatch(word):
            raise self.error(f"expected {what} (a number such as 12 or 4.5)")
        self.i += 1
        return _to_number(word)

    def count(self, what: str) -> int:
        word = self.peek()
        if word is None or not word.isdigit():
            raise self.error(f"expected {what} (a whole number)")
        self.i += 1
        return int(word)

    def signed(self, what: str) -> int | float:
        word = self.peek()
        if word is None or not (_SIGNED.fullmatch(word) or _NUMBER.fullmatch(word)):
            raise self.error(f"expected {what} (a number such as +2 or -1)")
        self.i += 1
        return _to_number(word)


def _to_number(word: str) -> int | float:
    text = word.lstrip("+")
    return float(text) if "." in text else int(text)


def _number_text(value: int | float, signed: bool = False) -> str:
    """A number as the notation writes it: whole numbers bare, others as their decimal."""
    text = format(Decimal(repr(value)), "f") if isinstance(value, float) else str(value)
    if signed and not text.startswith("-"):
        text = "+" + text
    return text


class _Sources:
    """Which word set which argument, so a resolver's error can name the word at fault."""

    def __init__(self) -> None:
        self.positions: dict[str, int] = {}

    def mark(self, field: str, position: int) -> None:
        self.positions.setdefault(field, position)

    def wrap(self, words: _Words, error: CombatInputError) -> BattleNotationError:
        field = error.field
        while True:
            if field in self.positions:
                return words.error(
                    f"{error.field}: {error.message}", error.allowed, at=self.positions[field]
                )
            if "." not in field:
                break
            field = field.rsplit(".", 1)[0]
        return words.error(f"{error.field}: {error.message}", error.allowed, at=0)


def _checked(words: _Words, sources: _Sources, check: Callable[[], object]) -> None:
    try:
        check()
    except BattleNotationError:
        raise
    except CombatInputError as error:
        raise sources.wrap(words, error) from error


# --- the public functions -------------------------------------------------------------------


def parse_battle(
    line: str, *, system: str | None = None, variant: Mapping[str, Any] | None = None
) -> BattleRequest:
    """The battle ``line`` asks for; ``system`` and ``variant`` are the room's (module docstring).

    Raises ``BattleNotationError`` (a ``CombatInputError``) naming the word at fault.
    """
    if system is not None and system not in SYSTEMS:
        raise CombatInputError("system", f"unknown game system {system!r}", SYSTEMS)
    if not isinstance(line, str):
        raise CombatInputError("notation", "must be a line of text")
    words = _Words(line)
    if words.peek() is None:
        raise BattleNotationError(None, None, "empty: expected a battle such as 3 inf vs 2 inf")
    named = _SYSTEM_ALIASES.get(words.peek() or "")
    if named is not None:  # a first word "aa" is the system: AA guns never attack
        if system is not None and named != system:
            raise words.error(f"this room plays {SYSTEM_WORDS[system]}, not {named}")
        words.take()
        system = named
    system = system or "axis_allies"
    settings = _variant(system, variant)
    arguments = _PARSERS[system](words, settings)
    return BattleRequest(system, arguments)


def format_battle(request: BattleRequest) -> str:
    """The canonical line of ``request``: every setting spelled out, defaults left out."""
    if request.system not in SYSTEMS:
        raise CombatInputError("system", f"unknown game system {request.system!r}", SYSTEMS)
    return _FORMATTERS[request.system](request.arguments)


def resolve_battle(request: BattleRequest, dice: Dice) -> dict[str, Any]:
    """Roll ``request`` with ``dice``: the notation, the exact odds, the result and a summary.

    The same request and dice (seed and context) give the same dict; it holds only JSON values.
    """
    if request.system not in SYSTEMS:
        raise CombatInputError("system", f"unknown game system {request.system!r}", SYSTEMS)
    odds, result, summary = _RESOLVERS[request.system](request.arguments, dice)
    return _jsonable(
        {
            "system": request.system,
            "notation": format_battle(request),
            "odds": odds,
            "result": result,
            "summary": summary,
        }
    )


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | frozenset | set):
        items = [_jsonable(v) for v in value]
        return sorted(items) if isinstance(value, frozenset | set) else items
    return value


def _percent(p: float) -> str:
    return f"{p * 100:.1f}%"


_VARIANT_KEYS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "axis_allies": ("edition", "rules"),
        "wif": ("fractional_odds", "options"),
        "france_1944": (),
    }
)


def _variant(system: str, variant: Mapping[str, Any] | None) -> dict[str, Any]:
    """The room's fixed settings, checked (a room's own data: errors name ``variant.<key>``)."""
    if variant is None:
        return {}
    if not isinstance(variant, Mapping):
        raise CombatInputError("variant", "must be an object of the room's settings")
    allowed = _VARIANT_KEYS[system]
    for key in variant:
        if key not in allowed:
            raise CombatInputError(f"variant.{key}", f"not a setting of {system} rooms", allowed)
    settings = dict(variant)
    if "edition" in settings and settings["edition"] not in available_editions():
        raise CombatInputError("variant.edition", "unknown edition", available_editions())
    if "rules" in settings and settings["rules"] not in RULES:
        raise CombatInputError("variant.rules", "unknown rules", RULES)
    if "fractional_odds" in settings and not isinstance(settings["fractional_odds"], bool):
        raise CombatInputError("variant.fractional_odds", "must be true or false")
    if "options" in settings:
        options = settings["options"]
        known = wif_tables().options
        if isinstance(options, str) or not all(o in known for o in options):
            raise CombatInputError("variant.options", "must be a list of option names", known)
        settings["options"] = sorted(set(options))
    return settings


def _setting(
    words: _Words, settings: dict[str, Any], chosen: dict[str, Any], key: str, value: Any
) -> None:
    """Record ``key = value`` from the word at the cursor (already read): once, and as the room."""
    at = words.i - 1
    if key in chosen:
        raise words.error(f"{key} is already given ({chosen[key]})", at=at)
    if key in settings and settings[key] != value:
        raise words.error(f"this room plays {key} {settings[key]}", at=at)
    chosen[key] = value


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


def _parse_axis_allies(words: _Words, settings: dict[str, Any]) -> dict[str, Any]:
    sources = _Sources()
    chosen: dict[str, Any] = {}
    extra: dict[str, Any] = {}
    _aa_options(words, settings, chosen, extra, sources)
    attacker = _aa_force(words, "attacker", sources)
    if words.peek() not in _VS:
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
    _checked(words, sources, lambda: _check_units(words, sources, arguments))
    _checked(words, sources, lambda: build_setup(**_fight_arguments(arguments)))
    return arguments


def _check_units(words: _Words, sources: _Sources, arguments: Mapping[str, Any]) -> None:
    units = load_edition(arguments["edition"]).units
    for side in _SIDES:
        for name in arguments[side]:
            if name not in units:
                raise words.error(
                    f"{name} is not a unit of the {arguments['edition']} edition",
                    [AA_UNITS[n][0] for n in units if n in AA_UNITS],
                    at=sources.positions[f"{side}.{name}"],
                )


def _aa_force(words: _Words, side: str, sources: _Sources) -> dict[str, int]:
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
    words: _Words,
    settings: dict[str, Any],
    chosen: dict[str, Any],
    extra: dict[str, Any],
    sources: _Sources,
) -> None:
    """Option words, until a word that is not one (a unit, vs, or the end)."""
    while (word := words.peek()) is not None:
        at = words.i
        if word in _RULES_WORDS:
            words.take()
            _setting(words, settings, chosen, "rules", _RULES_WORDS[word])
            sources.mark("rules", at)
        elif word in available_editions():
            words.take()
            _setting(words, settings, chosen, "edition", word)
            sources.mark("edition", at)
        elif word in ("rounds", "round"):
            words.take()
            _once(words, extra, "rounds", words.count("the number of rounds"), at)
            sources.mark("rounds", at)
        elif word in _AMPHIBIOUS:
            words.take()
            _once(words, extra, "amphibious", True, at)
            sources.mark("amphibious", at)
        elif word in ("bombard-separately", "bombard_separately"):
            words.take()
            _once(words, extra, "bombard_separately", True, at)
            sources.mark("options", at)
        elif word.replace("_", "-") in (
            "attacker-first-strike-subs",
            "defender-first-strike-subs",
        ):
            words.take()
            key = word.replace("-", "_")
            _once(words, extra, key, words.count("how many submarines fire first"), at)
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
            _once(words, extra, key, _unit_list(words), at)
            sources.mark(key, names_at)
        else:
            return


def _once(words: _Words, extra: dict[str, Any], key: str, value: Any, at: int) -> None:
    if key in extra:
        raise words.error(f"{key} is already given", at=at)
    extra[key] = value


def _unit_list(words: _Words) -> list[str]:
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


def _format_axis_allies(arguments: Mapping[str, Any]) -> str:
    edition = arguments["edition"]
    parts = [
        SYSTEM_WORDS["axis_allies"],
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


def _resolve_axis_allies(
    arguments: Mapping[str, Any], dice: Dice
) -> tuple[dict[str, Any], dict[str, Any], str]:
    kwargs = _fight_arguments(arguments)
    attacker, defender = kwargs.pop("attacker"), kwargs.pop("defender")
    odds = aa_odds(arguments)
    report = fight(attacker, defender, dice=dice, **kwargs).as_dict()
    chance = _percent(odds[_AA_RESULT_CHANCE[report["winner"]]])
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


# --- World in Flames ------------------------------------------------------------------------

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


def _wif_fields() -> dict[str, Any]:
    return {spec.name: spec for spec in fields(WifModifiers)}


def _wif_default(name: str) -> Any:
    return getattr(_no_wif_modifiers(), name)


@cache
def _no_wif_modifiers() -> WifModifiers:
    return WifModifiers()


def _parse_wif(words: _Words, settings: dict[str, Any]) -> dict[str, Any]:
    sources = _Sources()
    sources.mark("attack", words.i)
    attack = words.number("the attack factors")
    if words.peek() not in _VS:
        raise words.error("expected vs between attack and defence factors", _VS)
    words.take()
    sources.mark("defense", words.i)
    defense = words.number("the defence factors")
    chosen: dict[str, Any] = {}
    modifiers: dict[str, Any] = {}
    options: list[str] = []
    known_options = wif_tables().options
    specs = _wif_fields()
    while (word := words.peek()) is not None:
        at = words.i
        words.take()
        if word in COLUMNS:
            _once(words, chosen, "column", word, at)
            sources.mark("column", at)
        elif _SIGNED.fullmatch(word) or word == "drm":
            value = words.signed("the die-roll modifier") if word == "drm" else _to_number(word)
            _once(words, chosen, "drm", value, at)
            sources.mark("drm", at)
        elif word in WEATHERS or word in _WIF_WEATHER_ALIASES:
            _once(words, modifiers, "weather", _WIF_WEATHER_ALIASES.get(word, word), at)
            sources.mark("modifiers.weather", at)
        elif word in TERRAINS:
            _once(words, modifiers, "terrain", word, at)
            sources.mark("modifiers.terrain", at)
        elif word in _WIF_FLAGS:
            _once(words, modifiers, _WIF_FLAGS[word], True, at)
            sources.mark(f"modifiers.{_WIF_FLAGS[word]}", at)
        elif word in _WIF_FRACTIONAL:
            _setting(words, settings, chosen, "fractional_odds", True)
            sources.mark("fractional_odds", at)
        elif word in known_options:
            if "options" in settings and word not in settings["options"]:
                raise words.error("this room does not play this option", settings["options"], at=at)
            if word in options:
                raise words.error(f"option {word} is already given", at=at)
            options.append(word)
            sources.mark("modifiers.options", at)
        elif "=" in word:
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
                continue
            spec = specs.get(name)
            if spec is None or spec.metadata["kind"] not in ("count", "optional_count"):
                counts = [s for s, f in specs.items() if f.metadata["kind"].endswith("count")]
                raise words.error(f"{key!r} is not a count of the WiF modifiers", counts, at=at)
            _once(words, modifiers, name, _count_value(words, text, at), at)
            sources.mark(f"modifiers.{name}", at)
        else:
            raise words.error("expected a WiF modifier", _WIF_WORDS, at=at)
    option_set = set(options) | set(settings.get("options", ()))
    if option_set:
        modifiers["options"] = sorted(option_set)
    arguments = {
        "attack": attack,
        "defense": defense,
        "column": chosen.get("column", "assault"),
        "drm": chosen.get("drm", 0),
        "modifiers": _wif_canonical(modifiers),
        "fractional_odds": chosen.get("fractional_odds", settings.get("fractional_odds", False)),
    }
    _checked(words, sources, lambda: wif_land_odds(**arguments))
    return arguments


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


def _count_value(words: _Words, text: str, at: int) -> int:
    if not text.isdigit():
        raise words.error("expected a whole number after =", at=at)
    return int(text)


def _wif_canonical(modifiers: Mapping[str, Any]) -> dict[str, Any]:
    """The situation without the fields left at their default (mappings and lists copied)."""
    out: dict[str, Any] = {}
    for name, value in modifiers.items():
        if name == "divisions":
            kept = {k: v for k, v in value.items() if v}
            if kept:
                out[name] = kept
        elif name == "options":
            if value:
                out[name] = sorted(value)
        elif value != _wif_default(name):
            out[name] = value
    return out


def _format_wif(arguments: Mapping[str, Any]) -> str:
    parts = [
        SYSTEM_WORDS["wif"],
        _number_text(arguments["attack"]),
        "vs",
        _number_text(arguments["defense"]),
        arguments["column"],
    ]
    if arguments.get("drm"):
        parts.append(_number_text(arguments["drm"], signed=True))
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


def _resolve_wif(
    arguments: Mapping[str, Any], dice: Dice
) -> tuple[dict[str, Any], dict[str, Any], str]:
    odds = wif_land_odds(**arguments).as_dict()
    result = wif_land_resolve(**arguments, dice=dice).as_dict()
    code = result["code"]
    chance = _percent(odds["distribution"][code])
    summary = f"{code} on row {result['row']}: {result['outcome']['summary']} ({chance} odds)"
    return odds, result, summary


# --- France 1944 ----------------------------------------------------------------------------

_F44_COMBAT: Mapping[str, str] = MappingProxyType(
    {
        "set-piece": "set-piece",
        "setpiece": "set-piece",
        "set_piece": "set-piece",
        "assault": "set-piece",
        "deliberate": "set-piece",
        "mobile": "mobile",
    }
)
_F44_WORDS = ("set-piece", "mobile", "morale A vs D", "units N", "terrain +N", "other +-N")


def _parse_france_1944(words: _Words, settings: dict[str, Any]) -> dict[str, Any]:
    sources = _Sources()
    sources.mark("attack", words.i)
    attack = words.number("the attack strength")
    if words.peek() not in _VS:
        raise words.error("expected vs between attack and defence strengths", _VS)
    words.take()
    sources.mark("defense", words.i)
    defense = words.number("the defence strength")
    chosen: dict[str, Any] = {}
    while (word := words.peek()) is not None:
        at = words.i
        words.take()
        if word in _F44_COMBAT:
            _once(words, chosen, "combat", _F44_COMBAT[word], at)
            sources.mark("combat", at)
        elif word == "morale":
            sources.mark("attacker_morale", words.i)
            attacker = words.count("the attacker's morale")
            if words.peek() not in (*_VS, "/"):
                raise words.error("expected vs between the two morales (morale 4 vs 3)", _VS)
            words.take()
            sources.mark("defender_morale", words.i)
            defender = words.count("the defender's morale")
            _once(words, chosen, "morale", (attacker, defender), at)
        elif word in ("units", "unit"):
            sources.mark("attacking_units", words.i)
            _once(words, chosen, "attacking_units", words.count("the attacking units"), at)
        elif word == "terrain":
            sources.mark("terrain_morale", words.i)
            _once(words, chosen, "terrain_morale", _whole(words, "terrain's morale +N"), at)
        elif word in ("other", "adjust", "adjustment"):
            sources.mark("other_morale", words.i)
            _once(words, chosen, "other_morale", _whole(words, "other morale adjustments"), at)
        else:
            raise words.error("expected a France 1944 combat word", _F44_WORDS, at=at)
    if "morale" not in chosen:
        raise words.error("missing: morale A vs D (attacker and defender morale)")
    if "attacking_units" not in chosen:
        raise words.error("missing: units N (attacking units, HQs not counted)")
    arguments = {
        "attack": attack,
        "defense": defense,
        "combat": chosen.get("combat", "set-piece"),
        "attacker_morale": chosen["morale"][0],
        "defender_morale": chosen["morale"][1],
        "attacking_units": chosen["attacking_units"],
        "terrain_morale": chosen.get("terrain_morale", 0),
        "other_morale": chosen.get("other_morale", 0),
    }
    _checked(words, sources, lambda: _france_odds(arguments))
    return arguments


def _whole(words: _Words, what: str) -> int:
    value = words.signed(what)
    if isinstance(value, float):
        raise words.error(f"expected {what} as a whole number", at=words.i - 1)
    return value


def _france_odds(arguments: Mapping[str, Any]) -> object:
    args = dict(arguments)
    return france_1944_odds(args.pop("attack"), args.pop("defense"), **args)


def _format_france_1944(arguments: Mapping[str, Any]) -> str:
    parts = [
        SYSTEM_WORDS["france_1944"],
        _number_text(arguments["attack"]),
        "vs",
        _number_text(arguments["defense"]),
        arguments["combat"],
        f"morale {arguments['attacker_morale']} vs {arguments['defender_morale']}",
        f"units {arguments['attacking_units']}",
    ]
    if arguments.get("terrain_morale"):
        parts.append(f"terrain {_number_text(arguments['terrain_morale'], signed=True)}")
    if arguments.get("other_morale"):
        parts.append(f"other {_number_text(arguments['other_morale'], signed=True)}")
    return " ".join(parts)


def _resolve_france_1944(
    arguments: Mapping[str, Any], dice: Dice
) -> tuple[dict[str, Any], dict[str, Any], str]:
    args = dict(arguments)
    attack, defense = args.pop("attack"), args.pop("defense")
    odds = france_1944_odds(attack, defense, **args).as_dict()
    result = france_1944_resolve(attack, defense, dice=dice, **args).as_dict()
    code = result["code"]
    outcome = result["outcome"]
    summary = (
        f"result {code}: die {outcome['natural_roll']}, row {result['row']} on the "
        f"{odds['column']} {arguments['combat']} column "
        f"({_percent(odds['distribution'][code])} odds)"
    )
    return odds, result, summary


_PARSERS: Mapping[str, Callable[[_Words, dict[str, Any]], dict[str, Any]]] = MappingProxyType(
    {"axis_allies": _parse_axis_allies, "wif": _parse_wif, "france_1944": _parse_france_1944}
)
_FORMATTERS: Mapping[str, Callable[[Mapping[str, Any]], str]] = MappingProxyType(
    {"axis_allies": _format_axis_allies, "wif": _format_wif, "france_1944": _format_france_1944}
)
_RESOLVERS: Mapping[
    str, Callable[[Mapping[str, Any], Dice], tuple[dict[str, Any], dict[str, Any], str]]
] = MappingProxyType(
    {
        "axis_allies": _resolve_axis_allies,
        "wif": _resolve_wif,
        "france_1944": _resolve_france_1944,
    }
)

__all__ = [
    "AA_UNITS",
    "SYSTEMS",
    "SYSTEM_WORDS",
    "BattleNotationError",
    "BattleRequest",
    "format_battle",
    "parse_battle",
    "resolve_battle",
]
