"""The vectorised loss-chain solver (combat.axis_allies.chains) against the general path.

The general path expands ``engine.play_round`` state by state; the chain solver must give the
same distribution to 1e-12 wherever it applies, keep its small-integer tables per process, and
stop inside a ``Budget``. ``estimated_work`` must count the AA gun's starting forces.
"""

from __future__ import annotations

import pytest

from combat.axis_allies import battle_odds, chains
from combat.axis_allies.engine import initial_state, play_round
from combat.axis_allies.errors import CombatInputError
from combat.axis_allies.odds import (
    _exact,
    _solve_general,
    _summarise,
    estimated_work,
)
from combat.axis_allies.rules import EXACT
from combat.axis_allies.setup import build_setup
from combat.budget import Budget, BudgetExceeded

DESTROYERS_LAST = ["transport", "submarine", "carrier", "battleship", "destroyer"]


def make_setup(attacker, defender, rules="dice", **kwargs):
    params = {
        "rules": rules,
        "edition": "revised",
        "rounds": None,
        "attacker_order": None,
        "defender_order": None,
        "amphibious": False,
        "techs": (),
        "options": None,
    }
    params.update(kwargs)
    return build_setup(attacker, defender, **params)


def table(odds):
    return {
        (tuple(o.attacker_left.items()), tuple(o.defender_left.items()), o.result): o.probability
        for o in odds.outcomes
    }


def assert_same(fast, general):
    for field in ("attacker_wins", "defender_wins", "draw", "stalemate"):
        assert getattr(fast, field) == pytest.approx(getattr(general, field), abs=1e-12), field
    assert fast.expected_ipc_swing == pytest.approx(general.expected_ipc_swing, abs=1e-10)
    for name, value in general.expected_attacker_survivors.items():
        assert fast.expected_attacker_survivors[name] == pytest.approx(value, abs=1e-11)
    for name, value in general.expected_defender_survivors.items():
        assert fast.expected_defender_survivors[name] == pytest.approx(value, abs=1e-11)
    a, b = table(fast), table(general)
    assert set(a) == set(b)
    for key, p in b.items():
        assert a[key] == pytest.approx(p, abs=1e-12), key


LAND = [
    ({"infantry": 3, "armor": 2}, {"infantry": 3}),
    ({"infantry": 4, "artillery": 2, "armor": 1, "fighter": 2}, {"infantry": 5, "fighter": 1}),
    ({"infantry": 2, "fighter": 2, "bomber": 1}, {"infantry": 3, "armor": 1, "aa_gun": 1}),
    ({"armor": 3, "fighter": 3}, {"infantry": 4, "artillery": 1, "aa_gun": 1}),
    ({"fighter": 2}, {"infantry": 1, "aa_gun": 1}),  # the AA gun can end the battle alone
    ({"infantry": 1}, {"aa_gun": 1, "infantry": 2}),
]
AMPHIBIOUS = [
    ({"infantry": 3, "armor": 1, "battleship": 2}, {"infantry": 4, "armor": 1}),
    ({"infantry": 2, "fighter": 1, "battleship": 1}, {"infantry": 3, "aa_gun": 1}),
    ({"infantry": 1, "battleship": 3}, {"infantry": 1}),  # bombardment can clear the defence
]
SEA = [
    # Destroyers kept to the last: no first strike, and no aircraft for submarines to miss.
    ({"submarine": 3, "destroyer": 2, "battleship": 1}, {"destroyer": 2, "transport": 2}),
    (
        {"submarine": 2, "destroyer": 1, "battleship": 1, "transport": 1},
        {"submarine": 2, "destroyer": 2, "carrier": 1},
    ),
    ({"battleship": 2, "destroyer": 1}, {"battleship": 1, "carrier": 1, "transport": 2}),
]
RULES = ["dice", "lowluck", "chess", "chess-ryof", "chess-ryof6"]


def fast_and_general(setup):
    ends = chains.solve(setup)
    assert ends is not None, "the chain solver should apply here"
    fast = _summarise(setup, ends, "exact")
    general = _summarise(
        setup, _solve_general(setup, play_round(setup, initial_state(setup), EXACT)), "exact"
    )
    return fast, general


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize(("attacker", "defender"), LAND)
def test_land_battles_match_the_general_path(attacker, defender, rules):
    assert_same(*fast_and_general(make_setup(attacker, defender, rules)))


@pytest.mark.parametrize("separately", [False, True])
@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize(("attacker", "defender"), AMPHIBIOUS)
def test_bombardment_matches_the_general_path(attacker, defender, rules, separately):
    setup = make_setup(
        attacker,
        defender,
        rules,
        amphibious=True,
        options={"bombard_separately": separately} if rules == "lowluck" else None,
    )
    assert_same(*fast_and_general(setup))


