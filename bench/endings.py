"""Soak: seeded games played to the end, every invariant checked after every action. Figures.

The proof that every Fast Risk game ends with nothing lost. Game ``g`` (an integer seed; a run
plays ``--seed``, ``--seed + 1``, ... ``--seed + --games - 1``) is fixed by its seed alone:

- players: ``2 + g % 5`` (2 to 6), named ``p0``, ``p1``, ...;
- the table's kind, ``KINDS[(g // 5) % 5]``: ``random`` (every seat and allied army played by
  ``sample_action``), ``easy``, ``normal``, ``hard`` (``risk.ai.StrategicBot`` at that level, for
  the players and, as the server does, for the allied armies' AI), or ``mixed`` (each player a
  random one of the four, at least two different; the allied armies' AI a random level). So
  every 25 consecutive seeds play each kind at each player count once;
- the options, drawn from the legal ``Options``: the win condition (last player standing,
  domination, or a round limit of 3 to 40 rounds), ``reveal_once``, ``reveal_needs_cut``,
  ``ally_defender``, ``ally_cards``, ``red_queens_high``, the loophole options
  ``min_commitment`` (2-4) and ``defender_dice``, and ``pirate_turns`` (5, 10 or 20; off, the
  old dead end, is not soaked: with it a game whose land is all allied may not end). Every game
  plays by the newest rule revision, as every new game does (revision 1 is only for replaying
  stored games, tested in tests/risk/test_upcast.py and by ``verify_game``).

A bot decides through ``risk.rules.bots.decide`` (the redacted state), as ``bench/ai_strength.py``
and the server do; a random seat through ``sample_action`` on the real state. Now and then a
late-comer joins an allied army, or a player leaves or concedes (``join_or_leave``, ``Concede``,
as ``tests/risk/test_property_endings.py`` does), more often while a battle or a poker hand is
under way, so a leave lands in the middle of one (offered by ``legal_actions`` only, so the
rules' own refusals are respected; a join or leave offered and then refused is counted).

After EVERY action: ``risk.rules.invariants.violations`` (nothing lost, nothing from nowhere,
every card somewhere once, the ending consistent); every action a bot returns must be accepted by
``apply`` (a refusal is counted and ``sample_action`` plays instead, so the game goes on); any
exception ends the game and is reported. A game must end within ``ROUND_BOUND`` rounds and
``ACTION_BOUND`` actions; those that do not are reported with their seed.

    .venv/bin/python bench/endings.py --games 1000 --jobs 2 --seed 1
    .venv/bin/python bench/endings.py --only-seed 137 --verbose   # replay one game, loudly
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from risk.ai import StrategicBot  # noqa: E402
from risk.rules import (  # noqa: E402
    IllegalAction,
    apply,
    game_dice,
    join_or_leave,
    load_map,
    new_game,
    pending_decisions,
    sample_action,
)
from risk.rules.actions import Action, Concede  # noqa: E402
from risk.rules.bots import Bot, decide  # noqa: E402
from risk.rules.invariants import violations  # noqa: E402
from risk.rules.state import (  # noqa: E402
    AI,
    ALLY_OWN,
    AS_NORMAL,
    BY_COMMITMENT,
    DECLARER_ONLY,
    DOMINATION,
    LAST_STANDING,
    NEXT_PLAYER,
    ROUND_LIMIT,
    GameState,
    Options,
)

KINDS = ("random", "easy", "normal", "hard", "mixed")
LEVELS = ("easy", "normal", "hard")
ROUND_BOUND = 300
ACTION_BOUND = 30_000
#: Chance per action that somebody joins, leaves or concedes (higher during a battle or a hand).
CALM, BUSY = 0.001, 0.006
CONCEDE_SHARE = 0.3


@dataclass
class Table:
    """Who plays what in game ``seed``: the table's kind, each player's, and the allies' AI."""

    seed: int
    players: int
    kind: str
    seats: dict[str, str]  # person -> random / easy / normal / hard
    ai_level: str  # the allied armies' AI: a level, or "random"
    options: Options


