"""World in Flames option 27: the 2d10 Land Combat Results Table (rule 11.15.6).

The table, the odds modifiers and the other modifiers are data (``data/wif_2d10_land.json``, with
its source and OCR notes), checked by ``validate_wif_data`` when first loaded. This module turns a
battle into a die-roll modifier (DRM), gives the exact chance of every printed result, resolves
one battle with injected dice, and says who chooses the column. Pure Python: the HTTP layer is
``combat.api.wif``.

How the rule text is read (every interpretation made here):

* **Odds** = attack / defense factors, computed exactly (a float such as 3.65 is read as the
  decimal written, never as its binary approximation, so 3.65:1 is exactly on the 7.3 boundary).
  They are rounded *down* to the printed level; below 1:6 is "<1:6" (-10). Attack 0 is allowed
  ("<1:6"); defense 0 is refused.
* **Over 10:1** the text says the modifier "is double the odds", with 15.74:1 -> 31. 2 x 15.74 =
  31.48, so the DRM is floor(2 x ratio): not 2 x floor(ratio) (= 30, against the example) and not
  rounded to nearest (WiF rounds odds down throughout). ``odds_level`` is then the ratio itself,
  truncated to two decimals ("15.74:1"), since no printed level exists.
* **Option 26** (``fractional_odds``): "for odds of 1:1 and higher the odds modifiers are linear",
  3.65:1 -> 7.3 and 3.64:1 -> 7.2. The line through the table's points 1:1 = +2, 3:2 = +3,
  2:1 = +4 ... 10:1 = +20 is 2 x ratio; 2 x 3.64 = 7.28 -> 7.2 shows it is truncated to one
  decimal: DRM = floor(20 x ratio) / 10, above 10:1 too (15.74:1 -> 31.4). Below 1:1 the table
  is used as without the option. ``odds_level`` stays the printed level the ratio falls to.
* **A fractional total DRM** (option 26, halved division modifiers, half an HQ's reorganisation
  value, or a raw ``drm`` such as 0.5) is read as floor(total) plus one more with probability
  equal to the fraction: after the two combat dice a third d10 is rolled, and a value <= the
  fraction's tenths adds +1 (a DRM of 7.3 reads +8 on a 1..3, +7 otherwise). This keeps the
  average DRM, which rounding down would not (option 26 would then only ever lose the tenths it
  computes); the text itself does not say how to read a fraction (it points to 11.15.5, which is
  not in the text we have). Every source gives whole tenths, so the raw ``drm`` must have at
  most one decimal. The third die is rolled only when there is a fraction, and the exact
  distribution then enumerates all 1000 outcomes of the three dice (100 of the two otherwise).
* **The roll** is 2d10 read 1..10 each (2..20) + the total DRM, clamped to the -1 and 23 rows.
* **Terrain** is one of the land terrains the text names (clear, desert, forest, jungle,
  mountain, swamp) or tundra (no modifier, no x); a city is the separate ``city`` flag, because a
  city hex has its own terrain too (a jungle city is still -4).
* **Modifiers** (``WifModifiers``, or a plain dict of its field names): each printed line is an
  item of the data file with its value, the counts it multiplies, what it needs (terrain, city,
  weather, column, an attacking HQ-A/ARM/MECH, a printed factory) and the options it belongs to.
  A count given for a line whose *option* is not in ``options`` is refused (the player would be
  playing with units the game does not have); a count whose *situation* does not hold (the blitz
  line on the assault column, armour in a city...) is shown in the explanation with value 0 and
  the reason, so one ``modifiers`` object can be evaluated on both columns. "Storm and snow" is
  one line: storm or snow, each -4. "-1 per major power after the first": ``attacking_major_powers``
  defaults to 1. "Factory modifiers (maximum +0)": the three factory lines' sum is capped at 0,
  shown as its own explanation line so the lines always add up to the total.
* **HQ-A/ARM/MECH counts** of the attacker leave out units attacking across a fort hexside: the
  text says they count neither for column choice nor for the blitz line. Those units are counted
  in ``attacking_armour_across_fort``, which only tells whether the hex is "attacked by HQ-A, ARM
  or MECH" (the DiF option 3 AT/AA line).
* **Divisions** (note 4: "DiF options 2, 3, 14 & 24: halve division sized and notional units'
  modifiers"): ``divisions`` says how many of a count are division sized or notional; their line
  value is halved (needs one of those options). Only the lines the notes mark with note 4 are
  halved; the AT/AA and ENG lines are not (those units are divisions, and their printed values
  already say so). Note 5 (reduce a unit's modifier proportionally when terrain reduces its
  factors, e.g. a 1/3rd modifier) is not modelled: add the adjustment, to one decimal, to ``drm``.
* **x** = "the attacker takes one extra loss (in total)" when any of the text's conditions holds
  (``extra_loss_conditions``); several conditions still make one extra loss, none makes the x
  nothing. "Fewer than half the attacking land units are winterised" needs
  ``attacking_land_units`` when any attacker is winterised in snow or blizzard.
* **Results**: "A/D" losses; "-" no loss; a bare "x" (no number) is no printed loss plus the x;
  "†" half the remaining attacking land units stay face-up (which half, and the rounding, the
  text leaves to the attacker: reported as ``face_up = "half"``), "*" all stay face-up; R
  retreat, S shattered (to the production circle), B = S plus breakthrough; the attacker may
  convert an S or B to an R (``may_convert_to_retreat``).
* **Column choice** (``wif_column_chooser``): the attacker chooses when the defender is in a
  non-city clear, forest or desert hex and the attacker has more HQ-A + ARM than the defender, or
  more MECH while the defender has no HQ-A or ARM; otherwise the defender chooses. With DiF
  option 2, divisions count 1/2 (not rounded); with DiF option 3, every defending AA and AT counts
  as an ARM corps. The resolver takes the column it is given: whoever had the choice made it.
"""

