"""The faster paths of the A&A calculator against the ones they replace.

* ``general_sweep`` (the general path's later rounds compiled, standard dice) against
  ``odds._solve_general`` (``engine.play_round`` state by state), kept as the reference: the same
  ends to 1e-12, for sea battles with submarines, destroyers, aircraft, carriers and transports
  under every submerge policy, and hand-worked one-on-one battles.
* ``chains._signature_dice`` against ``engine.volley`` on the signature side.
* ``chains.win_chances`` (``cheapest_force``'s reading) against ``battle_odds``.
* The questions' grid: the rows of ``_Side`` from the loss sequence against ``apply_hits``,
  ``policies.retreat_cells`` against the state-by-state ``retreat_rule``, round 1 on the grid
  against ``play_round``, and ``EndTable.from_grid`` against ``EndTable.from_states``.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from combat.axis_allies import battle_odds, chains, general_sweep
from combat.axis_allies.editions import load_edition
from combat.axis_allies.engine import initial_state, play_round, volley
from combat.axis_allies.odds import _exact, _solve_general
from combat.axis_allies.questions.chain import Battle
from combat.axis_allies.questions.grid import GridChain, make_chain
from combat.axis_allies.questions.policies import (
    RetreatPolicy,
    retreat_cells,
    retreat_rule,
)
from combat.axis_allies.questions.results import EndTable
from combat.axis_allies.rules import EXACT
from combat.axis_allies.setup import build_setup


def make_setup(attacker, defender, *, edition="1942-2e", rules="dice", options=None):
    return build_setup(
        attacker,
        defender,
        rules=rules,
        edition=edition,
        rounds=None,
        attacker_order=None,
        defender_order=None,
        amphibious=False,
        techs=(),
        options=options,
    )


def merged(ends):
    out: dict = {}
    for p, state, stuck in ends:
        out[(state, stuck)] = out.get((state, stuck), 0.0) + p
    return out


SEA_BATTLES = [
    (
        "1942-2e",
        {"submarine": 3, "destroyer": 1, "cruiser": 1, "fighter": 2, "bomber": 1},
        {"submarine": 2, "destroyer": 1, "carrier": 1, "fighter": 2, "transport": 1},
    ),
    (
        "global-1940-2e",
        {"submarine": 2, "destroyer": 1, "battleship": 1, "tactical_bomber": 1, "fighter": 1},
        {"submarine": 2, "carrier": 1, "fighter": 2, "transport": 2},
    ),
    ("revised", {"submarine": 3, "fighter": 2}, {"destroyer": 1, "carrier": 1, "fighter": 1}),
    ("classic", {"submarine": 2, "battleship": 1}, {"submarine": 2, "transport": 2}),
    ("anniversary", {"submarine": 2, "destroyer": 1, "fighter": 1}, {"submarine": 2, "cruiser": 1}),
]


@pytest.mark.parametrize("edition, attacker, defender", SEA_BATTLES)
@pytest.mark.parametrize("policy", ["never", "when_cannot_hit", "always"])
def test_general_sweep_gives_the_general_path_ends(edition, attacker, defender, policy):
    options = {"attacker_submerge": policy, "defender_submerge": policy}
    if not load_edition(edition).subs_submerge:
        options = None
    setup = make_setup(attacker, defender, edition=edition, options=options)
    assert general_sweep.applicable(setup)
    first = play_round(setup, initial_state(setup), EXACT)
    fast = merged(general_sweep.solve(setup, first))
    reference = merged(_solve_general(setup, first))
    assert fast.keys() == reference.keys()
    for key, p in reference.items():
        assert fast[key] == pytest.approx(p, abs=1e-12)
    assert sum(fast.values()) == pytest.approx(1.0, abs=1e-12)


def test_submarine_against_a_destroyer_by_hand():
    """1942 2E, one sub (attack 2) against one destroyer (defence 2): no surprise strike, each
    side hits on 1-2 at once. A round that hits nobody (4/9) is divided out: the attacker wins
    with (1/3 x 2/3) / (5/9) = 2/5, the defender with 2/5, both sink with (1/9) / (5/9) = 1/5."""
    _exact.cache_clear()
    odds = battle_odds({"submarine": 1}, {"destroyer": 1}, edition="1942-2e")
    assert odds.attacker_wins == pytest.approx(2 / 5, abs=1e-12)
    assert odds.defender_wins == pytest.approx(2 / 5, abs=1e-12)
    assert odds.draw == pytest.approx(1 / 5, abs=1e-12)


def test_surprise_strike_against_a_carrier_by_hand():
    """1942 2E, one sub against one carrier (defence 2, no destroyer): the sub strikes first
    (1/3: the carrier sinks before firing); on a miss the carrier fires (1/3) and the sub,
    having struck, does not fire again. Per round: attacker 1/3, defender 2/9, nothing 4/9, so
    the attacker wins with (1/3) / (5/9) = 3/5 and the defender with 2/5."""
    _exact.cache_clear()
    odds = battle_odds({"submarine": 1}, {"carrier": 1}, edition="1942-2e")
    assert odds.attacker_wins == pytest.approx(3 / 5, abs=1e-12)
    assert odds.defender_wins == pytest.approx(2 / 5, abs=1e-12)
    assert odds.draw == 0.0


def test_signature_dice_are_engine_volley_dice():
    rng = random.Random(7)
    for edition in ("1942-2e", "global-1940-2e", "revised", "global-1940-2e-balanced-mod"):
        units = [
            name
            for name, u in load_edition(edition).units.items()
            if u.casualty and u.kind != "sea" and not u.anti_aircraft
        ]
        setup = make_setup(dict.fromkeys(units, 2), {"infantry": 3}, edition=edition)
        for role in ("attacker", "defender"):
            table = chains._FireTable(setup, role)
            side = chains._signature_side(table.signature_id, role)
            for _ in range(300):
                counts = tuple(rng.randint(0, 4) for _ in table.names)
                for subs in ("with", "without", "only"):
                    assert chains._signature_dice(table.signature_id, role, counts, subs) == (
                        volley(side, counts, subs=subs).dice
                    )


@pytest.mark.parametrize(
    "attacker",
    [
        {"infantry": 6, "artillery": 3, "armor": 2, "fighter": 2, "bomber": 1},
        {"armor": 4, "fighter": 3},
        {"infantry": 9, "artillery": 2},
    ],
)
def test_win_chances_are_battle_odds(attacker):
    defender = {"infantry": 5, "artillery": 1, "fighter": 1, "aaa": 1}
    setup = make_setup(attacker, defender)
    land = frozenset(n for n in attacker if load_edition("1942-2e").units[n].kind == "land")
    wins, land_wins = chains.win_chances(setup, land)
    _exact.cache_clear()
    odds = battle_odds(attacker, defender, edition="1942-2e")
    taken = sum(
        o.probability
        for o in odds.outcomes
        if o.result == "attacker" and any(n in land for n in o.attacker_left)
    )
    assert wins == pytest.approx(odds.attacker_wins, abs=1e-12)
    assert land_wins == pytest.approx(taken, abs=1e-12)


LAND_ATTACK = {"infantry": 8, "artillery": 3, "armor": 3, "fighter": 2, "bomber": 1}
LAND_DEFENCE = {"infantry": 8, "artillery": 1, "armor": 2, "fighter": 1, "aaa": 1}


def test_grid_rows_are_apply_hits():
    setup = Battle.of(LAND_ATTACK, LAND_DEFENCE, edition="1942-2e").setup()
    chain = make_chain(setup)
    assert isinstance(chain, GridChain)
    for side in (chain.a, chain.d):
        for i, state in enumerate(side.states):
            expected = [side.ids[side.side.apply_hits(state, h, 0)] for h in range(side.hp[i] + 1)]
            assert side.after[i].tolist() == expected


@pytest.mark.parametrize(
    "policy",
    [
        RetreatPolicy(after_round=2),
        RetreatPolicy(below_chance=0.5),
        RetreatPolicy(below_chance=0.6, chance_of="take"),
        RetreatPolicy(below_units=6),
        RetreatPolicy(strafe=True),
        RetreatPolicy(strafe=True, below_units=4),
    ],
)
def test_retreat_cells_are_the_retreat_rule(policy):
    setup = Battle.of(LAND_ATTACK, LAND_DEFENCE, edition="1942-2e").setup()
    chain = make_chain(setup)
    assert isinstance(chain, GridChain)
    rule = retreat_rule(chain, policy)
    expected = np.array([rule(chain.state(i, j)) for i, j in chain.cells], dtype=np.bool_)
    assert retreat_cells(chain, policy).tolist() == expected.tolist()


def test_grid_round_one_is_play_round():
    """Round 1 on the grid after the AA gun's branches (``GridChain._start``) against every
    state ``play_round`` ends round 1 in."""
    setup = Battle.of(LAND_ATTACK, LAND_DEFENCE, edition="1942-2e").setup()
    chain = make_chain(setup)
    assert isinstance(chain, GridChain) and chain.aa_branches is not None
    fast = chain._start()
    reference = np.zeros(fast.shape)
    for p, s in play_round(setup, initial_state(setup), EXACT):
        reference[chain.a.ids[s.att], chain.d.ids[s.dfn]] += p
    assert np.abs(fast - reference).max() < 1e-15
    assert fast.sum() == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(
    "policy", [RetreatPolicy(after_round=3), RetreatPolicy(strafe=True), RetreatPolicy()]
)
def test_end_table_from_grid_ids_is_from_states(policy):
    setup = Battle.of(LAND_ATTACK, LAND_DEFENCE, edition="1942-2e").setup()
    chain = make_chain(setup)
    assert isinstance(chain, GridChain)
    leave = retreat_cells(chain, policy)
    ids = chain.rounds_ids(3, leave) if policy.after_round else chain.distribute_ids(leave)
    fast = EndTable.from_grid(setup, chain, ids)
    reference = EndTable.from_states(setup, chain.as_ends(ids))
    assert fast.rows == reference.rows
