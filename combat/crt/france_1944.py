"""France 1944 revised combat resolution (Savarese, "France 1944 Revisions" 2.0.6; design.md §4).

Pure rules: standard library only, the one die comes from an injected ``Dice``, and the tables are
data (``data/france_1944.json``, which names its source and lists every OCR fix), checked when
first used. Three public functions:

* ``france_1944_odds``: the odds column, the column shifts and die-roll modifier, and the exact
  chance of every result letter of Table 1 (``results.CrtOdds``).
* ``france_1944_resolve``: the same, plus one d6 rolled and the letter it reads
  (``results.CrtResult``).
* ``france_1944_crdt``: a letter of the Combat Result Determination Table, for players who keep
  the game's original combat results table and its ratio results 1..5.

How the rule text is read (each decision is also in the data file where it concerns a table):

1. Odds. The column is the highest of 1-4 .. 4-1 not above attack / defense, computed exactly
   (strengths may be fractional, e.g. halved: they are taken as the decimals written). Below 1-4
   the attack is refused (field ``attack``); above 4-1 the 4-1 column is read.
2. Combat modifier = morale modifier + control modifier (rule 2). A positive modifier shifts right,
   a negative one left; shifts past 4-1 or 1-4 become a die-roll modifier (rule 3), and the
   adjusted roll is read as 1..6 (rule 1).
3. Morale modifier = attacker morale - defender morale after adjustments (rule 4). The adjustments
   are ``terrain_morale`` and ``other_morale``; their total is held within -3..+2 ("the worst
   possible adjustment to defender morale is -3 and the best possible adjustment is +2"), then the
   adjusted morale within 1..6 (rule 4's italic sentence).
4. ``terrain_morale`` is the one terrain adjustment that applies: 0, +1 or +2. The Morale
   Adjustment clarification allows only the most favourable terrain adjustment, never a sum, so
   the caller passes the best value; 3 or more is refused with that rule as the reason.
5. ``other_morale`` is the sum of the cumulative adjustments (the 79th Armoured Division, heavy
   bombing; e.g. -3 for both); any whole number from -6 to +6 is accepted, the clamp above doing
   the rest.
6. Control modifier = -(attacking units above the control limit of Table 2), never positive
   (rule 5). ``attacking_units`` counts the non-HQ units. Rule 5 says no combat can involve more
   than 8 attacking units (stacking and combat restrictions), so 1..8 is accepted. Morale 6 is
   not in Table 2: it gets morale 5's limit of 8 (so, like morale 5, it is never penalised; any
   extrapolation of 8 or more would play the same).
7. The distribution gives every letter A..F (0.0 for those the column cannot produce), each the
   count of die faces 1..6 that read it after the modifier and clamping, divided by 6.
8. CRDT. The two lines of each ratio result in Table 3 are chosen by the defender morale column
   for set-piece and mobile combat alike (see ``table3.reading`` in the data file), so the function
   needs both morales and returns one letter. By default it reads Table 3 as printed: the
   request for this resolver and the table's own title call it the revised CRDT, and it is the
   only CRDT the text prints whole.
   The text presents that same table as its "Alternative CRDT" (its RR 5 lines are the
   "D D D D D C and A A A A A B" the Revision Notes derive from the "ratio result one greater"
   rule), so the table it is an alternative *to* is the game's original CRDT; ``alternative=True``
   reads that one, derived from Table 3 by the text's own definition ("the result columns for the
   ratio result one greater ... but retain the defender morale reference column"). Only its RR 1
   letters are extrapolated (all C / all B; mobile all C / all F): check them against the box.
   (design.md reads the one-greater table as a variant *of* Table 3; shifting Table 3 again would
   make RR 4 and RR 5 identical, which the text's own RR 5 row contradicts.)

Every bad input raises ``CombatInputError`` naming the argument; a broken data file raises
``France1944DataError`` naming the file and the key.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import cache, lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, get_args

from combat.crt.results import CrtOdds, CrtResult, Modifier
from combat.dice import Dice
from combat.errors import CombatInputError

DATA_FILE = Path(__file__).resolve().parent / "data" / "france_1944.json"
TABLE = "france-1944"

Combat = Literal["set-piece", "mobile"]
COMBAT_TYPES: tuple[Combat, ...] = get_args(Combat)
#: Table 1's odds columns, left to right.
ODDS_COLUMNS = ("1-4", "1-3", "1-2", "2-3", "1-1", "3-2", "2-1", "3-1", "4-1")
RESULTS = ("A", "B", "C", "D", "E", "F")
MORALE = range(1, 7)
RATIO_RESULTS = range(1, 6)
DIE = range(1, 7)
#: Rule 5: "the maximum number of attacking units that can be involved in a combat is 8".
ATTACKING_UNITS = range(1, 9)
#: Only the most favourable terrain adjustment applies: none, +1 or +2.
TERRAIN_MORALE = range(0, 3)
OTHER_MORALE = range(-6, 7)
#: The worst and best total adjustment to defender morale.
ADJUSTMENT_LIMITS = (-3, 2)

#: Each column as (attack, defense) whole numbers, compared by cross-multiplying.
_LEVELS = tuple(tuple(map(int, column.split("-"))) for column in ODDS_COLUMNS)
#: Revision Notes: mobile results as a straight substitution of set-piece ones (true of the CRDT).
_MOBILE_OF = MappingProxyType({"A": "E", "B": "F", "D": "B", "C": "C"})


class France1944DataError(ValueError):
    """The France 1944 data file is malformed; raised at load time, naming the file and key."""


@dataclass(frozen=True)
class CrdtLine:
    """One printed line of a CRDT: a ratio result, a defender morale range, two result rows."""

    ratio_result: int
    defender_morale: range
    letters: Mapping[str, tuple[str, ...]]  # combat type -> result for attacker morale 1..6


@dataclass(frozen=True)
class France1944Tables:
    """The checked tables: Table 1 by combat type and column, Table 2, and both CRDTs."""

    combat: Mapping[str, Mapping[str, tuple[str, ...]]]  # combat -> column -> die 1..6
    control_limits: Mapping[int, int]  # attacker morale 1..6 -> limit (6 is the extension)
    crdt: tuple[CrdtLine, ...]  # Table 3, the Alternative CRDT
    original_crdt: tuple[CrdtLine, ...]  # derived (data file: original_crdt.derivation)

    def crdt_line(self, ratio_result: int, defender_morale: int, alternative: bool) -> CrdtLine:
        lines = self.original_crdt if alternative else self.crdt
        return next(
            line
            for line in lines
            if line.ratio_result == ratio_result and defender_morale in line.defender_morale
        )


# --- the data file ------------------------------------------------------------------------------


@cache
def load_tables() -> France1944Tables:
    """The tables of ``DATA_FILE``, read and checked once."""
    with DATA_FILE.open(encoding="utf-8") as handle:
        return validate_tables(json.load(handle), DATA_FILE.name)


def validate_tables(raw: Any, source: str) -> France1944Tables:
    """The checked tables of a parsed data file, or ``France1944DataError``.

    Separate from the loading so a test can feed it a broken table. Checks shapes and letters,
    that each CRDT's defender morale ranges cover 1..6 once per ratio result, that every mobile
    CRDT line is its set-piece line under the substitution A->E, B->F, D->B, C->C, and that the
    derived original CRDT and Table 3 obey the "ratio result one greater" relation.
    """

    def fail(key: str, message: str) -> France1944DataError:
        return France1944DataError(f"{source}: {key}: {message}")

    def get(node: Any, key: str, kind: type, where: str) -> Any:
        if not isinstance(node, Mapping) or key not in node:
            raise fail(where, "missing")
        if not isinstance(node[key], kind):
            raise fail(where, f"expected {kind.__name__}, got {type(node[key]).__name__}")
        return node[key]

    if not isinstance(raw, Mapping):
        raise fail("(top)", "expected an object")
    get(raw, "source", str, "source")
    combat = _validate_table1(get(raw, "table1", Mapping, "table1"), fail, get)
    limits = _validate_table2(get(raw, "table2", Mapping, "table2"), fail, get)
    crdt = _validate_crdt(get(raw, "table3", Mapping, "table3"), "table3", fail, get)
    original = _validate_crdt(
        get(raw, "original_crdt", Mapping, "original_crdt"), "original_crdt", fail, get
    )
    _check_one_greater(original, crdt, fail)
    return France1944Tables(combat, limits, crdt, original)


def _letters(text: Any, allowed: str, count: int, key: str, fail: Any) -> tuple[str, ...]:
    if not isinstance(text, str):
        raise fail(key, f"expected a string of {count} letters")
    letters = tuple(text.split()) if " " in text else tuple(text)
    if len(letters) != count:
        raise fail(key, f"expected {count} letters, got {len(letters)} in {text!r}")
    for letter in letters:
        if letter not in allowed:  # also catches the OCR's Cyrillic and Greek look-alikes
            raise fail(key, f"{letter!r} (U+{ord(letter[0]):04X}) is not one of {allowed}")
    return letters


def _validate_table1(table: Mapping, fail: Any, get: Any) -> Mapping:
    if get(table, "columns", list, "table1.columns") != list(ODDS_COLUMNS):
        raise fail("table1.columns", f"expected {list(ODDS_COLUMNS)}")
    rows = get(table, "rows", Mapping, "table1.rows")
    if sorted(rows) != [str(die) for die in DIE]:
        raise fail("table1.rows", f"expected die rolls 1..6, got {sorted(rows)}")
    by_combat: dict[str, dict[str, list[str]]] = {c: {} for c in COMBAT_TYPES}
    for die in DIE:
        cells = get(rows, str(die), list, f"table1.rows.{die}")
        if len(cells) != len(ODDS_COLUMNS):
            raise fail(f"table1.rows.{die}", f"expected {len(ODDS_COLUMNS)} S/M pairs")
        for column, cell in zip(ODDS_COLUMNS, cells, strict=True):
            pair = _letters(cell, "".join(RESULTS), 2, f"table1.rows.{die}.{column}", fail)
            for combat, letter in zip(COMBAT_TYPES, pair, strict=True):
                by_combat[combat].setdefault(column, []).append(letter)
    return MappingProxyType(
        {
            combat: MappingProxyType({col: tuple(letters) for col, letters in columns.items()})
            for combat, columns in by_combat.items()
        }
    )


def _validate_table2(table: Mapping, fail: Any, get: Any) -> Mapping[int, int]:
    printed = get(table, "control_limits", Mapping, "table2.control_limits")
    extension = get(table, "extension", Mapping, "table2.extension")
    if sorted(printed) != ["1", "2", "3", "4", "5"] or sorted(extension) != ["6"]:
        raise fail("table2", "expected printed morale 1..5 and the extension for morale 6")
    limits = {int(morale): limit for morale, limit in {**printed, **extension}.items()}
    previous = 0
    for morale in MORALE:
        limit = limits[morale]
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < max(previous, 1):
            raise fail(f"table2.{morale}", f"expected a limit of at least {max(previous, 1)}")
        previous = limit
    return MappingProxyType(limits)


def _morale_range(text: Any, key: str, fail: Any) -> range:
    parts = text.split("-") if isinstance(text, str) else []
    if not 1 <= len(parts) <= 2 or not all(part.isdigit() for part in parts):
        raise fail(key, f"expected a defender morale such as '3' or '1-4', got {text!r}")
    low, high = int(parts[0]), int(parts[-1])
    if not 1 <= low <= high <= 6:
        raise fail(key, f"{text!r} is not a range within 1..6")
    return range(low, high + 1)


def _validate_crdt(table: Mapping, name: str, fail: Any, get: Any) -> tuple[CrdtLine, ...]:
    rows = get(table, "rows", list, f"{name}.rows")
    lines: list[CrdtLine] = []
    for index, row in enumerate(rows):
        key = f"{name}.rows.{index}"
        ratio_result = get(row, "rr", int, f"{key}.rr")
        if ratio_result not in RATIO_RESULTS:
            raise fail(f"{key}.rr", f"{ratio_result} is not a ratio result 1..5")
        set_piece = _letters(row.get("set-piece"), "ABCD", 6, f"{key}.set-piece", fail)
        mobile = _letters(row.get("mobile"), "BCEF", 6, f"{key}.mobile", fail)
        if mobile != tuple(_MOBILE_OF[letter] for letter in set_piece):
            raise fail(f"{key}.mobile", "is not the set-piece line with A->E, B->F, D->B, C->C")
        morale = _morale_range(row.get("dm"), f"{key}.dm", fail)
        letters = MappingProxyType({"set-piece": set_piece, "mobile": mobile})
        lines.append(CrdtLine(ratio_result, morale, letters))
    if [line.ratio_result for line in lines] != [rr for rr in RATIO_RESULTS for _ in (1, 2)]:
        raise fail(f"{name}.rows", "expected two lines for each ratio result 1..5, in order")
    for ratio_result in RATIO_RESULTS:
        covered = sorted(
            m for line in lines if line.ratio_result == ratio_result for m in line.defender_morale
        )
        if covered != list(MORALE):
            raise fail(f"{name}.rows", f"RR {ratio_result}: defender morale must cover 1..6 once")
    return tuple(lines)


def _check_one_greater(
    original: tuple[CrdtLine, ...], alternative: tuple[CrdtLine, ...], fail: Any
) -> None:
    """Alternative RR r = the original's letters of RR r + 1 on the original's DM column of RR r."""
    if [line.defender_morale for line in original] != [
        line.defender_morale for line in alternative
    ]:
        raise fail("original_crdt.rows", "must keep Table 3's defender morale column")
    for index, line in enumerate(alternative):
        if line.ratio_result < max(RATIO_RESULTS):
            borrowed = original[index + 2]
            if borrowed.ratio_result != line.ratio_result + 1 or borrowed.letters != line.letters:
                raise fail(
                    f"original_crdt.rows.{index + 2}",
                    f"must carry Table 3's letters of RR {line.ratio_result}",
                )


# --- input ------------------------------------------------------------------------------------


def _whole(field: str, value: Any, allowed: range) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise CombatInputError(field, f"must be a whole number, got {value!r}", _listed(allowed))
    if value not in allowed:
        raise CombatInputError(
            field, f"{value} is not within {allowed[0]}..{allowed[-1]}", _listed(allowed)
        )
    return value


def _listed(allowed: range) -> range | None:
    """List the allowed values only when they are few and sort sensibly as text (no minus)."""
    return allowed if len(allowed) <= 9 and allowed[0] >= 0 else None


def _strength(field: str, value: Any) -> tuple[int, int]:
    """A strength above 0 as an exact (numerator, denominator); a float is the decimal written."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise CombatInputError(field, f"must be a number, got {value!r}")
    if not math.isfinite(value) or value <= 0:
        raise CombatInputError(field, f"must be a number above 0, got {value!r}")
    if isinstance(value, int):
        return value, 1
    exact = Fraction(repr(value))
    return exact.numerator, exact.denominator


