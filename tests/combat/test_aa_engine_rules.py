"""The new editions' engine rules through every path: submerging submarines, the bombardment
limit, and the questions' grid refusing the battles whose rules break its assumptions.

Hand-worked values use the notation of test_aa_editions: a round where the attacker hits with
probability a and the defender with d.
"""

from __future__ import annotations

import pytest

from combat.axis_allies import battle_odds, fight
from combat.axis_allies.errors import CombatInputError
from combat.axis_allies.questions import RetreatPolicy, retreat_policy_odds, take_and_hold
from combat.axis_allies.questions.chain import Battle
from combat.axis_allies.questions.grid import GridChain, make_chain, separable
from combat.dice import FixedDice

G40 = "global-1940-2e"
NEVER = RetreatPolicy(below_units=1)  # never true of a live state: the explicit chain, no retreat


# --- 1. the grid refuses what breaks its assumptions; the questions agree with battle_odds ---

RULE_BREAKERS = {
    # aircraft cannot hit submarines without a destroyer: an aircraft hit may land nowhere
    "air_vs_subs": ({"fighter": 2, "cruiser": 1}, {"submarine": 2, "cruiser": 1}, G40, {}),
    # transports are destroyed when left alone: a move that looks at both sides
    "defenceless_transports": (
        {"destroyer": 2},
        {"destroyer": 1, "transport": 2},
        "1942-2e",
        {},
    ),
    # AAA: fires at planes in round 1, is a casualty at defence 0, dies when left alone (kept
    # to the last by the defender's order)
    "aaa_casualty": (
        {"infantry": 3, "fighter": 2},
        {"infantry": 2, "aaa": 1},
        "1942-2e",
        {"defender_order": ["infantry", "aaa"]},
    ),
    # submerging: the defender's subs leave once the attacker has only aircraft left
    "submerging": ({"submarine": 1, "fighter": 2}, {"submarine": 2, "destroyer": 1}, G40, {}),
}


@pytest.mark.parametrize("case", sorted(RULE_BREAKERS))
def test_grid_refuses_and_questions_agree_with_battle_odds(case):
    """``separable`` is False for each rule that breaks the grid's assumptions (fire depending
    only on one's own units, each hit taking exactly one hit point), so the questions use the
    general chain, and their distribution is battle_odds' to 1e-12."""
    attacker, defender, edition, kwargs = RULE_BREAKERS[case]
    setup = Battle.of(attacker, defender, edition=edition, **kwargs).setup()
    assert not separable(setup)
    assert not isinstance(make_chain(setup), GridChain)
    odds = battle_odds(attacker, defender, edition=edition, **kwargs)
    ours = retreat_policy_odds(attacker, defender, edition=edition, policy=NEVER, **kwargs)
    for name in ("attacker_wins", "defender_wins", "draw", "stalemate"):
        assert getattr(ours, name) == pytest.approx(getattr(odds, name), abs=1e-12), name
    assert ours.expected_ipc_swing == pytest.approx(odds.expected_ipc_swing, abs=1e-9)
    for name, value in odds.expected_defender_survivors.items():
        assert ours.expected_defender_survivors[name] == pytest.approx(value, abs=1e-11)
    take = take_and_hold(attacker, defender, edition=edition, **kwargs)
    assert take.attacker_wins == pytest.approx(odds.attacker_wins, abs=1e-12)


def test_a_plain_new_edition_land_battle_is_still_separable():
    """Infantry, artillery, tanks and fighters without AAA: the grid applies."""
    setup = Battle.of(
        {"infantry": 3, "artillery": 1, "fighter": 1}, {"infantry": 3}, edition="1942-2e"
    ).setup()
    assert separable(setup)


def test_aaa_lost_first_keeps_the_grid_and_agrees():
    """AAA lost first (the default order: defence 0) is never left alone: the grid applies
    (its opening round still has the AAA shots), and agrees with battle_odds."""
    attacker, defender = {"infantry": 3, "fighter": 2}, {"infantry": 2, "aaa": 1}
    setup = Battle.of(attacker, defender, edition="1942-2e").setup()
    assert separable(setup)
    odds = battle_odds(attacker, defender, edition="1942-2e")
    ours = retreat_policy_odds(attacker, defender, edition="1942-2e", policy=NEVER)
    for name in ("attacker_wins", "defender_wins", "draw", "stalemate"):
        assert getattr(ours, name) == pytest.approx(getattr(odds, name), abs=1e-12), name
    assert ours.expected_ipc_swing == pytest.approx(odds.expected_ipc_swing, abs=1e-9)


