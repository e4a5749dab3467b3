"""Exact odds under standard dice, each case worked by hand in its docstring.

Notation: a round where the attacker hits with probability a and the defender with d ends with
"attacker only" a(1-d), "both" ad, "defender only" (1-a)d, and stays with (1-a)(1-d); dividing
by 1 - stay gives the chance of each way of leaving.
"""

from __future__ import annotations

from math import sqrt

import pytest

from combat.axis_allies import battle_odds, fight
from combat.axis_allies.engine import initial_state, play_round
from combat.axis_allies.odds import _solve_general, _solve_separable, _summarise
from combat.axis_allies.rules import EXACT
from combat.axis_allies.setup import build_setup
from combat.dice import FixedDice, RandomDice


def odds3(odds):
    return odds.attacker_wins, odds.defender_wins, odds.draw


def test_one_infantry_against_one():
    """a = 1/6, d = 1/3: only 1/18 ... leave 4/9: attacker 1/4, defender 5/8, draw 1/8."""
    assert odds3(battle_odds({"infantry": 1}, {"infantry": 1})) == pytest.approx(
        (1 / 4, 5 / 8, 1 / 8)
    )


def test_armor_against_infantry():
    """a = 1/2, d = 1/3: attacker only 1/3, both 1/6, defender only 1/6, stay 1/3 ->
    1/2, 1/4, 1/4."""
    assert odds3(battle_odds({"armor": 1}, {"infantry": 1})) == pytest.approx((1 / 2, 1 / 4, 1 / 4))


def test_two_infantry_against_one():
    """From 2 v 1: P(>= 1 of 2 dice) = 11/36, d = 1/3. Win at once: (11/36)/(58/108) = 33/58;
    to 1 v 1: (25/108)/(58/108) = 25/58, then 1/4, 5/8, 1/8. Attacker 33/58 + 25/232 = 157/232,
    defender 125/464, draw 25/464."""
    assert odds3(battle_odds({"infantry": 2}, {"infantry": 1})) == pytest.approx(
        (157 / 232, 125 / 464, 25 / 464)
    )


def test_expected_survivors_and_ipc_swing():
    """1 v 1 infantry: E[attacker left] = 1/4, E[defender left] = 5/8; the swing is
    3 x (1 - 5/8) - 3 x (1 - 1/4) = 9/8 - 9/4 = -9/8."""
    odds = battle_odds({"infantry": 1}, {"infantry": 1})
    assert dict(odds.expected_attacker_survivors) == {"infantry": pytest.approx(1 / 4)}
    assert dict(odds.expected_defender_survivors) == {"infantry": pytest.approx(5 / 8)}
    assert odds.expected_ipc_swing == pytest.approx(-9 / 8)


def test_one_round_then_withdraw():
    """rounds=1, 1 v 1 infantry: attacker only 1/6 x 2/3 = 1/9, both 1/18, and the attacker
    withdraws otherwise (the defender holds): 5/18 + 10/18 = 5/6."""
    odds = battle_odds({"infantry": 1}, {"infantry": 1}, rounds=1)
    assert odds3(odds) == pytest.approx((1 / 9, 5 / 6, 1 / 18))
    assert odds.stalemate == 0.0


def test_artillery_raises_one_paired_infantry_to_two():
    report = fight(
        {"infantry": 2, "artillery": 1},
        {"infantry": 5},
        rounds=1,
        dice=FixedDice([2, 2, 2, 6, 6, 6, 6, 6]),
    )
    needed = sorted(r.needed for r in report.rounds[0].rolls if r.side == "attacker")
    assert needed == [1, 2, 2]  # one infantry at 1, the paired one at 2, the artillery at 2


def test_two_hit_battleship_against_a_fighter():
    """Battleship (hits on 4, two hits) v fighter (4). Undamaged: a win whenever the battleship
    hits (3/4 of leaving), else damaged (1/4). Damaged it is 1 v 1 at 4 each: win 1/4, draw
    1/2, loss 1/4. Attacker 3/4 + 1/16 = 13/16, draw 1/8, defender 1/16."""
    assert odds3(battle_odds({"battleship": 1}, {"fighter": 1})) == pytest.approx(
        (13 / 16, 1 / 16, 1 / 8)
    )


def test_submarines_never_hit_aircraft():
    odds = battle_odds({"submarine": 3}, {"fighter": 1})
    assert odds3(odds) == pytest.approx((0.0, 1.0, 0.0))


def test_submarine_first_strike_without_a_destroyer():
    """Sub (2) v transport (1): the sub fires first; a sunk transport never fires back.
    Leave: 1/3 + 2/3 x 1/6 = 4/9 -> attacker 3/4, defender 1/4, no draw."""
    assert odds3(battle_odds({"submarine": 1}, {"transport": 1})) == pytest.approx(
        (3 / 4, 1 / 4, 0.0)
    )


def test_a_destroyer_cancels_the_first_strike():
    """Sub (2) v destroyer (3), simultaneous: 1/3 x 1/2 both; leave 2/3 -> 1/4, 1/2, 1/4."""
    assert odds3(battle_odds({"submarine": 1}, {"destroyer": 1})) == pytest.approx(
        (1 / 4, 1 / 2, 1 / 4)
    )


