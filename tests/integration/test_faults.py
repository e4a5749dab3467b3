"""Faults leave nothing stuck, on the real stack the test starts itself.

Each test runs daphne, a Celery worker (prefork, as deployed) and Celery beat against the test
database and a Redis server of its own, plays a game of alice against two bots over HTTP while
it breaks something, and ends with the game finished and ``manage.py verify_game`` passing:
every roll re-derived from the revealed seed and the log replayed to the stored board, so a
decision applied twice or lost would fail it.

- Redis killed: sign-in, creating, filling and starting a game and alice's moves still answer
  and commit; nothing can be queued, so the bots wait; when Redis is back (empty: it keeps
  nothing on disk) the sweep finds the game waiting on the server and queues its driver.
- Database connections dropped (``pg_terminate_backend``) while the bots move: no request fails
  afterwards (the pool checks connections), and the driver task that lost its connection
  mid-run retries.
- The worker's pool child SIGKILLed mid-run: its task goes back to the queue at once
  (``task_reject_on_worker_lost``); then the whole worker SIGKILLed: its task is stuck unacked
  in Redis for the visibility timeout, so the sweep queues the driver again for the fresh
  worker.
- Redis killed for 20 s under a worker holding a task during a bot turn: the same worker
  reconnects (config.redis_broker; Celery 5.7.0 used to exit) and the game finishes.

The sweep runs every second here and takes a game for stalled after 2 seconds (60 in
production); the processes' logs are printed when a test fails.
"""

from __future__ import annotations

import os
import random
import re
import signal
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from rest_framework.authtoken.models import Token

from games.models import ActionLog, Game, GameSnapshot
from games.play.reads import fetch
from risk.rules.bots import RandomBot, decide
from risk.rules.sampler import NoAction
from tests.integration.processes import (
    APPLICATION_NAME,
    Daphne,
    Process,
    RedisServer,
    celery_beat,
    celery_worker,
    server_env,
)

#: Each test runs a whole stack of its own (daphne, Celery worker and beat, a Redis on a free
#: port, its own channel prefix) against its worker's test database, so two run side by side on
#: pytest-xdist's workers: its budgets are waits for events, not CPU time (two passes of the
#: services tests with them in parallel passed, one on a machine at a load of 9 on 2 cores).
pytestmark = [
    pytest.mark.services, pytest.mark.slow, pytest.mark.django_db(transaction=True),
]  # fmt: skip

PASSWORD = "a long enough password 7"
#: A short game: three seats (alice and two bots, with the allied armies of a 3-player game),
#: won on territories after two rounds; the AI moves at once (no pause for people to watch).
GAME = {"seats": 3, "options": {"win": "round-limit", "round_limit": 2}, "ai_delay_ms": 0}
#: Seconds a whole game may take, faults and recoveries included.
GAME_TIMEOUT = 300


@dataclass
class Stack:
    """The processes under test and what the test needs to talk to them."""

    redis: RedisServer
    web: Daphne
    beat: Process
    workers: list[Process]
    env: dict[str, str]
    log_dir: Path
    token: str = ""
    game_id: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def worker(self) -> Process:
        return self.workers[-1]

    def new_worker(self, concurrency: int = 1) -> Process:
        name = f"worker{len(self.workers) + 1}"
        worker = celery_worker(name, self.env, self.log_dir, concurrency)
        worker.start()
        self.workers.append(worker)
        return worker

    def processes(self) -> list[Process]:
        return [self.redis, self.web, self.beat, *self.workers]

    def logs(self) -> str:
        return "\n".join(f"===== {p.name} =====\n{p.text()[-20000:]}" for p in self.processes())

    def worker_logs(self) -> str:
        return "\n".join(w.text() for w in self.workers)


