"""Every game ends: 300 seeded random games of 2-6 players, late-comers joining and players
leaving or conceding now and then, each played to its end by ``sample_action``.

Before RULES.md J5/J6 about one random game in ten never ended: one player held all 42
territories, with no ship and no cards, against a pirate whose 1-army ships could never land.
Then holding every territory won. Now (revision 2, the default options) a stranded pirate is
out (J6), a player landless at the start of 10 turns in a row is out at the next (J10), and
holding every territory no longer ends a last-standing game (J5). Every game must end within
``ROUND_BOUND`` rounds and ``ACTION_BOUND`` actions of random play. On the final code of
revision 2 (with the rule fixes, the loophole options at their defaults and the random sampler
committing ``min_commitment``) the longest of these 300 games is seed 114: 358 rounds, 18,777
actions (random play has no aim: two random players slug it out with large stacks). The bounds
were 300 rounds and 20,000 actions before revision 2, whose longest game took 253 rounds and
14,835 actions.
"""

from __future__ import annotations

import random

import pytest

from risk.rules import apply, game_dice, join_or_leave, new_game, pending_decisions, sample_action
from risk.rules.actions import Concede
from risk.rules.state import GameState

GAMES = 300
ROUND_BOUND = 400
ACTION_BOUND = 25_000


def play_to_the_end(seed: int) -> GameState:
    players = 2 + seed % 5
    names = [f"p{i}" for i in range(players)]
    state = new_game(names, seed=f"ends-{seed}")
    rng = random.Random(seed)
    newcomers = iter(f"late{i}" for i in range(20))
    for _ in range(ACTION_BOUND):
        if state.over:
            return state
        action = None
        if rng.random() < 0.002:  # now and then a late-comer joins or someone leaves or concedes
            person = rng.choice([*names, next(newcomers, "late-x")])
            action = join_or_leave(state, person, rng)
            if action is not None and action.type == "join":
                names.append(person)
            elif action is not None and rng.random() < 0.3:
                action = Concede(person)
        if action is None:
            action = sample_action(state, pending_decisions(state)[0].player, rng)
        state, _ = apply(state, action, game_dice(state))
    return state


#: The 300 seeds in slices of 30, one test each: pytest-xdist's workers share them out (one test
#: of all 300 games was the longest of the suite, and whichever worker drew it ran it alone).
SLICES = [range(start, start + 30) for start in range(0, GAMES, 30)]


@pytest.mark.slow
@pytest.mark.parametrize("seeds", SLICES, ids=lambda seeds: f"{seeds.start}-{seeds.stop - 1}")
def test_three_hundred_random_games_all_end_within_the_bound(seeds: range) -> None:
    unfinished, longest = [], 0
    for seed in seeds:
        state = play_to_the_end(seed)
        if not state.over or state.round > ROUND_BOUND:
            unfinished.append((seed, state.round, state.actions))
        longest = max(longest, state.round)
    assert unfinished == []
    assert longest > 20  # the games were real games, not ended by a rule misfiring at once
