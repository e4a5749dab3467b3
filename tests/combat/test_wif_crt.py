"""World in Flames option 27, the 2d10 Land CRT (combat.crt.wif).

Each test restates the line of the rule text (../shared/rules/wif-option-27-2d10-land-crt.md) it
checks. The golden file holds the CRT and the odds table copied by hand from that text.
"""

from __future__ import annotations

import copy
import json
import math
import re
from fractions import Fraction
from pathlib import Path

import pytest

from combat.crt import wif
from combat.crt.results import CrtOdds
from combat.crt.wif import (
    WifDataError,
    WifModifiers,
    extra_loss_conditions,
    parse_code,
    validate_wif_data,
    wif_column_chooser,
    wif_land_odds,
    wif_land_resolve,
    wif_outcome,
    wif_tables,
)
from combat.dice import FixedDice, RandomDice, SeededDice, verify
from combat.errors import CombatInputError
from tests.boundaries import pure_modules, violations
from tests.conftest import ROOT

GOLDEN = Path(__file__).parent / "golden" / "wif_2d10_land.txt"


def two_d10(total: int) -> Fraction:
    """P(2d10 = total), counted by hand: the pairs (a, total - a) with both faces in 1..10."""
    return Fraction(sum(1 for a in range(1, 11) if 1 <= total - a <= 10), 100)


def golden_sections() -> tuple[list[list[str]], list[list[str]]]:
    lines = [line for line in GOLDEN.read_text(encoding="utf-8").splitlines()]
    blocks, block = [], []
    for line in lines:
        if line.startswith("#"):
            continue
        if line:
            block.append(line.split("\t"))
        elif block:
            blocks.append(block)
            block = []
    blocks.append(block)
    crt, odds = blocks
    return crt, odds


def raw_data() -> dict:
    return json.loads(wif.DATA_FILE.read_text(encoding="utf-8"))


def situation_drm(modifiers, column: str = "assault") -> float:
    """The modifiers' part of the total DRM, at 1:1 odds (+2)."""
    odds = wif_land_odds(1, 1, column=column, modifiers=modifiers)
    return odds.drm - odds.odds_drm


# --- the table as data ----------------------------------------------------------------------


def test_every_crt_row_is_the_printed_row():
    crt, _odds = golden_sections()
    assert crt[0] == ["Dice Roll", "Assault", "Blitz"]
    rows = wif_tables().rows
    assert [int(roll) for roll, *_ in crt[1:]] == list(rows) == list(range(-1, 24))
    for roll, assault, blitz in crt[1:]:
        assert (rows[int(roll)]["assault"], rows[int(roll)]["blitz"]) == (assault, blitz)


def test_every_odds_level_is_the_printed_level():
    _crt, odds = golden_sections()
    assert odds[0] == ["Odds Level", "DRM"]
    printed = [
        (level.label, f"{level.drm:+d}" if level.drm else "0") for level in wif_tables().odds
    ]
    assert printed == [tuple(row) for row in odds[1:]]


def test_the_dagger_is_u2020():
    assert wif_tables().rows[20]["assault"] == "\u20201/2S"


def test_the_data_file_is_loaded_once():
    assert wif_tables() is wif_tables()


def test_the_real_data_file_validates():
    tables = validate_wif_data(raw_data(), "wif_2d10_land.json")
    assert tables.rows == wif_tables().rows
    assert [group.maximum for group in tables.groups] == [None, None, 0, None]


def _broken(change) -> dict:
    raw = copy.deepcopy(raw_data())
    change(raw)
    return raw


