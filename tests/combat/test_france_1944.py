"""France 1944 revised combat resolution (../shared/rules/france-1944-revisions.txt).

The tables are compared with golden files copied by hand from the rule text; each numbered
combat rule's worked example is a test; distributions are checked by hand, against every die face
and by simulation.
"""

from __future__ import annotations

import ast
import copy
import json
import math
import sys
from collections import Counter
from itertools import product
from pathlib import Path

import pytest

from combat.crt import france_1944
from combat.crt.france_1944 import (
    COMBAT_TYPES,
    ODDS_COLUMNS,
    RESULTS,
    France1944DataError,
    france_1944_crdt,
    france_1944_odds,
    france_1944_resolve,
    load_tables,
    validate_tables,
)
from combat.crt.results import CrtOdds, CrtResult
from combat.dice import FixedDice, RandomDice, SeededDice
from combat.errors import CombatInputError

GOLDEN = Path(__file__).resolve().parent / "golden"
RULE_TEXT = GOLDEN / "sources" / "france-1944-revisions.txt"  # a copy of ../shared/rules/...
BASE = {"attacker_morale": 3, "defender_morale": 3, "attacking_units": 1}


def raw_data() -> dict:
    return json.loads(france_1944.DATA_FILE.read_text(encoding="utf-8"))


def golden_rows(name: str) -> list[list[str]]:
    """The data lines of a golden file (those starting with a digit), split into tokens."""
    lines = (GOLDEN / name).read_text(encoding="utf-8").splitlines()
    return [line.split() for line in lines if line[:1].isdigit()]


def odds(attack=1, defense=1, **kwargs) -> CrtOdds:
    return france_1944_odds(attack, defense, **{**BASE, **kwargs})


# --- the tables against the printed text -------------------------------------------------------


def test_table1_in_the_data_file_is_the_printed_table():
    rows = raw_data()["table1"]["rows"]
    golden = golden_rows("france_1944_table1.txt")
    assert [row[0] for row in golden] == ["1", "2", "3", "4", "5", "6"]
    for row in golden:
        die, letters = row[0], row[1:]
        assert len(letters) == 2 * len(ODDS_COLUMNS)
        assert "".join(rows[die]) == "".join(letters), f"die {die}"


def test_table1_as_loaded_reads_by_combat_type_and_column():
    tables = load_tables()
    for row in golden_rows("france_1944_table1.txt"):
        die, letters = int(row[0]), row[1:]
        for index, column in enumerate(ODDS_COLUMNS):
            assert tables.combat["set-piece"][column][die - 1] == letters[2 * index]
            assert tables.combat["mobile"][column][die - 1] == letters[2 * index + 1]


def test_table2_in_the_data_file_is_the_printed_table():
    printed = {int(morale): int(limit) for morale, limit in golden_rows("france_1944_table2.txt")}
    assert printed == {1: 1, 2: 3, 3: 4, 4: 6, 5: 8}
    assert {int(k): v for k, v in raw_data()["table2"]["control_limits"].items()} == printed
    assert {m: load_tables().control_limits[m] for m in printed} == printed


def test_morale_6_has_the_control_limit_of_morale_5():
    """Not printed; decided: 8, the most attacking units a combat can hold (rule 5)."""
    assert load_tables().control_limits[6] == 8


def test_table3_in_the_data_file_is_the_printed_table():
    rows = raw_data()["table3"]["rows"]
    golden = golden_rows("france_1944_table3.txt")
    assert len(rows) == len(golden) == 10
    for row, line in zip(rows, golden, strict=True):
        assert [str(row["rr"]), *row["set-piece"].split(), row["dm"], *row["mobile"].split()] == (
            line
        )


def test_table3_as_loaded_is_the_printed_table():
    loaded = load_tables().crdt
    for line, printed in zip(loaded, golden_rows("france_1944_table3.txt"), strict=True):
        low, _, high = printed[7].partition("-")
        assert line.ratio_result == int(printed[0])
        assert line.defender_morale == range(int(low), int(high or low) + 1)
        assert line.letters["set-piece"] == tuple(printed[1:7])
        assert line.letters["mobile"] == tuple(printed[8:14])


