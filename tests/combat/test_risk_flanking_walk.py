"""The compiled flanking walk (``combat.risk_flanking``): its reused arrays, its fallback, and
the odds walk that sums captures against the walk that tells them apart."""

from __future__ import annotations

import pytest

from combat import risk_dice, risk_flanking
from combat.budget import Budget, BudgetExceeded
from tests.combat.test_risk_odds_fast import reference


def odds(defenders, flanks, naval=False):
    risk_dice._battle_odds.cache_clear()
    return risk_dice.battle_odds(None, defenders, mode="flanking", flanks=flanks, naval=naval)


def test_a_walk_stopped_by_its_budget_leaves_nothing_behind_for_the_next(monkeypatch):
    want = reference(None, 4, mode="flanking", flanks=[3, 3, 2], naval=True)
    monkeypatch.setattr(risk_dice, "_CHUNK", 16)  # pause (and charge) every 16 successors
    cells = 4 * 4 * 3 * 5 * 3 * 2  # flanks 0..3, 0..3, 0..2; defenders 0..4; turn; sunk
    with (
        Budget(states=risk_dice._CELL_UNITS * cells + 100) as budget,
        pytest.raises(BudgetExceeded),
    ):
        odds(4, [3, 3, 2], naval=True)
    assert budget.used > risk_dice._CELL_UNITS * cells  # stopped in the walk, not before it
    for _ in range(2):  # the second takes the first's arrays back
        got = odds(4, [3, 3, 2], naval=True)
        assert got.attacker_wins == pytest.approx(float(want["wins"]), abs=1e-12)
        assert got.expected_captures == pytest.approx(float(want["captures"]), abs=1e-12)
        assert len(got.outcomes) == len(want["outcomes"])


def test_arrays_are_kept_for_reuse_only_after_a_finished_walk(monkeypatch):
    monkeypatch.setattr(risk_flanking, "_kept", [])
    odds(10, [6, 6])
    assert len(risk_flanking._kept) == 1
    with pytest.raises(BudgetExceeded), Budget(states=6_000):  # 5,390 for the cells
        odds(10, [6, 6])
    assert risk_flanking._kept == []  # taken, and not given back dirty


def test_a_battle_too_large_for_the_dense_layers_takes_the_generic_walk(monkeypatch):
    monkeypatch.setattr(risk_flanking, "MAX_CELLS", 10)
    want = reference(None, 2, mode="flanking", flanks=[3, 2])
    got = odds(2, [3, 2])
    assert got.attacker_wins == pytest.approx(float(want["wins"]), abs=1e-12)
    assert got.expected_captures == pytest.approx(float(want["captures"]), abs=1e-12)


def test_the_odds_walk_and_the_outcome_walk_agree_on_captures():
    """The odds sum each capture's chance; the outcomes carry captures per end state."""
    got = odds(12, [7, 5, 4])
    from_outcomes = sum(o.captured * o.probability for o in got.outcomes)
    assert got.expected_captures == pytest.approx(from_outcomes, abs=1e-12)
    assert max(o.captured for o in got.outcomes) >= 3