@pytest.mark.parametrize(
    ("change", "path"),
    [
        (lambda raw: raw["crt"]["rows"].pop(), "crt.rows"),
        (lambda raw: raw["crt"]["rows"][3].update(assault="x3/-/1"), "crt.rows[3].assault"),
        (lambda raw: raw["crt"]["rows"][3].update(blitz="3-"), "crt.rows[3].blitz"),
        (lambda raw: raw["crt"]["rows"][4].update(roll=5), "crt.rows[4].roll"),
        (lambda raw: raw["crt"].update(columns=["blitz", "assault"]), "crt.columns"),
        (lambda raw: raw["odds"]["levels"][8].update(drm=2), "odds.levels[8]"),
        (lambda raw: raw["odds"]["levels"][8].update(level="3-2"), "odds.levels[8].level"),
        (lambda raw: raw["odds"]["levels"][0].update(level="<1:5"), "odds.levels[0].level"),
        (lambda raw: raw["modifiers"][0].update(value=-3), "modifiers[0].value"),
        (lambda raw: raw["modifiers"][0].update(counts=["defending_tanks"]), "modifiers[0].counts"),
        (lambda raw: raw["modifiers"][1].update(options=["dif-99"]), "modifiers[1].options"),
        (lambda raw: raw["modifiers"][0]["needs"].update(weather=["fog"]), "modifiers[0].needs"),
        (lambda raw: raw["modifiers"][0]["needs"].update(height=3), "modifiers[0].needs"),
        (lambda raw: raw["x_conditions"].pop(), "x_conditions"),
        (lambda raw: raw.pop("source"), "source"),
        (lambda raw: raw["notes"].pop("9"), "notes"),
    ],
)
def test_the_validator_names_the_key_at_fault(change, path):
    with pytest.raises(WifDataError, match=rf"^wif\.json: {re.escape(path)}[.:\[]"):
        validate_wif_data(_broken(change), "wif.json")


# --- result codes ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "attacker", "extra", "face_up", "defender", "result"),
    [
        ("5/-", 5, False, "none", 0, None),
        ("x4/-", 4, True, "none", 0, None),
        ("x/-", 0, True, "none", 0, None),
        ("-/-", 0, False, "none", 0, None),
        ("x2/1", 2, True, "none", 1, None),
        ("1/R", 1, False, "none", 0, "R"),
        ("†x/R", 0, True, "half", 0, "R"),
        ("†/R", 0, False, "half", 0, "R"),
        ("†x1/2", 1, True, "half", 2, None),
        ("†1/2S", 1, False, "half", 2, "S"),
        ("†/1S", 0, False, "half", 1, "S"),
        ("*/B", 0, False, "all", 0, "B"),
        ("*/2B", 0, False, "all", 2, "B"),
    ],
)
def test_codes_parse_into_their_parts(code, attacker, extra, face_up, defender, result):
    parsed = parse_code(code)
    assert (parsed.attacker_losses, parsed.extra_loss, parsed.face_up) == (attacker, extra, face_up)
    assert (parsed.defender_losses, parsed.defender_result) == (defender, result)


def test_every_printed_code_parses():
    codes = {code for row in wif_tables().rows.values() for code in row.values()}
    assert len(codes) == 30
    assert all(parse_code(code).code == code for code in codes)


@pytest.mark.parametrize(
    "code", ["", "/", "x", "5", "†/", "/-", "-x/1", "y/1", "1/RS", "+1/1", "†*1/1", "01/1", "1/-R"]
)
def test_malformed_codes_are_refused(code):
    with pytest.raises(ValueError, match="not a result code"):
        parse_code(code)


# --- odds -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("attack", "defense", "level", "drm"),
    [
        (0, 5, "<1:6", -10),
        (0.99, 6, "<1:6", -10),  # 0.165 < 1/6
        (1, 6, "1:6", -8),  # exactly 1:6
        (1, 5.5, "1:6", -8),
        (1, 3, "1:3", -2),
        (0.66, 1, "1:2", 0),  # just under 2:3
        (2, 3, "2:3", 1),
        (1, 1, "1:1", 2),
        (1.5, 1, "3:2", 3),
        (7, 2, "3:1", 6),
        (5.99, 1, "5:1", 10),
        (10, 1, "10:1", 20),
        (10.49, 1, "10.49:1", 20),
        (10.5, 1, "10.5:1", 21),
        (15.74, 1, "15.74:1", 31),  # the text: "15.74:1 gives you 31 dice roll modifiers"
        (63, 4, "15.75:1", 31),
        (100, 7, "14.28:1", 28),  # 14.2857... truncated in the label; floor(28.57) = 28
        (24, 2, "12:1", 24),
    ],
)
def test_odds_round_down_to_the_printed_level(attack, defense, level, drm):
    odds = wif_land_odds(attack, defense)
    assert (odds.odds_level, odds.odds_drm, odds.drm) == (level, drm, drm)