from __future__ import annotations

import itertools
import json
import math
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields
from fractions import Fraction
from functools import cache, cached_property, lru_cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, TypeGuard

from combat.crt.results import CrtOdds, CrtResult, Modifier
from combat.dice import Dice
from combat.errors import CombatInputError

TABLE = "wif-2d10-land"
DATA_FILE = Path(__file__).resolve().parent / "data" / "wif_2d10_land.json"
COLUMNS = ("assault", "blitz")
TERRAINS = ("clear", "desert", "forest", "jungle", "mountain", "swamp", "tundra")
WEATHERS = ("fine", "rain", "storm", "snow", "blizzard")
LOWEST_ROW, HIGHEST_ROW = -1, 23
DIE = 10  # both combat dice and the fraction die are d10s read 1..10
MAX_COUNT = 99  # units, factories or points of one kind in one battle; no hex holds more
NEEDS = ("terrain", "city", "weather", "column", "attacked_by_armour", "printed_factory")
CHOOSER_TERRAINS = ("clear", "forest", "desert")  # where the attacker may get the column choice
ColumnChooser = Literal["attacker", "defender"]

_CODE = re.compile(
    r"(?:(?P<mark>[†*])?(?P<x>x)?(?P<attacker>[1-9][0-9]*)?|(?P<no_attack_loss>-))"
    r"/(?:(?P<defender>[1-9][0-9]*)?(?P<result>[RSB])?|(?P<no_defence_loss>-))"
)
_FACE_UP = {None: "none", "†": "half", "*": "all"}


class WifDataError(ValueError):
    """The data file is malformed: the message names the file and the key at fault."""


# --- the table's vocabulary ---------------------------------------------------------------


@dataclass(frozen=True)
class WifCode:
    """A result code as printed (``"†1/2S"``) and what it says.

    ``attacker_losses`` is the printed number (the x extra loss is decided by the battle, see
    ``extra_loss_conditions``); ``face_up`` is "none", "half" (†) or "all" (*);
    ``defender_result`` is "R", "S", "B" or None.
    """

    code: str
    attacker_losses: int
    extra_loss: bool
    face_up: str
    defender_losses: int
    defender_result: str | None


@cache
def parse_code(code: str) -> WifCode:
    """The parts of a printed result code; ValueError when it does not follow the table's syntax.

    Attacker side: an optional † or *, an optional x, an optional loss count, or "-" alone;
    defender side: an optional loss count and an optional R/S/B, or "-" alone. Neither side may
    be empty ("†/R" is a † with no attacker loss; "x/-" an x with no printed loss).
    """
    match = _CODE.fullmatch(code) if isinstance(code, str) else None
    attacker_side = match and (match["mark"] or match["x"] or match["attacker"])
    defender_side = match and (match["defender"] or match["result"])
    if not match or not (attacker_side or match["no_attack_loss"]):
        raise ValueError(f"{code!r} is not a result code of the 2d10 Land CRT")
    if not (defender_side or match["no_defence_loss"]):
        raise ValueError(f"{code!r} is not a result code of the 2d10 Land CRT")
    return WifCode(
        code=code,
        attacker_losses=int(match["attacker"] or 0),
        extra_loss=bool(match["x"]),
        face_up=_FACE_UP[match["mark"]],
        defender_losses=int(match["defender"] or 0),
        defender_result=match["result"],
    )


@dataclass(frozen=True)
class OddsLevel:
    """A printed odds level: its label, the lowest ratio it covers (None for "<1:6"), its DRM."""

    label: str
    ratio: Fraction | None
    drm: int


@dataclass(frozen=True)
class ModifierLine:
    """One printed line of "Other Modifiers" (see the data file's ``modifiers``)."""

    id: str
    group: str
    printed: str  # the value as printed: "-2", "+half"
    value: Fraction  # per count
    text: str
    counts: tuple[str, ...]  # WifModifiers fields it multiplies; () = once per battle
    after_first: bool  # "per major power ... (after the first)"
    needs: Mapping[str, Any]
    options: tuple[str, ...]
    notes: tuple[int, ...]
    halved_for_divisions: bool

    @property
    def label(self) -> str:
        return f"{self.printed} {self.text}"


@dataclass(frozen=True)
class ModifierGroup:
    id: str
    title: str
    maximum: Fraction | None  # the printed cap on the group's sum ("maximum +0")
    lines: tuple[ModifierLine, ...]


@dataclass(frozen=True)
class WifTables:
    """The validated data file."""

    rows: Mapping[int, Mapping[str, str]]  # roll -> column -> code
    odds: tuple[OddsLevel, ...]  # ascending; odds[0] is "<1:6"
    groups: tuple[ModifierGroup, ...]
    x_conditions: Mapping[str, str]  # id -> text as printed
    options: Mapping[str, str]
    divisions_options: frozenset[str]
    results_key: Mapping[str, str]

    @cached_property
    def gated_lines(self) -> tuple[ModifierLine, ...]:
        """The lines that belong to an option."""
        return tuple(line for group in self.groups for line in group.lines if line.options)

    @cached_property
    def halvable_counts(self) -> frozenset[str]:
        """The counts that may include division sized or notional units (note 4 lines)."""
        return frozenset(
            name
            for group in self.groups
            for line in group.lines
            if line.halved_for_divisions
            for name in line.counts
        )


@cache
def wif_tables() -> WifTables:
    """The 2d10 Land CRT data file, loaded and validated once."""
    with DATA_FILE.open(encoding="utf-8") as handle:
        return validate_wif_data(json.load(handle), DATA_FILE.name)


# --- the data file's validator --------------------------------------------------------------


