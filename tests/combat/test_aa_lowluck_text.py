"""Every worked example of the DAAK Low Luck text (../shared/rules/aa-revised-low-luck.txt)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from combat.axis_allies import aa_fire, battle_odds, fight, tech_dice_cost, tech_roll
from combat.axis_allies.specials import expected_raid_damage, rocket_attack, strategic_bombing
from combat.dice import FixedDice

RUSSIA = {"infantry": 3, "artillery": 1, "armor": 3, "fighter": 2}
GERMANY_IN_UKRAINE = {"infantry": 3, "artillery": 1, "armor": 1, "fighter": 1}


def fires(report_round):
    return [(f.side, f.stage, f.strength, f.hits) for f in report_round.fire]


def test_russia_1_in_ukraine_as_the_text_plays_it():
    """Round 1: "The sum of the attack values is 2x1 (inf) + 1x2 (inf) + 1x2 (rtl) + 3x3 (arm)
    + 2x3 (ftr) = 21 ... 3 guaranteed hits; remainder 3 ... he throws a 2" (4 hits). Defence
    "4x2 (inf + rtl) + 1x3 (arm) + 1x4 (ftr) = 15 ... 2 sure hits; remainder 3 ... rolls a 1".
    Round 2: "Russia (1 Rtl, 3 Arm, [2] ftr) vs. Germany (1 Arm, 1 Ftr). Offense 17 = 2 hits
    remainder 5 ... Defense 7 = 1 hit, remainder 1 ... Germany does not roll a 1" and "Russia
    takes Ukr with 3 Armor and 2 Fighter"."""
    report = fight(RUSSIA, GERMANY_IN_UKRAINE, rules="lowluck", dice=FixedDice([2, 1, 6, 6]))
    first, second = report.rounds
    assert fires(first) == [("attacker", "general", 21, 4), ("defender", "general", 15, 3)]
    assert [(r.needed, r.value) for r in first.rolls] == [(3, 2), (3, 1)]
    assert dict(first.defender_casualties) == {"infantry": 3, "artillery": 1}
    assert dict(first.attacker_casualties) == {"infantry": 3}
    assert fires(second) == [("attacker", "general", 17, 2), ("defender", "general", 7, 1)]
    assert [(r.needed, r.value) for r in second.rolls] == [(5, 6), (1, 6)]
    assert report.winner == "attacker"
    assert dict(report.attacker_survivors) == {"armor": 3, "fighter": 2}


def test_russia_1_best_and_worst_results():
    """ "Best result for Russia: Win with 1rtl 3arm 2ftr. Worst result for Russia: Win with only
    1arm 2ftr." By hand: best = 1/2*1/2*5/6 + 1/2*1/2*1/2 = 1/3 (round 1: 4 hits and Germany
    misses its die, then Germany's 7 misses its 1; or 3 hits, Germany misses, then Germany's 9
    misses its 3); worst = 1/2 * 1/2 * 1/6 * 1/2 * 2/3 = 1/72."""
    odds = battle_odds(RUSSIA, GERMANY_IN_UKRAINE, rules="lowluck")
    assert odds.attacker_wins == pytest.approx(1.0)
    by_left = {tuple(sorted(o.attacker_left.items())): o.probability for o in odds.outcomes}
    best = (("armor", 3), ("artillery", 1), ("fighter", 2))
    worst = (("armor", 1), ("fighter", 2))
    assert by_left[best] == pytest.approx(1 / 3)
    assert by_left[worst] == pytest.approx(1 / 72)
    assert set(by_left) == {
        best,
        (("armor", 3), ("fighter", 2)),
        (("armor", 2), ("fighter", 2)),
        worst,
    }


JAPAN = {"submarine": 4, "battleship": 1, "fighter": 2}
ALLIED_FLEET = {"transport": 2, "carrier": 1, "fighter": 1}


def test_submarines_added_to_the_total_by_default():
    """ "...add the value of the subs to the attack value of the rest ... (Else he uses the
    default of adding it.)": 8 + 4 + 6 = 18, three sure hits."""
    report = fight(JAPAN, ALLIED_FLEET, rules="lowluck", rounds=1, dice=FixedDice([6]))
    assert fires(report.rounds[0])[0] == ("attacker", "general", 18, 3)


def test_submarine_first_strike_fired_separately():
    """ "The value of the subs is 4x2 = 8. So, one sub-hit is guaranteed, and Japan has to throw
    a 2 or less ... Then the rest attacks (10 : 6 = 1 rem 4) ... if Japan throws a 4 or less,
    one more unit is hit." The sub's hit sinks a transport that "can not fire back"."""
    report = fight(
        JAPAN,
        ALLIED_FLEET,
        rules="lowluck",
        rounds=1,
        options={"attacker_first_strike_subs": 4},
        dice=FixedDice([6, 6, 6]),
    )
    rnd = report.rounds[0]
    assert fires(rnd)[:2] == [("attacker", "first_strike", 8, 1), ("attacker", "general", 10, 1)]
    assert [(r.stage, r.needed) for r in rnd.rolls[:2]] == [("first_strike", 2), ("general", 4)]
    assert fires(rnd)[2] == ("defender", "general", 8, 1)  # 1 + 3 + 4: the sunk transport is out


