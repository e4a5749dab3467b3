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

The host options against that loophole (RULES.md C10, C11) change the model; ``block`` and
``naval`` take the game's ``options`` (None: the rule text's defaults). With ``min_commitment``
c the blocks are of c (a flank holds min(c, armies - 1) while two stand); the defender rolls
c - 1 dice, or with ``defender_dice="normal"`` at least 2 (at most its armies), so a roll may
make several comparisons. The walk is the same dynamic programme over (available, defenders).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import lru_cache

from combat.risk_dice import MAX_COMMITMENT, battle_odds, roll_odds
from risk.rules.state import AS_NORMAL, Options

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


def _shape(options: Options | None) -> tuple[int, str]:
    """(the least commitment, the defender's dice rule) of a game's options."""
    if options is None:
        return 2, "commitment"
    return options.min_commitment, options.defender_dice


def naval(
    attackers: int,
    defenders: int,
    committed: bool,
    options: Options | None = None,
    commitment: int | None = None,
) -> Odds:
    """A ship's attack on a ship: all aboard fight (normal), or a block of ``commitment`` (the
    least the game allows when None or smaller) refilled from the rest aboard (committed;
    ``combat.risk_dice`` refills it from ``reserves`` exactly so). A ship that commits its whole
    crew rolls one die an army against one fewer, which with 3 or more aboard beats a normal
    attack, whose total defeats end in the sink roll more often (RULES.md H11, AI6)."""
    least, rule = _shape(options)
    return _naval(attackers, defenders, committed, max(least, commitment or least), rule)


@lru_cache(maxsize=65536)
def _naval(attackers: int, defenders: int, committed: bool, block: int, rule: str) -> Odds:
    if defenders <= 0:
        return Odds(1.0, 0.0, 0.0)
    if attackers <= 0:
        return Odds(0.0, 0.0, 0.0)
    a, d, block = min(attackers, CAP), min(defenders, CAP), min(block, MAX_COMMITMENT)
    if committed and a >= block:
        odds = battle_odds(
            block, d, mode="committed", reserves=a - block, naval=True, defender_dice=rule
        )
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
#: The same for the host options' shapes: (flanking, least commitment, defender dice rule).
_SHAPED: dict[tuple[bool, int, str], list[list[Odds]]] = {}


def block(available: int, defenders: int, flanking: bool, options: Options | None = None) -> Odds:
    """A refilled block of 2 (``flanking``: two flanks of 2) with ``available`` armies in all
    (block and reserves) against ``defenders``; exact for the model in the module docstring.
    ``options``: the game's, whose ``min_commitment`` and ``defender_dice`` shape the rolls."""
    a, d = max(0, min(available, CAP)), max(0, min(defenders, CAP))
    least, rule = _shape(options)
    if (least, rule) != (2, "commitment"):
        key = (flanking, least, rule)
        table = _SHAPED.get(key, [])
        if len(table) <= a or len(table[0]) <= d:
            with _GROWING:
                table = _grown_shaped(_SHAPED.get(key, []), a, d, key)
                _SHAPED[key] = table
        return table[a][d]
    table = _TABLES[flanking]
    if len(table) <= a or len(table[0]) <= d:
        with _GROWING:
            table = _grown(_TABLES[flanking], a, d, flanking)
            _TABLES[flanking] = table
    return table[a][d]


@lru_cache(maxsize=4096)
def _roll(dice: int, defender_dice: int, bonus: bool) -> tuple[tuple[int, int, float], ...]:
    """One roll's (attacker losses, defender losses, probability), exact."""
    odds = roll_odds(dice, defender_dice, attacker_bonus=int(bonus))
    return tuple((lost, killed, p) for (lost, killed), p in sorted(odds.items()))


def _shaped_roll(a: int, d: int, key: tuple[bool, int, str]) -> tuple[int, int, bool]:
    """(attacker dice, defender dice, +1) of the next roll of a refilled attack under options."""
    flanking, least, rule = key
    if flanking and a >= 2:  # two flanks stand; the rolling one leaves the other an army
        dice, bonus = min(least, a - 1), True
    else:
        dice, bonus = min(least, a), False
    defence = max(least - 1, 2 if rule == AS_NORMAL else 1)
    return dice, min(defence, d), bonus


def _grown_shaped(
    table: list[list[Odds]], a_max: int, d_max: int, key: tuple[bool, int, str]
) -> list[list[Odds]]:
    """``_grown`` for the options' shapes: a roll may make several comparisons, so each cell
    sums over the roll's outcomes (every successor has fewer armies on one side at least)."""
    width = max(d_max + 1, len(table[0]) if table else 0)
    if table and len(table) > a_max and len(table[0]) >= width:
        return table
    rows = max(a_max + 1, len(table))
    new: list[list[Odds]] = []
    for a in range(rows):
        if a == 0:
            new.append([Odds(1.0, 0.0, 0.0)] + [Odds(0.0, 0.0, 0.0)] * (width - 1))
            continue
        row: list[Odds] = [Odds(1.0, 0.0, 0.0)]
        for d in range(1, width):
            dice, defence, bonus = _shaped_roll(a, d, key)
            win = lost_sum = killed_sum = captures = 0.0
            for lost, killed, p in _roll(dice, defence, bonus):
                after = new[a - lost][d - killed] if lost else row[d - killed]
                capture = 1.0 if bonus and not lost and killed else 0.0
                win += p * after.win
                lost_sum += p * (after.attacker_losses + lost)
                killed_sum += p * (after.defender_losses + killed)
                captures += p * (after.captures + capture)
            row.append(Odds(win, lost_sum, killed_sum, captures))
        new.append(row)
    return new


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
