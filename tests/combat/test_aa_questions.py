"""The questions players ask of a battle (combat.axis_allies.questions), answered exactly.

Notation as in test_aa_dice_odds: a round where the attacker hits with probability a and the
defender with d ends "attacker only" a(1-d), "both" ad, "defender only" (1-a)d and stays
(1-a)(1-d); dividing by 1 - stay gives each way of leaving. 1 infantry v 1 infantry (dice):
a = 1/6, d = 1/3, so per round attacker only 4/36, both 2/36, defender only 10/36, stay 20/36;
fought to the end: win 1/4, draw 1/8, lose 5/8.
"""

from __future__ import annotations

import itertools
import json
from math import sqrt

import pytest

from combat.axis_allies import battle_odds, fight
from combat.axis_allies.editions import available_editions, load_edition
from combat.axis_allies.engine import initial_state, is_over, play_round
from combat.axis_allies.errors import CombatInputError
from combat.axis_allies.questions import (
    OrderOfLoss,
    RetreatPolicy,
    Wave,
    capital_ships,
    cheapest_force,
    check_order,
    ipc_swing,
    retreat_policy_odds,
    take_and_hold,
    waves,
)
from combat.axis_allies.questions.chain import Battle, Chain
from combat.axis_allies.questions.grid import GridChain, make_chain
from combat.axis_allies.questions.policies import strafe_stops, win_values
from combat.axis_allies.questions.results import EndTable, TakeOdds
from combat.axis_allies.rules import RollingChance
from combat.budget import Budget, BudgetExceeded
from combat.dice import RandomDice

INF = {"infantry": 1}
NEVER = RetreatPolicy(below_units=1)  # never true of a live state: forces the explicit chain


# --- take and hold ----------------------------------------------------------------------------


def test_take_one_infantry_against_one():
    """The infantry that wins is left standing: take = win = 1/4."""
    odds = take_and_hold(INF, INF)
    assert odds.land_battle
    assert odds.take == pytest.approx(1 / 4)
    assert odds.attacker_wins == pytest.approx(1 / 4)
    assert odds.air_only_win == pytest.approx(0.0, abs=1e-15)
    assert odds.defender_holds == pytest.approx(3 / 4)
    assert (odds.defender_wins, odds.draw, odds.retreat) == pytest.approx((5 / 8, 1 / 8, 0))


def test_take_apart_from_win_with_a_fighter():
    """1 infantry + 1 fighter v 1 infantry, default order (infantry lost first).

    Attacker scores with 1 - 5/6 x 1/2 = 7/12, defender 1/3: win keeping both 14/36, both hit
    7/36 (the infantry dies, the fighter wins alone), defender only 5/36 (to fighter v
    infantry), stay 10/36; leaving 26/36. Fighter v infantry: a = 1/2, d = 1/3: win 1/2, draw
    1/4, lose 1/4. Take 14/26 = 7/13; won by the fighter alone 7/26 + 5/26 x 1/2 = 19/52;
    win 47/52; draw = lose = 5/104. The fighter is left (and must land) with 47/52.
    """
    odds = take_and_hold({"infantry": 1, "fighter": 1}, INF)
    assert odds.take == pytest.approx(7 / 13)
    assert odds.air_only_win == pytest.approx(19 / 52)
    assert odds.attacker_wins == pytest.approx(47 / 52)
    assert odds.draw == pytest.approx(5 / 104)
    assert odds.defender_wins == pytest.approx(5 / 104)
    assert dict(odds.expected_air_to_land) == {"fighter": pytest.approx(47 / 52)}


def test_keep_one_land_unit():
    """The same battle keeping the infantry: "both hit" kills the fighter (take, 7/36), and
    "defender only" leaves 1 v 1 infantry (take 1/4, draw 1/8, lose 5/8). Take 21/26 + 5/26 x
    1/4 = 89/104, draw 5/208, lose 25/208, never a win by the fighter alone."""
    odds = take_and_hold(
        {"infantry": 1, "fighter": 1}, INF, attacker_order=OrderOfLoss(keep_one_land=True)
    )
    assert odds.take == pytest.approx(89 / 104)
    assert odds.attacker_wins == pytest.approx(89 / 104)
    assert odds.air_only_win == pytest.approx(0.0, abs=1e-15)
    assert odds.draw == pytest.approx(5 / 208)
    assert odds.defender_wins == pytest.approx(25 / 208)


