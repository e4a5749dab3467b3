"""Benchmark: how strong the AI (``risk.ai``) is, and how fast it decides. Prints figures.

Plays seeded games in-process, every decision through ``risk.rules.bots.decide`` (the redacted
state), to the end or to a round cap; a capped game is scored by the engine's ranking
(territories, then armies). Matches, each with the seat of the bot measured rotated from game to
game so the seat order is no bias (the first player is then rolled as the rules say):

- ``hard`` against ``RandomBot``, 2 players (goal >= 97% wins);
- ``hard`` against ``GreedyBot``, 2 players (goal >= 75%);
- ``hard`` as one of 4 players against three ``GreedyBot``s (goal >= 50%; chance 25%);
- ``hard`` against ``normal`` and ``normal`` against ``easy``, 2 players (each clearly stronger);
- ``hard`` against ``hard-v1`` (the AI as it was at commit 980e21a, loaded from git at run time
  into a temporary package, see ``load_v1``), 2 players (goal >= 60%) and 4 players (against
  three of them; chance 25%);
- seat balance: ``hard`` against itself at 2..6 players, scored as the first mover's win rate
  (the seat that plays first, RULES.md S4; chance 1/n), with the share of each attack mode
  (normal, committed, flanking; land and naval) ``hard`` used and the median rounds a game.

``--option name=value`` (repeatable) sets an ``Options`` field of every game (ints, booleans and
strings as the field's default is), so a host option can be measured with the same script.
``--map small`` (or ``small@1``) plays every game on that map (a packaged one: no database);
a match or seat-balance row with more or fewer players than the map allows is left out, and
said so.

Win rates come with 95% Wilson intervals. Decision times are measured around ``decide`` (the view
and the redaction included), per level; an allied turn's time is the sum of every decision taken
while an allied army's turn is played (the player who declared it controls it, RULES.md A-rules;
the ``ai:<seat>`` actor speaks only for an attacked ally's defence, M4). Every action a bot
returns is applied to the real state; one the engine refuses is counted (the goal is 0) and
replaced by ``sample_action`` so the game goes on.

    .venv/bin/python bench/ai_strength.py --games 40 --seed 1 --round-cap 40 --jobs 2
    .venv/bin/python bench/ai_strength.py --games 200 --only hard-v1 --jobs 2
    .venv/bin/python bench/ai_strength.py --games 100 --only balance --option revision=2
    .venv/bin/python bench/ai_strength.py --games 40 --map small --jobs 2
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import math
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from risk.ai import GreedyBot, StrategicBot  # noqa: E402
from risk.rules import IllegalAction, apply, game_dice, new_game, pending_decisions  # noqa: E402
from risk.rules.actions import Attack, NavalAttack  # noqa: E402
from risk.rules.board_map import load_map, parse_map_ref  # noqa: E402
from risk.rules.bots import Bot, RandomBot, bot_view  # noqa: E402
from risk.rules.engine import legal_actions  # noqa: E402
from risk.rules.sampler import sample_action  # noqa: E402
from risk.rules.state import Options  # noqa: E402
from risk.rules.turns import ranking  # noqa: E402

#: The commit whose AI is ``hard-v1``: the yardstick the new ``hard`` is measured against.
V1_COMMIT = "980e21a"
V1_PACKAGE = "hard_v1_ai"
_V1: Any = None


def load_v1() -> Any:
    """The ``risk.ai`` package of ``V1_COMMIT``, read with ``git show`` into a temporary
    package (``risk.ai`` imports rewritten to it), imported once a process."""
    global _V1
    if _V1 is not None:
        return _V1
    names = subprocess.run(
        ["git", "ls-tree", "--name-only", f"{V1_COMMIT}:risk/ai/"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout.split()  # fmt: skip
    home = Path(tempfile.mkdtemp(prefix="ai-v1-"))
    package = home / V1_PACKAGE
    package.mkdir()
    for name in names:
        if not name.endswith(".py"):
            continue
        text = subprocess.run(
            ["git", "show", f"{V1_COMMIT}:risk/ai/{name}"],
            cwd=ROOT, check=True, capture_output=True, text=True,
        ).stdout  # fmt: skip
        text = re.sub(r"\brisk\.ai\b", V1_PACKAGE, text)
        (package / name).write_text(text)
    sys.path.insert(0, str(home))
    _V1 = importlib.import_module(V1_PACKAGE)
    return _V1


def _v1_bot(rng: random.Random) -> Bot:
    bot: Bot = load_v1().StrategicBot(rng, "hard")
    return bot


BOTS: dict[str, Callable[[random.Random], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "easy": lambda rng: StrategicBot(rng, "easy"),
    "normal": lambda rng: StrategicBot(rng, "normal"),
    "hard": lambda rng: StrategicBot(rng, "hard"),
    "hard-v1": _v1_bot,
}

#: (label, the bot measured, its opponents, goal as a win share, what the goal says). A goal
#: "clearly > 50%" is met when the whole 95% interval lies above one half; the others by the rate.
CLEARLY = "clearly > 50% (CI above 50%)"
MATCHES = [
    ("hard vs random (2p)", "hard", ["random"], 0.97, ">= 97%"),
    ("hard vs greedy (2p)", "hard", ["greedy"], 0.75, ">= 75%"),
    ("hard vs 3 greedy (4p)", "hard", ["greedy"] * 3, 0.50, ">= 50% (chance 25%)"),
    ("hard vs normal (2p)", "hard", ["normal"], 0.5, CLEARLY),
    ("normal vs easy (2p)", "normal", ["easy"], 0.5, CLEARLY),
    ("hard vs hard-v1 (2p)", "hard", ["hard-v1"], 0.60, ">= 60%"),
    ("hard vs 3 hard-v1 (4p)", "hard", ["hard-v1"] * 3, 0.25, "> 25% (chance)"),
]
#: Seat balance: ``hard`` against itself; the "win" counted is the first mover's.
BALANCE = [(f"balance hard x{n} ({n}p)", "hard", ["hard"] * (n - 1)) for n in range(2, 7)]
MODES = [
    ("land", "normal"),
    ("land", "committed"),
    ("land", "flanking"),
    ("naval", "normal"),
    ("naval", "committed"),
    ("naval", "flanking"),
]

ACTION_CAP = 40_000


@dataclass
class GameResult:
    match: str
    won: bool
    ended: bool
    rounds: int
    actions: int
    refused: int
    times: dict[str, list[float]] = field(default_factory=dict)  # level -> decision seconds
    allied_turns: dict[str, list[float]] = field(default_factory=dict)  # level -> turn seconds
    first_won: bool = False  # the seat that played first won (or ranked first at the cap)
    hero_first: bool = False  # the bot measured played first
    modes: dict[str, dict[str, int]] = field(default_factory=dict)  # level -> "land normal" -> n


def options_from(pairs: list[str]) -> Options:
    """``Options`` with each ``name=value`` set, typed as the field's default."""
    fields = {f.name: f for f in dataclasses.fields(Options)}
    values: dict[str, Any] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or name not in fields:
            raise SystemExit(f"--option {pair!r}: name=value with a name of {sorted(fields)}")
        default = fields[name].default
        value: Any = raw
        if isinstance(default, bool):
            value = raw.lower() in ("1", "true", "yes", "on")
        elif isinstance(default, int) or (default is None and raw.isdigit()):
            value = int(raw)
        elif raw.lower() == "none":
            value = None
        values[name] = value
    return Options(**values)