def test_the_golden_files_are_the_rule_text_with_the_ocr_fixed():
    """Look-alike letters mapped to Latin; Table 3's stray first-column digits replaced."""
    latin = str.maketrans("\u0410\u0412\u0421\u0415\u041c\u0391\u039c", "ABCEMAM")
    lines = [line.translate(latin).split() for line in RULE_TEXT.read_text().splitlines()]
    start = next(i for i, line in enumerate(lines) if line[:3] == ["Roll", "S", "M"]) + 1
    assert lines[start : start + 6] == golden_rows("france_1944_table1.txt")
    start = next(i for i, line in enumerate(lines) if line[:3] == ["R", "1", "2"]) + 1
    text = lines[start : start + 10]
    text[3].insert(0, "2")  # the second line of RR 2 has no digit
    for number, line in enumerate(text):
        line[0] = str(number // 2 + 1)  # the stray 5 (RR 3) and 3 (RR 5)
    assert text == golden_rows("france_1944_table3.txt")


def test_the_data_file_names_its_source_and_every_kind_of_ocr_fix():
    raw = raw_data()
    assert "France 1944 Revisions" in raw["source"]
    assert "Savarese" in raw["source"]
    fixes = raw["ocr_fixes"]
    assert len(fixes["cells"]) == 18  # every table line holding a look-alike letter
    assert "5 and the 3 are OCR noise" in fixes["table 3 ratio results"]
    assert all(ord(c) < 128 for c in france_1944.DATA_FILE.read_text(encoding="utf-8"))


# --- the validator ------------------------------------------------------------------------------


def broken(change) -> str:
    raw = copy.deepcopy(raw_data())
    change(raw)
    with pytest.raises(France1944DataError) as caught:
        validate_tables(raw, "france_1944.json")
    return str(caught.value)


def test_the_validator_refuses_a_cyrillic_letter():
    def cyrillic(raw):
        raw["table1"]["rows"]["4"][8] = "\u0421C"

    assert "table1.rows.4.4-1" in broken(cyrillic)
    assert "U+0421" in broken(cyrillic)


def test_the_validator_refuses_a_missing_die_roll():
    assert "table1.rows" in broken(lambda raw: raw["table1"]["rows"].pop("6"))


def test_the_validator_refuses_a_short_crdt_line():
    def short(raw):
        raw["table3"]["rows"][2]["set-piece"] = "D D C C C"

    assert "table3.rows.2.set-piece" in broken(short)


def test_the_validator_refuses_a_mobile_line_that_is_not_the_substitution():
    def slip(raw):
        raw["table3"]["rows"][5]["mobile"] = "E E F F F F"

    assert "table3.rows.5.mobile" in broken(slip)


def test_the_validator_refuses_defender_morale_that_misses_a_value():
    def gap(raw):
        raw["table3"]["rows"][1]["dm"] = "3-6"

    assert "RR 1" in broken(gap)


def test_the_validator_refuses_an_original_crdt_that_is_not_one_below_table3():
    def drift(raw):
        raw["original_crdt"]["rows"][4] = {**raw["table3"]["rows"][4]}

    assert "original_crdt.rows.4" in broken(drift)


def test_the_validator_refuses_a_falling_control_limit():
    def fall(raw):
        raw["table2"]["control_limits"]["4"] = 3

    assert "table2.4" in broken(fall)


# --- odds columns -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attack", "defense", "column"),
    [
        (1, 4, "1-4"),
        (2, 7, "1-4"),
        (1, 3, "1-3"),
        (4, 9, "1-3"),
        (1, 2, "1-2"),
        (2, 3, "2-3"),
        (5, 4, "1-1"),
        (3, 2, "3-2"),
        (11, 4, "2-1"),
        (7, 2, "3-1"),
        (4, 1, "4-1"),
        (100, 1, "4-1"),
        (1.5, 1, "3-2"),
        (0.3, 0.9, "1-3"),
        (2.5, 10, "1-4"),
    ],
)
def test_the_odds_column_is_the_highest_not_above_the_ratio(attack, defense, column):
    assert odds(attack, defense).odds_level == column
    assert odds(attack, defense).column == column  # equal morale, one unit: no shift