@dataclass
class Outcome:
    seed: int
    players: int
    kind: str
    ended: bool
    how: str  # how it ended: a winner's way, "draw", "nobody", "unended", "exception"
    rounds: int
    actions: int
    seconds: float
    refusals: list[str] = field(default_factory=list)
    offered_refused: list[str] = field(default_factory=list)
    violations: dict[str, str] = field(default_factory=dict)  # kind -> first sentence (+ where)
    causes: dict[str, str] = field(default_factory=dict)  # kind -> the action and the moment
    exception: str | None = None
    stall: str = ""  # an unended game: who holds the land at the bound
    disruptions: Counter[str] = field(default_factory=Counter)


def table_for(seed: int) -> Table:
    """Everything about game ``seed`` but its dice: players, kinds, options."""
    rng = random.Random(f"endings-table:{seed}")
    players = 2 + seed % 5
    kind = KINDS[(seed // 5) % len(KINDS)]
    names = [f"p{i}" for i in range(players)]
    if kind == "mixed":
        while True:
            kinds = {n: rng.choice(("random", *LEVELS)) for n in names}
            if len(set(kinds.values())) >= 2:
                break
        ai_level = rng.choice(LEVELS)
    else:
        kinds = dict.fromkeys(names, kind)
        ai_level = kind
    win = rng.choices((LAST_STANDING, DOMINATION, ROUND_LIMIT), weights=(5, 2, 3))[0]
    options = Options(
        win=win,
        round_limit=rng.randint(3, 40) if win == ROUND_LIMIT else None,
        red_queens_high=rng.random() < 0.5,
        reveal_needs_cut=rng.random() < 0.5,
        ally_defender=rng.choice((NEXT_PLAYER, AI)),
        ally_cards=rng.choice((ALLY_OWN, DECLARER_ONLY)),
        reveal_once=rng.random() < 0.5,
        min_commitment=rng.choice((2, 2, 3, 4)),
        defender_dice=rng.choice((BY_COMMITMENT, BY_COMMITMENT, AS_NORMAL)),
        pirate_turns=rng.choice((5, 10, 10, 20)),
    )
    return Table(seed, players, kind, kinds, ai_level, options)


def violation_kind(sentence: str, state: GameState) -> str:
    """The sentence with its particulars (seats, territories, ships, cards, numbers) blanked,
    so the same broken invariant found in many games counts once."""
    text = re.sub(r"\[[^\]]*\]", "[...]", sentence)
    text = re.sub(r"'[^']*'", "<card>", text)
    bmap = load_map(state.options.map, state.options.map_version)
    for station in sorted(bmap.stations, key=len, reverse=True):
        text = text.replace(station, "<station>")
    for name in sorted(bmap.territories, key=len, reverse=True):
        text = text.replace(name, "<territory>")
    seats = sorted((s.id for s in state.seats), key=len, reverse=True)
    for seat_id in seats:
        text = re.sub(rf"\b{re.escape(seat_id)}\b", "<seat>", text)
    text = re.sub(r"\bS\d+\b", "<ship>", text)
    text = re.sub(r"[+-]?\d+", "N", text)
    text = re.sub(r"<territory>(, <territory>)+", "<territories>", text)
    text = re.sub(r"<ship>(, <ship>)+", "<ships>", text)
    return re.sub(r"<seat>(, <seat>)+", "<seats>", text)


def _how(state: GameState) -> str:
    if state.winner is None:
        players = [s for s in state.seats if s.kind == "player" and s.alive]
        return "draw" if players else "nobody left"
    if len({h.owner for h in state.territories.values()}) == 1:
        return "domination"
    players = [s.id for s in state.seats if s.kind == "player" and s.alive]
    return "last standing" if players == [state.winner] else "round limit"


def _describe(action: Action) -> str:
    data = action.to_dict()
    return " ".join(f"{k}={v}" for k, v in data.items())


#: Called with (state before, action, state after, events) for every applied action (debugging).
Watch = Callable[[GameState, Action, GameState, list], None]


def play(seed: int, verbose: bool = False, watch: Watch | None = None) -> Outcome:
    table = table_for(seed)
    names = list(table.seats)
    kinds = dict(table.seats)
    table_rng = random.Random(f"endings-events:{seed}")
    bots: dict[str, Bot | None] = {}
    rngs: dict[str, random.Random] = {}
    state = new_game(names, seed=f"endings-{seed}", options=table.options)
    outcome = Outcome(seed, table.players, table.kind, False, "unended", 0, 0, 0.0)
    started = time.perf_counter()
    newcomers = iter(f"late{i}" for i in range(1000))

    def say(text: str) -> None:
        if verbose:
            print(f"[{state.actions:5d} r{state.round}] {text}")

    def bot_for(actor: str) -> tuple[Bot | None, random.Random]:
        if actor not in rngs:
            rngs[actor] = random.Random(f"endings-bot:{seed}:{actor}")
            level = table.ai_level if actor.startswith("ai:") else kinds.get(actor, "random")
            bots[actor] = None if level == "random" else StrategicBot(rngs[actor], level)
        return bots[actor], rngs[actor]

    def check(action: Action, before: GameState) -> None:
        for sentence in violations(state):
            key = violation_kind(sentence, state)
            if key not in outcome.violations:
                outcome.violations[key] = (
                    f"{sentence} (after action {state.actions}, round {state.round}: "
                    f"{_describe(action)})"
                )
                ended = ", game over" if state.over and not before.over else ""
                outcome.causes[key] = f"{action.type} ({_moment(before)}{ended})"
                say(f"VIOLATION {sentence}")

    def disruption() -> Action | None:
        person = table_rng.choice([*names, next(newcomers)])
        action = join_or_leave(state, person, table_rng)
        if action is None:
            return None
        if action.type == "join":
            names.append(person)
            kinds.setdefault(person, table_rng.choice(("random", *LEVELS))
                             if table.kind == "mixed" else table.kind)  # fmt: skip
        elif table_rng.random() < CONCEDE_SHARE:
            action = Concede(person)
        outcome.disruptions[f"{action.type} ({_moment(state)})"] += 1
        return action

    try:
        while not state.over and state.round <= ROUND_BOUND and state.actions < ACTION_BOUND:
            busy = state.battle is not None or _in_hand(state)
            action = None
            if table_rng.random() < (BUSY if busy else CALM):
                action = disruption()
                if action is not None:
                    try:
                        after, events = apply(state, action, game_dice(state))
                    except IllegalAction as error:
                        outcome.offered_refused.append(f"{_describe(action)}: {error}")
                        say(f"OFFERED BUT REFUSED {_describe(action)}: {error}")
                    else:
                        say(f"{_describe(action)}")
                        if watch is not None:
                            watch(state, action, after, events)
                        state, before = after, state
                        check(action, before)
                    continue
            actor = pending_decisions(state)[0].player
            bot, rng = bot_for(actor)
            action = sample_action(state, actor, rng) if bot is None else decide(bot, state, actor)
            try:
                after, events = apply(state, action, game_dice(state))
            except IllegalAction as error:
                outcome.refusals.append(f"{kinds.get(actor, table.ai_level)} {_describe(action)}: "
                                        f"{error}")  # fmt: skip
                say(f"REFUSED {_describe(action)}: {error}")
                action = sample_action(state, actor, rng)
                after, events = apply(state, action, game_dice(state))
            if verbose:
                say(_describe(action))
            if watch is not None:
                watch(state, action, after, events)
            state, before = after, state
            check(action, before)
        outcome.ended = state.over
        outcome.how = _how(state) if state.over else "unended"
        if not state.over:
            outcome.stall = _stall(state)
    except Exception:
        outcome.exception = traceback.format_exc()
        outcome.how = "exception"
        say(outcome.exception)
    outcome.rounds, outcome.actions = state.round, state.actions
    outcome.seconds = time.perf_counter() - started
    if verbose:
        print(f"end: over={state.over} winner={state.winner} ranking={state.ranking} "
              f"round={state.round} actions={state.actions}")  # fmt: skip
        print(f"owners: {Counter(h.owner for h in state.territories.values())}")
        print(f"ships: {Counter(s.owner for s in state.ships.values())}")
        print(f"seats: {[(s.id, s.kind, s.player, s.alive) for s in state.seats]}")
    return outcome


def _stall(state: GameState) -> str:
    """Who holds the land in a game that did not end: players' territories, allies', ships."""
    players = {s.id for s in state.seats if s.kind == "player" and s.alive}
    held = Counter(h.owner for h in state.territories.values())
    mine = sum(n for owner, n in held.items() if owner in players)
    stacks = sorted((h.armies for h in state.territories.values()), reverse=True)
    if not mine:
        return (f"{len(held)} allied armies hold all {len(state.territories)} territories; "
                f"the {len(players)} players are at sea")  # fmt: skip
    return (f"players hold {mine} territories, allied armies {len(state.territories) - mine}; "
            f"stacks up to {stacks[0]} armies")  # fmt: skip


def _moment(state: GameState) -> str:
    """Where the game stands: in a battle (its stage), in a poker hand, or calm."""
    if state.battle is not None:
        return f"{state.battle.kind} battle {state.battle.stage}"
    return "poker hand" if _in_hand(state) else "calm"


def _in_hand(state: GameState) -> bool:
    return state.contest is not None and state.contest.hand is not None


def _run(seed: int) -> Outcome:
    return play(seed)


def _q(values: list[int] | list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0


def _spread(values: list[int] | list[float], unit: str = "") -> str:
    if not values:
        return "-"
    return (f"{statistics.median(values):.0f}{unit} / {_q(values, 0.95):.0f}{unit} / "
            f"{max(values):.0f}{unit}")  # fmt: skip


def report(results: list[Outcome], wall: float, jobs: int, seed: int) -> None:
    n = len(results)
    print(f"{n} games, seeds {seed}..{seed + n - 1}, {jobs} processes, wall {wall:.0f} s "
          f"({sum(r.seconds for r in results):.0f} s of play)\n")  # fmt: skip
    print("| Players | " + " | ".join(KINDS) + " | All |")
    print("|---" * (len(KINDS) + 2) + "|")
    for players in range(2, 7):
        row = [sum(r.players == players and r.kind == k for r in results) for k in KINDS]
        print(f"| {players} | " + " | ".join(map(str, row)) + f" | {sum(row)} |")
    ended = [r for r in results if r.ended]
    print(f"\nEnded: {len(ended)}; unended within {ROUND_BOUND} rounds / {ACTION_BOUND} "
          f"actions: {sum(not r.ended and r.exception is None for r in results)}; "
          f"stopped by an exception: {sum(r.exception is not None for r in results)}")  # fmt: skip
    hows = Counter(r.how for r in results).most_common()
    print("How they ended: " + ", ".join(f"{k} {v}" for k, v in hows))
    unended = [r for r in results if not r.ended and r.exception is None]
    if unended:
        print("Unended (seed: players kind, rounds, actions: who holds the land):")
        for r in unended[:30]:
            print(f"- {r.seed}: {r.players}p {r.kind}, {r.rounds}, {r.actions}: {r.stall}")
    print(f"\nRounds (median / p95 / max), ended games: {_spread([r.rounds for r in ended])}")
    print(f"Actions (median / p95 / max), ended games: {_spread([r.actions for r in ended])}")
    print(f"Seconds a game (median / p95 / max): "
          f"{_spread([r.seconds for r in results], ' s')}")  # fmt: skip
    print("\n| Kind | Games | Ended | Median rounds | Median actions | Play s (sum) | s/game |")
    print("|---|---|---|---|---|---|---|")
    for kind in KINDS:
        mine = [r for r in results if r.kind == kind]
        if mine:
            total = sum(r.seconds for r in mine)
            print(f"| {kind} | {len(mine)} | {sum(r.ended for r in mine)} | "
                  f"{statistics.median(r.rounds for r in mine):.0f} | "
                  f"{statistics.median(r.actions for r in mine):.0f} | {total:.0f} | "
                  f"{total / len(mine):.1f} |")  # fmt: skip
    kinds: dict[str, list[Outcome]] = {}
    for r in sorted(results, key=lambda r: r.seed):
        for key in r.violations:
            kinds.setdefault(key, []).append(r)
    print(f"\nViolations: {len(kinds)} kinds, in {sum(bool(r.violations) for r in results)} "
          f"games")  # fmt: skip
    for key, games in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
        first = games[0]
        causes = Counter(r.causes[key] for r in games).most_common()
        print(f"- {len(games)} games, first seed {first.seed} ({first.players}p {first.kind}): "
              f"{key}\n    e.g. {first.violations[key]}\n    seeds: "
              f"{' '.join(str(r.seed) for r in games[:12])}{' ...' if len(games) > 12 else ''}"
              f"\n    first seen after: {'; '.join(f'{c} x{n}' for c, n in causes)}")  # fmt: skip
    refusals = [(r.seed, text) for r in results for text in r.refusals]
    print(f"\nBot actions refused by apply: {len(refusals)} "
          f"(in {sum(bool(r.refusals) for r in results)} games)")  # fmt: skip
    _first_of(refusals, lambda text: re.sub(r"\d+", "N", text.split(":")[0]))
    offered = [(r.seed, text) for r in results for text in r.offered_refused]
    print(f"Joins/leaves offered by legal_actions and then refused: {len(offered)}")
    _first_of(offered, lambda text: text.split(" ")[0])
    crashed = [r for r in results if r.exception is not None]
    print(f"Exceptions: {len(crashed)}")
    seen: set[str] = set()
    for r in crashed:
        last = (r.exception or "").strip().splitlines()[-1]
        if last not in seen:
            seen.add(last)
            print(f"- first seed {r.seed} ({r.players}p {r.kind}): {last}")
    disruptions: Counter[str] = Counter()
    for r in results:
        disruptions.update(r.disruptions)
    print("Disruptions applied or tried: " + ", ".join(f"{k} {v}" for k, v in
                                                        sorted(disruptions.items())))  # fmt: skip


def _first_of(items: Iterable[tuple[int, str]], key: Callable[[str], str]) -> None:
    firsts: dict[str, tuple[int, str, int]] = {}
    for seed, text in items:
        k = key(text)
        seed0, text0, count = firsts.get(k, (seed, text, 0))
        firsts[k] = (seed0, text0, count + 1)
    for seed, text, count in firsts.values():
        print(f"- {count}x, first seed {seed}: {text[:300]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only-seed", type=int, default=None, help="play this one game only")
    parser.add_argument("--verbose", action="store_true", help="print every action (one game)")
    args = parser.parse_args()
    if args.only_seed is not None:
        table = table_for(args.only_seed)
        print(f"seed {args.only_seed}: {table.players} players, {table.kind} {table.seats}, "
              f"allies' AI {table.ai_level}, {table.options}")  # fmt: skip
        start = time.perf_counter()
        result = play(args.only_seed, verbose=args.verbose)
        report([result], time.perf_counter() - start, 1, args.only_seed)
        for key, text in result.violations.items():
            print(f"\n{key}\n  {text}")
        if result.exception:
            print(result.exception)
        return
    seeds = list(range(args.seed, args.seed + args.games))
    # The slowest games first (random tables play about three times the actions of the bots',
    # big tables more than small ones), so no worker is left with a long tail at the end.
    seeds.sort(key=lambda s: (-(2 + s % 5) * (3 if KINDS[(s // 5) % 5] == "random" else 1), s))
    start = time.perf_counter()
    results: list[Outcome] = []
    if args.jobs > 1:
        with Pool(args.jobs) as pool:
            for done, result in enumerate(pool.imap_unordered(_run, seeds, chunksize=1), 1):
                results.append(result)
                if done % 50 == 0:
                    print(
                        f"... {done}/{len(seeds)} games, {time.perf_counter() - start:.0f} s",
                        file=sys.stderr,
                        flush=True,
                    )
    else:
        results = [_run(s) for s in seeds]
    report(sorted(results, key=lambda r: r.seed), time.perf_counter() - start, args.jobs,
           args.seed)  # fmt: skip


if __name__ == "__main__":
    main()