def validate_wif_data(raw: Any, source: str) -> WifTables:
    """Check the data file's shape and every code's syntax; WifDataError names the key at fault."""

    def fail(path: str, message: str) -> WifDataError:
        return WifDataError(f"{source}: {path}: {message}")

    if not isinstance(raw, Mapping):
        raise fail("(top)", "expected an object")
    for key in ("source", "ocr_fixes", "crt", "odds", "x_conditions", "modifiers", "notes"):
        if key not in raw:
            raise fail(key, "missing")
    if not isinstance(raw["source"], str) or not raw["source"].strip():
        raise fail("source", "name the rule text the tables were copied from")
    notes = raw["notes"]
    if not isinstance(notes, Mapping) or set(notes) != {str(n) for n in range(1, 10)}:
        raise fail("notes", "expected the nine notes of the text, keyed 1..9")
    options = _string_map(raw.get("options"), "options", fail)
    divisions_options = frozenset(_names(raw.get("divisions_options"), "divisions_options", fail))
    if not divisions_options <= set(options):
        raise fail("divisions_options", "names an option missing from 'options'")
    x_conditions: dict[Any, Any] = {  # str -> str once checked just below
        item.get("id"): item.get("text")
        for item in _objects(raw["x_conditions"], "x_conditions", fail)
    }
    if set(x_conditions) != set(_X_CONDITIONS) or not all(map(_is_text, x_conditions.values())):
        raise fail("x_conditions", f"expected ids {sorted(_X_CONDITIONS)}, each with its text")
    return WifTables(
        rows=_validate_rows(raw["crt"], fail),
        odds=_validate_odds(raw["odds"], fail),
        groups=_validate_modifiers(raw, set(options), set(notes), fail),
        x_conditions=MappingProxyType(x_conditions),
        options=MappingProxyType(options),
        divisions_options=divisions_options,
        results_key=MappingProxyType(_string_map(raw.get("results_key"), "results_key", fail)),
    )


_Fail = Callable[[str, str], WifDataError]


def _validate_rows(crt: Any, fail: _Fail) -> Mapping[int, Mapping[str, str]]:
    if not isinstance(crt, Mapping) or tuple(crt.get("columns", ())) != COLUMNS:
        raise fail("crt.columns", f"expected {list(COLUMNS)}")
    rows: dict[int, Mapping[str, str]] = {}
    expected = list(range(LOWEST_ROW, HIGHEST_ROW + 1))
    items = crt.get("rows")
    if not isinstance(items, list) or len(items) != len(expected):
        raise fail("crt.rows", f"expected {len(expected)} rows, {LOWEST_ROW}..{HIGHEST_ROW}")
    for index, (roll, row) in enumerate(zip(expected, items, strict=True)):
        path = f"crt.rows[{index}]"
        if not isinstance(row, Mapping) or set(row) != {"roll", *COLUMNS}:
            raise fail(path, f"expected the keys roll, {', '.join(COLUMNS)}")
        if row["roll"] != roll or isinstance(row["roll"], bool):
            raise fail(f"{path}.roll", f"expected {roll} (rows in order), found {row['roll']!r}")
        for column in COLUMNS:
            try:
                parse_code(row[column])
            except ValueError as error:
                raise fail(f"{path}.{column}", str(error)) from None
        rows[roll] = MappingProxyType({column: row[column] for column in COLUMNS})
    return MappingProxyType(rows)


def _validate_odds(odds: Any, fail: _Fail) -> tuple[OddsLevel, ...]:
    levels = _objects(
        odds.get("levels") if isinstance(odds, Mapping) else None, "odds.levels", fail
    )
    if len(levels) < 2:
        raise fail("odds.levels", "expected the printed odds levels")
    parsed: list[OddsLevel] = []
    for index, item in enumerate(levels):
        path = f"odds.levels[{index}]"
        label, drm = item.get("level"), item.get("drm")
        if not isinstance(drm, int) or isinstance(drm, bool):
            raise fail(f"{path}.drm", f"expected a whole number, found {drm!r}")
        below = index == 0
        ratio = _level_ratio(label[1:] if below and isinstance(label, str) else label)
        if ratio is None or not isinstance(label, str) or below != label.startswith("<"):
            raise fail(f"{path}.level", f"expected 'a:b' ('<a:b' first only), found {label!r}")
        if below:
            first = _level_ratio(levels[1].get("level"))
            if ratio != first:
                raise fail(f"{path}.level", "the '<' level must be below the next level")
        elif parsed and (ratio <= (parsed[-1].ratio or 0) or drm <= parsed[-1].drm):
            raise fail(path, "levels and their DRMs must increase down the table")
        parsed.append(OddsLevel(label, None if below else ratio, drm))
    return tuple(parsed)


def _level_ratio(label: Any) -> Fraction | None:
    match = re.fullmatch(r"([1-9][0-9]*):([1-9][0-9]*)", label) if isinstance(label, str) else None
    return Fraction(int(match[1]), int(match[2])) if match else None


def _validate_modifiers(
    raw: Mapping[str, Any], options: set[str], notes: set[str], fail: _Fail
) -> tuple[ModifierGroup, ...]:
    groups = _objects(raw.get("modifier_groups"), "modifier_groups", fail)
    group_ids: list[Any] = [group.get("id") for group in groups]  # texts once checked
    titled = all(_is_text(group.get("title")) for group in groups)
    if len(set(group_ids)) != len(group_ids) or not all(map(_is_text, group_ids)) or not titled:
        raise fail("modifier_groups", "expected unique ids, each with its printed title")
    lines: dict[str, list[ModifierLine]] = {group_id: [] for group_id in group_ids}
    seen: set[str] = set()
    for index, item in enumerate(_objects(raw["modifiers"], "modifiers", fail)):
        line = _modifier_line(item, f"modifiers[{index}]", options, notes, fail)
        if line.id in seen or line.group not in lines:
            raise fail(f"modifiers[{index}]", "duplicate id or unknown group")
        seen.add(line.id)
        lines[line.group].append(line)
    result = []
    for group in groups:
        maximum = group.get("maximum")
        if maximum is not None and not _is_number(maximum):
            raise fail(f"modifier_groups.{group['id']}.maximum", "expected a number or null")
        cap = None if maximum is None else Fraction(maximum)
        result.append(ModifierGroup(group["id"], group["title"], cap, tuple(lines[group["id"]])))
    return tuple(result)


