"""Every game ends: 60 seeded random games (120 under WARBOARD_DEEP=1) of 2-6 players,
late-comers joining and players leaving or conceding now and then, each played to its end by
``sample_action`` (``bench/random_endings.py``, which plays as many as asked: ``--games 300``
for RULES.md J6's figure).

Before RULES.md J5/J6 about one random game in ten never ended: one player held all 42
territories, with no ship and no cards, against a pirate whose 1-army ships could never land.
Then holding every territory won. Now (revision 2, the default options) a stranded pirate is
out (J6), a player landless at the start of 10 turns in a row is out at the next (J10), and
holding every territory no longer ends a last-standing game (J5). Every game must end within
``ROUND_BOUND`` rounds and ``ACTION_BOUND`` actions of random play. On the final code of
revision 2 (with the rule fixes, the loophole options at their defaults and the random sampler
committing ``min_commitment``) the longest of the first 300 seeds is seed 114: 358 rounds, 18,777
actions (random play has no aim: two random players slug it out with large stacks). The suite
plays seeds 0-119 under WARBOARD_DEEP=1 (0-59 and 114 otherwise: tests/depth.py), which hold
it; the other 180 seeds are the bench's (they took as long again as the rest of the slow engine
tests together). The bounds were 300 rounds and 20,000 actions
before revision 2, whose longest game took 253 rounds and 14,835 actions.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.depth import seed_count


def _random_endings() -> ModuleType:
    path = Path(__file__).resolve().parents[2] / "bench" / "random_endings.py"
    spec = importlib.util.spec_from_file_location("bench_random_endings", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


endings = _random_endings()
#: 120 seeds under WARBOARD_DEEP=1, else 60 and seed 114, the longest game (tests/depth.py).
GAMES = seed_count(120, 60)

#: The seeds in slices of 10, one test each: pytest-xdist's workers share them out (one test
#: of all the games was the longest of the suite, and whichever worker drew it ran it alone;
#: slices of 30 still held a worker for 17 s near the run's end).
SLICES = [range(start, start + 10) for start in range(0, GAMES, 10)]
if GAMES <= 114:
    SLICES.append(range(114, 115))


@pytest.mark.slow
@pytest.mark.parametrize("seeds", SLICES, ids=lambda seeds: f"{seeds.start}-{seeds.stop - 1}")
def test_random_games_all_end_within_the_bound(seeds: range) -> None:
    unfinished, longest = [], (0, -1)
    for seed in seeds:
        state = endings.play_to_the_end(seed)
        if not state.over or state.round > endings.ROUND_BOUND:
            unfinished.append((seed, state.round, state.actions))
        longest = max(longest, (state.round, seed))
    assert unfinished == []
    assert longest[0] > 20  # the games were real games, not ended by a rule misfiring at once
    if 114 in seeds:  # the longest of the 300 (module docstring): bounded, and still the longest
        assert longest == (358, 114)