@pytest.fixture
def stack(transactional_db, tmp_path: Path) -> Iterator[Stack]:
    redis = RedisServer(tmp_path)
    redis.start()
    redis.wait_ready()
    env = server_env(
        REDIS_URL=redis.url,
        CHANNEL_LAYER_PREFIX=f"warboard-fault-{uuid.uuid4().hex[:8]}",
        DEADLINE_SWEEP_SECONDS="1",
        GAME_STALLED_SECONDS="2",
    )
    stack = Stack(redis, Daphne("web", env, tmp_path), celery_beat(env, tmp_path), [], env,
                  tmp_path)  # fmt: skip
    try:
        stack.web.start()
        stack.beat.start()
        stack.new_worker()
        stack.web.wait_ready()
        yield stack
    except BaseException:
        print(stack.logs())
        raise
    finally:
        for process in reversed(stack.processes()):
            process.stop()


@pytest.fixture
def alice(db):
    return get_user_model().objects.create_user("alice", password=PASSWORD)


def create_game(stack: Stack, *, ai_delay_ms: int = 0) -> int:
    """alice creates the game over HTTP, fills it with bots and starts it."""
    body = {**GAME, "ai_delay_ms": ai_delay_ms}
    status, created = stack.web.request("POST", "/api/games", body, stack.token)
    assert status == 201, created
    game_id = created["id"]
    for step in ("bots", "start"):
        status, body = stack.web.request("POST", f"/api/games/{game_id}/{step}", {}, stack.token)
        assert status == 200, (step, body)
    stack.game_id = game_id
    return game_id


def alice_moves(stack: Stack, detail: dict[str, Any], attempt: int) -> bool:
    """One move of alice's (the random player on her redacted state), over HTTP; False when
    the server refused it (stale, or a card she cannot see): the caller reads again."""
    game = Game.objects.get(pk=stack.game_id)
    version = game.version
    if version != detail["version"]:
        return False
    rng = random.Random(f"{stack.game_id}:{version}:{attempt}")
    try:
        action = decide(RandomBot(rng), fetch.game_state(game), "alice")
    except NoAction:
        # The game moved on between the two reads (the server took a forced step of hers, or
        # a bot's move landed): nothing of hers is pending in the newer state.
        return False
    status, body = stack.web.request(
        "POST", f"/api/games/{stack.game_id}/actions",
        {"action": action.to_dict(), "expected_version": version}, stack.token,
    )  # fmt: skip
    if status == 200:
        # Her entry is at the answer's version: the next one, or later when her answer crossed
        # other players' answers to the same simultaneous decision (a bot's poker choice landed
        # after she read the game; games/play/write.py, "answers that crossed").
        assert body["version"] > version, body
        mine = ActionLog.objects.get(game_id=stack.game_id, sequence=body["version"])
        assert mine.actor == "alice", body
        between = ActionLog.objects.filter(game_id=stack.game_id, sequence__gt=version,
                                           sequence__lt=body["version"])  # fmt: skip
        assert "alice" not in {entry.actor for entry in between}, body
        return True
    assert status in (400, 409), body  # a refused pick or a stale version, never a 5xx
    return False


Watch = Callable[[Stack, dict[str, Any]], None]


def play_to_the_end(stack: Stack, watch: Watch | None = None) -> dict[str, Any]:
    """alice plays until the game ends; ``watch`` sees each reading of the game."""
    deadline = time.monotonic() + GAME_TIMEOUT
    attempt = 0
    while time.monotonic() < deadline:
        status, detail = stack.web.request("GET", f"/api/games/{stack.game_id}", token=stack.token)
        assert status == 200, detail
        if detail["status"] == Game.Status.FINISHED:
            return detail
        if watch is not None:
            watch(stack, detail)
        if "alice" in {p["player"] for p in detail["pending"]}:
            attempt = 0 if alice_moves(stack, detail, attempt) else attempt + 1
        else:
            time.sleep(0.05)
    raise AssertionError(f"game {stack.game_id} not finished in {GAME_TIMEOUT} s")


def assert_finished_and_verified(stack: Stack, final: dict[str, Any]) -> None:
    game = Game.objects.get(pk=stack.game_id)
    assert game.status == Game.Status.FINISHED and final["result"]["winner"]
    sequences = list(ActionLog.objects.filter(game=game).values_list("sequence", flat=True))
    assert sorted(sequences) == list(range(1, game.version + 1))
    out = StringIO()
    call_command("verify_game", str(game.pk), stdout=out)
    assert out.getvalue().strip().endswith("OK"), out.getvalue()