def _modifier_line(
    item: Mapping[str, Any], path: str, options: set[str], notes: set[str], fail: _Fail
) -> ModifierLine:
    # The printed value is a text once it matches ``value`` (``_printed_value``); ``group`` is
    # checked by the caller.
    printed: Any = item.get("printed")
    value = item.get("value")
    group: Any = item.get("group")
    if not _is_number(value) or _printed_value(printed) != Fraction(str(value)):
        raise fail(f"{path}.value", f"{value!r} is not the printed {printed!r}")
    counts = _names(item.get("counts"), f"{path}.counts", fail)
    unknown = set(counts) - set(_count_fields())
    if unknown:
        raise fail(f"{path}.counts", f"not a WifModifiers count: {sorted(unknown)}")
    needs = item.get("needs")
    if not isinstance(needs, Mapping) or not set(needs) <= set(NEEDS):
        raise fail(f"{path}.needs", f"expected an object with keys among {list(NEEDS)}")
    for key, allowed in (("terrain", TERRAINS), ("weather", WEATHERS), ("column", COLUMNS)):
        if key in needs and not set(_names(needs[key], f"{path}.needs.{key}", fail)) <= {*allowed}:
            raise fail(f"{path}.needs.{key}", f"expected values among {list(allowed)}")
    for key in ("city", "attacked_by_armour", "printed_factory"):
        if key in needs and not isinstance(needs[key], bool):
            raise fail(f"{path}.needs.{key}", "expected true or false")
    line_options = _names(item.get("options"), f"{path}.options", fail)
    line_notes = item.get("notes")
    if not set(line_options) <= options:
        raise fail(f"{path}.options", "names an option missing from 'options'")
    if not isinstance(line_notes, list) or not {str(n) for n in line_notes} <= notes:
        raise fail(f"{path}.notes", "expected a list of note numbers 1..9")
    flags = {key: item.get(key, False) for key in ("after_first", "halved_for_divisions")}
    if not all(isinstance(flag, bool) for flag in flags.values()):
        raise fail(path, "after_first and halved_for_divisions are true or false")
    if not _is_text(item.get("id")) or not _is_text(item.get("text")):
        raise fail(path, "expected an id and the printed text")
    return ModifierLine(
        id=item["id"],
        group=group,
        printed=printed,
        value=Fraction(str(value)),
        text=item["text"],
        counts=tuple(counts),
        after_first=flags["after_first"],
        needs=MappingProxyType(dict(needs)),
        options=tuple(line_options),
        notes=tuple(line_notes),
        halved_for_divisions=flags["halved_for_divisions"],
    )


def _printed_value(printed: Any) -> Fraction | None:
    """The number a printed modifier stands for: "+2" -> 2, "-half" -> -1/2."""
    halves = {"+half": Fraction(1, 2), "-half": Fraction(-1, 2)}
    if printed in halves:
        return halves[printed]
    matched = isinstance(printed, str) and re.fullmatch(r"[+-][1-9][0-9]*", printed)
    return Fraction(int(printed)) if matched else None


def _objects(value: Any, path: str, fail: _Fail) -> list[Mapping[str, Any]]:
    if not isinstance(value, list) or not all(isinstance(item, Mapping) for item in value):
        raise fail(path, "expected a list of objects")
    return value


def _names(value: Any, path: str, fail: _Fail) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise fail(path, "expected a list of names")
    return value


def _string_map(value: Any, path: str, fail: _Fail) -> dict[str, str]:
    if not isinstance(value, Mapping) or not all(map(_is_text, value.values())):
        raise fail(path, "expected an object of texts")
    return dict(value)


def _is_text(value: Any) -> TypeGuard[str]:
    return isinstance(value, str) and bool(value.strip())


def _is_number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


# --- the battle's situation ---------------------------------------------------------------


def _count(doc: str, *, side: str | None = None, default: int = 0) -> Any:
    return field(default=default, metadata={"kind": "count", "side": side, "doc": doc})


def _flag(doc: str) -> Any:
    return field(default=False, metadata={"kind": "flag", "doc": doc})


