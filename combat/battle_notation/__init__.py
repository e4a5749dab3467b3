"""Battle requests in a line of text, for rooms whose players fight on their own boards.

A room's journal takes lines such as ``3 inf 1 art 2 arm vs 4 inf 1 ftr lowluck`` or
``wif 18 vs 6 blitz +2 winter``; ``parse_battle`` turns one into a ``BattleRequest`` (the system
and the resolver's keyword arguments, as the stand-alone API bodies carry them),
``format_battle`` writes the canonical line back, and ``resolve_battle`` rolls it with injected
dice and returns the result with the exact odds it had. Pure Python: the room (``games``) loads
the line and the dice, calls these and stores the dict. The grammar, word by word, is in
``docs/battle_notation.md``.

Decisions (where the rule texts and the request for rooms are silent):

* **No system word** means Axis & Allies, unless the room passes ``system``: the plainest
  request players write, ``3 inf 1 art 2 arm vs 4 inf 1 ftr lowluck``, has none. World in
  Flames and France 1944 lines start with ``wif`` / ``f44`` outside a room of that system. A
  system word that differs from the room's ``system`` is refused.
* **The room's variant wins**: ``variant`` (A&A ``edition`` and ``rules``; WiF
  ``fractional_odds`` and ``options``) fills what the line leaves out, and a line that says
  otherwise (``dice`` in a Low Luck room) is refused naming the word: a room plays one rule set,
  and a player must not pick the luckier rules battle by battle. Repeating the room's setting is
  allowed, so a canonical line (which always spells out edition and rules) parses in its room.
  In an A&A room, a bare string ``variant`` is the room's rules (``"lowluck"``), the same as
  ``{"rules": "lowluck"}``.
* **Requests built by hand** (the resolver's JSON arguments, as a room may store them) are
  brought to the canonical form before they are written or rolled: missing optional arguments
  take the resolver's defaults, a missing required one or an unknown one is a
  ``CombatInputError`` naming it. ``parse_battle(format_battle(r))`` is that canonical form of
  ``r``, and equals ``r`` for every canonical request.
* **Canonical arguments**: A&A always carries attacker, defender, rules and edition, and the
  other ``fight`` options only when they differ from the default; WiF always carries attack,
  defense, column, drm, modifiers (only the situation's non-default fields, options as a sorted
  list) and fractional_odds; France 1944 all eight arguments. So two lines that mean the same
  battle give equal requests, and ``parse_battle(format_battle(r)) == r``.
* **WiF ``winter``** is not one of the CRT's weathers (fine, rain, storm, snow, blizzard); the
  players' usual word for it, and it is read as ``snow``, the ordinary winter weather (a blizzard is
  written ``blizzard``). The canonical line writes ``snow``.
* **France 1944 ``assault``** (and ``deliberate``) is read as the set-piece combat, the planned
  attack; ``mobile`` is the other type. Morale is ``morale 4 vs 3`` (attacker, then defender
  before adjustments), the units ``units 5`` (HQs not counted).
* **A&A unit words** may be singular, plural, abbreviated or full (``inf``, ``infantry``,
  ``tanks``, ``bb``...); a count before a unit word is optional (``ftr`` is one fighter) and the
  same unit named twice adds up. A unit of the other edition (``art`` in classic) is refused
  naming the word.
* **Odds**: A&A odds are ``combat.axis_allies.battle_odds`` exactly, within the exact solver's own
  limits and two counted work limits of this package: the fast path's cells x hit points
  (``axis_allies.MAX_EXACT_CHAIN_WORK``; 600 v 600 infantry would take 16 s) and, for standard
  dice off the fast path (round limits, submarines), states x hit points
  (``axis_allies.MAX_EXACT_DICE_WORK``; a 10-sub fleet battle would take 18 s). Past them the
  odds are a Monte Carlo estimate with a fixed seed and the runs the stand-alone odds API allows
  (at most ``MAX_MONTE_CARLO_WORK`` runs x units, about 6.5 s), marked ``"method":
  "monte-carlo"``. The limits are counts, not wall-clock time (the odds API's COMBAT_SECONDS),
  so the answer depends only on the request and the dice. The CRT systems' odds are the odds
  functions' (``wif_land_odds`` / ``france_1944_odds``), which are cheap.
* Every line is checked by the resolver when parsed (not only when rolled), and a resolver error
  is reported against the word that set the argument at fault.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from combat.axis_allies.editions import available_editions
from combat.axis_allies.rules import RULES
from combat.battle_notation import axis_allies, france_1944, wif
from combat.battle_notation.axis_allies import AA_UNITS
from combat.battle_notation.words import BattleNotationError, Words
from combat.crt.wif import wif_tables
from combat.dice import Dice
from combat.errors import CombatInputError

SYSTEMS = ("axis_allies", "wif", "france_1944")

#: The word each system's canonical line starts with, and the words accepted for it.
SYSTEM_WORDS: Mapping[str, str] = MappingProxyType(
    {
        "axis_allies": axis_allies.SYSTEM_WORD,
        "wif": wif.SYSTEM_WORD,
        "france_1944": france_1944.SYSTEM_WORD,
    }
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


@dataclass(frozen=True)
class BattleRequest:
    """A battle in a resolver's own terms: ``arguments`` are its keyword arguments as JSON."""

    system: str
    arguments: dict[str, Any]