def test_below_1_to_4_is_refused_naming_attack():
    with pytest.raises(CombatInputError) as caught:
        odds(1, 5)
    assert caught.value.field == "attack"
    assert "below 1-4" in caught.value.message


# --- the rule text's worked examples -----------------------------------------------------------


def test_rule_2_a_modifier_of_minus_3_at_3_2_uses_the_1_2_column():
    """ "A combat modifier of -3 at 3-2 odds results in the 1-2 column being used."""
    result = odds(3, 2, attacker_morale=1, defender_morale=4)
    assert (result.odds_level, result.column, result.drm) == ("3-2", "1-2", 0)


def test_rule_3_plus_5_at_1_1_is_4_1_with_a_plus_1_die_roll_modifier():
    """ "A 1-1 attack with a combat modifier of +5 results in the 4-1 odds column ... +1."""
    result = odds(1, 1, attacker_morale=6, defender_morale=1)
    assert (result.odds_level, result.column, result.drm) == ("1-1", "4-1", 1)
    assert result.odds_drm == 0


def test_rule_3_minus_3_at_1_3_is_1_4_with_a_minus_2_die_roll_modifier():
    """ "A 1-3 attack with a modifier of -3 results in a 1-4 attack with a -2 die roll modifier."""
    result = odds(1, 3, attacker_morale=2, defender_morale=5)
    assert (result.odds_level, result.column, result.drm) == ("1-3", "1-4", -2)


def test_rule_4_morale_4_against_5_is_a_morale_modifier_of_minus_1():
    """ "An attacker with a morale of 4 and a defender with a morale of 5 ... -1."""
    result = odds(1, 1, attacker_morale=4, defender_morale=5)
    assert result.explanation[0].value == -1
    assert result.column == "2-3"


@pytest.mark.parametrize("units", range(1, 9))
def test_rule_5_morale_5_never_suffers_a_control_penalty(units):
    """ "An attacker with a morale of 5 (control limit of 8) will never suffer a penalty"."""
    result = odds(attacker_morale=5, defender_morale=5, attacking_units=units)
    assert result.column == "1-1"
    assert result.explanation[-1].value == 0


@pytest.mark.parametrize(
    ("morale", "units", "control"),
    [(1, 1, 0), (1, 2, -1), (1, 8, -7), (2, 3, 0), (2, 5, -2), (3, 6, -2), (4, 8, -2)],
)
def test_rule_5_each_unit_above_the_control_limit_subtracts_one(morale, units, control):
    result = odds(attacker_morale=morale, defender_morale=morale, attacking_units=units)
    line = result.explanation[-1]
    assert line.condition.startswith("control:")
    assert (line.count, line.value) == (-control, control)


def test_the_text_example_of_more_than_8_units_is_impossible():
    """Rule 5: at most 8 attacking units can be involved in a combat."""
    with pytest.raises(CombatInputError) as caught:
        odds(attacking_units=9)
    assert caught.value.field == "attacking_units"


# --- defender morale adjustments ---------------------------------------------------------------


def test_only_the_best_terrain_adjustment_applies():
    """A fortress hex with a city gives +2, "not +1 (for the city) or +3 (the sum)"."""
    assert odds(terrain_morale=2).column == "1-2"
    with pytest.raises(CombatInputError) as caught:
        odds(terrain_morale=3)
    assert caught.value.field == "terrain_morale"
    assert "never a sum" in caught.value.message


def test_heavy_bombing_plus_the_79th_is_minus_3():
    """The 79th's adjustment is cumulative: with heavy bombing, -3 to defender morale."""
    result = odds(defender_morale=5, other_morale=-3)
    assert result.column == "3-2"  # morale 3 against 5 - 3 = 2: one shift right of 1-1


def test_the_worst_adjustment_is_minus_3_and_the_best_plus_2():
    assert odds(defender_morale=6, other_morale=-5).column == odds(defender_morale=3).column
    assert odds(defender_morale=2, terrain_morale=2, other_morale=2).column == "2-3"  # 3 vs 4
    result = odds(defender_morale=6, other_morale=-5)
    assert any("held to -3" in line.condition for line in result.explanation)