@dataclass(frozen=True)
class WifModifiers:
    """What the modifiers, the x and the column choice depend on; all optional.

    Build it directly or from JSON with ``from_mapping`` (``wif_land_odds`` accepts either, or
    None). Counts are whole numbers of units (or points) >= 0; every field's meaning is in its
    ``doc`` metadata, which the API schema shows. Errors name the field as ``modifiers.<name>``.
    """

    terrain: str = field(
        default="clear",
        metadata={
            "kind": "choice",
            "allowed": TERRAINS,
            "doc": "Terrain of the hex attacked (a city is `city`).",
        },
    )
    city: bool = _flag("The hex attacked is a city hex.")
    weather: str = field(
        default="fine",
        metadata={"kind": "choice", "allowed": WEATHERS, "doc": "Weather in the hex attacked."},
    )
    all_across_river_or_invading: bool = _flag(
        "All the attacking land units attack across a river, crossing arrow or fort hexside "
        "and/or are invading (an x condition)."
    )
    attacking_land_units: int | None = field(
        default=None,
        metadata={
            "kind": "optional_count",
            "doc": "All attacking land units (needed when winterised units attack in snow or "
            "blizzard: the x applies when fewer than half are winterised).",
        },
    )
    options: frozenset[str] = field(
        default=frozenset(),
        metadata={
            "kind": "options",
            "doc": "Options in play that change the modifiers or the column choice (option 26 "
            "is the fractional_odds argument).",
        },
    )
    divisions: Mapping[str, int] = field(
        default_factory=lambda: MappingProxyType({}),
        metadata={
            "kind": "divisions",
            "doc": "How many of a count are division sized or notional units, e.g. "
            '{"face_down_defenders": 1}: their modifier is halved (note 4; needs dif-2, dif-3, '
            "dif-14 or dif-24) and with dif-2 they count 1/2 for column choice.",
        },
    )
    attacking_hqa: int = _count("Attacking HQ-A not across a fort hexside.", side="attacker")
    attacking_arm: int = _count("Attacking ARM not across a fort hexside.", side="attacker")
    attacking_mech: int = _count("Attacking MECH not across a fort hexside.", side="attacker")
    attacking_armour_across_fort: int = _count(
        "Attacking HQ-A, ARM and MECH across a fort hexside (they count neither for column "
        "choice nor for the blitz modifier).",
        side="attacker",
    )
    attacking_hq_reorganisation: int = _count(
        "Option 13: the reorganisation value of one attacking HQ (+half of it)."
    )
    attacking_major_powers: int = _count(
        "Major powers adding factors to the attack (-1 each after the first).", default=1
    )
    jungle_white_print_attackers: int = _count(
        "White print Australian, Japanese or Marine units attacking (a jungle hex).",
        side="attacker",
    )
    para_attackers: int = _count(
        "PARA (option 57: and ACV) parachuting, after air-to-air and AA fire.", side="attacker"
    )
    terr_attacking_abroad: int = _count(
        "TiF option 54: TERR attacking a hex outside its home country.", side="attacker"
    )
    winterised_attackers: int = _count(
        "Winterised units attacking (MTN, SKI, Finnish, Norwegian, Swedish, white print Soviet).",
        side="attacker",
    )
    eng_attacking_factory: int = _count(
        "DiF option 2: ENG units attacking (a hex with a printed factory).", side="attacker"
    )
    defending_hqa: int = _count("Defending HQ-A.")
    defending_arm: int = _count("Defending ARM.")
    defending_mech: int = _count("Defending MECH.")
    defending_at: int = _count("DiF option 3: defending AT.")
    defending_aa: int = _count("DiF option 3: defending AA.")
    face_down_defenders: int = _count("Face-down defending land units.")
    defending_hq_reorganisation: int = _count(
        "Option 13: the reorganisation value of one defending HQ (-half of it)."
    )
    terr_defending_abroad: int = _count("TiF option 54: TERR defending outside its home country.")
    winterised_defenders: int = _count("Winterised units defending.")
    printed_factories: int = _count(
        "Printed factories in the hex attacked (even railed out or destroyed)."
    )
    eng_defending_factory: int = _count("DiF option 2: ENG units defending (a printed factory).")

    def __post_init__(self) -> None:
        for spec in _specs():
            _check_field(self, spec)
        tables = wif_tables()
        self._check_options(tables)
        self._check_divisions(tables)
        self._check_attackers()

    def __hash__(self) -> int:
        """Hash by value (mappings as sorted items), so the modifier lines can be cached."""
        return self._value_hash

    @cached_property
    def _value_hash(self) -> int:
        return hash(
            tuple(
                tuple(sorted(value.items())) if isinstance(value, Mapping) else value
                for value in (getattr(self, f.name) for f in fields(self))
            )
        )

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> WifModifiers:
        """From a JSON object: unknown keys are refused, naming the first and listing the rest."""
        if not isinstance(data, Mapping):
            raise CombatInputError("modifiers", "must be an object of modifier names and values")
        known = [spec.name for spec in _specs()]
        unknown = sorted(str(key) for key in data if key not in known)
        if unknown:
            raise CombatInputError(f"modifiers.{unknown[0]}", "unknown modifier", known)
        return cls(**data)

    def count(self, name: str) -> int:
        return getattr(self, name)

    def _check_options(self, tables: WifTables) -> None:
        for line in tables.gated_lines:
            missing = [option for option in line.options if option not in self.options]
            used = [name for name in line.counts if self.count(name)]
            if missing and used:
                raise CombatInputError(
                    f"modifiers.{used[0]}",
                    f"needs {missing[0]} ({tables.options[missing[0]]}): add it to "
                    "modifiers.options",
                )

    def _check_divisions(self, tables: WifTables) -> None:
        allowed = tables.halvable_counts
        for name, number in self.divisions.items():
            where = f"modifiers.divisions.{name}"
            if name not in allowed:
                raise CombatInputError(where, "not a count whose modifier is halved", allowed)
            if number > self.count(name):
                raise CombatInputError(where, f"more than modifiers.{name} ({self.count(name)})")
            if number and not self.options & tables.divisions_options:
                raise CombatInputError(
                    where, "division sized units need a DiF option", tables.divisions_options
                )

    def _check_attackers(self) -> None:
        total = self.attacking_land_units
        if total is None:
            if self.winterised_attackers and self.weather in ("snow", "blizzard"):
                raise CombatInputError(
                    "modifiers.attacking_land_units",
                    "needed to tell whether fewer than half the attackers are winterised",
                )
            return
        for spec in _specs():
            if spec.metadata.get("side") == "attacker" and self.count(spec.name) > total:
                raise CombatInputError(
                    f"modifiers.{spec.name}", f"more than attacking_land_units ({total})"
                )
        armour = self.attacking_hqa + self.attacking_arm + self.attacking_mech
        if armour + self.attacking_armour_across_fort > total:
            raise CombatInputError(
                "modifiers.attacking_land_units",
                "fewer than the attacking HQ-A, ARM and MECH counted",
            )