def test_keep_one_land_with_two_land_kinds():
    """Keeping one land unit spends every other unit first, whatever its kind: 2 infantry,
    1 armor and 2 fighters taking 4 hits keep exactly one land unit, the armor (the order's
    last land unit), and lose both fighters."""
    battle = Battle.of(
        {"infantry": 2, "armor": 1, "fighter": 2},
        {"infantry": 1},
        attacker_order=OrderOfLoss(keep_one_land=True),
    )
    side = battle.setup().attacker
    after = side.apply_hits(side.initial, 4, 0)
    assert side.alive(after) == {"armor": 1}
    assert side.alive(side.apply_hits(side.initial, 2, 0)) == {"armor": 1, "fighter": 2}


def test_sea_battle_take_is_clearing_the_zone():
    """No land unit anywhere: taking the zone is winning it (a destroyer v a transport
    defending at 1: a = 1/2, d = 1/6; attacker only 5/12, both 1/12, defender only 1/12,
    stay 5/12; win 5/7)."""
    odds = take_and_hold({"destroyer": 1}, {"transport": 1})
    assert not odds.land_battle
    assert odds.take == pytest.approx(5 / 7)
    assert odds.take == pytest.approx(odds.attacker_wins)


@pytest.mark.parametrize(
    ("attacker", "defender", "kwargs"),
    [
        ({"infantry": 3, "armor": 2, "fighter": 1}, {"infantry": 4, "aa_gun": 1}, {}),
        ({"infantry": 4, "artillery": 2, "bomber": 1}, {"infantry": 3, "armor": 1}, {}),
        ({"infantry": 3, "fighter": 2}, {"infantry": 3, "armor": 1}, {"rules": "lowluck"}),
        (
            {"infantry": 2, "armor": 1, "battleship": 1},
            {"infantry": 3},
            {"amphibious": True},
        ),
        ({"submarine": 2, "fighter": 1}, {"destroyer": 1, "transport": 1}, {}),
        ({"armor": 2, "fighter": 1}, {"infantry": 2}, {"rules": "chess-cof"}),
    ],
)
def test_the_explicit_chain_agrees_with_battle_odds(attacker, defender, kwargs):
    """With no retreat, the chain the questions build (grid, or general for submarines and
    carried fractions) gives battle_odds' distribution to 1e-12."""
    odds = battle_odds(attacker, defender, **kwargs)
    policy = NEVER if not kwargs.get("amphibious") else None
    if policy is None:  # amphibious: no retreat, so the chain is asked directly
        setup = Battle.of(attacker, defender, **kwargs).setup()
        ends = make_chain(setup, initial_state(setup)).distribute(lambda s: False)
        ours = TakeOdds.from_table(setup, EndTable.from_states(setup, ends))
    else:
        ours = retreat_policy_odds(attacker, defender, policy=policy, **kwargs)
    assert ours.attacker_wins == pytest.approx(odds.attacker_wins, abs=1e-12)
    assert ours.defender_wins == pytest.approx(odds.defender_wins, abs=1e-12)
    assert ours.draw == pytest.approx(odds.draw, abs=1e-12)
    assert ours.stalemate == pytest.approx(odds.stalemate, abs=1e-12)
    assert ours.retreat == 0.0
    assert ours.expected_ipc_swing == pytest.approx(odds.expected_ipc_swing, abs=1e-9)
    for name, value in odds.expected_attacker_survivors.items():
        assert ours.expected_attacker_survivors[name] == pytest.approx(value, abs=1e-11)
    fast = take_and_hold(attacker, defender, **kwargs)  # through battle_odds
    assert ours.take == pytest.approx(fast.take, abs=1e-12)