def test_adjusted_defender_morale_stays_within_1_and_6():
    """Rule 4: no adjustment takes defender morale above 6 or below 1."""
    assert odds(defender_morale=6, terrain_morale=2).column == odds(defender_morale=6).column
    assert odds(defender_morale=2, other_morale=-3).column == odds(defender_morale=1).column
    result = odds(defender_morale=6, terrain_morale=2)
    assert any("held to 6" in line.condition for line in result.explanation)


@pytest.mark.parametrize("attacker_morale", [1, 3, 6])
@pytest.mark.parametrize("defender_morale", [1, 4, 6])
@pytest.mark.parametrize(("terrain", "other"), [(0, 0), (2, 0), (1, -3), (0, -6), (2, 6)])
@pytest.mark.parametrize("units", [1, 5, 8])
def test_the_explanation_adds_up_to_the_combat_modifier(
    attacker_morale, defender_morale, terrain, other, units
):
    result = odds(
        3,
        2,
        attacker_morale=attacker_morale,
        defender_morale=defender_morale,
        terrain_morale=terrain,
        other_morale=other,
        attacking_units=units,
    )
    modifier = sum(line.value for line in result.explanation)
    shifted = ODDS_COLUMNS.index(result.column) + result.drm
    assert shifted == ODDS_COLUMNS.index("3-2") + modifier


# --- distributions ------------------------------------------------------------------------------


def test_1_1_set_piece_without_modifier_is_each_letter_count_over_6():
    """The 1-1 set-piece column reads A A A B B D."""
    assert dict(odds().distribution) == {
        "A": 3 / 6,
        "B": 2 / 6,
        "C": 0.0,
        "D": 1 / 6,
        "E": 0.0,
        "F": 0.0,
    }


def test_a_plus_1_drm_at_4_1_moves_the_chance_of_row_1_onto_row_6():
    """4-1 set-piece reads B D D C C C; with +1 the faces read rows 2, 3, 4, 5, 6, 6."""
    result = odds(attacker_morale=6, defender_morale=1)
    assert result.distribution["B"] == 0.0
    assert result.distribution["D"] == pytest.approx(2 / 6)
    assert result.distribution["C"] == pytest.approx(4 / 6)


def test_a_minus_2_drm_at_1_4_mobile_reads_rows_1_1_1_2_3_4():
    """1-4 mobile reads A A A A E E: rows 1..4 only, so always A."""
    result = odds(1, 3, combat="mobile", attacker_morale=2, defender_morale=5)
    assert result.drm == -2
    assert result.distribution["A"] == 1.0


@pytest.mark.parametrize("combat", COMBAT_TYPES)
@pytest.mark.parametrize("attack", [1, 2, 3, 4, 6, 8, 12, 16])
def test_distributions_sum_to_1_and_match_every_die_face(combat, attack):
    """Every column, every shift and every die-roll modifier from -12 to +5."""
    for attacker_morale, defender_morale, units in product(range(1, 7), range(1, 7), (1, 8)):
        kwargs = {
            "combat": combat,
            "attacker_morale": attacker_morale,
            "defender_morale": defender_morale,
            "attacking_units": units,
        }
        result = france_1944_odds(attack, 4, **kwargs)
        assert tuple(result.distribution) == RESULTS
        assert math.fsum(result.distribution.values()) == pytest.approx(1.0)
        faces = Counter(
            france_1944_resolve(attack, 4, dice=FixedDice([face]), **kwargs).code
            for face in range(1, 7)
        )
        assert {code: faces[code] / 6 for code in RESULTS} == dict(result.distribution)


def test_set_piece_never_gives_mobile_only_letters():
    for attack in (1, 2, 4, 8, 16):
        for morale in range(1, 7):
            result = odds(attack, 4, attacker_morale=morale)
            assert result.distribution["E"] == result.distribution["F"] == 0.0


# --- resolution ---------------------------------------------------------------------------------


def test_resolve_reads_the_modified_row():
    """1-1 +5: 4-1 with +1; a 5 reads row 6 (C), a 1 reads row 2 (D)."""
    kwargs = {"attacker_morale": 6, "defender_morale": 1, "attacking_units": 1}
    result = france_1944_resolve(1, 1, dice=FixedDice([5]), **kwargs)
    assert isinstance(result, CrtResult)
    assert (result.row, result.code) == (6, "C")
    assert result.outcome == {"combat": "set-piece", "natural_roll": 5, "modified_roll": 6}
    assert france_1944_resolve(1, 1, dice=FixedDice([1]), **kwargs).code == "D"