# --- 2. submarines submerging -------------------------------------------------------------------


def test_a_sub_submerges_once_only_aircraft_are_left():
    """G40: fighter + destroyer attack a submarine. The destroyer cancels the sub's surprise
    strike and submerging and lets the fighter hit it: a = 1 - (2/3)(1/2) = 2/3 (destroyer at
    2, fighter at 3), d = 1/6 (the sub at 1, its hit on the destroyer, never the fighter).

    * sub sunk (a = 2/3): the attacker wins; its destroyer lives with 5/6 of that;
    * sub alive, destroyer sunk ((1/3)(1/6) = 1/18): next round only the fighter is left,
      which the sub cannot hit: it submerges ("when_cannot_hit") and survives; the attacker
      is alone in the zone: a win;
    * nothing ((1/3)(5/6) = 5/18): again.

    Attacker wins 1; the sub survives (1/18)/(13/18) = 1/13; the destroyer (10/18)/(13/18) =
    10/13. With "never" the 1/13 is a stalemate instead (fighter and sub forever)."""
    attacker, defender = {"fighter": 1, "destroyer": 1}, {"submarine": 1}
    odds = battle_odds(attacker, defender, edition=G40)
    assert odds.attacker_wins == pytest.approx(1.0, abs=1e-12)
    assert odds.expected_defender_survivors["submarine"] == pytest.approx(1 / 13)
    assert odds.expected_attacker_survivors["destroyer"] == pytest.approx(10 / 13)
    never = battle_odds(attacker, defender, edition=G40, options={"defender_submerge": "never"})
    assert never.attacker_wins == pytest.approx(12 / 13)
    assert never.stalemate == pytest.approx(1 / 13)


def test_always_submerging_subs_leave_before_firing():
    """G40: two subs attack a cruiser, submerging "always": no enemy destroyer, so both dive
    at the start of round 1 without firing. The attacker has nothing left in the battle: the
    defender holds, nobody lost anything (swing 0), the subs survive."""
    odds = battle_odds(
        {"submarine": 2}, {"cruiser": 1}, edition=G40, options={"attacker_submerge": "always"}
    )
    assert odds.defender_wins == 1.0
    assert odds.expected_attacker_survivors["submarine"] == 2.0
    assert odds.expected_defender_survivors["cruiser"] == 1.0
    assert odds.expected_ipc_swing == 0.0


def test_an_enemy_destroyer_stops_submerging():
    """Two subs "always" submerging against a destroyer cannot: they fight. One round at
    dice: the subs (no surprise strike against a destroyer) hit with 1 - (4/6)^2 = 5/9, the
    destroyer at 2 with 1/3; the destroyer survives 4/9."""
    odds = battle_odds(
        {"submarine": 2},
        {"destroyer": 1},
        edition="1942-2e",
        rounds=1,
        options={"attacker_submerge": "always"},
    )
    assert odds.expected_defender_survivors["destroyer"] == pytest.approx(4 / 9)
    assert odds.expected_attacker_survivors["submarine"] == pytest.approx(2 - 1 / 3)


@pytest.mark.parametrize("edition", ["1942-2e", G40, "anniversary"])
def test_fight_reports_the_submerged_sub_as_a_survivor(edition):
    """A fighter attacks a lone sub: no dice are rolled; the sub submerges in round 1, the
    attacker is left alone in the zone, the sub survives and is no casualty."""
    report = fight({"fighter": 1}, {"submarine": 1}, edition=edition, dice=FixedDice([]))
    assert report.winner == "attacker"
    assert dict(report.defender_survivors) == {"submarine": 1}
    assert dict(report.rounds[0].defender_casualties) == {}
    assert [f.stage for f in report.rounds[0].fire] == ["submerge"]


def test_revised_subs_do_not_submerge():
    """Revised has no submerging here (``subs_submerge`` off): the fighter sinks the sub."""
    odds = battle_odds({"fighter": 1}, {"submarine": 1}, edition="revised")
    assert odds.attacker_wins == 1.0
    assert odds.expected_defender_survivors["submarine"] == 0.0


