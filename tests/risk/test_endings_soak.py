"""A sample of the soak (``bench/endings.py``): every game ends, with nothing lost on the way.

Seeds 0-24 play every table kind (random, easy, normal, hard, mixed) at every player count
(2 to 6) once, with options varied over the legal ``Options`` and late-comers joining and players
leaving or conceding now and then, also in the middle of battles and poker hands. After every
action ``risk.rules.invariants.violations`` must find nothing; every action a bot picks must be
accepted by ``apply``; nothing may raise; and each game must end within the soak's bound
(300 rounds, 30,000 actions). The full soak: ``bench/endings.py --games 1000``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SEEDS = range(25)


def _endings() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "bench" / "endings.py"
    spec = importlib.util.spec_from_file_location("bench_endings", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_the_sample_holds_every_table_kind_at_every_player_count() -> None:
    endings = _endings()
    tables = {(endings.table_for(seed).players, endings.table_for(seed).kind) for seed in SEEDS}
    assert tables == {(p, k) for p in range(2, 7) for k in endings.KINDS}


#: Each seed its own test, so pytest-xdist spreads the sample over the workers (one test of all
#: 25 held a CI worker for a minute, often the run's last).
@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
def test_a_seeded_game_ends_keeping_every_invariant(seed: int) -> None:
    result = _endings().play(seed)
    assert (result.violations, result.refusals, result.offered_refused) == ({}, [], [])
    assert result.exception is None
    assert result.ended, (result.rounds, result.actions, result.stall)


def test_people_come_and_go_in_the_sample() -> None:
    """Seed 1 (3 random players, 1,981 actions): someone joins, leaves and concedes."""
    disruptions = _endings().play(1).disruptions
    assert {what.split()[0] for what in disruptions} == {"join", "leave", "concede"}