@pytest.mark.parametrize("rules", RULES)
@pytest.mark.parametrize(("attacker", "defender"), SEA)
def test_submarines_and_destroyers_match_the_general_path(attacker, defender, rules):
    setup = make_setup(
        attacker,
        defender,
        rules,
        attacker_order=DESTROYERS_LAST,
        defender_order=DESTROYERS_LAST,
    )
    assert_same(*fast_and_general(setup))


DESTROYERS_FIRST = ["transport", "destroyer", "submarine", "carrier", "battleship"]
FIRST_STRIKE = [
    # (attacker, defender, edition): subs with no enemy destroyer fire first and their
    # victims do not fire back; a destroyer lost part way lets the enemy's subs strike first
    # from the next round on.
    ({"submarine": 2}, {"transport": 2}, "revised"),
    ({"submarine": 3}, {"destroyer": 1, "battleship": 1}, "revised"),
    ({"submarine": 2, "battleship": 1}, {"submarine": 2, "destroyer": 1}, "revised"),
    ({"submarine": 4}, {"submarine": 3, "transport": 2}, "revised"),
    (
        {"submarine": 3, "destroyer": 2, "battleship": 1},
        {"submarine": 2, "destroyer": 2, "transport": 2},
        "revised",
    ),
    ({"submarine": 3, "battleship": 1}, {"submarine": 2, "battleship": 1}, "classic"),
]


@pytest.mark.parametrize(("attacker", "defender", "edition"), FIRST_STRIKE)
def test_first_strike_matches_the_general_path(attacker, defender, edition):
    """Standard dice: the chains play the first-strike stage too (chain_sweep)."""
    order = DESTROYERS_FIRST if edition == "revised" else None  # classic: no destroyers
    setup = make_setup(
        attacker, defender, edition=edition, attacker_order=order, defender_order=order
    )
    assert_same(*fast_and_general(setup))


def test_first_strike_worked_by_hand():
    """1 sub (attack 2) v 1 transport (revised defence 1), no destroyer: the sub fires first
    and a hit (1/3) wins outright; after a miss only the transport fires (1/6 sinks the sub).
    P(win) = (1/3) / (1 - 2/3 * 5/6) = 3/4, and no draw (fired together it would be 5/8 and
    1/8)."""
    setup = make_setup({"submarine": 1}, {"transport": 1})
    assert chains.solve(setup) is not None  # the fast path plays it
    odds = battle_odds({"submarine": 1}, {"transport": 1})
    assert (odds.attacker_wins, odds.draw) == (pytest.approx(3 / 4, abs=1e-12), 0.0)


def test_techs_and_classic_edition_match_the_general_path():
    setup = make_setup(
        {"infantry": 3, "bomber": 1, "fighter": 1},
        {"infantry": 3, "fighter": 2, "aa_gun": 1},
        techs={"attacker": ["heavy_bombers"], "defender": ["jet_fighters"]},
    )
    assert_same(*fast_and_general(setup))
    classic = make_setup({"infantry": 3, "armor": 2}, {"infantry": 4}, edition="classic")
    assert_same(*fast_and_general(classic))


def test_a_stalemate_is_found_as_on_the_general_path():
    # Transports never score; a battleship against transports at sea... and the reverse.
    assert_same(*fast_and_general(make_setup({"transport": 2}, {"transport": 1})))
    assert_same(*fast_and_general(make_setup({"transport": 2}, {"destroyer": 1})))


@pytest.mark.parametrize(
    ("attacker", "defender", "kwargs"),
    [
        ({"submarine": 2}, {"fighter": 1}, {}),  # submarine hits cannot take the fighter
        # Low Luck first-strike groups (a chosen number of subs) stay on the general path.
        (
            {"submarine": 2},
            {"transport": 1, "destroyer": 1},
            {
                "rules": "lowluck",
                "options": {"attacker_first_strike_subs": 1},
                "defender_order": ["destroyer", "transport"],
            },
        ),
        ({"infantry": 2}, {"infantry": 2}, {"rules": "chess-cof"}),  # carried fractions
        ({"infantry": 2}, {"infantry": 2}, {"rounds": 1}),
    ],
)
def test_the_general_path_keeps_what_the_chains_cannot_do(attacker, defender, kwargs):
    assert chains.solve(make_setup(attacker, defender, **kwargs)) is None
    odds = battle_odds(attacker, defender, **kwargs)  # still answered, exactly
    assert odds.attacker_wins + odds.defender_wins + odds.draw + odds.stalemate == pytest.approx(1)