def bots_moved(stack: Stack, timeout: float) -> bool:
    """Whether the game's version moves past alice's last move within ``timeout``."""
    start = GameSnapshot.objects.get(pk=stack.game_id).version
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if GameSnapshot.objects.get(pk=stack.game_id).version > start:
            return True
        time.sleep(0.1)
    return False


# --- Redis killed -------------------------------------------------------------------------------


def test_with_redis_down_requests_answer_and_commit_and_the_game_resumes_when_it_returns(
    stack, alice
):
    stack.redis.kill()
    # Sign-in reads the throttle's counters in Redis: it answers all the same.
    status, body = stack.web.request(
        "POST", "/api/auth/token", {"username": "alice", "password": PASSWORD}
    )
    assert status == 200, body
    stack.token = body["token"]
    game_id = create_game(stack)  # create, fill with bots, start: 201, 200, 200
    # Queuing a task with the broker down fails in well under a second (one quick retry; the
    # result channel is not subscribed): before, each request that queued one hung for 19 s.
    slowest = max(stack.web.timings, key=lambda timing: timing[1])
    assert slowest[1] < 5, stack.web.timings

    # Set-up: alice and both bots arrange at once. Her arrangement commits; the bots' driver
    # could not be queued, so the game waits on the server.
    detail = stack.web.request("GET", f"/api/games/{game_id}", token=stack.token)[1]
    assert {p["player"] for p in detail["pending"]} == {"alice", "bot:2", "bot:3"}
    assert alice_moves(stack, detail, 0)
    snapshot = GameSnapshot.objects.get(pk=game_id)
    assert (snapshot.version, snapshot.server_turn) == (1, True)
    assert not bots_moved(stack, timeout=4)  # two sweeps' worth: nothing reaches a worker

    stack.redis.start()  # empty: the lost work is found by the sweep, not in the broker
    stack.redis.wait_ready()
    assert bots_moved(stack, timeout=60)
    assert_finished_and_verified(stack, play_to_the_end(stack))
    # What was lost, logged: the start's and alice's pushes and driver tasks (no deadline or
    # mail tasks in this game). Once Redis was back the web process queued again by itself.
    log = stack.web.text()
    assert [log.count(f"push of action {n} failed") for n in (0, 1)] == [1, 1]
    assert log.count("driver after the commit failed") == 2
    # ... and the driver's lost task was found by the sweep.
    assert "'kicked': 1" in stack.worker_logs()


# --- database connections dropped ---------------------------------------------------------------


def drop_server_connections() -> int:
    """``pg_terminate_backend`` every connection of this run's server processes (their tag on
    this test database: another run of the suite on the same server has its own); how many."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE application_name = %s AND datname = current_database()",
            [APPLICATION_NAME],
        )
        return cursor.fetchone()[0]


def test_dropped_database_connections_fail_no_request_and_the_bots_retry(stack, alice):
    stack.token = Token.objects.create(user=alice).key
    create_game(stack)
    drops: list[int] = []
    last = {"version": 0}

    def drop_while_the_bots_move(stack: Stack, detail: dict[str, Any]) -> None:
        moving = detail["version"] > last["version"] and "alice" not in {
            p["player"] for p in detail["pending"]
        }
        last["version"] = detail["version"]
        if moving and len(drops) < 3 and detail["version"] > 10 * (len(drops) + 1):
            drops.append(drop_server_connections())
            # The web process's pool held connections the server has just dropped: it checks
            # each one it hands out, so none of these requests fails.
            for _ in range(12):
                status, body = stack.web.request("GET", f"/api/games/{stack.game_id}",
                                                 token=stack.token)  # fmt: skip
                assert status == 200, body

    final = play_to_the_end(stack, drop_while_the_bots_move)
    assert len(drops) == 3 and all(count >= 1 for count in drops), drops
    assert_finished_and_verified(stack, final)
    # A driver run lost its connection mid-run and was retried (games.common.retries.DB_RETRY).
    assert "OperationalError" in stack.worker_logs()
    assert "Retry in" in stack.worker_logs()


# --- worker killed ------------------------------------------------------------------------------


def advance_running(log: str) -> bool:
    """Whether a worker's log shows a driver run received and not yet finished."""
    received = set(re.findall(r"Task games\.advance\[([0-9a-f-]+)\] received", log))
    finished = re.findall(r"Task games\.advance\[([0-9a-f-]+)\] (?:succeeded|retry|raised)", log)
    return bool(received - set(finished))