@pytest.mark.parametrize(
    ("attack", "defense", "level", "drm"),
    [
        (3.65, 1, "3:1", 7.3),  # the text's example
        (3.64, 1, "3:1", 7.2),  # the text's example: 7.28 truncated, not rounded
        (73, 20, "3:1", 7.3),  # 3.65 exactly, from whole factors
        (1, 1, "1:1", 2),
        (3, 2, "3:2", 3),
        (2, 1, "2:1", 4),
        (10, 1, "10:1", 20),
        (15.74, 1, "15.74:1", 31.4),  # linear above 10:1 too
        (2, 3, "2:3", 1),  # below 1:1 the table still rules
        (0.99, 1, "2:3", 1),
    ],
)
def test_option_26_makes_the_odds_modifier_linear_from_1_to_1(attack, defense, level, drm):
    odds = wif_land_odds(attack, defense, fractional_odds=True)
    assert (odds.odds_level, odds.odds_drm) == (level, drm)


def test_option_26_formula_fits_every_printed_level_from_1_to_1():
    """2 x ratio meets the table at 1:1, 3:2, 2:1 ... 10:1, so the option only fills the gaps."""
    for level in wif_tables().odds[1:]:
        if level.ratio >= 1:
            a, b = level.ratio.numerator, level.ratio.denominator
            assert wif_land_odds(a, b, fractional_odds=True).odds_drm == level.drm


def test_the_texts_odds_examples_hold():
    odds = raw_data()["odds"]
    for example in odds["over_top_examples"]:
        assert wif_land_odds(float(example["ratio"]), 1).odds_drm == float(example["drm"])
    for example in odds["option_26_examples"]:
        fractional = wif_land_odds(float(example["ratio"]), 1, fractional_odds=True)
        assert fractional.odds_drm == float(example["drm"])


def test_odds_report_is_a_crt_odds_for_the_wif_table():
    odds = wif_land_odds(9, 3, column="blitz")
    assert isinstance(odds, CrtOdds)
    assert (odds.table, odds.column, odds.odds_level) == ("wif-2d10-land", "blitz", "3:1")
    assert odds.as_dict()["total_drm"] == 6


# --- the exact distribution -----------------------------------------------------------------


def test_two_d10_by_hand():
    assert two_d10(2) == Fraction(1, 100)  # (1,1)
    assert two_d10(3) == Fraction(2, 100)  # (1,2) (2,1)
    assert two_d10(11) == Fraction(10, 100)  # (1,10) ... (10,1)
    assert two_d10(13) == Fraction(8, 100)  # (3,10) ... (10,3)
    assert two_d10(20) == Fraction(1, 100)  # (10,10)
    assert sum(two_d10(total) for total in range(2, 21)) == 1


def test_at_drm_0_each_code_has_the_chance_of_its_rows():
    """DRM 0 (1:2 odds): row = 2d10, so P(row 13, "-/-") = P(2d10 = 13) = 8/100."""
    distribution = wif_land_odds(1, 2).distribution
    assert distribution["-/-"] == float(two_d10(13)) == 0.08
    assert distribution["x/-"] == 0.09  # row 12
    assert distribution["1/-"] == 0.19  # rows 10 and 11: 9/100 + 10/100
    assert distribution["4/-"] == 0.01  # rows 1 and 2; only 2 can be rolled
    assert distribution["†1/2S"] == 0.01  # row 20: (10,10)
    assert "5/-" not in distribution and "*/2S" not in distribution  # rows -1 and 23


def test_blitz_at_plus_3_shifts_every_row():
    distribution = wif_land_odds(3, 2, column="blitz").distribution
    assert distribution["x2/-"] == float(two_d10(2))  # row 5
    assert distribution["*/2B"] == float(two_d10(20))  # row 23
    assert distribution["1/R"] == float(two_d10(13))  # row 16


def test_a_fractional_drm_rolls_a_third_die_for_the_tenths():
    """DRM 0.5: half the time +1, so P(row 13) = (P(2d10 = 13) + P(2d10 = 12)) / 2."""
    distribution = wif_land_odds(1, 2, drm=0.5).distribution
    assert distribution["-/-"] == float((two_d10(13) + two_d10(12)) / 2)
    assert distribution["†/1S"] == float(two_d10(20) / 2)  # row 21 only as 20 + 1


