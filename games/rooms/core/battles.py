"""A room's battle request in the resolver's own terms (``combat.battle_notation``).

A side asks for a battle either as a notation line (``3 inf 1 art 2 arm vs 4 inf 1 ftr``), read
with the room's system and variant (an A&A room's edition and rules), or as the resolver's JSON
arguments. Either way the request is canonical before it is stored: JSON arguments go through
``format_battle`` and back through ``parse_battle`` with the room's variant, so a request in JSON
cannot pick other rules than the room's (a Low Luck room stays Low Luck) any more than a line
can. The journal stores (system, arguments) -- what ``resolve`` is called with, and what
``verify_room`` replays -- and the canonical notation.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from combat.battle_notation import BattleRequest, format_battle, parse_battle, resolve_battle
from combat.dice import Dice


def room_variant(system: str, rules: str, edition: str) -> dict[str, Any] | None:
    """The settings a room fixes for every battle: an A&A room's edition and rules."""
    if system != "axis_allies":
        return None
    return {"edition": edition, "rules": rules}


def from_notation(
    line: str, *, system: str, variant: Mapping[str, Any] | None
) -> tuple[str, dict[str, Any], str]:
    """(system, arguments, canonical line) of a notation line; ``CombatInputError`` (field
    ``notation``) names the word at fault."""
    request = parse_battle(line, system=system, variant=variant)
    return request.system, dict(request.arguments), format_battle(request)


def from_arguments(
    arguments: Mapping[str, Any], *, system: str, variant: Mapping[str, Any] | None
) -> tuple[str, dict[str, Any], str]:
    """(system, arguments, canonical line) of JSON arguments, checked as a line would be."""
    line = format_battle(BattleRequest(system, dict(arguments)))
    return from_notation(line, system=system, variant=variant)


def resolve(system: str, arguments: Mapping[str, Any], dice: Dice) -> dict[str, Any]:
    """The resolver's answer (system, notation, odds, result, summary) with ``dice``."""
    return dict(resolve_battle(BattleRequest(system, dict(arguments)), dice))