def test_small_integer_tables_are_built_once_per_process():
    battle = (
        {"infantry": 6, "artillery": 2, "armor": 3, "fighter": 2},
        {"infantry": 8, "aa_gun": 1},
    )
    battle_odds(*battle)
    before = (
        chains.binomial_pmf.cache_info().misses,
        chains._volley_pmf.cache_info().misses,
        chains._fire_pmf.cache_info().misses,
        chains.aa_table.cache_info().misses,
    )
    for _ in range(3):
        _exact.cache_clear()
        battle_odds(*battle)
    after = (
        chains.binomial_pmf.cache_info().misses,
        chains._volley_pmf.cache_info().misses,
        chains._fire_pmf.cache_info().misses,
        chains.aa_table.cache_info().misses,
    )
    assert after == before
    assert chains.aa_table.cache_info().hits >= 3
    assert chains.binomial_pmf(3, 2) is chains.binomial_pmf(3, 2)


LARGE = (
    {"infantry": 16, "artillery": 8, "armor": 10, "fighter": 4, "bomber": 2},
    {"infantry": 24, "artillery": 4, "armor": 6, "fighter": 5, "bomber": 1, "aa_gun": 1},
)


def test_a_state_budget_stops_a_large_exact_battle():
    _exact.cache_clear()
    with pytest.raises(BudgetExceeded) as raised, Budget(states=100):
        battle_odds(*LARGE)
    assert raised.value.limit == "states"
    # Nothing half-computed was cached: without a budget the battle is answered.
    assert battle_odds(*LARGE).attacker_wins == pytest.approx(0.308437, abs=1e-6)


def test_a_state_budget_stops_the_general_path_too():
    _exact.cache_clear()
    with pytest.raises(BudgetExceeded) as raised, Budget(states=100):
        battle_odds({"submarine": 12, "fighter": 4}, {"destroyer": 10, "fighter": 6})
    assert raised.value.limit == "states"


def test_a_time_budget_stops_a_huge_monte_carlo_long_before_its_end():
    # Asserted on the work done, not on a wall clock (a loaded CI machine stretched the wall
    # time of this test past any fixed bound): 0.05 s buys a small share of the 2,000 runs.
    attack, defence = {"infantry": 600, "armor": 400}, {"infantry": 1000}
    whole = estimated_work(attack, defence, method="monte-carlo", runs=2000)
    budget = Budget(seconds=0.05)
    with pytest.raises(BudgetExceeded) as raised, budget:
        battle_odds(attack, defence, method="monte-carlo", runs=2000)
    assert raised.value.limit == "seconds"
    assert 0 < budget.used < whole // 4


def test_estimated_work_counts_the_aa_gun():
    forty = estimated_work(*LARGE)
    without_aa = estimated_work(LARGE[0], {k: v for k, v in LARGE[1].items() if k != "aa_gun"})
    assert forty == 15 * without_aa  # 5 x 3 possible losses of 4 fighters and 2 bombers
    planes = estimated_work({"fighter": 100, "bomber": 45}, {"infantry": 10, "aa_gun": 1})
    assert planes > 100 * forty
    with pytest.raises(CombatInputError) as refused:
        battle_odds({"fighter": 100, "bomber": 45}, {"infantry": 10, "aa_gun": 1})
    assert refused.value.field == "method"
    one_type = estimated_work({"fighter": 145}, {"infantry": 10, "aa_gun": 1})
    assert one_type == 146 * 146 * 11


def test_estimated_work_of_a_monte_carlo_is_runs_times_units():
    assert estimated_work({"infantry": 3}, {"infantry": 2}, method="monte-carlo", runs=100) == 500
    ships = estimated_work(
        {"infantry": 2, "battleship": 1},
        {"infantry": 2},
        amphibious=True,
        method="monte-carlo",
        runs=10,
    )
    assert ships == 50


def test_estimated_work_names_bad_input_like_battle_odds():
    with pytest.raises(CombatInputError) as bad:
        estimated_work({"tank": 1}, {"infantry": 1})
    assert bad.value.field == "attacker.tank"
    with pytest.raises(CombatInputError) as bad_method:
        estimated_work({"infantry": 1}, {"infantry": 1}, method="guess")
    assert bad_method.value.field == "method"


# --- the HTTP layer refuses oversized work up front -------------------------------------------

ODDS = "/api/combat/aa/odds"


@pytest.mark.django_db
def test_the_odds_endpoint_refuses_a_huge_simulation_naming_the_field(client):
    body = {
        "attacker": {"infantry": 1000},
        "defender": {"infantry": 900},
        "method": "monte-carlo",
    }
    response = client.post(ODDS, body, content_type="application/json")
    assert response.status_code == 400
    error = response.json()
    assert (error["error"], error["field"]) == ("invalid_input", "attacker")
    assert "too large to simulate" in error["message"]


@pytest.mark.django_db
def test_the_odds_endpoint_refuses_too_many_planes_against_an_aa_gun(client):
    body = {
        "attacker": {"fighter": 100, "bomber": 45},
        "defender": {"infantry": 10, "aa_gun": 1},
    }
    response = client.post(ODDS, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["field"] == "method"