@pytest.mark.parametrize("column", ["assault", "blitz"])
@pytest.mark.parametrize("whole", [-30, -22, -12, -3, 0, 1, 7, 15, 21, 30])
@pytest.mark.parametrize("tenths", [0, 1, 5, 9])
def test_distributions_sum_to_one(column, whole, tenths):
    exact = wif._enumerate_dice(column, max(-22, min(21, whole)), tenths)
    assert sum(p for _code, p in exact) == 1
    drm = whole + tenths / 10
    assert math.fsum(wif_land_odds(1, 2, column=column, drm=drm).distribution.values()) == (
        pytest.approx(1, abs=1e-12)
    )


def test_big_modifiers_clamp_to_the_end_rows():
    assert wif_land_odds(100, 1).distribution == {"*/2S": 1.0}  # +200, row 23
    assert wif_land_odds(100, 1, column="blitz").distribution == {"*/2B": 1.0}
    assert wif_land_odds(0, 1, drm=-30).distribution == {"5/-": 1.0}  # row -1
    assert wif_land_odds(1, 7, column="blitz", drm=-12).distribution == {"x4/-": 1.0}


def test_exactly_at_the_edge_of_clamping():
    """Total -21: even (10,10) reads row -1; at -20 it reads row 0. -20.5: only (10,10) with the
    fraction die's +1 (half the time) reaches row 0. At +20 (10:1), (1,1) reads row 22."""
    assert wif_land_odds(0, 1, drm=-11).distribution == {"5/-": 1.0}
    assert wif_land_odds(0, 1, drm=-10).distribution == {"5/-": 0.99, "x4/-": 0.01}
    assert wif_land_odds(0, 1, drm=-11.5).distribution == {"5/-": 1.0}
    assert wif_land_odds(0, 1, drm=-10.5).distribution == {"5/-": 0.995, "x4/-": 0.005}
    assert wif_land_odds(10, 1).distribution == {"†x/2S": 0.01, "*/2S": 0.99}
    assert wif_land_odds(10, 1, drm=0.5).distribution == {"†x/2S": 0.005, "*/2S": 0.995}


# --- modifiers ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("modifiers", "column", "drm"),
    [
        ({"defending_arm": 2}, "assault", -4),
        ({"defending_hqa": 1, "defending_mech": 1, "terrain": "desert"}, "assault", -4),
        ({"defending_arm": 1, "city": True}, "assault", 0),
        ({"defending_arm": 1, "terrain": "forest"}, "assault", 0),
        ({"defending_arm": 1, "weather": "rain"}, "assault", -2),  # rain only
        (
            {"defending_at": 1, "defending_aa": 1, "attacking_arm": 1, "options": ["dif-3"]},
            "assault",
            -2,
        ),
        ({"defending_at": 2, "options": ["dif-3"]}, "assault", 0),  # no armour attacking
        (
            {"defending_at": 1, "attacking_armour_across_fort": 1, "options": ["dif-3"]},
            "assault",
            -1,
        ),
        ({"face_down_defenders": 3}, "assault", 6),
        ({"attacking_hq_reorganisation": 3, "options": ["option-13"]}, "assault", 1.5),
        ({"defending_hq_reorganisation": 2, "options": ["option-13"]}, "assault", -1),
        ({"attacking_major_powers": 3}, "assault", -2),
        ({"attacking_major_powers": 1}, "assault", 0),
        ({"attacking_major_powers": 0}, "assault", 0),
        ({"jungle_white_print_attackers": 2, "terrain": "jungle"}, "assault", -2),  # +2 - 4
        ({"jungle_white_print_attackers": 2, "terrain": "forest"}, "assault", 0),
        ({"para_attackers": 2}, "assault", 2),
        (
            {"terr_defending_abroad": 2, "terr_attacking_abroad": 1, "options": ["tif-54"]},
            "assault",
            1,
        ),
        ({"terrain": "jungle"}, "assault", -4),
        ({"weather": "rain"}, "assault", -2),
        ({"weather": "storm"}, "assault", -4),
        ({"weather": "snow"}, "assault", -4),
        ({"weather": "blizzard"}, "assault", -6),
        ({"terrain": "mountain", "city": True}, "assault", 0),
        (
            {
                "winterised_attackers": 2,
                "winterised_defenders": 1,
                "weather": "snow",
                "attacking_land_units": 4,
            },
            "assault",
            -4,  # snow -4, +2 attacking, -2 defending
        ),
        ({"winterised_attackers": 2, "winterised_defenders": 1}, "assault", 0),  # fine weather
        ({"printed_factories": 2}, "assault", -2),
        ({"printed_factories": 1, "eng_attacking_factory": 3, "options": ["dif-2"]}, "assault", 0),
        (
            {
                "printed_factories": 1,
                "eng_attacking_factory": 1,
                "eng_defending_factory": 1,
                "options": ["dif-2"],
            },
            "assault",
            -1,
        ),
        ({"eng_attacking_factory": 2, "options": ["dif-2"]}, "assault", 0),  # no factory
        ({"attacking_arm": 2, "attacking_mech": 1}, "blitz", 3),
        ({"attacking_arm": 2, "attacking_mech": 1}, "assault", 0),
        ({"attacking_arm": 2, "weather": "rain"}, "blitz", -2),
        ({"attacking_arm": 2, "city": True}, "blitz", 0),
        ({"attacking_hqa": 1, "terrain": "forest"}, "blitz", 0),
        ({"attacking_armour_across_fort": 2}, "blitz", 0),
        (
            {"attacking_arm": 2, "divisions": {"attacking_arm": 1}, "options": ["dif-2"]},
            "blitz",
            1.5,
        ),
    ],
)
def test_each_modifier_line(modifiers, column, drm):
    assert situation_drm(modifiers, column) == drm


