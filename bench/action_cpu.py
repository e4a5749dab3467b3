"""Benchmark: CPU of one action through the service layer, in one process, without the web.

Plays a 6-seat game (every seat a person, each decision picked by the random legal player) by
calling ``submit.action_submit`` as both transports do, with real transactions on
PostgreSQL and the after-commit work running (pushes built for every seat and the spectators
and sent over the in-memory channel layer, to nobody). Prints the process CPU per action spent
inside ``action_submit`` in three modes: the whole after-commit work; the pushes' messages
built but not sent (sending from this plain thread starts an event loop a call, which a server
never does, so that row overstates the send); no pushes at all. And, timed on its own over every
action, the write of the piece rows (``games.play.pieces.save``: the rows an action changed, one
statement). What an action costs before
daphne, Django's request handling, channels and Redis add theirs (``bench/load.py`` measures
the whole stack).

    .venv/bin/python bench/action_cpu.py [--database-url postgres://...] [--actions 300]

The database named by the URL (default ``warboard_action_cpu`` on 127.0.0.1) is created if
missing and migrated; its games pile up across runs, which does not change the figures.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--database-url", default="postgres://postgres:postgres@127.0.0.1:5432/warboard_action_cpu"
    )
    parser.add_argument("--actions", type=int, default=500, help="measured actions per mode")
    args = parser.parse_args()
    _create_database(args.database_url)
    os.environ["DATABASE_URL"] = args.database_url
    os.environ.pop("REDIS_URL", None)  # the in-memory channel layer: pushes built, sent nowhere
    os.environ.setdefault("WARBOARD_VAR_DIR", str(ROOT / "var" / "bench-action-cpu"))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from games.play import pieces, push

    real_send, real_push, real_save = push._send_all, push.action_committed, pieces.save
    saving = [0.0, 0]  # CPU seconds inside pieces.save, and its calls

    def timed_save(*args: Any, **kwargs: Any) -> Any:
        started = time.process_time()
        try:
            return real_save(*args, **kwargs)
        finally:
            saving[0] += time.process_time() - started
            saving[1] += 1

    pieces.save = timed_save

    async def not_sent(messages: object) -> None:
        return None

    def sent() -> None:
        push._send_all, push.action_committed = real_send, real_push

    def built() -> None:
        push._send_all, push.action_committed = not_sent, real_push

    def none() -> None:
        push._send_all, push.action_committed = real_send, lambda committed: None

    try:
        spent = _measure(args.actions, [sent, built, none])
    finally:
        sent()
        pieces.save = real_save
    print(f"CPU per action inside action_submit ({args.actions} actions of one 6-seat game per")
    print("mode, the modes taking turns action by action; PostgreSQL):")
    print(f"  pushes built and sent (a new loop a send)  {spent[0]:6.2f} ms")
    print(f"  pushes built, not sent                     {spent[1]:6.2f} ms")
    print(f"  no pushes                                  {spent[2]:6.2f} ms")
    print(f"  so building one action's 7 messages        {spent[1] - spent[2]:6.2f} ms")
    calls = int(saving[1])
    writes = 1000 * saving[0] / max(1, calls)
    print(f"  of each, writing its piece rows            {writes:6.2f} ms ({calls} actions)")


def _measure(actions: int, modes: list) -> list[float]:
    """CPU ms per action in each mode; the modes take turns, action by action, in one game
    (so each sees the same stages of it: states grow as a game goes on)."""
    from django.contrib.auth import get_user_model

    from games.play import lobby, submit
    from games.play.reads import fetch
    from games.web.exceptions import ApplicationError
    from risk.rules import pending_decisions
    from risk.rules.bots import RandomBot, decide

    users = get_user_model()
    stamp = time.time_ns()
    people = [users.objects.create_user(f"cpu{stamp}-{i}", password="x" * 12) for i in range(6)]
    game = lobby.game_create(creator=people[0], seats=6)
    for user in people[1:]:
        lobby.game_join(game_id=game.pk, user=user)
    lobby.game_start(game_id=game.pk, user=people[0])
    by_name = {u.get_username(): u for u in people}
    rng = random.Random(1)
    spent = [0.0] * len(modes)

    def step() -> float:
        current = fetch.game_get(game.pk)
        state = fetch.game_state(current)
        player = pending_decisions(state)[0].player
        for _ in range(20):
            action = decide(RandomBot(rng), state, player).to_dict()
            action.pop("player")
            started = time.process_time()
            try:
                submit.action_submit(
                    game_id=game.pk, user=by_name[player], action=action,
                    expected_version=current.version,
                )  # fmt: skip
                return time.process_time() - started
            except ApplicationError:
                continue  # a rare pick the redacted state allowed; draw again
        raise RuntimeError("no legal action found")

    for _ in range(30):  # past the set-up, into the game proper
        step()
    for i in range(actions * len(modes)):
        modes[i % len(modes)]()
        spent[i % len(modes)] += step()
    return [1000 * total / actions for total in spent]


def _create_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,))
        if exists.fetchone() is None:
            connection.execute(f'CREATE DATABASE "{name}"')


if __name__ == "__main__":
    main()