# --- the public functions -------------------------------------------------------------------


def parse_battle(
    line: str, *, system: str | None = None, variant: Mapping[str, Any] | str | None = None
) -> BattleRequest:
    """The battle ``line`` asks for; ``system`` and ``variant`` are the room's (module docstring).

    Raises ``BattleNotationError`` (a ``CombatInputError``) naming the word at fault.
    """
    if system is not None and system not in SYSTEMS:
        raise CombatInputError("system", f"unknown game system {system!r}", SYSTEMS)
    if not isinstance(line, str):
        raise CombatInputError("notation", "must be a line of text")
    words = Words(line)
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
    return _FORMATTERS[request.system](_CANONICAL[request.system](request.arguments))


def resolve_battle(request: BattleRequest, dice: Dice) -> dict[str, Any]:
    """Roll ``request`` with ``dice``: the notation, the exact odds, the result and a summary.

    The same request and dice (seed and context) give the same dict; it holds only JSON values.
    """
    if request.system not in SYSTEMS:
        raise CombatInputError("system", f"unknown game system {request.system!r}", SYSTEMS)
    arguments = _CANONICAL[request.system](request.arguments)
    odds, result, summary = _RESOLVERS[request.system](arguments, dice)
    return _jsonable(
        {
            "system": request.system,
            "notation": _FORMATTERS[request.system](arguments),
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


_VARIANT_KEYS: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "axis_allies": ("edition", "rules"),
        "wif": ("fractional_odds", "options"),
        "france_1944": (),
    }
)


def _variant(system: str, variant: Mapping[str, Any] | str | None) -> dict[str, Any]:
    """The room's fixed settings, checked (a room's own data: errors name ``variant.<key>``)."""
    if variant is None:
        return {}
    if isinstance(variant, str) and system == "axis_allies":
        variant = {"rules": variant}  # a room's one rules word ("lowluck")
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


_PARSERS: Mapping[str, Callable[[Words, dict[str, Any]], dict[str, Any]]] = MappingProxyType(
    {"axis_allies": axis_allies.parse, "wif": wif.parse, "france_1944": france_1944.parse}
)
_FORMATTERS: Mapping[str, Callable[[Mapping[str, Any]], str]] = MappingProxyType(
    {
        "axis_allies": axis_allies.format_line,
        "wif": wif.format_line,
        "france_1944": france_1944.format_line,
    }
)
_CANONICAL: Mapping[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = MappingProxyType(
    {
        "axis_allies": axis_allies.canonical,
        "wif": wif.canonical,
        "france_1944": france_1944.canonical,
    }
)
_RESOLVERS: Mapping[
    str, Callable[[Mapping[str, Any], Dice], tuple[dict[str, Any], dict[str, Any], str]]
] = MappingProxyType(
    {
        "axis_allies": axis_allies.resolve,
        "wif": wif.resolve,
        "france_1944": france_1944.resolve,
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
