"""The fast exact Risk solver: equal to a slow exact reference, tables loaded once, budgeted."""

from __future__ import annotations

import time
from fractions import Fraction
from math import sqrt

import pytest

from combat import risk_dice
from combat.budget import Budget, BudgetExceeded
from combat.dice import RandomDice
from combat.errors import CombatInputError


class ExactChance:
    """Every roll and sink roll as an exact fraction, from the integer counts (not the tables)."""

    def roll(self, n, m, bonus):
        total = 6 ** (n + m)
        return [
            (Fraction(ways, total), losses) for losses, ways in risk_dice._roll_counts(n, m, bonus)
        ]

    def sinks(self):
        return [(Fraction(15, 36), True), (Fraction(21, 36), False)]


def reference(attackers, defenders, **kwargs):
    """The straightforward walk: one state at a time through ``step``, in exact fractions."""
    setup, start = risk_dice.build(
        attackers,
        defenders,
        mode=kwargs.get("mode", "normal"),
        reserves=kwargs.get("reserves", 0),
        flanks=kwargs.get("flanks"),
        stop_below=kwargs.get("stop_below", 0),
        naval=kwargs.get("naval", False),
    )
    chance, ends, frontier = ExactChance(), {}, {start: Fraction(1)}
    while frontier:
        top = max(sum(s.flanks) + s.reserves + s.defenders for s in frontier)
        level = {
            s: p for s, p in frontier.items() if sum(s.flanks) + s.reserves + s.defenders == top
        }
        for state in level:
            del frontier[state]
        for state, p in level.items():
            if risk_dice.is_over(setup, state):
                ends[state] = ends.get(state, 0) + p
                continue
            for q, nxt in risk_dice.step(setup, state, chance):
                frontier[nxt] = frontier.get(nxt, 0) + p * q
    total_start = sum(start.flanks) + start.reserves
    summary = {"wins": 0, "att_lost": 0, "def_lost": 0, "captures": 0, "outcomes": {}}
    naval = {"defender_ship_sunk": 0, "defender_ship_capturable": 0, "attacker_ship_sunk": 0}
    for s, p in ends.items():
        ship = risk_dice._defender_ship(setup, s)
        summary["wins"] += p if risk_dice._winner(s) == "attacker" else 0
        summary["att_lost"] += p * (total_start - sum(s.flanks) - s.reserves)
        summary["def_lost"] += p * (start.defenders - s.defenders)
        summary["captures"] += p * s.captured
        naval["defender_ship_sunk"] += p if ship == "sunk" else 0
        naval["defender_ship_capturable"] += p if ship == "capturable" else 0
        naval["attacker_ship_sunk"] += p if any(s.attacker_sunk) or not any(s.flanks) else 0
        key = (s.flanks, sum(s.flanks) + s.reserves, s.defenders, s.captured, ship)
        summary["outcomes"][key] = summary["outcomes"].get(key, 0) + p
    summary["naval"] = naval if setup.naval else None
    return summary


GRID = (
    [
        ({"attackers": a, "defenders": d, "stop_below": s})
        for a in range(1, 6)
        for d in range(1, 6)
        for s in (0, 2)
    ]
    + [
        {"attackers": a, "defenders": d, "mode": "committed", "reserves": r}
        for a in (2, 3, 5)
        for d in (1, 3, 4)
        for r in (0, 1, 3)
    ]
    + [
        {"attackers": None, "defenders": d, "mode": "flanking", "flanks": f}
        for f in ([2, 2], [3, 2], [4, 4], [2, 3, 2])
        for d in (1, 2, 4)
    ]
)