def test_a_face_down_division_is_half_a_corps():
    """Note 4: "a face-down defending AT is only +1 not +2"."""
    odds = wif_land_odds(
        1,
        1,
        modifiers={
            "face_down_defenders": 3,
            "divisions": {"face_down_defenders": 1},
            "options": ["dif-3"],
        },
    )
    lines = [(m.count, m.value) for m in odds.explanation[1:]]
    assert lines == [(2, 4), (1, 1)]


def test_factory_modifiers_are_capped_at_zero_on_their_own_line():
    odds = wif_land_odds(
        1,
        1,
        modifiers={"printed_factories": 1, "eng_attacking_factory": 3, "options": ["dif-2"]},
    )
    assert [(m.condition, m.value) for m in odds.explanation[-1:]] == [
        ("Factory modifiers (maximum +0)", -2)
    ]


def test_a_line_whose_situation_fails_is_shown_with_the_reason():
    odds = wif_land_odds(1, 1, modifiers={"attacking_arm": 2})
    (line,) = odds.explanation[1:]
    assert (line.count, line.value) == (2, 0)
    assert line.condition.endswith("(not applied: needs the blitz column)")


@pytest.mark.parametrize(
    "modifiers",
    [
        None,
        {"defending_arm": 1, "face_down_defenders": 2, "weather": "fine"},
        {"printed_factories": 2, "eng_attacking_factory": 5, "options": ["dif-2"]},
        {"attacking_arm": 3, "divisions": {"attacking_arm": 1}, "options": ["dif-14"]},
        {"weather": "blizzard", "winterised_attackers": 1, "attacking_land_units": 3},
    ],
)
def test_the_explanation_adds_up_to_the_total_drm(modifiers):
    odds = wif_land_odds(
        7.3, 2, column="blitz", drm=-1.5, modifiers=modifiers, fractional_odds=True
    )
    assert math.fsum(m.value for m in odds.explanation) == pytest.approx(odds.drm)
    assert odds.explanation[0].value == odds.odds_drm
    assert odds.explanation[-1].condition == "raw die-roll modifier (drm)"


def test_modifiers_may_be_a_dataclass_or_a_dict():
    as_dict = wif_land_odds(4, 1, modifiers={"weather": "rain", "face_down_defenders": 1})
    built = wif_land_odds(4, 1, modifiers=WifModifiers(weather="rain", face_down_defenders=1))
    assert as_dict == built