def test_resolve_clamps_an_adjusted_roll_below_1():
    result = france_1944_resolve(
        1, 3, attacker_morale=2, defender_morale=5, attacking_units=1, dice=FixedDice([2])
    )
    assert (result.row, result.code, result.outcome["modified_roll"]) == (1, "A", 0)


def test_resolve_logs_the_die_with_its_counter():
    dice = SeededDice("seed", context="france-1944:test")
    first = france_1944_resolve(3, 2, **BASE, dice=dice)
    second = france_1944_resolve(3, 2, **BASE, dice=dice)
    assert [r["counter"] for r in (*first.rolls, *second.rolls)] == [0, 1]
    assert first.rolls[0] == dice.log[0].as_dict()
    assert first.as_dict()["rolls"] == [dice.log[0].as_dict()]


def test_resolve_is_checked_like_the_odds():
    with pytest.raises(CombatInputError) as caught:
        france_1944_resolve(3, 0, **BASE, dice=FixedDice([1]))
    assert caught.value.field == "defense"


@pytest.mark.parametrize(
    ("attack", "kwargs"),
    [
        (1, {"attacker_morale": 3, "defender_morale": 3}),  # 1-1 set-piece: A A A B B D
        # 3-1 mobile, +2: 4-1 with +1, reading F F C C C C
        (3, {"combat": "mobile", "attacker_morale": 5, "defender_morale": 3}),
    ],
)
def test_20000_seeded_resolutions_agree_with_the_exact_distribution(attack, kwargs):
    dice = RandomDice(1944)
    n = 20_000
    kwargs = {"attacking_units": 2, **kwargs}
    counts = Counter(france_1944_resolve(attack, 1, dice=dice, **kwargs).code for _ in range(n))
    exact = france_1944_odds(attack, 1, **kwargs).distribution
    for code, p in exact.items():
        error = 3 * math.sqrt(p * (1 - p) / n)
        assert abs(counts[code] / n - p) <= error, (code, counts[code] / n, p)


# --- the CRDT -----------------------------------------------------------------------------------


def test_the_default_crdt_is_table3_cell_by_cell():
    for line in golden_rows("france_1944_table3.txt"):
        ratio_result = int(line[0])
        low, _, high = line[7].partition("-")
        for defender in range(int(low), int(high or low) + 1):
            for attacker in range(1, 7):
                for combat, letters in (("set-piece", line[1:7]), ("mobile", line[8:14])):
                    assert (
                        france_1944_crdt(
                            ratio_result,
                            attacker_morale=attacker,
                            defender_morale=defender,
                            combat=combat,
                        )
                        == letters[attacker - 1]
                    )


def test_the_text_derives_ratio_result_5_of_the_alternative():
    """ "The ratio result 5 set-piece combat rows become D D D D D C and A A A A A B"."""

    def row(defender):
        return "".join(
            france_1944_crdt(5, attacker_morale=m, defender_morale=defender) for m in range(1, 7)
        )

    assert (row(1), row(6)) == ("DDDDDC", "AAAAAB")


def test_the_alternative_uses_the_letters_of_the_ratio_result_one_greater():
    """ "Use the result columns for 2 to determine the results for 1, but retain the defender
    morale reference column for 1": alternative RR r reads the original's RR r + 1 letters."""
    tables = load_tables()
    for index, line in enumerate(tables.crdt):
        original = tables.original_crdt[index]
        assert original.defender_morale == line.defender_morale
        if line.ratio_result < 5:
            assert tables.original_crdt[index + 2].letters == line.letters


@pytest.mark.parametrize("morale", range(1, 6))
def test_table3_is_bloodier_than_the_original_when_both_sides_share_the_morale(morale):
    """The Revision Notes: the original "is not 'bloody' enough for the attacker when the
    attacker and defender share the same morale"; on that boundary its C is Table 3's D."""
    kwargs = {"attacker_morale": morale, "defender_morale": morale}
    assert france_1944_crdt(morale, **kwargs) == "D"
    assert france_1944_crdt(morale, **kwargs, alternative=True) == "C"