def test_grid_and_general_chain_agree():
    """The numpy grid and the state-by-state chain give the same values and ends."""
    battle = Battle.of({"infantry": 3, "armor": 2, "fighter": 1}, {"infantry": 4, "aa_gun": 1})
    setup = battle.setup()
    grid, general = GridChain(setup), Chain(setup)
    stops_g, stops_c = strafe_stops(grid), strafe_stops(general)
    assert stops_g == stops_c and stops_g
    ends_g = _merged(grid.distribute(lambda s: s in stops_g))
    ends_c = _merged(general.distribute(lambda s: s in stops_c))
    assert set(ends_g) == set(ends_c)
    for key, p in ends_g.items():
        assert p == pytest.approx(ends_c[key], abs=1e-13)
    for limit in (1, 3):
        rounds_g = _merged(grid.rounds(limit, lambda s: s in stops_g))
        rounds_c = _merged(general.rounds(limit, lambda s: s in stops_c))
        assert set(rounds_g) == set(rounds_c)
        for key, p in rounds_g.items():
            assert p == pytest.approx(rounds_c[key], abs=1e-13)
    take_g, take_c = win_values(grid, take=True), win_values(general, take=True)
    for state in general.postorder:
        assert take_g(state) == pytest.approx(take_c(state), abs=1e-13)


def _merged(ends):
    out: dict = {}
    for p, s, r in ends:
        out[(s, r)] = out.get((s, r), 0.0) + p
    return out


# --- retreat policies --------------------------------------------------------------------------


def test_retreat_after_round_one():
    """Round 1 is fought, then the attacker leaves: win 4/36, draw 2/36, lose 10/36, retreat
    20/36 with both infantry still there."""
    odds = retreat_policy_odds(INF, INF, policy=RetreatPolicy(after_round=1))
    assert (odds.attacker_wins, odds.draw, odds.defender_wins, odds.retreat) == pytest.approx(
        (1 / 9, 1 / 18, 5 / 18, 5 / 9)
    )
    (retreat,) = [o for o in odds.outcomes if o.result == "retreat"]
    assert dict(retreat.attacker_left) == {"infantry": 1}
    assert dict(retreat.defender_left) == {"infantry": 1}
    assert odds.defender_holds == pytest.approx(8 / 9)


def test_retreat_after_round_two():
    """Two rounds: win 1/9 (1 + 5/9) = 14/81, draw 7/81, lose 35/81, retreat (5/9)^2 = 25/81;
    battle_odds(rounds=2) counts the retreat as the defender's."""
    odds = retreat_policy_odds(INF, INF, policy={"after_round": 2})
    assert (odds.attacker_wins, odds.draw, odds.defender_wins, odds.retreat) == pytest.approx(
        (14 / 81, 7 / 81, 35 / 81, 25 / 81)
    )
    limited = battle_odds(INF, INF, rounds=2)
    assert limited.defender_wins == pytest.approx(odds.defender_wins + odds.retreat)


def test_retreat_under_a_chance_to_win():
    """From 1 v 1 the chance to win is 1/4: under p = 0.3 the attacker leaves after round 1
    (the after-round-1 answer); under p = 0.2 it never leaves (battle_odds)."""
    leave = retreat_policy_odds(INF, INF, policy=RetreatPolicy(below_chance=0.3))
    assert (leave.attacker_wins, leave.retreat) == pytest.approx((1 / 9, 5 / 9))
    stay = retreat_policy_odds(INF, INF, policy=RetreatPolicy(below_chance=0.2))
    assert (stay.attacker_wins, stay.retreat) == pytest.approx((1 / 4, 0.0))


def test_retreat_under_k_units():
    """2 infantry v 1: after a round that loses one infantry (and not the defender's), fewer
    than 2 are left, so the attacker leaves. From 2 v 1: P(>= 1 hit of 2) = 11/36, d = 1/3:
    win at once 11/36 x 2/3 = 22/108, both 11/108 (1 v 0: a win), one lost and the defender
    standing 25/36 x 1/3 = 25/108, stay 50/108. Leaving 58/108: win 33/58, retreat 25/58."""
    odds = retreat_policy_odds({"infantry": 2}, INF, policy=RetreatPolicy(below_units=2))
    assert (odds.attacker_wins, odds.retreat, odds.draw) == pytest.approx((33 / 58, 25 / 58, 0))


