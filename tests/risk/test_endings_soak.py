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


@pytest.mark.slow
def test_a_sample_of_seeded_games_all_end_keeping_every_invariant() -> None:
    endings = _endings()
    results = [endings.play(seed) for seed in SEEDS]
    tables = {(r.players, r.kind) for r in results}
    assert tables == {(p, k) for p in range(2, 7) for k in endings.KINDS}
    assert [(r.seed, r.violations) for r in results if r.violations] == []
    assert [(r.seed, r.refusals) for r in results if r.refusals] == []
    assert [(r.seed, r.offered_refused) for r in results if r.offered_refused] == []
    assert [(r.seed, r.exception) for r in results if r.exception] == []
    assert [(r.seed, r.rounds, r.actions) for r in results if not r.ended] == []
    assert sum(sum(r.disruptions.values()) for r in results) > 0  # people came and went