# --- the x, the column choice ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("modifiers", "taken"),
    [
        ({}, False),
        ({"terrain": "desert"}, False),
        ({"terrain": "tundra"}, False),
        ({"city": True}, True),
        ({"terrain": "mountain"}, True),
        ({"terrain": "forest"}, True),
        ({"terrain": "jungle"}, True),
        ({"terrain": "swamp"}, True),
        ({"all_across_river_or_invading": True}, True),
        ({"defending_mech": 1}, True),
        ({"defending_hqa": 1, "terrain": "desert"}, True),
        ({"defending_arm": 1, "weather": "snow"}, True),  # clear with armour, in any weather
        ({"weather": "rain"}, True),
        ({"weather": "storm"}, True),
        ({"weather": "snow"}, True),  # no attacker winterised
        ({"weather": "blizzard", "winterised_attackers": 1, "attacking_land_units": 4}, True),
        ({"weather": "snow", "winterised_attackers": 2, "attacking_land_units": 4}, False),
        ({"weather": "blizzard", "winterised_attackers": 3, "attacking_land_units": 5}, False),
        ({"winterised_attackers": 1, "attacking_land_units": 4}, False),  # fine weather
    ],
)
def test_the_x_is_an_extra_loss_when_a_condition_holds(modifiers, taken):
    outcome = wif_outcome("x2/1", modifiers)
    assert outcome["extra_loss"] is True
    assert (outcome["extra_loss_taken"], outcome["attacker_losses"]) == (taken, 2 + taken)
    assert bool(outcome["extra_loss_reasons"]) is taken


def test_several_x_conditions_still_make_one_extra_loss():
    modifiers = {"city": True, "weather": "rain", "all_across_river_or_invading": True}
    assert len(extra_loss_conditions(modifiers)) == 3
    assert wif_outcome("x/-", modifiers)["attacker_losses"] == 1


def test_without_an_x_the_conditions_change_nothing():
    outcome = wif_outcome("2/1", {"city": True})
    assert (outcome["attacker_losses"], outcome["extra_loss_reasons"]) == (2, [])


def test_s_and_b_may_be_converted_to_r():
    assert wif_outcome("†1/2S")["may_convert_to_retreat"] is True
    assert wif_outcome("*/1B")["may_convert_to_retreat"] is True
    assert wif_outcome("1/R")["may_convert_to_retreat"] is False


@pytest.mark.parametrize(
    ("modifiers", "chooser"),
    [
        ({"attacking_arm": 1}, "attacker"),
        ({"attacking_hqa": 1, "terrain": "forest"}, "attacker"),
        ({"attacking_arm": 1, "terrain": "desert"}, "attacker"),
        ({"attacking_arm": 1, "city": True}, "defender"),
        ({"attacking_arm": 1, "terrain": "mountain"}, "defender"),
        ({"attacking_arm": 1, "terrain": "jungle"}, "defender"),
        ({}, "defender"),
        ({"attacking_arm": 1, "defending_arm": 1}, "defender"),
        ({"attacking_arm": 1, "attacking_hqa": 1, "defending_hqa": 1}, "attacker"),
        ({"attacking_mech": 1}, "attacker"),
        ({"attacking_mech": 2, "defending_mech": 1}, "attacker"),
        ({"attacking_mech": 2, "defending_arm": 1}, "defender"),  # the defender has ARM
        ({"attacking_mech": 1, "defending_mech": 1}, "defender"),
        ({"attacking_armour_across_fort": 3}, "defender"),  # across a fort: doesn't count
        # DiF option 2: divisions count 1/2, not rounded.
        ({"attacking_arm": 1, "divisions": {"attacking_arm": 1}, "options": ["dif-2"]}, "attacker"),
        (
            {
                "attacking_arm": 2,
                "defending_arm": 1,
                "divisions": {"attacking_arm": 2},
                "options": ["dif-2"],
            },
            "defender",  # 1 = 1
        ),
        (
            {
                "attacking_arm": 3,
                "defending_arm": 1,
                "divisions": {"attacking_arm": 3},
                "options": ["dif-2"],
            },
            "attacker",  # 1.5 > 1
        ),
        (
            {
                "attacking_arm": 2,
                "defending_arm": 1,
                "divisions": {"attacking_arm": 2},
                "options": ["dif-14"],
            },
            "attacker",  # without option 2 a division is a whole unit here
        ),
        # DiF option 3: every defending AA and AT counts as an ARM corps.
        ({"attacking_arm": 1, "defending_at": 1, "options": ["dif-3"]}, "defender"),
        ({"attacking_arm": 2, "defending_at": 1, "options": ["dif-3"]}, "attacker"),
        ({"attacking_mech": 3, "defending_aa": 1, "options": ["dif-3"]}, "defender"),
    ],
)
def test_who_chooses_the_column(modifiers, chooser):
    assert wif_column_chooser(modifiers) == chooser