def test_classic_defending_subs_do_not_strike_first():
    """Classic: transport attacks (0) a sub (2): only the defender scores, no first strike
    either way; it still wins surely. Revised: the defending sub strikes first, same answer;
    the difference shows in a draw: classic 1 fighter v 1 sub has draws, first strike has none
    (the sub cannot hit the fighter either way)."""
    classic = battle_odds({"battleship": 1}, {"submarine": 1}, edition="classic")
    revised = battle_odds({"destroyer": 1}, {"submarine": 1}, edition="revised")
    # classic: BB 4 v sub 2 simultaneous: a = 2/3, d = 1/3: leave 7/9: 4/7, 1/7, 2/7.
    assert odds3(classic) == pytest.approx((4 / 7, 1 / 7, 2 / 7))
    # revised, destroyer present: no first strike: a = 1/2, d = 1/3: leave 2/3: 1/2, 1/4, 1/4.
    assert odds3(revised) == pytest.approx((1 / 2, 1 / 4, 1 / 4))


def test_bombardment_in_round_one_of_an_amphibious_assault():
    """Infantry + battleship (bombarding at 4) v infantry: the shore shot kills the defender
    before it fires with 2/3; otherwise it is 1 v 1: attacker 2/3 + 1/12 = 3/4, defender
    5/24, draw 1/24. The battleship never counts among the survivors."""
    odds = battle_odds({"infantry": 1, "battleship": 1}, {"infantry": 1}, amphibious=True)
    assert odds3(odds) == pytest.approx((3 / 4, 5 / 24, 1 / 24))
    assert set(odds.expected_attacker_survivors) == {"infantry"}


def test_combined_bombardment_lets_destroyers_bombard():
    """Destroyer bombards at 3: 1/2 + 1/2 x 1/4 = 5/8."""
    odds = battle_odds(
        {"infantry": 1, "destroyer": 1},
        {"infantry": 1},
        amphibious=True,
        techs=["combined_bombardment"],
    )
    assert odds.attacker_wins == pytest.approx(5 / 8)
    with pytest.raises(ValueError, match=r"attacker.destroyer: cannot bombard"):
        battle_odds({"infantry": 1, "destroyer": 1}, {"infantry": 1}, amphibious=True)


def test_aa_gun_fires_before_the_battle():
    """AA kills the fighter with 1/6. Else fighter (3) v infantry (2): 1/2, 1/4, 1/4.
    Attacker 5/12, defender 1/6 + 5/24 = 3/8, draw 5/24."""
    assert odds3(battle_odds({"fighter": 1}, {"infantry": 1, "aa_gun": 1})) == pytest.approx(
        (5 / 12, 3 / 8, 5 / 24)
    )


def test_heavy_bombers_roll_two_attack_dice():
    """Two dice at 4: P(>= 1 hit) = 8/9 v infantry at 1/3: attacker only 16/27, both 8/27,
    defender only 1/27, stay 2/27 -> 16/25, 1/25, 8/25."""
    assert odds3(battle_odds({"bomber": 1}, {"infantry": 1}, techs=["heavy_bombers"])) == (
        pytest.approx((16 / 25, 1 / 25, 8 / 25))
    )


def test_super_submarines_attack_at_three():
    """Super sub (3) first strike v transport (1): leave 1/2 + 1/2 x 1/6 = 7/12 -> 6/7, 1/7."""
    assert odds3(
        battle_odds({"submarine": 1}, {"transport": 1}, techs=["super_submarines"])
    ) == pytest.approx((6 / 7, 1 / 7, 0.0))


def test_jet_fighters_defend_at_five():
    """Infantry (1) v jet fighter (5): attacker only 1/36, both 5/36, defender only 25/36,
    stay 5/36 -> 1/31, 25/31, 5/31."""
    odds = battle_odds({"infantry": 1}, {"fighter": 1}, techs={"defender": ["jet_fighters"]})
    assert odds3(odds) == pytest.approx((1 / 31, 25 / 31, 5 / 31))


def test_lowluck_round_has_two_outcomes_per_group():
    """3 armor v 3 infantry, one round: 9 -> 1 + a die at 3; 6 -> 1 sure. Two outcomes."""
    odds = battle_odds({"armor": 3}, {"infantry": 3}, rules="lowluck", rounds=1)
    got = sorted((o.defender_left["infantry"], o.probability) for o in odds.outcomes)
    assert got == [(1, pytest.approx(0.5)), (2, pytest.approx(0.5))]
    assert all(dict(o.attacker_left) == {"armor": 2} for o in odds.outcomes)


def test_single_units_under_lowluck_match_dice():
    """One unit per side: a total below 6 is one die at that value, as with dice."""
    assert odds3(battle_odds({"armor": 1}, {"infantry": 1}, rules="lowluck")) == pytest.approx(
        (1 / 2, 1 / 4, 1 / 4)
    )


