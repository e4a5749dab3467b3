"""Every worked example of A&A Chess (../shared/rules/aa-chess-diceless.txt), and its variants.

The examples are played with the classic (1984) units: example 4 holds only with armor
defending at 2 (with Revised's 3 the defence totals 18, three hits instead of two).
"""

from __future__ import annotations

import pytest

from combat.axis_allies import aa_fire, battle_odds, fight
from combat.axis_allies.specials import rocket_attack, strategic_bombing
from combat.dice import FixedDice


def one_assault(attacker, defender, rules="chess", edition="classic", dice=None):
    report = fight(attacker, defender, rules=rules, edition=edition, rounds=1, dice=dice)
    return report.rounds[0]


def losses(rnd) -> tuple[int, int]:
    """(defender units lost, attacker units lost), as the text's examples state them."""
    return sum(rnd.defender_casualties.values()), sum(rnd.attacker_casualties.values())


def test_example_1_six_men_attack_three_men():
    """ "Attacking Force: 6 men. (total attack capability = 6) Defending Force 3 men. (total
    defense capability = 6) Defender loss = 1 unit (man). Attacker loss = 1 unit (man)."""
    assert losses(one_assault({"infantry": 6}, {"infantry": 3})) == (1, 1)


def test_example_2_four_tanks_attack_three_tanks_and_six_men():
    """ "Defender loss = 2 units. Attacker loss = 3 units." (12 -> 2; 6 + 12 = 18 -> 3)"""
    rnd = one_assault({"armor": 4}, {"armor": 3, "infantry": 6})
    assert losses(rnd) == (2, 3)
    assert [f.strength for f in rnd.fire] == [12, 18]


def test_example_3_fractions_of_five_and_four_are_hits():
    """ "(total attack value = 17) (the fraction 5 is considered a hit) ... (total defense value
    = 16) (the fraction 4 is considered a hit) Defender loss = 3 units. Attacker loss = 3 units."""
    rnd = one_assault({"armor": 4, "infantry": 5}, {"armor": 3, "infantry": 5})
    assert [f.strength for f in rnd.fire] == [17, 16]
    assert losses(rnd) == (3, 3)


def test_example_4_smaller_fractions_are_ignored():
    """ "(total attack value = 16) (the fraction 4, or less, is ignored) ... 3 tanks, 4 men, and
    1 bomber. (total defense value = 15) (the fraction 3, or less, is ignored) Defender loss = 2
    units. Attacker loss = 2 units."""
    rnd = one_assault({"armor": 4, "infantry": 4}, {"armor": 3, "infantry": 4, "bomber": 1})
    assert [f.strength for f in rnd.fire] == [16, 15]
    assert losses(rnd) == (2, 2)


def test_example_4_does_not_hold_with_revised_armor():
    rnd = one_assault(
        {"armor": 4, "infantry": 4}, {"armor": 3, "infantry": 4, "bomber": 1}, edition="revised"
    )
    assert [f.strength for f in rnd.fire] == [16, 18]
    assert losses(rnd) == (2, 3)


def test_example_5_anti_aircraft_by_fives():
    """ "If Germany sends 3 aircraft to the UK and 2 (up to 6) aircraft to Russia ... 1 aircraft
    is lost ... if 3 planes fly over two territories with AA, then 1 plane is lost"."""
    assert sum(aa_fire({"fighter": 3, "bomber": 2}, rules="chess").lost.values()) == 1
    assert sum(aa_fire({"fighter": 9}, rules="chess").lost.values()) == 1
    assert sum(aa_fire({"fighter": 10}, rules="chess").lost.values()) == 2
    assert sum(aa_fire({"fighter": 4}, rules="chess").lost.values()) == 0
    assert sum(aa_fire({"fighter": 3}, rules="chess", aa_guns=2).lost.values()) == 1