def play(
    match: str,
    hero: str,
    others: list[str],
    index: int,
    seed: int,
    cap: int,
    options: Options | None = None,
) -> GameResult:
    kinds = [hero, *others]
    count = len(kinds)
    shift = index % count  # the hero's seat rotates from game to game
    seats = [f"p{i}" for i in range(count)]
    kind_of = {seats[(shift + k) % count]: kind for k, kind in enumerate(kinds)}
    hero_seat = seats[shift]
    rng = random.Random(f"{seed}:{match}:{index}")
    bots = {s: BOTS[kind_of[s]](random.Random(rng.random())) for s in seats}
    neutral = GreedyBot(random.Random(rng.random()))  # an attacked ally's own AI, if asked
    seed_text = f"ai-strength:{seed}:{match}:{index}"
    state = new_game(seats, seed=seed_text, options=options or Options())
    modes: dict[str, dict[str, int]] = {}
    refused = 0
    times: dict[str, list[float]] = {}
    allied: dict[str, list[float]] = {}
    allied_turn: tuple[int, str] | None = None
    allied_time = 0.0
    actions = 0
    while not state.over and state.round <= cap and actions < ACTION_CAP:
        decision = pending_decisions(state)[0]
        actor = decision.player
        seat = state.seat_of_actor(actor)
        owner = seat.id if seat is not None and seat.id in bots else None
        bot = bots[owner] if owner is not None else neutral
        level = kind_of[owner] if owner is not None else "ai-seat"
        start = time.perf_counter()
        view = bot_view(state, actor)
        action = bot.decide(view, legal_actions(view.state, actor))
        spent = time.perf_counter() - start
        times.setdefault(level, []).append(spent)
        if isinstance(action, Attack | NavalAttack):
            kind = "land" if isinstance(action, Attack) else "naval"
            counts = modes.setdefault(level, {})
            counts[f"{kind} {action.mode}"] = counts.get(f"{kind} {action.mode}", 0) + 1
        turn = state.turn
        key = (state.turn_number, turn.controller) if turn and turn.for_seat else None
        if key != allied_turn:
            if allied_turn is not None:
                allied.setdefault(kind_of.get(allied_turn[1], "ai-seat"), []).append(allied_time)
            allied_turn, allied_time = key, 0.0
        if key is not None:
            allied_time += spent
        try:
            state, _ = apply(state, action, game_dice(state))
        except IllegalAction as error:
            refused += 1
            print(f"refused: {match} game {index}: {action!r}: {error}", file=sys.stderr)
            state, _ = apply(state, sample_action(state, actor, rng), game_dice(state))
        actions += 1
    if allied_turn is not None:
        allied.setdefault(kind_of.get(allied_turn[1], "ai-seat"), []).append(allied_time)
    if state.over and state.winner is not None:
        won = state.winner == hero_seat
    else:
        won = ranking(state)[0] == hero_seat
    top = state.winner if state.over and state.winner is not None else ranking(state)[0]
    return GameResult(
        match,
        won,
        state.over,
        state.round,
        actions,
        refused,
        times,
        allied,
        first_won=top == state.first_seat,
        hero_first=hero_seat == state.first_seat,
        modes=modes,
    )