def _check_field(modifiers: WifModifiers, spec: Any) -> None:
    name = f"modifiers.{spec.name}"
    kind = spec.metadata["kind"]
    value = getattr(modifiers, spec.name)
    if kind == "count" or (kind == "optional_count" and value is not None):
        minimum = 1 if kind == "optional_count" else 0
        if isinstance(value, bool) or not isinstance(value, int):
            raise CombatInputError(name, f"must be a whole number, got {value!r}")
        if not minimum <= value <= MAX_COUNT:
            raise CombatInputError(name, f"must be {minimum}..{MAX_COUNT}, got {value}")
    elif kind == "flag" and not isinstance(value, bool):
        raise CombatInputError(name, f"must be true or false, got {value!r}")
    elif kind == "choice" and value not in spec.metadata["allowed"]:
        raise CombatInputError(name, f"unknown {spec.name} {value!r}", spec.metadata["allowed"])
    elif kind == "options":
        object.__setattr__(modifiers, spec.name, _option_set(name, value))
    elif kind == "divisions":
        object.__setattr__(modifiers, spec.name, _division_counts(name, value))


def _option_set(name: str, value: Any) -> frozenset[str]:
    allowed = wif_tables().options
    if isinstance(value, str | Mapping) or not isinstance(value, Iterable):
        raise CombatInputError(name, "must be a list of option names", allowed)
    options = list(value)
    for option in options:
        if not isinstance(option, str) or option not in allowed:
            raise CombatInputError(name, f"unknown option {option!r}", allowed)
    return frozenset(options)


def _division_counts(name: str, value: Any) -> Mapping[str, int]:
    if not isinstance(value, Mapping):
        raise CombatInputError(name, 'must be an object such as {"face_down_defenders": 1}')
    for key, number in value.items():
        if isinstance(number, bool) or not isinstance(number, int) or number < 0:
            raise CombatInputError(f"{name}.{key}", f"must be a whole number >= 0, got {number!r}")
    return MappingProxyType(dict(value))


@cache
def _specs() -> tuple[Any, ...]:
    """The fields of WifModifiers (looked up once: every battle builds one)."""
    return fields(WifModifiers)


@cache
def _count_fields() -> tuple[str, ...]:
    return tuple(spec.name for spec in _specs() if spec.metadata["kind"] == "count")


def _as_modifiers(value: WifModifiers | Mapping[str, Any] | None) -> WifModifiers:
    if value is None:
        return _no_modifiers()
    if isinstance(value, WifModifiers):
        return value
    if isinstance(value, Mapping):
        try:
            # The same situation comes back battle after battle in a turn: check it once.
            return _modifiers_from_items(tuple(sorted(value.items(), key=lambda kv: str(kv[0]))))
        except TypeError:  # an unhashable value: let from_mapping name the field
            pass
    return WifModifiers.from_mapping(value)


@lru_cache(maxsize=1024)
def _modifiers_from_items(items: tuple[tuple[Any, Any], ...]) -> WifModifiers:
    return WifModifiers.from_mapping(dict(items))


@cache
def _no_modifiers() -> WifModifiers:
    return WifModifiers()


# --- odds and the total DRM ---------------------------------------------------------------


@dataclass(frozen=True)
class _Battle:
    """A battle's odds, and its total DRM split into whole part and tenths."""

    odds: CrtOdds
    modifiers: WifModifiers
    whole: int  # floor(total DRM)
    tenths: int  # the fraction in tenths: +1 when the fraction die shows <= tenths


def wif_land_odds(
    attack: float,
    defense: float,
    *,
    column: str = "assault",
    drm: float = 0,
    modifiers: WifModifiers | Mapping[str, Any] | None = None,
    fractional_odds: bool = False,
) -> CrtOdds:
    """The odds level, the total DRM with its explanation, and every result's exact chance."""
    return _battle(attack, defense, column, drm, modifiers, fractional_odds).odds


def _battle(
    attack: Any, defense: Any, column: Any, drm: Any, modifiers: Any, fractional_odds: Any
) -> _Battle:
    attack_factors = _exact("attack", attack)
    defense_factors = _exact("defense", defense)
    if defense_factors == 0:
        raise CombatInputError("defense", "must be more than 0 (odds divide by it)")
    if column not in COLUMNS:
        raise CombatInputError("column", f"unknown column {column!r}", COLUMNS)
    if not isinstance(fractional_odds, bool):
        raise CombatInputError("fractional_odds", f"must be true or false, got {fractional_odds!r}")
    raw_drm = _exact("drm", drm, negative=True)
    if (raw_drm * 10).denominator != 1:
        raise CombatInputError("drm", "at most one decimal: a fraction is rolled for in tenths")
    situation = _as_modifiers(modifiers)
    ratio = attack_factors / defense_factors
    level, odds_drm, odds_text = _odds(ratio, fractional_odds)
    odds_line = Modifier(f"odds {_ratio_text(ratio)}:1 ({odds_text})", 1, _num(odds_drm))
    explanation = [odds_line]
    lines, lines_total = _modifier_lines(situation, column)
    explanation.extend(lines)
    if raw_drm:
        explanation.append(Modifier("raw die-roll modifier (drm)", 1, _num(raw_drm)))
    total = odds_drm + lines_total + raw_drm
    whole = math.floor(total)
    tenths = int((total - whole) * 10)
    odds = CrtOdds(
        table=TABLE,
        odds_level=level,
        column=column,
        odds_drm=_num(odds_drm),
        drm=_num(total),
        explanation=tuple(explanation),
        distribution=dict(_distribution(column, whole, tenths)),
    )
    return _Battle(odds, situation, whole, tenths)


def _exact(name: str, value: Any, *, negative: bool = False) -> Fraction:
    """A JSON number as an exact fraction: a float is read as the decimal it prints as."""
    if not _is_number(value):
        raise CombatInputError(name, f"must be a finite number, got {value!r}")
    exact = Fraction(repr(value)) if isinstance(value, float) else Fraction(value)
    if exact < 0 and not negative:
        raise CombatInputError(name, f"must be 0 or more, got {value!r}")
    return exact