def test_three_subs_strike_first_and_the_fourth_fights_with_the_battleship():
    """ "...only 3 Subs do their first shot and the 4th Sub fights with the BB and the fighter.
    Then it has 1 Sub hit (3x2 : 6 rem 0) and the rest have 2 hits, because the one sub
    increases the offense value to 12. (12 : 6 = 2)"."""
    report = fight(
        JAPAN,
        ALLIED_FLEET,
        rules="lowluck",
        rounds=1,
        options={"attacker_first_strike_subs": 3},
        dice=FixedDice([6]),
    )
    assert fires(report.rounds[0])[:2] == [
        ("attacker", "first_strike", 6, 1),
        ("attacker", "general", 12, 2),
    ]


def test_subs_still_cannot_hit_air():
    """ "If 2 subs 1ftr score 2 hits vs 1ac 2ftr only one air unit can be chosen as casualty"."""
    report = fight(
        {"submarine": 2, "fighter": 1},
        {"carrier": 1, "fighter": 2},
        rules="lowluck",
        rounds=1,
        dice=FixedDice([1, 6]),
    )
    assert report.rounds[0].attacker_hits == 2
    assert dict(report.rounds[0].defender_casualties) == {"carrier": 1, "fighter": 1}


def test_first_strike_without_effect_falls_back_to_the_total():
    """ "If and only if the 1st strike can really have an effect" — against a destroyer it
    cannot, so the chosen separate subs are added to the total."""
    report = fight(
        {"submarine": 2, "battleship": 1},
        {"destroyer": 1},
        rules="lowluck",
        rounds=1,
        options={"attacker_first_strike_subs": 2},
        dice=FixedDice([6, 6]),
    )
    assert fires(report.rounds[0])[0] == ("attacker", "general", 8, 1)


def test_aa_four_planes_roll_one_die_at_four():
    """ "If 4 airplanes attack, the defender has to roll one dice, and if he throws a 4 or less,
    one fighter is lost."""
    report = aa_fire({"fighter": 4}, rules="lowluck", dice=FixedDice([4]))
    assert dict(report.lost) == {"fighter": 1}
    assert [(r["needed"], r["value"]) for r in report.rolls] == [(4, 4)]
    odds = {tuple(sorted(p["lost"].items())): p["probability"] for p in report.probabilities}
    assert odds == {(("fighter", 1),): pytest.approx(4 / 6), (): pytest.approx(2 / 6)}


def test_aa_eight_planes_lose_one_and_roll_at_two():
    """ "If 8 airplanes attack, 1 fighter is lost and if the defender throws a 2 or less, one
    more fighter is hit."""
    assert dict(aa_fire({"fighter": 8}, rules="lowluck", dice=FixedDice([3])).lost) == {
        "fighter": 1
    }
    assert dict(aa_fire({"fighter": 8}, rules="lowluck", dice=FixedDice([2])).lost) == {
        "fighter": 2
    }


def test_aa_a_full_six_of_one_type_loses_one_of_that_type():
    """design.md: each full six planes of one type loses one of that type, extra hits fall on
    the remainder: 6 fighters + 2 bombers, die 2 -> a fighter and a bomber."""
    lost = aa_fire({"fighter": 6, "bomber": 2}, rules="lowluck", dice=FixedDice([2])).lost
    assert dict(lost) == {"fighter": 1, "bomber": 1}


@pytest.mark.parametrize(
    ("bought", "dice_held", "cost", "chance"),
    [
        # 1. "one die in round 1 (cost 5 IPC) and 2 dice in round 2 (cost 11 IPC) ... a chance of
        #    50% ... If you fail you lose 16 IPC."
        ((1, 2), 3, 16, Fraction(1, 2)),
        # 2. "4 dice in round one for 18 IPC ... chances for success are 67%": the chance holds;
        #    the price contradicts the other examples (18 buys 3 dice; 4 cost 26).
        ((4,), 4, 26, Fraction(2, 3)),
        # 3. "two dice in round 1, two in round 2, and two in round 3. Your total cost is 33 IPC
        #    and you get the desired technology for sure."
        ((2, 2, 2), 6, 33, Fraction(1)),
        # 4. "You buy six dice in round 1 ... it costs you 45 IPC."
        ((6,), 6, 45, Fraction(1)),
    ],
)
def test_lowluck_tech_examples(bought, dice_held, cost, chance):
    assert sum(tech_dice_cost(k) for k in bought) == cost
    report = tech_roll(dice_held, rules="lowluck", dice=FixedDice([dice_held]))
    assert report.success is True
    assert report.chance_of_success == pytest.approx(float(chance))