def _run(args: tuple[str, str, list[str], int, int, int, Options]) -> GameResult:
    try:
        return play(*args)
    except Exception as error:  # a worker's exception may not pickle: send its traceback
        raise RuntimeError(f"{args}: {traceback.format_exc()}") from error


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _q(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40, help="games per match")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--round-cap", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", default="", help="run the matches whose label contains this")
    parser.add_argument(
        "--option", action="append", default=[], metavar="NAME=VALUE",
        help="an Options field for every game (repeatable), e.g. --option revision=2",
    )  # fmt: skip
    parser.add_argument(
        "--map", default=None, metavar="NAME[@VERSION]",
        help="play every game on this packaged map, e.g. --map small (default: the options')",
    )  # fmt: skip
    args = parser.parse_args()
    options = options_from(args.option)
    if args.map:
        name, version = parse_map_ref(args.map)
        options = dataclasses.replace(options, map=name, map_version=version)
    board = load_map(options.map, options.map_version)

    def fits(others: list[str]) -> bool:
        return board.min_seats <= 1 + len(others) <= board.max_seats

    matches = [m for m in MATCHES if args.only in m[0] and fits(m[2])]
    balance = [m for m in BALANCE if args.only in m[0] and fits(m[2])]
    left_out = [m[0] for m in [*MATCHES, *BALANCE] if args.only in m[0] and not fits(m[2])]
    if any("hard-v1" in others for _, _, others, _, _ in matches):
        load_v1()  # once, before the workers fork
    jobs = [
        (label, hero, others, i, args.seed, args.round_cap, options)
        for label, hero, others in [(m[0], m[1], m[2]) for m in matches] + balance
        for i in range(args.games)
    ]
    start = time.perf_counter()
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            results = pool.map(_run, jobs, chunksize=1)
    else:
        results = [_run(job) for job in jobs]
    wall = time.perf_counter() - start
    skipped = (
        f"; left out (the map is for {board.min_seats}-{board.max_seats} players): "
        f"{', '.join(left_out)}"
        if left_out
        else ""
    )
    print(
        f"{args.games} games a match, seed {args.seed}, round cap {args.round_cap}, "
        f"{args.jobs} processes, {wall:.0f} s, map {options.map}@{options.map_version} "
        f"({len(board.territories)} territories)"
        + (f", options {' '.join(args.option)}" if args.option else "")
        + skipped
        + "\n"
    )
    print(
        "| Match | Games | Won | Win rate | 95% CI (Wilson) | Played to the end | "
        "Median rounds | Goal | Met |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for label, _, _, goal, goal_text in matches:
        mine = [r for r in results if r.match == label]
        wins = sum(r.won for r in mine)
        low, high = wilson(wins, len(mine))
        rate = wins / len(mine)
        met = "yes" if (low > goal if goal_text == CLEARLY else rate >= goal) else "no"
        print(
            f"| {label} | {len(mine)} | {wins} | {rate:.0%} | {low:.0%}-{high:.0%} | "
            f"{sum(r.ended for r in mine)} | {statistics.median(r.rounds for r in mine):.0f} | "
            f"{goal_text} | {met} |"
        )
    print("\nBy who moved first (RULES.md S4):")
    for label, _, _, _, _ in matches:
        mine = [r for r in results if r.match == label]
        first = [r for r in mine if r.hero_first]
        later = [r for r in mine if not r.hero_first]
        print(
            f"- {label}: won {sum(r.won for r in first)} of {len(first)} moving first, "
            f"{sum(r.won for r in later)} of {len(later)} moving later"
        )
    if balance:
        _print_balance(balance, results)
    times: dict[str, list[float]] = {}
    allied: dict[str, list[float]] = {}
    for r in results:
        for level, values in r.times.items():
            times.setdefault(level, []).extend(values)
        for level, values in r.allied_turns.items():
            allied.setdefault(level, []).extend(values)
    print(
        "\n| Bot | Decisions | Median ms | p95 ms | Max ms | Allied turns | "
        "Allied turn p95 s | Allied turn max s |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for level in ("hard", "hard-v1", "normal", "easy", "greedy", "random", "ai-seat"):
        if level not in times:
            continue
        values, turns = times[level], allied.get(level, [])
        print(
            f"| {level} | {len(values)} | {statistics.median(values) * 1000:.1f} | "
            f"{_q(values, 0.95) * 1000:.1f} | {max(values) * 1000:.0f} | {len(turns)} | "
            f"{_q(turns, 0.95) if turns else 0:.2f} | {max(turns) if turns else 0:.2f} |"
        )
    refused = sum(r.refused for r in results)
    actions = sum(r.actions for r in results)
    print(f"\nActions applied: {actions}; refused by apply: {refused}")


def _print_balance(balance: list[tuple[str, str, list[str]]], results: list[GameResult]) -> None:
    """Seat balance of ``hard`` against itself, and the attack modes it used."""
    print(
        "\n| Seat balance | Games | First mover won | Rate | 95% CI (Wilson) | Chance | "
        "Played to the end | Median rounds | " + " | ".join(f"{k} {m}" for k, m in MODES) + " |"
    )
    print("|---|---|---|---|---|---|---|---|" + "---|" * len(MODES))
    for label, _, others in balance:
        mine = [r for r in results if r.match == label]
        if not mine:
            continue
        wins = sum(r.first_won for r in mine)
        low, high = wilson(wins, len(mine))
        counts: dict[str, int] = {}
        for r in mine:
            for key, n in r.modes.get("hard", {}).items():
                counts[key] = counts.get(key, 0) + n
        total = sum(counts.values()) or 1
        shares = " | ".join(f"{counts.get(f'{k} {m}', 0) / total:.0%}" for k, m in MODES)
        print(
            f"| {label} | {len(mine)} | {wins} | {wins / len(mine):.0%} | {low:.0%}-{high:.0%} | "
            f"{1 / (len(others) + 1):.0%} | {sum(r.ended for r in mine)} | "
            f"{statistics.median(r.rounds for r in mine):.0f} | {shares} |"
        )


if __name__ == "__main__":
    main()