def _combat(value: Any) -> Combat:
    if not isinstance(value, str) or value not in COMBAT_TYPES:
        raise CombatInputError("combat", f"unknown combat type {value!r}", COMBAT_TYPES)
    return value


def _terrain(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value > max(TERRAIN_MORALE):
        raise CombatInputError(
            "terrain_morale",
            f"{value}: only the most favourable terrain adjustment applies (+1 or +2), "
            "never a sum of them",
            TERRAIN_MORALE,
        )
    return _whole("terrain_morale", value, TERRAIN_MORALE)


def odds_column(attack: int | float, defense: int | float) -> int:
    """The index in ``ODDS_COLUMNS`` of the highest column not above attack / defense."""
    attack_num, attack_den = _strength("attack", attack)
    defense_num, defense_den = _strength("defense", defense)
    num, den = attack_num * defense_den, attack_den * defense_num  # attack / defense = num / den
    for index in range(len(_LEVELS) - 1, -1, -1):
        x, y = _LEVELS[index]
        if num * y >= x * den:  # num / den >= x / y
            return index
    raise CombatInputError(
        "attack",
        f"{attack} against {defense} is below 1-4 odds; attacks at less than 1-4 are not allowed",
    )


# --- odds and resolution --------------------------------------------------------------------------


def france_1944_odds(
    attack: int | float,
    defense: int | float,
    *,
    combat: Combat = "set-piece",
    attacker_morale: int,
    defender_morale: int,
    attacking_units: int,
    terrain_morale: int = 0,
    other_morale: int = 0,
) -> CrtOdds:
    """The column, shifts, die-roll modifier and exact result chances of one attack (Table 1).

    Every argument is checked (``CombatInputError`` names it); the reading of the rules is in
    the module docstring.
    """
    index = odds_column(attack, defense)
    return _odds(
        index,
        _combat(combat),
        _whole("attacker_morale", attacker_morale, MORALE),
        _whole("defender_morale", defender_morale, MORALE),
        _whole("attacking_units", attacking_units, ATTACKING_UNITS),
        _terrain(terrain_morale),
        _whole("other_morale", other_morale, OTHER_MORALE),
    )


@lru_cache(maxsize=65536)
def _odds(
    index: int,
    combat: Combat,
    attacker_morale: int,
    defender_morale: int,
    units: int,
    terrain: int,
    other: int,
) -> CrtOdds:
    """``france_1944_odds`` after its checks; cached, since the answer is immutable."""
    explanation, modifier = _combat_modifier(
        attacker_morale, defender_morale, units, terrain, other
    )
    shifted = index + modifier
    column = min(max(shifted, 0), len(ODDS_COLUMNS) - 1)
    drm = shifted - column  # the shifts past 4-1 (positive) or 1-4 (negative)
    letters = load_tables().combat[combat][ODDS_COLUMNS[column]]
    counts = dict.fromkeys(RESULTS, 0)
    for face in DIE:
        counts[letters[_row(face, drm) - 1]] += 1
    return CrtOdds(
        table=TABLE,
        odds_level=ODDS_COLUMNS[index],
        column=ODDS_COLUMNS[column],
        odds_drm=0,
        drm=drm,
        explanation=explanation,
        distribution=MappingProxyType({code: n / len(DIE) for code, n in counts.items()}),
    )


def _combat_modifier(
    attacker_morale: int, defender_morale: int, units: int, terrain: int, other: int
) -> tuple[tuple[Modifier, ...], int]:
    """The explanation lines and the combat modifier; the lines' values add up to the modifier."""
    lines = [
        Modifier(
            f"morale: attacker {attacker_morale} - defender {defender_morale}",
            1,
            attacker_morale - defender_morale,
        )
    ]
    if terrain:
        lines.append(
            Modifier(f"terrain: defender morale +{terrain} (the best terrain only)", 1, -terrain)
        )
    if other:
        lines.append(
            Modifier(
                f"other defender morale adjustments (79th Armoured, heavy bombing): {other:+d}",
                1,
                -other,
            )
        )
    low, high = ADJUSTMENT_LIMITS
    adjustment = min(max(terrain + other, low), high)
    if adjustment != terrain + other:
        lines.append(
            Modifier(
                f"defender morale adjustment {terrain + other:+d} held to {adjustment:+d} "
                f"(limits {low:+d}..{high:+d})",
                1,
                terrain + other - adjustment,
            )
        )
    adjusted = min(max(defender_morale + adjustment, min(MORALE)), max(MORALE))
    if adjusted != defender_morale + adjustment:
        lines.append(
            Modifier(
                f"defender morale {defender_morale + adjustment} held to {adjusted} (1..6)",
                1,
                defender_morale + adjustment - adjusted,
            )
        )
    limit = load_tables().control_limits[attacker_morale]
    excess = max(units - limit, 0)
    lines.append(
        Modifier(
            f"control: {units} attacking units (HQs not counted), limit {limit} at morale "
            f"{attacker_morale}",
            excess,
            -excess,
        )
    )
    return tuple(lines), attacker_morale - adjusted - excess


def _row(face: int, drm: int) -> int:
    """Rule 1: adjusted rolls above 6 are read as 6, below 1 as 1."""
    return min(max(face + drm, min(DIE)), max(DIE))


def france_1944_resolve(
    attack: int | float,
    defense: int | float,
    *,
    combat: Combat = "set-piece",
    attacker_morale: int,
    defender_morale: int,
    attacking_units: int,
    terrain_morale: int = 0,
    other_morale: int = 0,
    dice: Dice,
) -> CrtResult:
    """One attack resolved on Table 1: one d6 from ``dice``, adjusted, clamped, read.

    ``code`` is the Table 1 letter; ``rolls`` holds the die with its counter in the dice log
    (0 for dice that keep no log); ``outcome`` gives the natural and the modified roll (before
    clamping) and the combat type.
    """
    odds = france_1944_odds(
        attack,
        defense,
        combat=combat,
        attacker_morale=attacker_morale,
        defender_morale=defender_morale,
        attacking_units=attacking_units,
        terrain_morale=terrain_morale,
        other_morale=other_morale,
    )
    value, counter = _roll(dice)
    drm = int(odds.drm)
    row = _row(value, drm)
    code = load_tables().combat[combat][odds.column][row - 1]
    return CrtResult(
        odds=odds,
        rolls=({"counter": counter, "sides": 6, "value": value},),
        row=row,
        code=code,
        outcome={"combat": combat, "natural_roll": value, "modified_roll": value + drm},
    )


def _roll(dice: Dice) -> tuple[int, int]:
    """A d6 and its counter in the dice's log (``SeededDice``, ``FixedDice``), else 0."""
    log = getattr(dice, "log", None)
    value = dice.roll(6)
    counter = log[-1].counter if log else 0
    return value, counter


# --- the CRDT -------------------------------------------------------------------------------------


def france_1944_crdt(
    ratio_result: int,
    *,
    attacker_morale: int,
    defender_morale: int,
    combat: Combat = "set-piece",
    alternative: bool = False,
) -> str:
    """The CRDT letter for a ratio result 1..5 of the original combat results table.

    By default Table 3 as printed (the revised CRDT); ``alternative=True`` the game's original
    CRDT, which Table 3 is the text's alternative to, derived from it (module docstring, item 8).
    The defender morale picks the line, the attacker morale the letter.
    """
    if not isinstance(alternative, bool):
        raise CombatInputError("alternative", f"must be true or false, got {alternative!r}")
    line = load_tables().crdt_line(
        _whole("ratio_result", ratio_result, RATIO_RESULTS),
        _whole("defender_morale", defender_morale, MORALE),
        alternative,
    )
    morale = _whole("attacker_morale", attacker_morale, MORALE)
    return line.letters[_combat(combat)][morale - 1]