def test_a_killed_worker_loses_no_decision_and_applies_none_twice(stack, alice):
    stack.token = Token.objects.create(user=alice).key
    create_game(stack)
    kills: list[tuple[str, int]] = []
    last = {"version": 0}

    def kill_while_the_bots_move(stack: Stack, detail: dict[str, Any]) -> None:
        version = detail["version"]
        moving = version > last["version"] and "alice" not in {
            p["player"] for p in detail["pending"]
        }
        last["version"] = version
        if not moving:
            return
        if not kills and version > 10:
            # The pool child running the driver: the worker re-queues its task at once. Only
            # while the worker's log shows a driver run under way: a run takes a fraction of a
            # second, and one read of the game later (on a busy machine) the child could be idle.
            if not advance_running(stack.worker.text()):
                return
            (child,) = stack.worker.children()
            os.kill(child, signal.SIGKILL)
            kills.append(("child", version))
        elif len(kills) == 1 and version > kills[0][1] + 30:
            # The whole worker: its unacknowledged task stays in Redis for the visibility
            # timeout (5 minutes); the sweep queues the driver again for a fresh worker.
            stack.worker.kill()
            stack.new_worker()
            kills.append(("worker", version))

    final = play_to_the_end(stack, kill_while_the_bots_move)
    assert [kind for kind, _ in kills] == ["child", "worker"]
    assert_finished_and_verified(stack, final)
    logs = stack.worker_logs()
    assert "exited with 'signal 9 (SIGKILL)'" in logs
    # The child died running a driver task, which went back to the queue and ran again.
    assert "WorkerLostError" in logs
    received = Counter(re.findall(r"Task games\.advance\[([0-9a-f-]+)\] received", logs))
    assert max(received.values()) == 2, received


# --- an AI turn interrupted -------------------------------------------------------------------


def test_an_ai_turn_cut_by_a_killed_worker_completes_with_each_decision_applied_once(stack, alice):
    """The bots move 0.3 s apart (the game's AI delay), one task a move: the worker is
    SIGKILLed while a bot's turn is under way, with that turn's next move queued in it. A fresh
    worker takes over; the turn completes and the game goes on to its end.

    Exactly once: the AI thinks with no lock held and commits only if the game is still at the
    version it thought at, and the log's (game, sequence) key takes one entry per version; each
    bot entry's idempotency key names the version its decision was thought at, which is the
    entry's own sequence minus one: none was applied twice, none at a version it did not see.
    """
    stack.token = Token.objects.create(user=alice).key
    create_game(stack, ai_delay_ms=300)
    killed: list[int] = []
    completed: list[int] = []

    def kill_during_a_bots_turn(stack: Stack, detail: dict[str, Any]) -> None:
        controller = (detail.get("turn") or {}).get("controller") or ""
        if not killed:
            if detail["version"] >= 10 and controller.startswith("bot:"):
                stack.worker.kill()
                stack.new_worker()
                killed.append(detail["version"])
        elif not completed and detail["version"] > killed[0] and controller == "alice":
            # The cut turn has completed (the bots moved since, and it is alice's turn): the
            # rest of the game without the pause between AI moves (it took most of the time).
            Game.objects.filter(pk=stack.game_id).update(ai_delay_ms=0)
            completed.append(detail["version"])

    final = play_to_the_end(stack, kill_during_a_bots_turn)
    assert len(killed) == 1 and len(completed) == 1
    assert_finished_and_verified(stack, final)
    bots = ActionLog.objects.filter(game_id=stack.game_id, source=ActionLog.Source.BOT)
    entries = list(bots.values_list("sequence", "actor", "idempotency_key"))
    assert entries and all(key == f"ai:{seq - 1}:{actor}" for seq, actor, key in entries)
    after_the_kill = [seq for seq, _, _ in entries if seq > killed[0]]
    assert after_the_kill  # the bots went on moving after it


