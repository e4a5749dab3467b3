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

Host options may close that loophole (a least commitment above 2; a defender rolling its normal
dice against a block). The block walk therefore takes the game's values: ``commitment`` (the
block's size, refilled to it) and ``defender_dice`` (``"commitment"``: commitment - 1 dice, C2;
``"normal"``: up to 2 dice, as against a normal attack). Each roll is then any number of
comparisons, counted exactly by ``combat.risk_dice.roll_odds``; a flanking roll the defender
loses entirely captures one army (C8b). With the defaults (2, ``"commitment"``) the walk is the
one above. ``naval`` takes the commitment as well: a ship that commits all its crew rolls one die
per army against commitment - 1, and with 3 or more aboard that beats a normal attack, whose
total defeats (3 dice against 1) end in the sink roll more often (RULES.md H11, AI6).
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


#: The game options' defaults the odds are taken at (``Options`` fields once the host may set
#: them: the least armies a committed block or flank holds, and the defender's dice against one).
MIN_COMMITMENT = 2
DEFENDER_DICE = "commitment"
DEFENDER_DICE_CHOICES = ("commitment", "normal")


@lru_cache(maxsize=65536)
def naval(attackers: int, defenders: int, committed: bool, commitment: int = 2) -> Odds:
    """A ship's attack on a ship: all aboard fight (normal), or a block of ``commitment``
    refilled from the rest aboard (committed; ``combat.risk_dice`` refills it from ``reserves``
    exactly so)."""
    if defenders <= 0:
        return Odds(1.0, 0.0, 0.0)
    if attackers <= 0:
        return Odds(0.0, 0.0, 0.0)
    a, d = min(attackers, CAP), min(defenders, CAP)
    c = max(2, min(commitment, a, 60))
    if committed and a >= 2:
        odds = battle_odds(c, d, mode="committed", reserves=a - c, naval=True)
    else:
        odds = battle_odds(a, d, mode="normal", naval=True)
    return Odds(odds.attacker_wins, odds.expected_attacker_losses, odds.expected_defender_losses)


@lru_cache(maxsize=4096)
def _roll(dice: int, defender_dice: int, bonus: bool) -> tuple[tuple[int, int, float], ...]:
    """One roll: (attacker losses, defender losses, probability) for each outcome."""
    table = roll_odds(dice, defender_dice, attacker_bonus=int(bonus))
    return tuple((lost_a, lost_d, p) for (lost_a, lost_d), p in sorted(table.items()) if p > 0)


def _roll_shape(available: int, flanking: bool, commitment: int = 2) -> tuple[int, bool]:
    """Dice and +1 of the next roll of a refilled attack with ``available`` armies in all."""
    if flanking:
        # Two flanks stand while there are two armies; the one rolling holds ``commitment``
        # while the other keeps one or more (for 2: two dice from 3 armies on).
        if available >= 2:
            return max(1, min(commitment, available - 1)), True
        return 1, False
    return min(commitment, available), False


#: The solved walks of refilled blocks, per (``flanking``, commitment, defender dice):
#: ``[available][defenders]``, grown as larger battles are asked about (at most ``CAP`` a side:
#: 151 x 151 entries). A table is never changed once published: a larger one is built aside and
#: swapped in under ``_GROWING``, so a thread reading while another grows it (the server's task
#: threads, a hint in a request) sees a whole table, the old or the new (an in-place refill
#: crashed a reader with ``IndexError``).
_TABLES: dict[tuple[bool, int, str], list[list[Odds]]] = {}
_GROWING = threading.Lock()


def block(
    available: int,
    defenders: int,
    flanking: bool,
    *,
    commitment: int = MIN_COMMITMENT,
    defender_dice: str = DEFENDER_DICE,
) -> Odds:
    """A refilled block of ``commitment`` (``flanking``: two flanks of it) with ``available``
    armies in all (block and reserves) against ``defenders``; exact for the model in the module
    docstring. ``defender_dice``: ``"commitment"`` (commitment - 1 dice) or ``"normal"`` (2)."""
    if defender_dice not in DEFENDER_DICE_CHOICES:
        raise ValueError(f"defender_dice: one of {', '.join(DEFENDER_DICE_CHOICES)}")
    key = (flanking, max(2, min(commitment, 60)), defender_dice)
    a, d = max(0, min(available, CAP)), max(0, min(defenders, CAP))
    table = _TABLES.get(key, [])
    if len(table) <= a or len(table[0]) <= d:
        with _GROWING:
            table = _grown(_TABLES.get(key, []), a, d, key)
            _TABLES[key] = table
    return table[a][d]


def _grown(
    table: list[list[Odds]], a_max: int, d_max: int, key: tuple[bool, int, str] | bool
) -> list[list[Odds]]:
    """``table``, or a new one covering every a <= a_max, d <= d_max; ``table`` is not
    changed. ``key``: (flanking, commitment, defender dice), or just ``flanking``."""
    flanking, commitment, defender_dice = key if isinstance(key, tuple) else (key, 2, DEFENDER_DICE)
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
        dice, bonus = _roll_shape(a, flanking, commitment)
        row.append(Odds(1.0, 0.0, 0.0))
        for d in range(1, width):
            most = commitment - 1 if defender_dice == "commitment" else 2
            defending = max(1, min(most, d))
            win = lost_a = lost_d = captured = 0.0
            for att, dfd, p in _roll(dice, defending, bonus):
                after = (new[a - att] if att else row)[d - dfd]
                win += p * after.win
                lost_a += p * (after.attacker_losses + att)
                lost_d += p * (after.defender_losses + dfd)
                total_defeat = flanking and bonus and dfd == defending
                captured += p * (after.captures + (1.0 if total_defeat else 0.0))
            row.append(Odds(win, lost_a, lost_d, captured))
        new.append(row)
    return new