def test_strafe_one_infantry():
    """From 1 v 1, fighting on is worth (4 x 3 - 10 x 3) / 16 = -9/8 IPC: the strafer leaves
    after round 1, for a swing of 4/36 x 3 - 10/36 x 3 = -1/2 instead of -9/8."""
    odds = retreat_policy_odds(INF, INF, policy=RetreatPolicy(strafe=True))
    assert (odds.attacker_wins, odds.retreat) == pytest.approx((1 / 9, 5 / 9))
    assert odds.expected_ipc_swing == pytest.approx(-1 / 2)
    assert battle_odds(INF, INF).expected_ipc_swing == pytest.approx(-9 / 8)


def test_strafe_is_the_best_swing():
    """No policy gives a larger expected swing than the optimal-stopping strafe."""
    attacker, defender = {"infantry": 3, "armor": 2, "fighter": 1}, {"infantry": 4, "armor": 1}
    best = retreat_policy_odds(attacker, defender, policy={"strafe": True}).expected_ipc_swing
    others = [RetreatPolicy()]
    others += [RetreatPolicy(after_round=n) for n in (1, 2, 3)]
    others += [RetreatPolicy(below_chance=p) for p in (0.2, 0.5, 0.8)]
    others += [RetreatPolicy(below_units=k) for k in (2, 4)]
    for policy in others:
        swing = retreat_policy_odds(attacker, defender, policy=policy).expected_ipc_swing
        assert swing <= best + 1e-9, policy
    assert best > battle_odds(attacker, defender).expected_ipc_swing + 0.1


def test_policy_probabilities_add_up_and_survivors_are_listed():
    odds = retreat_policy_odds(
        {"infantry": 4, "artillery": 2, "fighter": 2},
        {"infantry": 5, "armor": 1, "aa_gun": 1},
        policy=RetreatPolicy(below_chance=0.4, chance_of="take", below_units=3),
    )
    total = odds.attacker_wins + odds.defender_wins + odds.draw + odds.stalemate + odds.retreat
    assert total == pytest.approx(1.0, abs=1e-12)
    assert sum(o.probability for o in odds.outcomes) == pytest.approx(1.0, abs=1e-12)
    retreats = [o for o in odds.outcomes if o.result == "retreat"]
    assert retreats and all(o.attacker_left and o.defender_left for o in retreats)
    by_units = retreat_policy_odds(
        {"infantry": 4, "artillery": 2, "fighter": 2},
        {"infantry": 5, "armor": 1, "aa_gun": 1},
        policy=RetreatPolicy(below_units=3),
    )
    assert {sum(o.attacker_left.values()) for o in by_units.outcomes if o.result == "retreat"} == {
        1,
        2,
    }
    json.dumps(odds.to_dict())


def test_strafe_against_seeded_dice():
    """Monte Carlo cross-check of the strafe policy: the round code played with seeded dice,
    the attacker leaving at the policy's states, within 3 standard errors of the exact
    chances."""
    attacker, defender = {"infantry": 3, "armor": 2}, {"infantry": 4}
    exact = retreat_policy_odds(attacker, defender, policy={"strafe": True})
    setup = Battle.of(attacker, defender).setup()
    stops = strafe_stops(GridChain(setup))
    dice = RandomDice(20261128)
    runs, counts = 4000, {"attacker": 0, "retreat": 0}
    for _ in range(runs):
        chance = RollingChance(dice)
        state = initial_state(setup)
        while True:
            ((_p, state),) = play_round(setup, state, chance)
            if is_over(setup, state):
                if setup.attacker.any_alive(state.att):
                    counts["attacker"] += 1
                break
            if state in stops:
                counts["retreat"] += 1
                break
    for key, p in (("attacker", exact.attacker_wins), ("retreat", exact.retreat)):
        se = sqrt(p * (1 - p) / runs)
        assert abs(counts[key] / runs - p) <= 3 * se, key