def test_the_original_crdt_ratio_result_1_is_extrapolated():
    for attacker in range(1, 7):
        original = {"attacker_morale": attacker, "alternative": True}
        assert france_1944_crdt(1, defender_morale=1, **original) == "C"
        assert france_1944_crdt(1, defender_morale=4, **original) == "B"
        assert france_1944_crdt(1, defender_morale=2, combat="mobile", **original) == "F"


def test_the_defender_morale_picks_the_line_in_set_piece_combat_too():
    kwargs = {"attacker_morale": 2}
    assert france_1944_crdt(3, defender_morale=3, **kwargs) == "D"
    assert france_1944_crdt(3, defender_morale=4, **kwargs) == "A"
    assert france_1944_crdt(3, defender_morale=3, combat="mobile", **kwargs) == "B"
    assert france_1944_crdt(3, defender_morale=4, combat="mobile", **kwargs) == "E"


# --- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "kwargs", "field"),
    [
        ((3, 0), {}, "defense"),
        ((3, -1), {}, "defense"),
        ((0, 3), {}, "attack"),
        ((float("nan"), 3), {}, "attack"),
        ((3, float("inf")), {}, "defense"),
        (("12", 3), {}, "attack"),
        ((True, 1), {}, "attack"),
        ((1, 5), {}, "attack"),
        ((3, 2), {"attacker_morale": 0}, "attacker_morale"),
        ((3, 2), {"attacker_morale": 7}, "attacker_morale"),
        ((3, 2), {"defender_morale": 7}, "defender_morale"),
        ((3, 2), {"defender_morale": "3"}, "defender_morale"),
        ((3, 2), {"defender_morale": 3.0}, "defender_morale"),
        ((3, 2), {"attacker_morale": True}, "attacker_morale"),
        ((3, 2), {"combat": "blitz"}, "combat"),
        ((3, 2), {"combat": ["mobile"]}, "combat"),
        ((3, 2), {"attacking_units": 0}, "attacking_units"),
        ((3, 2), {"terrain_morale": -1}, "terrain_morale"),
        ((3, 2), {"terrain_morale": 3}, "terrain_morale"),
        ((3, 2), {"other_morale": 7}, "other_morale"),
        ((3, 2), {"other_morale": -7}, "other_morale"),
    ],
)
def test_bad_odds_input_names_the_field(args, kwargs, field):
    with pytest.raises(CombatInputError) as caught:
        france_1944_odds(*args, **{**BASE, **kwargs})
    assert caught.value.field == field


def test_a_closed_set_of_values_is_listed():
    with pytest.raises(CombatInputError) as caught:
        odds(combat="blitz")
    assert caught.value.allowed == ["mobile", "set-piece"]
    with pytest.raises(CombatInputError) as caught:
        odds(attacker_morale=9)
    assert caught.value.allowed == ["1", "2", "3", "4", "5", "6"]


@pytest.mark.parametrize(
    ("args", "kwargs", "field"),
    [
        ((0,), {}, "ratio_result"),
        ((6,), {}, "ratio_result"),
        (("1",), {}, "ratio_result"),
        ((1,), {"attacker_morale": 7}, "attacker_morale"),
        ((1,), {"defender_morale": 0}, "defender_morale"),
        ((1,), {"combat": "assault"}, "combat"),
        ((1,), {"alternative": "yes"}, "alternative"),
    ],
)
def test_bad_crdt_input_names_the_field(args, kwargs, field):
    with pytest.raises(CombatInputError) as caught:
        france_1944_crdt(*args, **{"attacker_morale": 3, "defender_morale": 3, **kwargs})
    assert caught.value.field == field


# --- purity -------------------------------------------------------------------------------------


def test_the_module_imports_only_the_standard_library_and_combat():
    tree = ast.parse(Path(france_1944.__file__).read_text(encoding="utf-8"))
    names = {
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    }
    names |= {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }
    outside = {
        name
        for name in names
        if name.split(".")[0] not in sys.stdlib_module_names and name.split(".")[0] != "combat"
    }
    assert outside == set()
