"""AA fire, bombing raids, rockets and technology under standard dice (worked by hand)."""

from __future__ import annotations

import pytest

from combat.axis_allies import aa_fire, rocket_attack, strategic_bombing, tech_roll
from combat.dice import FixedDice


def test_dice_aa_rolls_one_die_per_plane_per_gun():
    report = aa_fire({"fighter": 2, "bomber": 1}, dice=FixedDice([1, 4, 1]), order=["fighter"])
    assert dict(report.lost) == {"fighter": 1, "bomber": 1}
    assert [r["needed"] for r in report.rolls] == [1, 1, 1]
    # Exact chances for one fighter past two guns: shot down 1/6 + 5/6 x 1/6 = 11/36.
    two_guns = aa_fire({"fighter": 1}, aa_guns=2, dice=FixedDice([6, 6]))
    assert {tuple(p["lost"].items()): p["probability"] for p in two_guns.probabilities} == {
        (("fighter", 1),): pytest.approx(11 / 36),
        (): pytest.approx(25 / 36),
    }


def test_dice_bombing_raid_caps_damage_at_the_territory_value():
    """Two bombers past AA (5 and 4: both survive), damage 6 + 5 = 11, capped at 8."""
    report = strategic_bombing(2, 8, dice=FixedDice([5, 4, 6, 5]))
    assert (report.bombers_lost, report.damage) == (0, 8)
    assert [r["stage"] for r in report.rolls] == ["aa", "aa", "damage", "damage"]


def test_dice_bombing_raid_loses_bombers_to_aa():
    report = strategic_bombing(2, 20, dice=FixedDice([1, 3, 4]))
    assert (report.bombers_lost, report.damage) == (1, 4)


def test_classic_heavy_bombers_roll_three_dice_and_are_not_capped():
    report = strategic_bombing(
        1, 2, edition="classic", heavy=True, aa=False, dice=FixedDice([6, 6, 6])
    )
    assert report.damage == 18


def test_expected_raid_damage_for_one_bomber_with_aa():
    """5/6 x mean(min(d6, 4)) = 5/6 x 3 = 2.5."""
    assert strategic_bombing(1, 4, dice=FixedDice([6, 1])).expected_damage == pytest.approx(2.5)


def test_dice_rocket_is_one_die_capped():
    assert rocket_attack(3, dice=FixedDice([5])).damage == 3
    assert rocket_attack(10, dice=FixedDice([5])).damage == 5


def test_standard_tech_roll_succeeds_on_any_six():
    assert tech_roll(3, dice=FixedDice([2, 6, 1])).success is True
    miss = tech_roll(2, dice=FixedDice([5, 5]))
    assert miss.success is False
    assert miss.chance_of_success == pytest.approx(11 / 36)


def test_bad_special_input_names_the_field():
    with pytest.raises(ValueError, match=r"planes.infantry: not an aircraft"):
        aa_fire({"infantry": 2}, dice=FixedDice([1]))
    with pytest.raises(ValueError, match=r"bombers: must be a whole number >= 1"):
        strategic_bombing(0, 5, dice=FixedDice([]))
    with pytest.raises(ValueError, match=r"sbr_rule: unknown rule 'C'"):
        strategic_bombing(1, 5, rules="lowluck", sbr_rule="C", dice=FixedDice([]))
    with pytest.raises(ValueError, match=r"aa_guns: must be a whole number >= 1"):
        aa_fire({"fighter": 1}, aa_guns=0, dice=FixedDice([]))
