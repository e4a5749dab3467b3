"""A room's battle request in the resolver's own terms (``combat.battle_notation``).

A side asks for a battle either as a notation line (``3 inf 1 art 2 arm vs 4 inf 1 ftr``), read
with the room's system and rules as defaults, or as the resolver's JSON arguments. Either way the
journal stores the request as (system, arguments) -- what ``resolve`` is called with, and what
``verify_room`` replays -- plus its notation as the resolver writes it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from combat.dice import Dice


def from_notation(line: str, *, system: str, variant: str | None) -> tuple[str, dict[str, Any]]:
    """(system, arguments) of a notation line; the resolver's error names the word at fault."""
    from combat.battle_notation import parse_battle

    request = parse_battle(line, system=system, variant=variant)
    return request.system, dict(request.arguments)


def resolve(system: str, arguments: Mapping[str, Any], dice: Dice) -> dict[str, Any]:
    """The resolver's answer (system, notation, odds, result, summary) with ``dice``."""
    from combat.battle_notation import BattleRequest, resolve_battle

    return dict(resolve_battle(BattleRequest(system, dict(arguments)), dice))