def test_monte_carlo_reads_submerged_ends_like_the_exact_solver():
    """Rolled battles with a mid-battle submerge: the same results as the exact odds."""
    kwargs = {"edition": G40}
    attacker, defender = {"fighter": 1, "destroyer": 1}, {"submarine": 1}
    rolled = battle_odds(attacker, defender, method="monte-carlo", runs=2000, seed=3, **kwargs)
    assert rolled.attacker_wins == pytest.approx(1.0) and rolled.stalemate == 0.0
    # the sub survives 1/13 = 0.0769 (standard error of 2000 runs: 0.006)
    assert rolled.expected_defender_survivors["submarine"] == pytest.approx(1 / 13, abs=0.018)


def test_submerge_option_is_checked():
    with pytest.raises(CombatInputError) as err:
        battle_odds(
            {"fighter": 1}, {"submarine": 1}, edition=G40, options={"attacker_submerge": "x"}
        )
    assert err.value.field == "options.attacker_submerge"


# --- 3. one bombarding ship per land unit unloaded ----------------------------------------------


def test_bombardment_limited_to_land_units_landed():
    """1942 2E: two ships cannot bombard for one land unit unloaded; two can for two."""
    attacker = {"infantry": 2, "battleship": 1, "cruiser": 1}
    with pytest.raises(CombatInputError) as err:
        battle_odds(
            attacker,
            {"infantry": 1},
            edition="1942-2e",
            amphibious=True,
            options={"landed_from_sea": 1},
        )
    assert err.value.field == "options.landed_from_sea"
    allowed = battle_odds(
        attacker,
        {"infantry": 1},
        edition="1942-2e",
        amphibious=True,
        options={"landed_from_sea": 2},
    )
    unchecked = battle_odds(attacker, {"infantry": 1}, edition="1942-2e", amphibious=True)
    assert allowed.attacker_wins == unchecked.attacker_wins
    # Revised has no such limit.
    battle_odds(
        {"infantry": 1, "battleship": 2},
        {"infantry": 1},
        edition="revised",
        amphibious=True,
        options={"landed_from_sea": 1},
    )


# --- 4. the general path's work, and the separable path with aircraft ---------------------------


def test_estimated_work_covers_what_the_general_path_charges():
    """A G40 sea battle with submarines and aircraft on both sides goes the general path: the
    estimate made before solving is at least the work charged while solving, and not wildly
    more (within 5 times)."""
    from combat.axis_allies.odds import _exact, estimated_work
    from combat.budget import Budget

    attacker = {"submarine": 4, "fighter": 2, "bomber": 2}
    defender = {"destroyer": 2, "transport": 3, "cruiser": 1, "carrier": 1, "fighter": 1}
    estimate = estimated_work(attacker, defender, edition=G40)
    _exact.cache_clear()
    with Budget() as budget:
        battle_odds(attacker, defender, edition=G40)
    assert budget.used <= estimate <= 5 * budget.used


def test_separable_path_counts_aircraft_hits_without_a_destroyer():
    """G40 Low Luck with bombardment as its own group goes past the fast path to
    ``_solve_separable``; the fighter's hits (in the "not on submarines" pool, no destroyer on
    its side) must count there as on the general path."""
    from combat.axis_allies.engine import initial_state, play_round
    from combat.axis_allies.odds import _separable, _solve_general, _solve_separable
    from combat.axis_allies.rules import EXACT
    from combat.axis_allies.setup import build_setup

    setup = build_setup(
        {"infantry": 2, "fighter": 2, "cruiser": 1},
        {"infantry": 3},
        rules="lowluck",
        edition=G40,
        rounds=None,
        attacker_order=None,
        defender_order=None,
        amphibious=True,
        techs=(),
        options={"bombard_separately": True},
    )
    assert _separable(setup)
    first = play_round(setup, initial_state(setup), EXACT)

    def totals(ends):
        out: dict = {}
        for p, s, stuck in ends:
            key = (s.att, s.dfn, stuck)
            out[key] = out.get(key, 0.0) + p
        return out

    fast, general = totals(_solve_separable(setup, first)), totals(_solve_general(setup, first))
    assert set(fast) == set(general)
    for key, p in general.items():
        assert fast[key] == pytest.approx(p, abs=1e-12)