@lru_cache(maxsize=4096)
def _odds(ratio: Fraction, fractional: bool) -> tuple[str, Fraction, str]:
    """(odds level, odds DRM, how the DRM was read) for an exact attack/defense ratio."""
    levels = wif_tables().odds
    option_26 = "option 26: 2 x odds, truncated to one decimal"
    top = levels[-1].ratio
    assert top is not None  # validate_wif_data: only levels[0] ("<1:6") has no ratio
    if ratio > top:
        if fractional:
            return f"{_ratio_text(ratio)}:1", _linear(ratio), option_26
        doubled = Fraction(math.floor(2 * ratio))
        return f"{_ratio_text(ratio)}:1", doubled, "over 10:1: 2 x odds, rounded down"
    level = next(
        (lvl for lvl in reversed(levels[1:]) if lvl.ratio is not None and ratio >= lvl.ratio),
        levels[0],
    )
    if fractional and ratio >= 1:
        return level.label, _linear(ratio), option_26
    return level.label, Fraction(level.drm), f"the printed {level.label} level"


def _linear(ratio: Fraction) -> Fraction:
    """Option 26: 2 x ratio truncated to one decimal (3.65 -> 7.3, 3.64 -> 7.2)."""
    return Fraction(math.floor(20 * ratio), 10)


def _ratio_text(ratio: Fraction) -> str:
    """The ratio truncated to two decimals, trailing zeros dropped: 15.74, 12, 0.16."""
    whole, hundredths = divmod(math.floor(ratio * 100), 100)
    return f"{whole}.{hundredths:02d}".rstrip("0").rstrip(".")


#: From here on a float has no fraction digits left (and past about 1.8e308 no value at all).
_FLOAT_WHOLE = 2**53


def _num(value: Fraction | int) -> float:
    """An exact value for the report: an int when whole, else a float. A value too large for
    a float to keep its fraction is reported whole: odds of 1 against 1e-308 make an odds DRM
    past the float range (an OverflowError, a 500, before)."""
    if value.denominator == 1 or not -_FLOAT_WHOLE < value < _FLOAT_WHOLE:
        return int(value)
    return float(value)


@lru_cache(maxsize=1024)
def _modifier_lines(m: WifModifiers, column: str) -> tuple[tuple[Modifier, ...], Fraction | int]:
    """The itemised "Other Modifiers" and their sum, each group's cap applied as its own line.

    Cached: it depends only on the (frozen) situation and the column.
    """
    explanation: list[Modifier] = []
    total: Fraction | int = 0  # ints until a fraction is added: cheaper
    for group in wif_tables().groups:
        group_total: Fraction | int = 0
        for line in group.lines:
            for modifier, value in _apply_line(line, m, column):
                explanation.append(modifier)
                group_total += value
        if group.maximum is not None and group_total > group.maximum:
            cut = group.maximum - group_total
            explanation.append(Modifier(group.title, 1, _num(cut)))
            group_total = group.maximum
        total += group_total
    return tuple(explanation), total


def _apply_line(
    line: ModifierLine, m: WifModifiers, column: str
) -> list[tuple[Modifier, Fraction | int]]:
    if not line.counts:  # once per battle: terrain and weather
        if _unmet(line.needs, m, column):
            return []
        return [(Modifier(line.label, 1, _num(line.value)), line.value)]
    count = sum(map(m.count, line.counts))
    if line.after_first:
        count = max(0, count - 1)
    if count == 0:
        return []
    unmet = _unmet(line.needs, m, column)
    if unmet:
        return [(Modifier(f"{line.label} (not applied: {unmet})", count, 0), 0)]
    divisions = sum(m.divisions.get(name, 0) for name in line.counts)
    corps = count - divisions
    applied: list[tuple[Modifier, Fraction | int]] = []
    if corps:
        applied.append((Modifier(line.label, corps, _num(line.value * corps)), line.value * corps))
    if divisions:
        value = line.value / 2 * divisions
        label = f"{line.label} (division sized or notional: halved)"
        applied.append((Modifier(label, divisions, _num(value)), value))
    return applied


def _unmet(needs: Mapping[str, Any], m: WifModifiers, column: str) -> str | None:
    """Why a line does not apply to this battle, or None when it does."""
    reasons = []
    if "terrain" in needs and m.terrain not in needs["terrain"]:
        reasons.append(f"needs a {' or '.join(needs['terrain'])} hex")
    if "city" in needs and m.city != needs["city"]:
        reasons.append("needs a non-city hex" if m.city else "needs a city hex")
    if "weather" in needs and m.weather not in needs["weather"]:
        reasons.append(f"needs {' or '.join(needs['weather'])} weather")
    if "column" in needs and column not in needs["column"]:
        reasons.append(f"needs the {' or '.join(needs['column'])} column")
    armour = m.attacking_hqa + m.attacking_arm + m.attacking_mech + m.attacking_armour_across_fort
    if needs.get("attacked_by_armour") and not armour:
        reasons.append("needs an attacking HQ-A, ARM or MECH")
    if needs.get("printed_factory") and not m.printed_factories:
        reasons.append("needs a printed factory in the hex")
    return "; ".join(reasons) or None


# --- exact distribution and resolution ----------------------------------------------------


def _row(dice_total: int, whole: int, bonus: int) -> int:
    return max(LOWEST_ROW, min(HIGHEST_ROW, dice_total + whole + bonus))


def _distribution(column: str, whole: int, tenths: int) -> tuple[tuple[str, float], ...]:
    """(code, probability) in row order. Past -22 or 21 every roll reads an end row."""
    return _rounded(column, max(-22, min(21, whole)), tenths)


@cache
def _rounded(column: str, whole: int, tenths: int) -> tuple[tuple[str, float], ...]:
    """The exact probabilities, each rounded once to the nearest float."""
    return tuple((code, float(p)) for code, p in _enumerate_dice(column, whole, tenths))