def test_example_5_economic_bomber_runs():
    """ "...the attacker is awarded a 2.5 production unit deficit ... for each bomber that
    survives the anti-aircraft fire. If the total has a fraction, it is ignored." Six bombers
    past one AA gun: one lost, 5 x 2.5 = 12.5 -> 12 (classic: no cap by territory value)."""
    report = strategic_bombing(6, 8, rules="chess", edition="classic")
    assert (report.bombers_lost, report.damage) == (1, 12)
    assert strategic_bombing(3, 8, rules="chess", edition="classic", aa=False).damage == 7


def test_example_6_submarine_first_shot():
    """ "Attacking Force: 2 battleship, 1 fully loaded (2 fighters) carrier, and 5 submarines.
    (total attack value = 25) Defending Force: 1 battleship, 1 fully loaded carrier, and 1
    transport. (total retaliatory defense value = 15) (16 - 1: assuming the transport is
    selected as the casualty of the ... submarine's first strike hit) Defender loss = 4 units
    (the remainder ... of "1" is ignored). Attacker loss = 2 units (the remainder of "3" ...)."
    The subs' 10 gives 1 hit and a fraction of 4 that joins the other 15: 19 -> 3."""
    rnd = one_assault(
        {"battleship": 2, "carrier": 1, "fighter": 2, "submarine": 5},
        {"battleship": 1, "carrier": 1, "fighter": 2, "transport": 1},
    )
    assert [(f.stage, f.strength, f.hits) for f in rnd.fire] == [
        ("first_strike", 10, 1),
        ("general", 19, 3),
        ("general", 15, 2),
    ]
    assert rnd.defender_casualties["transport"] == 1
    assert losses(rnd) == (4, 2)


def test_rockets_count_three():
    """ "Dice rolls representing "rocket attacks" are always considered to be a value of 3.\""""
    assert rocket_attack(10, rules="chess").damage == 3
    assert rocket_attack(2, rules="chess").damage == 2  # Revised caps at the territory's value


def test_orthodox_chess_is_certain_and_can_stalemate():
    """6 men v 3 men: 6 v 6 (1, 1), 5 v 4 (fractions 5 and 4: 1, 1), then 4 v 2 score nothing
    ever again: "neither side can score", a stalemate with 4 men against 1."""
    odds = battle_odds({"infantry": 6}, {"infantry": 3}, rules="chess", edition="classic")
    assert (odds.stalemate, len(odds.outcomes)) == (1.0, 1)
    assert dict(odds.outcomes[0].attacker_left) == {"infantry": 4}
    assert dict(odds.outcomes[0].defender_left) == {"infantry": 1}
    assert (
        fight({"infantry": 6}, {"infantry": 3}, rules="chess", edition="classic", dice=None).winner
        == "stalemate"
    )


def test_orthodox_chess_decisive_battle_has_one_outcome():
    """12 men v 2 men: 12 -> 2 hits, 4 -> 0 (fraction 4 ties the defender threshold: a hit).
    Round 1: defender loses 2, attacker loses 1. Certain win with 11 men."""
    odds = battle_odds({"infantry": 12}, {"infantry": 2}, rules="chess")
    assert odds.attacker_wins == 1.0
    assert [dict(o.attacker_left) for o in odds.outcomes] == [{"infantry": 11}]


def test_ryof_rolls_only_the_ignored_fraction():
    """RYOF: "roll a single die to resolve fractions which would normally ... be ignored". 4 men
    (fraction 4 < 5) roll at 4; the defender's fraction 4 of 16 is still a sure hit."""
    rnd = one_assault({"infantry": 4}, {"infantry": 8}, rules="chess-ryof", dice=FixedDice([4]))
    assert [(r.side, r.needed, r.hit) for r in rnd.rolls] == [("attacker", 4, True)]
    assert (rnd.attacker_hits, rnd.defender_hits) == (1, 3)