@pytest.mark.parametrize("naval", [False, True])
@pytest.mark.parametrize("battle", GRID, ids=lambda b: "-".join(f"{k}={v}" for k, v in b.items()))
def test_fast_solver_equals_the_exact_reference(battle, naval):
    kwargs = dict(battle, naval=naval)
    attackers, defenders = kwargs.pop("attackers"), kwargs.pop("defenders")
    risk_dice._battle_odds.cache_clear()
    got = risk_dice.battle_odds(attackers, defenders, **kwargs)
    want = reference(attackers, defenders, **kwargs)
    assert got.attacker_wins == pytest.approx(float(want["wins"]), abs=1e-12)
    assert got.defender_wins == pytest.approx(float(1 - want["wins"]), abs=1e-12)
    assert got.expected_attacker_losses == pytest.approx(float(want["att_lost"]), abs=1e-12)
    assert got.expected_defender_losses == pytest.approx(float(want["def_lost"]), abs=1e-12)
    assert got.expected_captures == pytest.approx(float(want["captures"]), abs=1e-12)
    if naval:
        assert got.naval == pytest.approx(
            {k: float(v) for k, v in want["naval"].items()}, abs=1e-12
        )
    else:
        assert got.naval is None
    outcomes = {
        (
            o.flanks_left,
            o.attackers_left,
            o.defenders_left,
            o.captured,
            o.defender_ship,
        ): o.probability
        for o in got.outcomes
    }
    assert outcomes == pytest.approx({k: float(v) for k, v in want["outcomes"].items()}, abs=1e-12)
    probabilities = [o.probability for o in got.outcomes]
    assert probabilities == sorted(probabilities, reverse=True)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"attackers": 40, "defenders": 30, "mode": "committed", "reserves": 10},
        {"attackers": None, "defenders": 12, "mode": "flanking", "flanks": [8, 6], "naval": True},
    ],
)
def test_large_battles_agree_with_the_monte_carlo(kwargs):
    attackers, defenders = kwargs.pop("attackers"), kwargs.pop("defenders")
    exact = risk_dice.battle_odds(attackers, defenders, **kwargs)
    runs, dice = 2000, RandomDice(7)
    reports = [
        risk_dice.resolve_battle(attackers, defenders, dice=dice, **kwargs) for _ in range(runs)
    ]
    p = exact.attacker_wins
    assert abs(sum(r.winner == "attacker" for r in reports) / runs - p) <= 4 * sqrt(
        p * (1 - p) / runs
    )
    mean_lost = sum(r.defenders_left for r in reports) / runs
    assert abs(defenders - mean_lost - exact.expected_defender_losses) <= 0.05 * defenders


def test_one_roll_tables_are_loaded_once_and_equal_the_exact_counts():
    risk_dice._tables()
    for mode, kwargs in [("committed", {"attackers": 30}), ("flanking", {"flanks": [9, 7, 5]})]:
        risk_dice._battle_odds.cache_clear()
        attackers = kwargs.pop("attackers", None)
        risk_dice.battle_odds(attackers, 20, mode=mode, **kwargs)
    info = risk_dice._tables.cache_info()
    assert (info.misses, info.currsize) == (1, 1)
    table = risk_dice._tables()
    for n, m, bonus in [(12, 9, True), (9, 12, False), (30, 20, False), (7, 1, True)]:
        assert table[int(bonus), n, m, : min(n, m) + 1].tolist() == risk_dice._exact_row(
            n, m, bonus
        )
    assert not table.flags.writeable


def test_the_tables_answer_roll_odds_exactly():
    """A table row is the exact count rounded once: the same floats as counting now."""
    for n, m, bonus in [(3, 2, False), (6, 5, True), (15, 14, True)]:
        total = 6 ** (n + m)
        counted = {losses: ways / total for losses, ways in risk_dice._roll_counts(n, m, bonus)}
        assert risk_dice.roll_odds(n, m, attacker_bonus=int(bonus)) == counted


def test_a_states_budget_stops_a_big_battle():
    risk_dice._battle_odds.cache_clear()
    with pytest.raises(BudgetExceeded) as caught, Budget(states=100):
        risk_dice.battle_odds(100, 100)
    assert caught.value.limit == "states"
    with pytest.raises(BudgetExceeded) as caught, Budget(states=100):
        risk_dice.battle_odds(None, 20, mode="flanking", flanks=[10, 10])
    assert caught.value.limit == "states"
    assert risk_dice.battle_odds(100, 100).attacker_wins > 0.5  # nothing half-done was cached