@cache
def _enumerate_dice(column: str, whole: int, tenths: int) -> tuple[tuple[str, Fraction], ...]:
    """Count the rows read over every face of the two dice (and of the fraction die if any)."""
    per_row: dict[int, int] = {}
    for dice in itertools.product(range(1, DIE + 1), repeat=3 if tenths else 2):
        bonus = 1 if tenths and dice[2] <= tenths else 0
        row = _row(dice[0] + dice[1], whole, bonus)
        per_row[row] = per_row.get(row, 0) + 1
    total = DIE ** (3 if tenths else 2)
    rows = wif_tables().rows
    by_code: dict[str, Fraction] = {}
    for row in sorted(per_row):
        code = rows[row][column]
        by_code[code] = by_code.get(code, Fraction(0)) + Fraction(per_row[row], total)
    return tuple(by_code.items())


def wif_land_resolve(
    attack: float,
    defense: float,
    *,
    column: str = "assault",
    drm: float = 0,
    modifiers: WifModifiers | Mapping[str, Any] | None = None,
    fractional_odds: bool = False,
    dice: Dice,
) -> CrtResult:
    """Roll the battle: two d10 (then the fraction d10 if the DRM has a fraction), read the row.

    The rolls are reported in order with their counters (the dice's own log when it keeps one).
    """
    battle = _battle(attack, defense, column, drm, modifiers, fractional_odds)
    if not callable(getattr(dice, "roll", None)):
        raise CombatInputError("dice", "pass a Dice object (with roll(sides))")
    rolls: list[dict[str, int]] = []
    dice_total = _roll(dice, rolls) + _roll(dice, rolls)
    bonus = 1 if battle.tenths and _roll(dice, rolls) <= battle.tenths else 0
    row = _row(dice_total, battle.whole, bonus)
    code = wif_tables().rows[row][column]
    outcome = wif_outcome(code, battle.modifiers)
    return CrtResult(battle.odds, tuple(rolls), row, code, outcome)


def _roll(dice: Dice, rolls: list[dict[str, int]]) -> int:
    value = dice.roll(DIE)
    log = getattr(dice, "log", None)
    counter = log[-1].counter if log else len(rolls)
    rolls.append({"counter": counter, "sides": DIE, "value": value})
    return value


# --- what a result means in this battle -----------------------------------------------------

_X_CONDITIONS: dict[str, Callable[[WifModifiers], bool]] = {
    "difficult_hex": lambda m: m.city or m.terrain in ("mountain", "forest", "jungle", "swamp"),
    "all_across_obstacle": lambda m: m.all_across_river_or_invading,
    "armour_in_the_open": lambda m: (
        m.terrain in ("clear", "desert")
        and m.defending_hqa + m.defending_arm + m.defending_mech > 0
    ),
    "rain_or_storm": lambda m: m.weather in ("rain", "storm"),
    "snow_not_winterised": lambda m: (
        m.weather in ("snow", "blizzard")
        and (
            m.winterised_attackers == 0
            if m.attacking_land_units is None
            else 2 * m.winterised_attackers < m.attacking_land_units
        )
    ),
}


def extra_loss_conditions(
    modifiers: WifModifiers | Mapping[str, Any] | None = None,
) -> tuple[str, ...]:
    """The text's x conditions that hold in this battle (any one makes the x an extra loss)."""
    m = _as_modifiers(modifiers)
    texts = wif_tables().x_conditions
    return tuple(texts[key] for key, holds in _X_CONDITIONS.items() if holds(m))


def wif_outcome(
    code: str, modifiers: WifModifiers | Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """A printed code as losses and flags, the x decided by this battle's situation."""
    parsed = parse_code(code)
    reasons = extra_loss_conditions(modifiers) if parsed.extra_loss else ()
    extra = 1 if reasons else 0
    return {
        "attacker_losses": parsed.attacker_losses + extra,
        "printed_attacker_losses": parsed.attacker_losses,
        "extra_loss": parsed.extra_loss,
        "extra_loss_taken": bool(extra),
        "extra_loss_reasons": list(reasons),
        "defender_losses": parsed.defender_losses,
        "face_up": parsed.face_up,
        "defender_result": parsed.defender_result,
        "may_convert_to_retreat": parsed.defender_result in ("S", "B"),
        "summary": _summary(parsed, extra, reasons),
    }


def _summary(parsed: WifCode, extra: int, reasons: tuple[str, ...]) -> str:
    key = wif_tables().results_key
    attacker = f"attacker loses {parsed.attacker_losses + extra}"
    if parsed.extra_loss:
        attacker += f" (x: {reasons[0]})" if reasons else " (x: no condition holds)"
    parts = [attacker, f"defender loses {parsed.defender_losses}"]
    if parsed.defender_result:
        parts.append(f"{parsed.defender_result}: {key[parsed.defender_result]}")
    if parsed.face_up != "none":
        parts.append(key["†" if parsed.face_up == "half" else "*"])
    if parsed.defender_result in ("S", "B"):
        parts.append(key["convert"])
    return "; ".join(parts)


# --- who chooses the column -----------------------------------------------------------------


def wif_column_chooser(
    modifiers: WifModifiers | Mapping[str, Any] | None = None,
) -> ColumnChooser:
    """ "attacker" or "defender": who chooses Assault or Blitz ("Choosing Combat Column")."""
    m = _as_modifiers(modifiers)
    if m.city or m.terrain not in CHOOSER_TERRAINS:
        return "defender"

    def weight(name: str) -> Fraction:  # DiF option 2: divisions count 1/2, not rounded
        halved = m.divisions.get(name, 0) if "dif-2" in m.options else 0
        return m.count(name) - Fraction(halved, 2)

    attacker_armour = weight("attacking_hqa") + weight("attacking_arm")
    defender_armour = weight("defending_hqa") + weight("defending_arm")
    if "dif-3" in m.options:  # every defending AA and AT counts as an ARM corps
        defender_armour += m.defending_aa + m.defending_at
    more_mech = weight("attacking_mech") > weight("defending_mech")
    if attacker_armour > defender_armour or (more_mech and defender_armour == 0):
        return "attacker"
    return "defender"