# --- resolution -----------------------------------------------------------------------------


def test_a_fixed_roll_reads_its_row_and_parses_the_code():
    result = wif_land_resolve(1, 2, dice=FixedDice([10, 10]))
    assert (result.row, result.code) == (20, "†1/2S")
    assert result.outcome["attacker_losses"] == 1
    assert result.outcome["face_up"] == "half"
    assert (result.outcome["defender_losses"], result.outcome["defender_result"]) == (2, "S")
    assert result.rolls == (
        {"counter": 0, "sides": 10, "value": 10},
        {"counter": 1, "sides": 10, "value": 10},
    )


@pytest.mark.parametrize(
    ("attack", "defense", "column", "dice", "row", "code"),
    [
        (1, 2, "blitz", [9, 10], 19, "†1/B"),
        (1, 1, "assault", [1, 1], 4, "3/-"),  # +2
        (100, 1, "assault", [1, 1], 23, "*/2S"),  # +200 clamps to 23
        (0, 1, "assault", [10, 10], 10, "1/-"),  # -10
        (1, 7, "blitz", [1, 1], -1, "x4/-"),  # 2 - 10 = -8, clamps to -1
    ],
)
def test_fixed_rolls(attack, defense, column, dice, row, code):
    result = wif_land_resolve(attack, defense, column=column, dice=FixedDice(dice))
    assert (result.row, result.code) == (row, code)


def test_the_fraction_die_adds_one_on_its_tenths():
    plus = wif_land_resolve(1, 2, drm=0.3, dice=FixedDice([5, 5, 3]))
    assert (plus.row, len(plus.rolls)) == (11, 3)
    assert wif_land_resolve(1, 2, drm=0.3, dice=FixedDice([5, 5, 4])).row == 10


def test_a_whole_drm_rolls_two_dice_only():
    dice = FixedDice([5, 5, 1])
    wif_land_resolve(1, 2, dice=dice)
    assert dice.remaining == 1


def test_the_x_of_a_rolled_result_uses_the_battle():
    result = wif_land_resolve(1, 2, modifiers={"city": True}, dice=FixedDice([7, 7]))
    assert result.code == "x2/1"
    assert result.outcome["attacker_losses"] == 3
    assert "a city, mountain" in result.outcome["summary"]


def test_seeded_rolls_carry_their_counters_and_verify():
    dice = SeededDice("a seed", context="wif-land:test")
    result = wif_land_resolve(7.3, 2, fractional_odds=True, dice=dice)
    assert [roll["counter"] for roll in result.rolls] == [0, 1, 2]
    assert verify("a seed", dice.commitment, "wif-land:test", result.rolls)


def test_20000_seeded_resolutions_match_the_exact_distribution():
    n = 20_000
    dice = RandomDice(2026)
    kwargs = {"column": "blitz", "drm": 0.5, "modifiers": WifModifiers(face_down_defenders=1)}
    counts: dict[str, int] = {}
    for _ in range(n):
        code = wif_land_resolve(2, 1, dice=dice, **kwargs).code
        counts[code] = counts.get(code, 0) + 1
    exact = wif_land_odds(2, 1, **kwargs).distribution
    assert set(counts) <= set(exact)
    for code in ("†x/B", "*/2B", "1/R", "x1/1"):
        p = exact[code]
        standard_error = math.sqrt(p * (1 - p) / n)
        assert abs(counts.get(code, 0) / n - p) < 3 * standard_error, code