def test_lowluck_tech_fails_above_the_dice_held_and_needs_three():
    assert tech_roll(3, rules="lowluck", dice=FixedDice([4])).success is False
    with pytest.raises(ValueError, match=r"dice_held: Low Luck rolls with 3 to 6 dice held"):
        tech_roll(2, rules="lowluck", dice=FixedDice([1]))


def test_tech_dice_prices():
    assert [tech_dice_cost(k) for k in range(1, 7)] == [5, 11, 18, 26, 35, 45]


def test_heavy_bombers_attack_6_and_defend_2_under_lowluck():
    """ "Heavy Bombers ... Attack: 6 (sure hit!) Defense: 2"."""
    attack = fight(
        {"bomber": 2},
        {"infantry": 3},
        rules="lowluck",
        rounds=1,
        techs=["heavy_bombers"],
        dice=FixedDice([6]),
    )
    assert fires(attack.rounds[0])[0] == ("attacker", "general", 12, 2)
    defence = fight(
        {"infantry": 1},
        {"bomber": 3},
        rules="lowluck",
        rounds=1,
        techs={"defender": ["heavy_bombers"]},
        dice=FixedDice([6]),
    )
    assert fires(defence.rounds[0])[1] == ("defender", "general", 6, 1)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1, Fraction(1)),
        (2, Fraction(11, 6)),
        (3, Fraction(5, 2)),
        (4, Fraction(3)),
        (5, Fraction(10, 3)),
        (6, Fraction(7, 2)),
        (12, Fraction(7, 2)),
    ],
)
def test_lowluck_bombing_table_is_the_mean_of_min_d6_and_value(value, expected):
    """design.md: E(V) = mean of min(d6, V); e.g. V = 2: (1 + 2*5) / 6 = 11/6."""
    assert expected_raid_damage(1, 1, value, aa=False) == pytest.approx(float(expected))
    assert expected_raid_damage(1, 1, value, aa=True) == pytest.approx(float(expected) * 5 / 6)


def test_lowluck_bombing_without_aa_varies_by_one_around_the_average():
    """V = 3: E = 2.5 -> 2, plus 1 on a die <= 3. The attacker loses nothing."""
    hit = strategic_bombing(1, 3, rules="lowluck", aa=False, dice=FixedDice([3]))
    miss = strategic_bombing(1, 3, rules="lowluck", aa=False, dice=FixedDice([4]))
    assert (hit.damage, miss.damage, hit.bombers_lost, hit.fee) == (3, 2, 0, 0)


def test_lowluck_bombing_with_aa_costs_a_fee_instead_of_the_bomber():
    """V = 6 with AA: E = 5/6 x 3.5 = 35/12 = 2 + 11/12 -> 2, +1 on a die <= round(5.5) = 6
    (always 3). The fee: 2.5 per bomber -> 2, +1 on a die <= 3; 3 IPC were reserved."""
    report = strategic_bombing(1, 6, rules="lowluck", aa=True, dice=FixedDice([4]))
    assert (report.damage, report.bombers_lost, report.fee, report.fee_reserved) == (3, 0, 2, 3)
    assert report.as_dict()["fee_refund"] == 1
    two = strategic_bombing(2, 20, rules="lowluck", aa=True, dice=FixedDice([1]))
    assert two.fee == 5  # 2 x 2.5 exactly: no die for the fee
    assert (
        strategic_bombing(
            1, 6, rules="lowluck", aa=True, dice=FixedDice([4]), sbr_rule="A"
        ).fee_reserved
        == 0
    )


def test_lowluck_heavy_bombers_use_two_dice_for_damage():
    """V = 20, 2d6 per heavy bomber: E = 7 exactly, no die needed."""
    report = strategic_bombing(1, 20, rules="lowluck", aa=False, heavy=True, dice=FixedDice([]))
    assert (report.damage, report.expected_damage) == (7, pytest.approx(7.0))


def test_rockets_are_a_raid_without_aa():
    """ "Rockets will be handled as strategic bombing raids (SBR) without AA-gun." V = 2:
    E = 11/6 -> 1, +1 on a die <= 5."""
    assert rocket_attack(2, rules="lowluck", dice=FixedDice([5])).damage == 2
    assert rocket_attack(2, rules="lowluck", dice=FixedDice([6])).damage == 1


def test_aa_takes_a_plain_number_of_planes():
    """The text counts planes ("If 4 airplanes attack"): a bare number works too."""
    assert dict(aa_fire(4, rules="lowluck", dice=FixedDice([4])).lost) == {"planes": 1}
    assert dict(aa_fire(8, rules="lowluck", dice=FixedDice([3])).lost) == {"planes": 1}
    assert dict(aa_fire(8, rules="lowluck", dice=FixedDice([2])).lost) == {"planes": 2}