def test_retreat_after_round_against_fight():
    """``after_round=2`` is ``fight(rounds=2)``: its win and retreat frequencies over seeded
    dice fall within 3 standard errors of the exact policy."""
    attacker, defender = {"infantry": 2, "armor": 1}, {"infantry": 3}
    exact = retreat_policy_odds(attacker, defender, policy={"after_round": 2})
    dice = RandomDice(32)
    runs = 3000
    wins = retreats = 0
    for _ in range(runs):
        report = fight(attacker, defender, dice=dice, rounds=2)
        wins += report.winner == "attacker"
        retreats += bool(report.attacker_survivors) and bool(report.defender_survivors)
    for seen, p in ((wins, exact.attacker_wins), (retreats, exact.retreat)):
        assert abs(seen / runs - p) <= 3 * sqrt(p * (1 - p) / runs)


def test_policy_refusals():
    with pytest.raises(CombatInputError) as error:
        retreat_policy_odds(INF, INF, policy={"after_round": 0})
    assert error.value.field == "policy.after_round"
    with pytest.raises(CombatInputError) as error:
        retreat_policy_odds(INF, INF, policy={"below_chance": 1.5})
    assert error.value.field == "policy.below_chance"
    with pytest.raises(CombatInputError) as error:
        retreat_policy_odds(INF, INF, policy={"retreat_when": 1})
    assert error.value.field == "policy.retreat_when"
    with pytest.raises(CombatInputError) as error:
        take_and_hold(
            {"infantry": 2, "battleship": 1}, INF, amphibious=True, policy={"after_round": 1}
        )
    assert error.value.field == "policy"
    with pytest.raises(CombatInputError) as error:
        retreat_policy_odds({"infantry": 160}, {"infantry": 160}, policy={"strafe": True})
    assert error.value.field == "attacker"
    with pytest.raises(CombatInputError) as error:
        take_and_hold({"infantry": 1000}, {"infantry": 1000})
    assert error.value.field == "attacker"


def test_policies_stop_inside_a_budget():
    with Budget(states=500), pytest.raises(BudgetExceeded):
        retreat_policy_odds({"infantry": 30}, {"infantry": 30}, policy={"strafe": True})


# --- IPC swing --------------------------------------------------------------------------------


def test_swing_distribution_one_infantry_each():
    """Attacker loses 3 IPC with 3/4 (mean 9/4, variance 27/4 - 81/16 = 27/16); the defender 3
    with 3/8 (mean 9/8, variance 135/64); swing +3 (1/4), 0 (1/8), -3 (5/8): mean -9/8,
    variance 63/8 - 81/64 = 423/64."""
    swing = ipc_swing(INF, INF)
    assert _pairs(swing.attacker_loss) == [(0, 1 / 4), (3, 3 / 4)]
    assert _pairs(swing.defender_loss) == [(0, 5 / 8), (3, 3 / 8)]
    assert _pairs(swing.swing) == [(-3, 5 / 8), (0, 1 / 8), (3, 1 / 4)]
    assert swing.attacker_loss_mean == pytest.approx(9 / 4)
    assert swing.attacker_loss_sd == pytest.approx(sqrt(27) / 4)
    assert swing.defender_loss_sd == pytest.approx(sqrt(135) / 8)
    assert swing.expected_swing == pytest.approx(-9 / 8)
    assert swing.swing_sd == pytest.approx(sqrt(423) / 8)
    assert (swing.attacker_value, swing.defender_value) == (3, 3)
    json.dumps(swing.to_dict())


def _pairs(dist):
    """(value, probability) pairs with the probabilities rounded for exact comparison."""
    return [(v, pytest.approx(p)) for v, p in dist]


def test_swing_mean_is_battle_odds_swing():
    attacker, defender = {"infantry": 4, "artillery": 2, "fighter": 2}, {"infantry": 5, "aa_gun": 1}
    swing = ipc_swing(attacker, defender)
    assert swing.expected_swing == pytest.approx(
        battle_odds(attacker, defender).expected_ipc_swing, abs=1e-9
    )
    assert sum(p for _v, p in swing.swing) == pytest.approx(1.0)
    strafed = ipc_swing(attacker, defender, policy={"strafe": True})
    assert strafed.expected_swing >= swing.expected_swing - 1e-9