def test_repeated_queries_come_from_the_cache():
    first = battle_odds({"infantry": 5, "armor": 2}, {"infantry": 4})
    assert battle_odds({"armor": 2, "infantry": 5}, {"infantry": 4}) is first


@pytest.mark.parametrize(
    ("attacker", "defender", "rules"),
    [
        (
            {"infantry": 6, "artillery": 2, "armor": 3, "fighter": 2},
            {"infantry": 8, "aa_gun": 1},
            "dice",
        ),
        (
            {"infantry": 9, "armor": 4, "bomber": 1},
            {"infantry": 6, "armor": 3, "fighter": 2},
            "lowluck",
        ),
    ],
)
def test_fast_and_general_solvers_agree(attacker, defender, rules):
    setup = build_setup(
        attacker,
        defender,
        rules=rules,
        edition="revised",
        rounds=None,
        attacker_order=None,
        defender_order=None,
        amphibious=False,
        techs=(),
        options=None,
    )
    first = play_round(setup, initial_state(setup), EXACT)
    fast = _summarise(setup, _solve_separable(setup, first), "exact")
    general = _summarise(setup, _solve_general(setup, first), "exact")
    assert odds3(fast) == pytest.approx(odds3(general), abs=1e-12)
    assert fast.expected_ipc_swing == pytest.approx(general.expected_ipc_swing, abs=1e-9)
    assert {
        (tuple(o.attacker_left.items()), tuple(o.defender_left.items())): o.probability
        for o in fast.outcomes
    } == pytest.approx(
        {
            (tuple(o.attacker_left.items()), tuple(o.defender_left.items())): o.probability
            for o in general.outcomes
        },
        abs=1e-12,
    )


BATTLES = [
    (
        {"infantry": 3, "artillery": 1, "armor": 2, "fighter": 1},
        {"infantry": 4, "aa_gun": 1},
        "dice",
        False,
    ),
    (
        {"submarine": 2, "destroyer": 1, "fighter": 1},
        {"battleship": 1, "transport": 2},
        "dice",
        False,
    ),
    ({"infantry": 2, "armor": 1, "battleship": 1}, {"infantry": 3}, "dice", True),
    ({"infantry": 4, "armor": 3, "fighter": 1}, {"infantry": 5, "fighter": 1}, "lowluck", False),
    ({"infantry": 5, "armor": 2}, {"infantry": 4}, "chess-ryof", False),
]


@pytest.mark.parametrize(("attacker", "defender", "rules", "amphibious"), BATTLES)
def test_ten_thousand_seeded_battles_land_within_three_standard_errors(
    attacker, defender, rules, amphibious
):
    """fight and battle_odds share the round code; this checks they agree in distribution."""
    runs = 10_000
    exact = battle_odds(attacker, defender, rules=rules, amphibious=amphibious)
    dice = RandomDice(2026)
    winners = [
        fight(attacker, defender, rules=rules, amphibious=amphibious, dice=dice).winner
        for _ in range(runs)
    ]
    for result, p in (
        ("attacker", exact.attacker_wins),
        ("defender", exact.defender_wins),
        ("draw", exact.draw),
    ):
        observed = winners.count(result) / runs
        error = sqrt(max(p * (1 - p), 1e-12) / runs)
        assert abs(observed - p) <= 3 * error + 1e-12, (result, observed, p)


def test_published_artillery_against_infantry_for_a_2_ipc_territory():
    """axisandallies.org, "Calculating combat results" (Spring 1942 series, case 1): each side
    hits with 1/3; "1/9 both hit ... Net IPC change is (-4 + 3) = -1", "2/9 only attacker hits
    ... (3 + 2) = 5", "2/9 only defender hits ... -4", "4/9 no hits. Combat repeats." Summed
    over rounds: attacker 2/5, defender 2/5, both destroyed 1/5, and the article's expected net
    (-1 + 10 - 8) / 5 = +1/5 IPC, which is our unit swing -3/5 plus 2 IPC x 2/5 for the land."""
    odds = battle_odds({"artillery": 1}, {"infantry": 1})
    assert odds3(odds) == pytest.approx((2 / 5, 2 / 5, 1 / 5))
    assert odds.expected_ipc_swing == pytest.approx(-3 / 5)
    assert odds.expected_ipc_swing + 2 * odds.attacker_wins == pytest.approx(1 / 5)


def test_published_battleship_duel_from_the_aa_faq():
    """Axis & Allies FAQ v1.4, section 16: two (one-hit, classic) battleships at 4/6 each:
    "Hit Hit 16/36 Mutual Annihilation; Hit Miss 8/36 Attacker Wins; Miss Hit 8/36 Defender
    Wins; Miss Miss 4/36 continue". Leaving with 32/36: draw 1/2, attacker 1/4, defender 1/4."""
    odds = battle_odds({"battleship": 1}, {"battleship": 1}, edition="classic")
    assert odds3(odds) == pytest.approx((1 / 4, 1 / 4, 1 / 2))
    first_round = battle_odds({"battleship": 1}, {"battleship": 1}, edition="classic", rounds=1)
    assert (first_round.draw, first_round.attacker_wins) == pytest.approx((16 / 36, 8 / 36))