def test_a_seconds_budget_bounds_the_huge_committed_attack():
    """Committed 60 v 1,000 with 940 reserves (400 s and 11 GB before the fast solver): under a
    0.05 s budget it is stopped, or done, within about a second; a tighter budget stops it."""
    risk_dice._battle_odds.cache_clear()
    start = time.monotonic()
    try:
        with Budget(seconds=0.05):
            risk_dice.battle_odds(60, 1000, mode="committed", reserves=940)
    except BudgetExceeded as caught:
        assert caught.limit == "seconds"
    assert time.monotonic() - start < 1.0
    risk_dice._battle_odds.cache_clear()
    with pytest.raises(BudgetExceeded) as caught, Budget(seconds=0.001):
        risk_dice.battle_odds(60, 1000, mode="committed", reserves=940)
    assert caught.value.limit == "seconds"


def test_a_seconds_budget_stops_a_huge_flanking_attack_quickly():
    start = time.monotonic()
    with pytest.raises(BudgetExceeded) as caught, Budget(seconds=0.05):
        risk_dice.battle_odds(None, 1000, mode="flanking", flanks=[60, 60, 60])
    assert caught.value.limit == "seconds"
    assert time.monotonic() - start < 1.0


def counted_states(attackers, defenders, **kwargs):
    risk_dice._battle_odds.cache_clear()
    with Budget() as budget:
        risk_dice.battle_odds(attackers, defenders, **kwargs)
    return budget.used


@pytest.mark.parametrize(
    ("attackers", "defenders", "kwargs"),
    [
        (10, 10, {}),
        (200, 200, {}),
        (50, 30, {"stop_below": 10}),
        (30, 20, {"mode": "committed"}),
        (20, 30, {"mode": "committed", "reserves": 15, "naval": True}),
        (6, 6, {"naval": True}),
        (None, 20, {"mode": "flanking", "flanks": [15, 15]}),
        (None, 16, {"mode": "flanking", "flanks": [8, 8, 8], "naval": True}),
    ],
)
def test_estimated_states_is_of_the_order_of_the_real_count(attackers, defenders, kwargs):
    estimate = risk_dice.estimated_states(attackers, defenders, **kwargs)
    real = counted_states(attackers, defenders, **kwargs)
    assert real <= estimate <= 10 * real


def test_estimated_states_grows_with_every_size():
    est = risk_dice.estimated_states
    for a in range(1, 40, 7):
        for d in range(1, 40, 7):
            assert est(a, d) <= est(a + 1, d) and est(a, d) <= est(a, d + 1)
            if a >= 2:
                committed = est(a, d, mode="committed")
                assert (
                    committed
                    <= est(a, d, mode="committed", reserves=5)
                    <= est(a + 1, d, mode="committed", reserves=5)
                )
    flanks = est(None, 10, mode="flanking", flanks=[5, 5])
    assert (
        flanks
        <= est(None, 10, mode="flanking", flanks=[6, 5])
        <= est(None, 10, mode="flanking", flanks=[6, 5, 2])
    )
    assert (
        flanks
        <= est(None, 11, mode="flanking", flanks=[5, 5])
        <= est(None, 11, mode="flanking", flanks=[5, 5], naval=True)
    )
    assert est(60, 1000, mode="committed", reserves=940) >= 10**6


def test_estimated_states_validates_like_battle_odds():
    with pytest.raises(CombatInputError) as caught:
        risk_dice.estimated_states(3, 3, mode="committed", stop_below=1)
    assert caught.value.field == "stop_below"
    with pytest.raises(CombatInputError) as caught:
        risk_dice.estimated_states(None, 3, mode="flanking", flanks=[4])
    assert caught.value.field == "flanks"
