"""Benchmark: how armies grow over a Fast Risk game, under both mobilization readings.

The rule text says reinforcements were "dialed back", yet factories compound and hand cards
revealed for a mobilization bonus could be shown again every turn. This plays seeded random
games of 2-6 players to their end (``sample_action``: random legal play, not a strategy) under
the default reading and under the option ``reveal_once`` (a revealed card may be revealed again
only after it has been turned in), and prints the median armies on the board at the start of
rounds 10, 20 and 50 (over the games that got there), the median game length in rounds and in
actions, and the share of all armies created by each source. Asserts nothing.

    .venv/bin/python bench/risk_growth.py [games]
"""

from __future__ import annotations

import random
import statistics
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from risk.rules import (  # noqa: E402  (the path is set up first)
    Options,
    apply,
    game_dice,
    new_game,
    pending_decisions,
    sample_action,
)

ROUNDS = (10, 20, 50)
ACTION_CAP = 40_000


def play(seed: int, options: Options) -> tuple[dict[int, int], int, int, Counter[str]]:
    """One game: armies on the board as each watched round starts, rounds, actions, sources."""
    state = new_game([f"p{i}" for i in range(2 + seed % 5)], seed=f"growth-{seed}",
                     options=options)  # fmt: skip
    rng = random.Random(seed)
    armies: dict[int, int] = {}
    for _ in range(ACTION_CAP):
        if state.over:
            break
        if state.round in ROUNDS and state.round not in armies:
            armies[state.round] = state.armies_on_board()
        actor = pending_decisions(state)[0].player
        state, _ = apply(state, sample_action(state, actor, rng), game_dice(state))
    return armies, state.round, state.actions, Counter(state.created)


def report(name: str, options: Options, games: int) -> None:
    at: dict[int, list[int]] = {r: [] for r in ROUNDS}
    rounds, actions, created = [], [], Counter[str]()
    for seed in range(games):
        armies, played, acted, sources = play(seed, options)
        for r, count in armies.items():
            at[r].append(count)
        rounds.append(played)
        actions.append(acted)
        created += sources
    cells = [
        f"round {r}: {statistics.median(at[r]):,.0f} ({len(at[r])} games)" if at[r] else
        f"round {r}: - (no game)"
        for r in ROUNDS
    ]  # fmt: skip
    print(f"{name}: median armies on the board at {'; '.join(cells)}")
    print(f"  median game length {statistics.median(rounds):.0f} rounds, "
          f"{statistics.median(actions):,.0f} actions (longest {max(rounds)} rounds)")  # fmt: skip
    total = sum(created.values())
    shares = ", ".join(f"{k} {v / total:.0%}" for k, v in created.most_common())
    print(f"  armies created, by source: {shares}")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    print(f"{games} random games of 2-6 players, played to their end")
    report("default (hand cards may be revealed every turn)", Options(), games)
    report("option reveal_once", Options(reveal_once=True), games)


if __name__ == "__main__":
    main()