# --- several waves ----------------------------------------------------------------------------


def test_two_waves_of_one_infantry():
    """Wave 1 (1 v 1): take 1/4, draw 1/8 (the defender is gone, nothing took it: wave 2's
    infantry walks in), lose 5/8 (wave 2 fights 1 v 1 again: take 1/4). Take 1/4 + 1/8 +
    5/32 = 17/32; the defender destroyed 3/8 + 5/8 x 3/8 = 39/64; attackers lose 3 x 3/4 +
    3 x 5/8 x 3/4 = 117/32 IPC, the defender 3 x 39/64 = 117/64."""
    odds = waves(INF, [INF, INF])
    assert odds.take == pytest.approx(17 / 32)
    assert odds.defender_destroyed == pytest.approx(39 / 64)
    first, second = odds.waves
    assert (first.fights, first.take) == pytest.approx((1.0, 1 / 4))
    assert (second.fights, second.take) == pytest.approx((5 / 8, 1 / 8 + 5 / 32))
    assert odds.expected_swing == pytest.approx(117 / 64 - 117 / 32)
    json.dumps(odds.to_dict())


def test_second_wave_meets_the_damaged_battleship():
    """Destroyers (A3) one after the other against a battleship (D4, two hits), no repair in
    between. Wave 1: from (D, BB): 1/3 both hit (D lost, BB damaged), 1/6 BB damaged only,
    1/3 D lost, 1/6 stay; from (D, damaged BB): win 1/5, draw 2/5, lose 2/5. So wave 1 leaves a
    damaged BB with 2/5 + 1/5 x 2/5 = 12/25, a whole one with 2/5, wins 1/25, draws 2/25. Wave 2
    wins against a damaged BB with 1/5, against a whole one 1/25, and after a draw takes the
    empty zone: take = 1/25 + 2/25 + 12/25 x 1/5 + 2/5 x 1/25 = 29/125."""
    odds = waves({"battleship": 1}, [{"destroyer": 1}, {"destroyer": 1}])
    assert odds.take == pytest.approx(29 / 125)
    assert odds.defender_destroyed == pytest.approx(3 / 25 + 12 / 25 * 3 / 5 + 2 / 5 * 3 / 25)
    single = waves({"battleship": 1}, [{"destroyer": 1}])
    assert single.take == pytest.approx(
        battle_odds({"destroyer": 1}, {"battleship": 1}).attacker_wins
    )


def test_land_then_air_wave_matches_direct_conditioning():
    """A land wave, then an air wave against each defender state it can leave, by hand from
    battle_odds: the air wave only wins (it cannot take), so take = wave 1's take."""
    defender = {"infantry": 3, "aa_gun": 1}
    odds = waves(defender, [Wave({"infantry": 2, "artillery": 1}), Wave({"fighter": 2})])
    first = take_and_hold({"infantry": 2, "artillery": 1}, defender)
    assert odds.take == pytest.approx(first.take)
    destroyed = first.attacker_wins + first.draw
    for end in first.outcomes:
        left = dict(end.defender_left)
        if left:
            destroyed += (
                end.probability * battle_odds({"fighter": 2}, {**left, "aa_gun": 1}).attacker_wins
            )
            destroyed += end.probability * battle_odds({"fighter": 2}, {**left, "aa_gun": 1}).draw
    assert odds.defender_destroyed == pytest.approx(destroyed, abs=1e-12)


def test_waves_refusals():
    with pytest.raises(CombatInputError) as error:
        waves(INF, [])
    assert error.value.field == "waves"
    with pytest.raises(CombatInputError) as error:
        waves(INF, [INF, {"tank": 1}])
    assert error.value.field == "attacker.tank"


# --- the cheapest force -----------------------------------------------------------------------


def _brute_force(defender, available, target, measure="take", by="ipc"):
    names = sorted(available)
    best = None
    for combo in itertools.product(*(range(available[n] + 1) for n in names)):
        force = {n: c for n, c in zip(names, combo, strict=True) if c}
        if not force:
            continue
        odds = take_and_hold(force, defender)
        chance = odds.take if measure == "take" else odds.attacker_wins
        if chance < target:
            continue
        cost = sum(load_edition("revised").units[n].cost * c for n, c in force.items())
        key = (cost, sum(force.values())) if by == "ipc" else (sum(force.values()), cost)
        if best is None or key < best[0]:
            best = (key, force)
    return best