# --- bad input ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"attack": -1}, "attack"),
        ({"attack": "3"}, "attack"),
        ({"attack": True}, "attack"),
        ({"attack": float("nan")}, "attack"),
        ({"defense": 0}, "defense"),
        ({"defense": -2}, "defense"),
        ({"defense": float("inf")}, "defense"),
        ({"column": "blitzkrieg"}, "column"),
        ({"drm": 0.25}, "drm"),
        ({"drm": "1"}, "drm"),
        ({"fractional_odds": 1}, "fractional_odds"),
        ({"modifiers": [1]}, "modifiers"),
        ({"modifiers": {"armour": 1}}, "modifiers.armour"),
        ({"modifiers": {"terrain": "lava"}}, "modifiers.terrain"),
        ({"modifiers": {"weather": "fog"}}, "modifiers.weather"),
        ({"modifiers": {"defending_arm": -1}}, "modifiers.defending_arm"),
        ({"modifiers": {"defending_arm": 1.5}}, "modifiers.defending_arm"),
        ({"modifiers": {"defending_arm": 1.0}}, "modifiers.defending_arm"),
        ({"modifiers": {"defending_arm": True}}, "modifiers.defending_arm"),
        ({"modifiers": {"defending_arm": 100}}, "modifiers.defending_arm"),
        ({"modifiers": {"city": "yes"}}, "modifiers.city"),
        ({"modifiers": {"options": ["dif-99"]}}, "modifiers.options"),
        ({"modifiers": {"options": "dif-2"}}, "modifiers.options"),
        ({"modifiers": {"defending_at": 1}}, "modifiers.defending_at"),  # needs dif-3
        (
            {"modifiers": {"attacking_hq_reorganisation": 2}},
            "modifiers.attacking_hq_reorganisation",
        ),
        (
            {"modifiers": {"face_down_defenders": 1, "divisions": {"face_down_defenders": 1}}},
            "modifiers.divisions.face_down_defenders",  # no DiF option in play
        ),
        (
            {"modifiers": {"divisions": {"face_down_defenders": 1}, "options": ["dif-2"]}},
            "modifiers.divisions.face_down_defenders",  # more divisions than units
        ),
        (
            {
                "modifiers": {
                    "printed_factories": 1,
                    "divisions": {"printed_factories": 1},
                    "options": ["dif-2"],
                }
            },
            "modifiers.divisions.printed_factories",  # not halved
        ),
        (
            {"modifiers": {"divisions": {"para_attackers": -1}}},
            "modifiers.divisions.para_attackers",
        ),
        (
            {"modifiers": {"weather": "snow", "winterised_attackers": 1}},
            "modifiers.attacking_land_units",
        ),
        (
            {"modifiers": {"attacking_land_units": 2, "para_attackers": 3}},
            "modifiers.para_attackers",
        ),
        (
            {"modifiers": {"attacking_land_units": 2, "attacking_arm": 2, "attacking_mech": 1}},
            "modifiers.attacking_land_units",
        ),
        ({"modifiers": {"attacking_land_units": 0}}, "modifiers.attacking_land_units"),
    ],
)
def test_bad_input_names_the_field(kwargs, field):
    arguments = {"attack": 3, "defense": 1, **kwargs}
    with pytest.raises(CombatInputError) as error:
        wif_land_odds(arguments.pop("attack"), arguments.pop("defense"), **arguments)
    assert error.value.field == field


def test_closed_sets_list_what_is_allowed():
    with pytest.raises(CombatInputError) as error:
        wif_land_odds(3, 1, modifiers={"weather": "fog"})
    assert error.value.allowed == sorted(wif.WEATHERS)
    with pytest.raises(CombatInputError) as error:
        wif_land_odds(3, 1, column="flank")
    assert error.value.allowed == ["assault", "blitz"]


def test_resolving_needs_dice():
    with pytest.raises(CombatInputError) as error:
        wif_land_resolve(3, 1, dice=None)
    assert error.value.field == "dice"


def test_the_module_imports_no_framework():
    module = ROOT / "combat" / "crt" / "wif.py"
    assert module in list(pure_modules(ROOT))
    assert violations([module]) == []