# --- Redis killed under the worker during a bot turn ------------------------------------------

#: How long Redis stays down under the worker (the outage in which the worker used to exit).
REDIS_OUTAGE_SECONDS = 20


def tasks_held(log: str) -> set[str]:
    """Ids of the tasks a worker's log shows received and not yet finished: the messages it
    holds unacknowledged (running, or waiting for their ETA)."""
    received = set(re.findall(r"Task games\.\w+\[([0-9a-f-]+)\] received", log))
    finished = re.findall(r"Task games\.\w+\[([0-9a-f-]+)\] (?:succeeded|retry|raised)", log)
    return received - set(finished)


def exit_lines(log: str) -> str:
    """What a worker logged about losing the broker and exiting, and its last lines."""
    said = [line for line in log.splitlines() if re.search(r"Restoring|CRITICAL|Error:", line)]
    return "\n".join([*said, "...", log[-3000:]])


def test_the_worker_survives_redis_killed_during_a_bot_turn_and_the_game_finishes(stack, alice):
    """Redis is SIGKILLed while a bot's turn is under way and the worker holds a task (the
    bots move 0.3 s apart: the turn's next move waits in the worker for its ETA), and started
    again, empty, 20 s later. The same worker reconnects and the game finishes, with no one
    restarting anything: the move lost with Redis is queued again by the sweep.

    The worker runs two pool processes, as the compose file deploys it, so it goes on fetching
    while it holds a task. Celery 5.7.0's consumer then stopped the worker at once ("Restoring
    1 unacknowledged message(s)", then "Unrecoverable error: AttributeError(... 'hostname')";
    config.redis_broker), and every bot turn, deadline and mail task waited on a hand."""
    stack.worker.stop()
    worker = stack.new_worker(concurrency=2)
    stack.token = Token.objects.create(user=alice).key
    create_game(stack, ai_delay_ms=300)
    outage: dict[str, float] = {}

    def kill_redis_during_a_bots_turn(stack: Stack, detail: dict[str, Any]) -> None:
        controller = (detail.get("turn") or {}).get("controller") or ""
        if not outage:
            bots_turn = detail["version"] >= 10 and controller.startswith("bot:")
            if bots_turn and tasks_held(worker.text()):
                stack.redis.kill()
                outage.update(killed=time.monotonic(), version=detail["version"])
        elif "restarted" not in outage:
            # The worker notices at once; it must still be there, waiting to reconnect.
            assert worker.running(), f"the worker exited:\n{exit_lines(worker.text())}"
            if time.monotonic() - outage["killed"] < REDIS_OUTAGE_SECONDS:
                time.sleep(0.5)
                return
            stack.redis.start()  # empty: what was queued in it is gone
            stack.redis.wait_ready()
            outage["restarted"] = time.monotonic()
            # The rest of the game without the pause between AI moves, to end in time.
            Game.objects.filter(pk=stack.game_id).update(ai_delay_ms=0)

    final = play_to_the_end(stack, kill_redis_during_a_bots_turn)
    assert "restarted" in outage
    assert_finished_and_verified(stack, final)
    # The same worker all along, still running; it held a task when Redis went.
    assert stack.worker is worker and worker.running()
    log = worker.text()
    assert re.search(r"Restoring \d+ unacknowledged message\(s\)", log), log[-6000:]
    assert "Unrecoverable error" not in log
    assert log.count("Connected to redis://") == 2
    # The move it held was lost with Redis: the sweep queued the bots' driver again.
    assert "'kicked': 1" in log
    # The bots moved again after the outage, on the same worker.
    bots_after = ActionLog.objects.filter(
        game_id=stack.game_id, source=ActionLog.Source.BOT, sequence__gt=outage["version"] + 1
    )
    assert bots_after.exists()
