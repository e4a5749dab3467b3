"""Benchmark: the Fast Risk engine in random play, and the state row's save + load.

Prints: actions applied per second in random play (apply alone, and with ``sample_action``), the
median and 90th-percentile time of ``apply`` and of ``view_for``, the median time of one whole
random 6-player game (world domination ends it: see tests/risk/test_random_play.py), and the
time to save and load a game's state row (``games.play.snapshots``: one UPDATE of the JSON,
one SELECT and ``from_dict``) per action on SQLite and on PostgreSQL (each in a child process
with its own DATABASE_URL; PostgreSQL is skipped with a note when it does not answer). Asserts
nothing.

    .venv/bin/python bench/risk_engine.py
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import time
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
    view_for,
)
from risk.rules.forced import forced_action  # noqa: E402
from risk.rules.state import DOMINATION, GameState  # noqa: E402

PLAY_GAMES = [(seed, 2 + seed % 5) for seed in range(20)]
ROUND_CAP = 10
FULL_GAMES = 5
ADAPTER_ACTIONS = 300
PG_URL = os.environ.get(
    "BENCH_PG_URL", "postgres://postgres:postgres@127.0.0.1:5432/warboard_bench"
)


def _ms(seconds: list[float], q: float = 0.5) -> float:
    return statistics.quantiles(seconds, n=100)[int(q * 100) - 1] * 1000


def random_play() -> None:
    apply_times: list[float] = []
    view_times: list[float] = []
    forced_times: list[float] = []
    forced = 0
    total_start, actions = time.perf_counter(), 0
    for seed, players in PLAY_GAMES:
        state = new_game([f"p{i}" for i in range(players)], seed=f"bench-{seed}")
        rng = random.Random(seed)
        while not state.over and state.round <= ROUND_CAP:
            actor = pending_decisions(state)[0].player
            action = sample_action(state, actor, rng)
            start = time.perf_counter()
            state, _ = apply(state, action, game_dice(state))
            apply_times.append(time.perf_counter() - start)
            actions += 1
            if not state.over:
                # what the driver asks after every action: is the next decision forced?
                start = time.perf_counter()
                forced += forced_action(state, pending_decisions(state)[0].player) is not None
                forced_times.append(time.perf_counter() - start)
            if actions % 10 == 0:
                start = time.perf_counter()
                view_for(state, actor)
                view_times.append(time.perf_counter() - start)
    total = time.perf_counter() - total_start
    games = f"{len(PLAY_GAMES)} games of 2-6 players, {ROUND_CAP} rounds"
    print(f"random play: {games}: {actions} actions")
    print(f"  actions/s, apply only:          {actions / sum(apply_times):>10,.0f}")
    print(f"  actions/s, sample + apply:      {actions / total:>10,.0f}")
    print(
        f"  apply median / p90 ms:          {_ms(apply_times):>10.3f} / {_ms(apply_times, 0.9):.3f}"
    )
    print(
        f"  view_for median / p90 ms:       {_ms(view_times):>10.3f} / {_ms(view_times, 0.9):.3f}"
    )
    print(
        f"  forced-step check median / p90 ms: {_ms(forced_times):>7.3f} / "
        f"{_ms(forced_times, 0.9):.3f} ({forced / len(forced_times):.0%} of the steps forced)"
    )


def full_games() -> None:
    times, lengths = [], []
    for seed in range(FULL_GAMES):
        start = time.perf_counter()
        state = new_game([f"p{i}" for i in range(6)], seed=f"full-{seed}",
                         options=Options(win=DOMINATION))  # fmt: skip
        rng = random.Random(seed)
        count = 0
        while not state.over:
            actor = pending_decisions(state)[0].player
            state, _ = apply(state, sample_action(state, actor, rng), game_dice(state))
            count += 1
        times.append(time.perf_counter() - start)
        lengths.append(count)
    print(f"full random 6-player games ({FULL_GAMES}, to world domination):")
    print(f"  median game s:                  {statistics.median(times):>10.2f}"
          f"   (median {statistics.median(lengths):,.0f} actions)")  # fmt: skip


def snapshot_rows(label: str, url: str) -> None:
    """Runs in a child process whose settings read DATABASE_URL."""
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import transaction

    from games.models import Game
    from games.play import snapshots

    call_command("migrate", verbosity=0)
    creator, _ = get_user_model().objects.get_or_create(username="bench-snapshots")
    game = Game.objects.create(creator=creator, seat_count=4, server_seed="0" * 64)
    state: GameState = new_game(["p0", "p1", "p2", "p3"], seed="snapshots")
    snapshots.create(game, state)
    rng = random.Random(1)
    saves, loads = [], []
    version = 0
    for _ in range(ADAPTER_ACTIONS):
        if state.over:
            break
        actor = pending_decisions(state)[0].player
        after, _ = apply(state, sample_action(state, actor, rng), game_dice(state))
        start = time.perf_counter()
        with transaction.atomic():
            locked = Game.objects.select_for_update().get(pk=game.pk)
            version += 1  # the state row holds the version: one UPDATE, as the action path's
            snapshots.save(locked, after, version)
        saves.append(time.perf_counter() - start)
        fresh = Game.objects.get(pk=game.pk)  # no state row cached: load reads it
        start = time.perf_counter()
        loaded = snapshots.load(fresh)
        loads.append(time.perf_counter() - start)
        assert loaded == after
        state = after
    print(f"state row on {label} ({len(saves)} actions of a 4-player game):")
    print(f"  save median / p90 ms:           {_ms(saves):>10.2f} / {_ms(saves, 0.9):.2f}")
    print(f"  load median / p90 ms:           {_ms(loads):>10.2f} / {_ms(loads, 0.9):.2f}")
    game.delete()


def _postgres_ready(url: str) -> bool:
    import psycopg

    admin = url.rsplit("/", 1)[0] + "/postgres"
    name = url.rsplit("/", 1)[1]
    try:
        with psycopg.connect(admin, autocommit=True, connect_timeout=3) as conn:
            found = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
            if not found:
                conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.OperationalError as error:
        print(f"state row on PostgreSQL: skipped, {url} does not answer ({error})")
        return False
    return True


def main() -> None:
    if len(sys.argv) == 4 and sys.argv[1] == "--rows":
        snapshot_rows(sys.argv[2], sys.argv[3])
        return
    random_play()
    full_games()
    sqlite = ROOT / "var" / "bench-risk.sqlite3"
    sqlite.unlink(missing_ok=True)
    runs = [("SQLite", f"sqlite:///{sqlite}")]
    if _postgres_ready(PG_URL):
        runs.append(("PostgreSQL", PG_URL))
    for label, url in runs:
        sys.stdout.flush()
        subprocess.run([sys.executable, __file__, "--rows", label, url], check=True, cwd=ROOT)


if __name__ == "__main__":
    main()