def test_ryof_exact_odds_by_hand():
    """4 men v 1 man, RYOF: the attacker hits on a die <= 4, the defender on <= 2. From 4 v 1:
    attacker only 4/9, both 2/9, defender only 1/9, neither 2/9 (stay). P(win with 4) =
    (4/9)/(7/9) = 4/7. P(win with 3) = (2/9)/(7/9) + (1/9)/(7/9) * P(3 v 1 -> win with 3), and
    from 3 v 1 (<= 3 v <= 2): attacker only 1/3, both 1/6, defender only 1/6, stay 1/3, so
    1/2. Total 2/7 + 1/14 = 5/14."""
    odds = battle_odds({"infantry": 4}, {"infantry": 1}, rules="chess-ryof")
    by_left = {
        o.attacker_left.get("infantry", 0): o.probability
        for o in odds.outcomes
        if o.result == "attacker"
    }
    assert by_left[4] == pytest.approx(4 / 7)
    assert by_left[3] == pytest.approx(5 / 14)
    assert odds.attacker_wins + odds.defender_wins + odds.draw == pytest.approx(1.0)


def test_ryof6_rolls_every_fraction_even_five():
    """RYOF<6: "roll a die to decide all fractions less than 6": a 5 is no longer certain."""
    rnd = one_assault({"infantry": 5}, {"infantry": 1}, rules="chess-ryof6", dice=FixedDice([6, 3]))
    assert [(r.side, r.needed, r.hit) for r in rnd.rolls] == [
        ("attacker", 5, False),
        ("defender", 2, False),
    ]


def test_ryof6_rolls_the_anti_aircraft_fraction_on_a_d5():
    report = aa_fire({"fighter": 3}, rules="chess-ryof6", dice=FixedDice([3]))
    assert [(r["sides"], r["needed"], r["hit"]) for r in report.rolls] == [(5, 3, True)]
    assert sum(report.lost.values()) == 1


def test_cof_carries_the_fraction_to_the_next_assault():
    """COF, 4 men v 1 man: assault 1 totals 4 (kept) and 2 (kept); assault 2 totals 4 + 4 = 8:
    one hit, 2 carried; the defender's 2 + 2 = 4 qualifies (a hit, leaving a deficit of -2)."""
    report = fight({"infantry": 4}, {"infantry": 1}, rules="chess-cof", dice=None)
    assert [(r.attacker_hits, r.defender_hits) for r in report.rounds] == [(0, 0), (1, 1)]
    assert report.winner == "attacker"
    assert dict(report.attacker_survivors) == {"infantry": 3}


def test_cof_a_qualifying_fraction_leaves_a_deficit():
    """ "if the attacker's last assault minimally qualified with a fraction of 5, ... he must
    now total another full 6 points to gain his next hit": 5 men v 3 bombers (defending at 1):
    5 (a hit, deficit -1), then -1 + 5 = 4 (nothing, kept), then 4 + 5 = 9 -> 1 hit, 3 kept."""
    report = fight({"infantry": 5}, {"bomber": 3}, rules="chess-cof", dice=None, rounds=3)
    assert [r.attacker_hits for r in report.rounds] == [1, 0, 1]


def test_cof_is_deterministic_in_the_odds():
    odds = battle_odds({"infantry": 4}, {"infantry": 1}, rules="chess-cof")
    assert len(odds.outcomes) == 1
    assert odds.outcomes[0].probability == 1.0


def test_cof_r_rolls_the_remaining_fraction_in_the_final_assault():
    """COF+R: the assault that ends the battle rolls each side's remaining fraction."""
    report = fight({"infantry": 4}, {"infantry": 1}, rules="chess-cof-r", dice=FixedDice([3]))
    final = report.rounds[-1].fire[-1]
    assert (final.side, final.stage, final.strength) == ("attacker", "final_roll", 2)
    odds = battle_odds({"infantry": 4}, {"infantry": 1}, rules="chess-cof-r")
    assert odds.attacker_wins == pytest.approx(1.0)


def test_chess_needs_no_dice_but_ryof_does():
    with pytest.raises(ValueError, match=r"dice: rules 'chess-ryof' roll dice"):
        fight({"infantry": 4}, {"infantry": 1}, rules="chess-ryof", dice=None)
