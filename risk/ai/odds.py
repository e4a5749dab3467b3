"""Exact battle odds for the AI, cached: ``combat.risk_dice`` does the counting.

Two kinds of attack matter to the AI:

* A *normal* attack rolled to the end (3 dice against 2): ``combat.risk_dice.battle_odds`` with
  ``mode="normal"``, exact, cached on (attackers, defenders).
* A *refilled block*: a committed attack of 2 (or a flanking attack of two flanks of 2) whose
  losses are made good from the source before every roll (``Roll(add=n)``, RULES.md C3, C6). The
  defender rolls commitment - 1 = 1 die every roll (RULES.md C2), so every roll is one comparison:
  2 dice against 1 (committed), or 2 dice with the +1 against 1 (flanking, while two flanks stand;
  a defender that loses the comparison has an army captured, RULES.md C8). Each roll's odds are
  ``combat.risk_dice.roll_odds`` (exact); the battle is the walk over (armies left to the attack,
  defenders left), solved here exactly by a small dynamic programme and cached.

Per roll, a refilled committed block of 2 kills 0.58 defenders for each 0.42 armies it loses, a
flanking pair 0.75 for 0.25 (and captures each one), where a normal attack kills 1.08 for 1.08*0.85.
So the AI flanks and commits small blocks whenever the rules let it.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache

from combat.risk_dice import battle_odds, roll_odds

#: Armies a side beyond which the odds are taken as at this size (they are ~0 or ~1 by then).
CAP = 150


@dataclass(frozen=True)
class Odds:
    """How an attack ends: win chance, expected losses on each side, expected captures."""

    win: float
    attacker_losses: float
    defender_losses: float
    captures: float = 0.0


@lru_cache(maxsize=65536)
def normal(attackers: int, defenders: int) -> Odds:
    """A normal attack of ``attackers`` (the one left at home not counted) rolled to the end."""
    if defenders <= 0:
        return Odds(1.0, 0.0, 0.0)
    if attackers <= 0:
        return Odds(0.0, 0.0, 0.0)
    odds = battle_odds(min(attackers, CAP), min(defenders, CAP), mode="normal")
    return Odds(odds.attacker_wins, odds.expected_attacker_losses, odds.expected_defender_losses)


@lru_cache(maxsize=65536)
def naval(attackers: int, defenders: int, committed: bool) -> Odds:
    """A ship's attack on a ship: all aboard fight (normal), or a block of 2 refilled from the
    rest aboard (committed; ``combat.risk_dice`` refills it from ``reserves`` exactly so)."""
    if defenders <= 0:
        return Odds(1.0, 0.0, 0.0)
    if attackers <= 0:
        return Odds(0.0, 0.0, 0.0)
    a, d = min(attackers, CAP), min(defenders, CAP)
    if committed and a >= 2:
        odds = battle_odds(2, d, mode="committed", reserves=a - 2, naval=True)
    else:
        odds = battle_odds(a, d, mode="normal", naval=True)
    return Odds(odds.attacker_wins, odds.expected_attacker_losses, odds.expected_defender_losses)


@lru_cache(maxsize=64)
def _defender_loses(dice: int, bonus: bool) -> float:
    """One roll of ``dice`` attacker dice (with or without the +1) against one defender die:
    the chance the defender loses the comparison."""
    return sum(p for (_, lost), p in roll_odds(dice, 1, attacker_bonus=int(bonus)).items() if lost)


def _roll_shape(available: int, flanking: bool) -> tuple[int, bool]:
    """Dice and +1 of the next roll of a refilled attack with ``available`` armies in all."""
    if flanking:
        # Two flanks stand while there are two armies; each holds 2 while there are 3 or more.
        return (2 if available >= 3 else 1), available >= 2
    return min(2, available), False


#: The solved walks of refilled blocks, per ``flanking``: ``[available][defenders]``, grown as
#: larger battles are asked about (at most ``CAP`` a side: 151 x 151 entries). A table is never
#: changed once published: a larger one is built aside and swapped in under ``_GROWING``, so a
#: thread reading while another grows it (the server's task threads, a hint in a request) sees
#: a whole table, the old or the new (an in-place refill crashed a reader with ``IndexError``).
_TABLES: dict[bool, list[list[Odds]]] = {False: [], True: []}
_GROWING = threading.Lock()


def block(available: int, defenders: int, flanking: bool) -> Odds:
    """A refilled block of 2 (``flanking``: two flanks of 2) with ``available`` armies in all
    (block and reserves) against ``defenders``; exact for the model in the module docstring."""
    a, d = max(0, min(available, CAP)), max(0, min(defenders, CAP))
    table = _TABLES[flanking]
    if len(table) <= a or len(table[0]) <= d:
        with _GROWING:
            table = _grown(_TABLES[flanking], a, d, flanking)
            _TABLES[flanking] = table
    return table[a][d]


def _grown(table: list[list[Odds]], a_max: int, d_max: int, flanking: bool) -> list[list[Odds]]:
    """``table``, or a new one covering every a <= a_max, d <= d_max; ``table`` is not
    changed."""
    width = max(d_max + 1, len(table[0]) if table else 0)
    if table and len(table) > a_max and len(table[0]) >= width:
        return table
    rows = max(a_max + 1, len(table))
    new: list[list[Odds]] = []
    for a in range(rows):
        row: list[Odds] = []
        if a == 0:
            row = [Odds(1.0, 0.0, 0.0)] + [Odds(0.0, 0.0, 0.0)] * (width - 1)
            new.append(row)
            continue
        dice, bonus = _roll_shape(a, flanking)
        p = _defender_loses(dice, bonus)
        q = 1.0 - p
        capture = 1.0 if (flanking and bonus) else 0.0
        below = new[a - 1]
        row.append(Odds(1.0, 0.0, 0.0))
        for d in range(1, width):
            win_side, lose_side = row[d - 1], below[d]
            row.append(
                Odds(
                    p * win_side.win + q * lose_side.win,
                    p * win_side.attacker_losses + q * (lose_side.attacker_losses + 1.0),
                    p * (win_side.defender_losses + 1.0) + q * lose_side.defender_losses,
                    p * (win_side.captures + capture) + q * lose_side.captures,
                )
            )
        new.append(row)
    return new
