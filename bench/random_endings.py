"""Every game ends: seeded random games of 2-6 players played to their end. Figures.

Each game ``seed`` has ``2 + seed % 5`` players; every decision is ``sample_action``'s (random
play, no aim: two random players slug it out with large stacks, the longest games there are);
now and then (0.2% of actions) a late-comer joins an allied army or someone leaves or concedes.
Every game must end within ``ROUND_BOUND`` rounds and ``ACTION_BOUND`` actions (RULES.md J5, J6,
J10). The suite plays the first 120 seeds (``tests/risk/test_property_endings.py``, which include
the longest of the 300 below); this script plays as many as asked and prints the longest games:

    .venv/bin/python bench/random_endings.py --games 300 --jobs 2

The invariants after every action and the AI tables are ``bench/endings.py``'s soak.
"""

from __future__ import annotations

import argparse
import random
import time
from multiprocessing import Pool

from risk.rules import apply, game_dice, join_or_leave, new_game, pending_decisions, sample_action
from risk.rules.actions import Concede
from risk.rules.state import GameState

ROUND_BOUND = 400
ACTION_BOUND = 25_000


def play_to_the_end(seed: int) -> GameState:
    """Game ``seed`` played by ``sample_action`` until it ends or takes ``ACTION_BOUND`` actions."""
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


def _outcome(seed: int) -> tuple[int, bool, int, int]:
    state = play_to_the_end(seed)
    return seed, state.over and state.round <= ROUND_BOUND, state.round, state.actions


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    start = time.perf_counter()
    with Pool(args.jobs) as pool:
        outcomes = pool.map(_outcome, range(args.games), chunksize=1)
    elapsed = time.perf_counter() - start
    unended = [(seed, rounds, actions) for seed, ended, rounds, actions in outcomes if not ended]
    longest = sorted(outcomes, key=lambda o: -o[2])[:3]
    print(f"{args.games} games (seeds 0-{args.games - 1}), {args.jobs} jobs, {elapsed:.0f} s")
    print(f"not ended within {ROUND_BOUND} rounds / {ACTION_BOUND:,} actions: {unended or 'none'}")
    for seed, _, rounds, actions in longest:
        print(f"longest: seed {seed}, {rounds} rounds, {actions:,} actions")


if __name__ == "__main__":
    main()