@pytest.mark.parametrize(
    ("defender", "available", "target"),
    [
        ({"infantry": 2}, {"infantry": 5, "armor": 3, "fighter": 1}, 0.8),
        (
            {"infantry": 2, "armor": 1},
            {"infantry": 4, "artillery": 2, "armor": 2, "bomber": 1},
            0.7,
        ),
        (
            {"infantry": 2, "armor": 1, "aa_gun": 1},
            {"infantry": 4, "artillery": 2, "armor": 2, "fighter": 2},
            0.85,
        ),
    ],
)
def test_cheapest_force_matches_brute_force(defender, available, target):
    found = cheapest_force(defender, available, target)
    (cost, units), _force = _brute_force(defender, available, target)
    assert found.found
    assert (found.cost, found.units) == (cost, units)
    assert found.chance >= target
    assert take_and_hold(dict(found.force), defender).take == pytest.approx(found.chance)


@pytest.mark.parametrize(
    ("defender", "available", "target"),
    [
        ({"infantry": 2}, {"infantry": 6, "armor": 2, "bomber": 1}, 0.8),
        ({"infantry": 2, "armor": 1}, {"infantry": 5, "artillery": 2, "armor": 3}, 0.7),
    ],
)
def test_the_smallest_force_matches_brute_force(defender, available, target):
    found = cheapest_force(defender, available, target, by="units")
    (units, cost), _force = _brute_force(defender, available, target, by="units")
    assert found.found and found.by == "units"
    assert (found.units, found.cost) == (units, cost)
    assert found.chance >= target


def test_the_smallest_force_is_not_the_cheapest_hand_worked():
    """Against 1 infantry (hits on 1-2): a bomber (15 IPC, hits on 1-4) wins a round alone
    with 2/3 * 2/3 = 4/9, loses alone with 1/3 * 1/3 = 1/9, both die with 2/9, else again:
    it wins 4/9 / (7/9) = 4/7 = 0.571. Two infantry (6 IPC) win 157/232 = 0.677 (the 2 v 1
    case of test_aa_dice_odds), one infantry 1/4. To win at least 55%: the cheapest is two
    infantry, the smallest the bomber."""
    pool = {"infantry": 2, "bomber": 1}
    cheapest = cheapest_force(INF, pool, 0.55, measure="win")
    assert dict(cheapest.force) == {"infantry": 2}
    assert (cheapest.cost, cheapest.units, cheapest.by) == (6, 2, "ipc")
    assert cheapest.chance == pytest.approx(157 / 232)
    smallest = cheapest_force(INF, pool, 0.55, measure="win", by="units")
    assert dict(smallest.force) == {"bomber": 1}
    assert (smallest.cost, smallest.units, smallest.by) == (15, 1, "units")
    assert smallest.chance == pytest.approx(4 / 7)
    assert smallest.to_dict()["by"] == "units"


def test_cheapest_force_hand_worked():
    """Against 1 infantry: 1 infantry (3 IPC) takes with 1/4, 1 armor (5) with 1/2, 2 infantry
    (6) with 157/232 = 0.677 (the 2 v 1 case of test_aa_dice_odds): the cheapest to reach 0.6
    is 2 infantry."""
    found = cheapest_force(INF, {"infantry": 3, "armor": 2}, 0.6)
    assert dict(found.force) == {"infantry": 2}
    assert (found.cost, found.units) == (6, 2)
    assert found.chance == pytest.approx(157 / 232)


def test_cheapest_force_out_of_reach():
    found = cheapest_force({"infantry": 5}, {"infantry": 2}, 0.9)
    assert not found.found and found.force is None
    assert found.best_chance == pytest.approx(take_and_hold({"infantry": 2}, {"infantry": 5}).take)


