"""France 1944 attacks in notation: ``f44 ATTACK vs DEFENCE morale A vs D units N ...``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from combat.battle_notation.words import (
    VS,
    Sources,
    Words,
    attack_and_defense,
    attack_and_defense_text,
    check_arguments,
    checked,
    number_text,
    once,
    percent,
)
from combat.crt.france_1944 import france_1944_odds, france_1944_resolve
from combat.dice import Dice

SYSTEM_WORD = "f44"

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


def parse(words: Words, settings: dict[str, Any]) -> dict[str, Any]:
    sources = Sources()
    attack, defense = attack_and_defense(words, sources, "strength")
    chosen: dict[str, Any] = {}
    while (word := words.peek()) is not None:
        at = words.i
        words.take()
        if word in _F44_COMBAT:
            once(words, chosen, "combat", _F44_COMBAT[word], at)
            sources.mark("combat", at)
        elif word == "morale":
            once(words, chosen, "morale", _morale(words, sources), at)
        elif word in ("units", "unit"):
            sources.mark("attacking_units", words.i)
            once(words, chosen, "attacking_units", words.count("the attacking units"), at)
        elif word == "terrain":
            sources.mark("terrain_morale", words.i)
            once(words, chosen, "terrain_morale", _whole(words, "terrain's morale +N"), at)
        elif word in ("other", "adjust", "adjustment"):
            sources.mark("other_morale", words.i)
            once(words, chosen, "other_morale", _whole(words, "other morale adjustments"), at)
        else:
            raise words.error("expected a France 1944 combat word", _F44_WORDS, at=at)
    if "morale" not in chosen:
        raise words.error("missing: morale A vs D (attacker and defender morale)")
    if "attacking_units" not in chosen:
        raise words.error("missing: units N (attacking units, HQs not counted)")
    morale = chosen.pop("morale")
    arguments = canonical(
        {
            "attack": attack,
            "defense": defense,
            "attacker_morale": morale[0],
            "defender_morale": morale[1],
            **chosen,
        }
    )
    checked(words, sources, lambda: _france_odds(arguments))
    return arguments


REQUIRED = ("attack", "defense", "attacker_morale", "defender_morale", "attacking_units")
#: ``france_1944_odds``'s optional arguments and their defaults.
ODDS_DEFAULTS: Mapping[str, Any] = MappingProxyType(
    {"combat": "set-piece", "terrain_morale": 0, "other_morale": 0}
)


def canonical(arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The one form of an attack's arguments: all eight of ``france_1944_odds``."""
    check_arguments(arguments, REQUIRED, tuple(ODDS_DEFAULTS))
    return {**ODDS_DEFAULTS, **arguments}


_MORALE_PAIR = re.compile(r"(\d+)/(\d+)")


def _morale(words: Words, sources: Sources) -> tuple[int, int]:
    """``A vs D``, ``A / D`` or ``A/D``: the attacker's morale, then the defender's."""
    pair = _MORALE_PAIR.fullmatch(words.peek() or "")
    if pair:
        sources.mark("attacker_morale", words.i)
        sources.mark("defender_morale", words.i)
        words.take()
        return int(pair[1]), int(pair[2])
    sources.mark("attacker_morale", words.i)
    attacker = words.count("the attacker's morale")
    if words.peek() not in (*VS, "/"):
        raise words.error("expected vs between the two morales (morale 4 vs 3)", VS)
    words.take()
    sources.mark("defender_morale", words.i)
    return attacker, words.count("the defender's morale")


def _whole(words: Words, what: str) -> int:
    value = words.signed(what)
    if isinstance(value, float):
        raise words.error(f"expected {what} as a whole number", at=words.i - 1)
    return value


def _france_odds(arguments: Mapping[str, Any]) -> object:
    args = dict(arguments)
    return france_1944_odds(args.pop("attack"), args.pop("defense"), **args)


def format_line(arguments: Mapping[str, Any]) -> str:
    parts = [
        SYSTEM_WORD,
        *attack_and_defense_text(arguments),
        arguments["combat"],
        f"morale {arguments['attacker_morale']} vs {arguments['defender_morale']}",
        f"units {arguments['attacking_units']}",
    ]
    if arguments.get("terrain_morale"):
        parts.append(f"terrain {number_text(arguments['terrain_morale'], signed=True)}")
    if arguments.get("other_morale"):
        parts.append(f"other {number_text(arguments['other_morale'], signed=True)}")
    return " ".join(parts)


def resolve(arguments: Mapping[str, Any], dice: Dice) -> tuple[dict[str, Any], dict[str, Any], str]:
    args = dict(arguments)
    attack, defense = args.pop("attack"), args.pop("defense")
    odds = france_1944_odds(attack, defense, **args).as_dict()
    result = france_1944_resolve(attack, defense, dice=dice, **args).as_dict()
    code = result["code"]
    outcome = result["outcome"]
    summary = (
        f"result {code}: die {outcome['natural_roll']}, row {result['row']} on the "
        f"{odds['column']} {arguments['combat']} column "
        f"({percent(odds['distribution'][code])} odds)"
    )
    return odds, result, summary