def test_cheapest_force_refusals():
    with pytest.raises(CombatInputError) as error:
        cheapest_force(INF, {"infantry": 2}, 1.5)
    assert error.value.field == "target"
    with pytest.raises(CombatInputError) as error:
        cheapest_force(INF, {"infantry": 2}, 0.5, by="cost")
    assert error.value.field == "by"
    with pytest.raises(CombatInputError) as error:
        cheapest_force(INF, {"tank": 2}, 0.5)
    assert error.value.field == "available.tank"
    with pytest.raises(CombatInputError) as error:
        cheapest_force(INF, {"aa_gun": 1, "infantry": 1}, 0.5)
    assert error.value.field == "available.aa_gun"
    with pytest.raises(CombatInputError) as error:
        cheapest_force(
            INF,
            {"infantry": 30, "artillery": 30, "armor": 30, "fighter": 30, "bomber": 30},
            0.5,
        )
    assert error.value.field == "available"


# --- order of loss ----------------------------------------------------------------------------


def test_capital_ships_of_every_edition():
    for key in available_editions():
        ships = capital_ships(load_edition(key))
        assert ships == {"battleship", "carrier"}, key


def test_keep_capital_ship_moves_them_last():
    """Defending, the default loses the carrier (D3) before the fighter (D4); keeping the
    capital ships loses both fighters first."""
    defender = {"carrier": 1, "fighter": 2, "battleship": 1, "destroyer": 1}
    battle = Battle.of({"submarine": 1}, defender)
    assert battle.setup().defender.order.index("carrier") < battle.setup().defender.order.index(
        "fighter"
    )
    kept = Battle.of(
        {"submarine": 1}, defender, defender_order=OrderOfLoss(keep_capital_ship=True)
    ).setup()
    assert kept.defender.order[-2:] in (("carrier", "battleship"), ("battleship", "carrier"))
    plain = take_and_hold({"destroyer": 3, "fighter": 2}, defender)
    kept_odds = take_and_hold(
        {"destroyer": 3, "fighter": 2}, defender, defender_order=OrderOfLoss(keep_capital_ship=True)
    )
    assert kept_odds.take != pytest.approx(plain.take)


def test_check_order_warnings():
    assert check_order({"infantry": 2, "armor": 1}, None, role="defender") == []
    assert check_order({"infantry": 2, "armor": 1}, ["armor", "infantry"], role="defender") == [
        "armor (defends at 3) is lost before infantry (defends at 2)."
    ]
    warnings = check_order({"infantry": 2, "fighter": 1}, None)
    assert len(warnings) == 1 and "last land unit (infantry) is lost before fighter" in warnings[0]
    assert check_order({"infantry": 2, "fighter": 1}, OrderOfLoss(keep_one_land=True)) == []
    assert check_order({"infantry": 2, "fighter": 1}, None, to_take=False) == []
    assert check_order({"infantry": 1}, ["armor"]) == [
        "armor is in the order but not in the force."
    ]
    ships = {"carrier": 1, "fighter": 2}
    assert check_order(ships, OrderOfLoss(keep_capital_ship=True), role="defender") == []
    assert check_order(ships, ["fighter", "carrier"], role="defender") == [
        "fighter (defends at 4) is lost before carrier (defends at 3)."
    ]
    assert check_order(INF, OrderOfLoss(keep_one_land=True), role="defender") == [
        "keep_one_land does nothing on defence: any surviving unit holds."
    ]
    with pytest.raises(CombatInputError) as error:
        check_order({"tank": 1}, None)
    assert error.value.field == "units.tank"


def test_other_editions_pass_through():
    """Classic (1984): armor attacks at 3, infantry defends at 2 (a = 1/2, d = 1/3): take 1/2,
    as in Revised; the classic fighter costs 12, which the swing reads from the table."""
    assert take_and_hold({"armor": 1}, INF, edition="classic").take == pytest.approx(1 / 2)
    swing = ipc_swing({"fighter": 1}, INF, edition="classic")
    assert swing.attacker_value == 12
    with pytest.raises(CombatInputError) as error:
        take_and_hold({"artillery": 1}, INF, edition="classic")
    assert error.value.field == "attacker.artillery"
