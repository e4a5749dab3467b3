"""Benchmark: K concurrent 6-seat games played by bot clients against the full stack.

Starts the stack on PostgreSQL + Redis (migrate, N daphne processes on free ports, one Celery
worker), sets up K games of six seats (the users and their API tokens in bulk through the ORM,
every game created, joined and started through the HTTP API), then plays them: six bot clients
per game, each with a websocket to ``/ws/games/<id>/`` (``bench/load_client.py``, one asyncio
loop per client process, aiohttp for HTTP); seats at even positions submit over HTTP, odd ones
over their socket. The clients have no think time by default, so every game always has a
decision in flight and the stack runs saturated: a closed-loop throughput test.

Warm-up lasts ``--warmup`` seconds and at least until every game is past its set-up (the six
arrange decisions, taken in seat order unless ``--simultaneous-setup``). Then, over
``--seconds``: committed actions per second (client acks, and ActionLog rows as a check), action
latency (submit -> 200/ack), push latency (the update's ``committed_at`` -> each seat's socket
receiving it; one machine, one clock), 409s (counted apart, not errors) and errors (other
refusals, timeouts, dropped sockets, pushes lost on a live socket, stalled games); the CPU of
each component and of everything else on the machine; PostgreSQL commits, rows and Redis
commands per action. Then, with the stack stopped, for scale: ``pgbench -b simple-update`` at
one client per game (capped by max_connections) on a scratch database, and the goals set when
this benchmark was written (actions/s at 25% of pgbench, push p95 under 50 ms, zero errors) as
PASS/FAIL lines. Prints figures; exits 0 whatever they are.

Needs PostgreSQL (the URL's user may create databases) and Redis; the Redis database named by
``--redis-url`` is flushed at the start, so give the benchmark one of its own (the default 2).
Server logs (and ``--py-spy`` profiles of the daphne workers) stay in the folder it prints.

    .venv/bin/python bench/load.py [--workers 2] [--games 100] [--seconds 60] [--warmup 10]
        [--think 0] [--client-processes 1] [--py-spy DIR] [--no-pgbench]    (make bench-load)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
import uuid
from collections import Counter
from pathlib import Path
from queue import Empty
from typing import Any
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))
from load_client import (
    QUIET,
    REQUEST_TIMEOUT,
    STALL,
    WATCHDOG,
    run_clients,
)  # bench/ is not a package: path set above

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
SEATS = 6
PGBENCH_SECONDS = 20
#: Pool size of each server process's PostgreSQL connections (``DB_POOL_MAX``).
DB_POOL_MAX = 10
GOAL_RATIO, GOAL_PUSH_P95_MS, GOAL_PUSH_AT_GAMES = 0.25, 50.0, 100


# --- small helpers -----------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def reachable(url: str, default_port: int) -> bool:
    parts = urlsplit(url)
    try:
        socket.create_connection((parts.hostname or "127.0.0.1", parts.port or default_port), 2)
    except OSError:
        return False
    return True


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0-100) by the nearest rank; nan for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, round(q / 100 * len(ordered) + 0.5))
    return ordered[min(rank, len(ordered)) - 1]


def quantiles(values: list[float]) -> str:
    if not values:
        return "n=0"
    p50, p95, p99 = (percentile(values, q) for q in (50, 95, 99))
    top = max(values)
    return f"p50 {p50:7.1f}   p95 {p95:7.1f}   p99 {p99:7.1f}   max {top:7.1f}   n={len(values)}"


class Postgres:
    """psql/createdb/pgbench against the server of ``url``, with its password in the env."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.url = url
        self.name = parts.path.lstrip("/") or "warboard_bench"
        self.args = [
            "-h",
            parts.hostname or "127.0.0.1",
            "-p",
            str(parts.port or 5432),
            "-U",
            parts.username or "postgres",
        ]
        self.env = {**os.environ, "PGPASSWORD": parts.password or ""}

    def sql(self, query: str, database: str = "postgres") -> str:
        out = subprocess.run(
            ["psql", *self.args, "-d", database, "-XAtqc", query],
            env=self.env,
            check=True,
            capture_output=True,
            text=True,
        )
        return out.stdout.strip()

    def ensure(self, database: str, *, fresh: bool = False) -> bool:
        """Create ``database`` if missing (drop it first when ``fresh``); True if created."""
        if fresh:
            self.sql(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        if self.sql(f"SELECT 1 FROM pg_database WHERE datname = '{database}'"):
            return False
        subprocess.run(["createdb", *self.args, database], env=self.env, check=True)
        return True

    def url_for(self, database: str) -> str:
        parts = urlsplit(self.url)
        return urlunsplit(parts._replace(path=f"/{database}"))


# --- the stack ---------------------------------------------------------------------------------


class Stack:
    """Daphne workers and a Celery worker in their own process groups, logs in ``logs``."""

    def __init__(self, env: dict[str, str], logs: Path) -> None:
        self.env, self.logs = env, logs
        self.processes: list[tuple[str, subprocess.Popen[bytes]]] = []
        self.ports: list[int] = []

    def spawn(self, name: str, command: list[str]) -> subprocess.Popen[bytes]:
        with (self.logs / f"{name}.log").open("wb") as out:
            process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        self.processes.append((name, process))
        return process

    def start(self, workers: int) -> None:
        self.spawn(
            "celery",
            [
                str(BIN / "celery"),
                "-A",
                "config",
                "worker",
                "--pool",
                "threads",
                "--concurrency",
                "1",
                "--loglevel",
                "WARNING",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
        )
        for i in range(workers):
            port = free_port()
            self.ports.append(port)
            self.spawn(
                f"daphne-{i}",
                [
                    str(BIN / "daphne"),
                    "--bind",
                    "127.0.0.1",
                    "--port",
                    str(port),
                    "config.asgi:application",
                ],
            )
        deadline = time.monotonic() + 90
        for port in self.ports:
            while True:
                self.check_alive()
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5):
                        break
                except OSError as exc:
                    if time.monotonic() > deadline:
                        raise SystemExit(
                            f"daphne on port {port} never came up (see {self.logs})"
                        ) from exc
                    time.sleep(0.3)

    def check_alive(self) -> None:
        for name, process in self.processes:
            if process.poll() is not None:
                raise SystemExit(f"{name} exited with {process.returncode} (see {self.logs})")

    def pids(self, prefix: str) -> list[int]:
        return [p.pid for name, p in self.processes if name.startswith(prefix)]

    def stop(self) -> None:
        for _, process in self.processes:
            if process.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGTERM)
        deadline = time.monotonic() + 15
        for _, process in self.processes:
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()
        self.processes.clear()


# --- CPU accounting from /proc ------------------------------------------------------------------


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _pids_named(*names: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                comm = (entry / "comm").read_text().strip()
            except OSError:
                continue
            if comm.startswith(names):
                found.append(int(entry.name))
    return found


def _machine_busy() -> tuple[float, float]:
    values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = values[3] + values[4]
    return sum(values) - idle, sum(values)


def machine_busy(seconds: float) -> float:
    """Percent of one core the whole machine is busy over ``seconds`` (100 x cores at most)."""
    busy0, total0 = _machine_busy()
    time.sleep(seconds)
    busy1, total1 = _machine_busy()
    return 100 * (os.cpu_count() or 1) * (busy1 - busy0) / max(1, total1 - total0)


class CpuSampler:
    """CPU seconds of each component between two instants (both taken on a thread)."""

    def __init__(self, groups: dict[str, Any], counters: Any) -> None:
        self.groups = groups  # name -> callable returning the pids now
        self.counters = counters  # callable returning server counters (name -> number)
        self.start: dict[str, dict[int, float]] = {}
        self.end: dict[str, dict[int, float]] = {}
        self.machine: list[tuple[float, float]] = []
        self.counted: list[dict[str, float]] = []

    def snapshot(self, into: dict[str, dict[int, float]]) -> None:
        for name, pids in self.groups.items():
            into[name] = {pid: _cpu_seconds(pid) for pid in pids()}
        self.machine.append(_machine_busy())
        try:
            self.counted.append(self.counters())
        except Exception as exc:  # a figure less, not a failed run
            print(f"(server counters not read: {exc!r})")

    def per_action(self, actions: int) -> str:
        """Server work per committed action: transactions, rows, Redis commands."""
        if len(self.counted) != 2 or not actions:
            return "per action: not sampled"
        before, after = self.counted
        delta = {k: (after[k] - before[k]) / actions for k in after if k in before}
        return (
            "server work per committed action: "
            f"{delta['xact_commit']:.1f} PostgreSQL commits, "
            f"{delta['tup_fetched']:.0f} rows fetched, {delta['tup_inserted']:.1f} inserted, "
            f"{delta['tup_updated']:.1f} updated, {delta['redis_commands']:.0f} Redis commands "
            "(pg_stat_database and INFO stats, whole server, over the window)"
        )

    def between(self, t0: float, t1: float) -> None:
        def run() -> None:
            time.sleep(max(0.0, t0 - time.time()))
            self.snapshot(self.start)
            time.sleep(max(0.0, t1 - time.time()))
            self.snapshot(self.end)

        threading.Thread(target=run, daemon=True).start()

    def report(self, seconds: float, actions: int = 0) -> list[str]:
        """CPU of each component over the window; with ``actions``, also its CPU ms per
        committed action (the server processes together, clients apart: what one action costs the
        server)."""
        if not self.end:
            return ["cpu: not sampled"]
        parts, accounted, per_action = [], 0.0, []
        for name in self.groups:
            used = sum(v - self.start[name].get(pid, v) for pid, v in self.end[name].items())
            accounted += used
            parts.append(f"{name} {100 * used / seconds:.0f}%")
            if actions:
                per_action.append((name, 1000 * used / actions))
        (busy0, total0), (busy1, total1) = self.machine
        cores = os.cpu_count() or 1
        machine = 100 * cores * (busy1 - busy0) / max(1, total1 - total0)
        parts.append(
            f"everything else on the machine {max(0.0, machine - 100 * accounted / seconds):.0f}%"
        )
        lines = [
            f"cpu in the window (100% = one core; {cores} cores): " + ", ".join(parts),
            f"machine busy: {machine:.0f}% of {cores * 100}%",
        ]
        if per_action:
            server = sum(ms for name, ms in per_action if name != "clients")
            lines.append(
                f"server CPU per committed action: {server:.1f} ms ("
                + ", ".join(f"{name} {ms:.1f}" for name, ms in per_action if name != "clients")
                + "; the bot clients apart)"
            )
        return lines


# --- set-up -------------------------------------------------------------------------------------


def django_setup(env: dict[str, str]) -> None:
    """Configure Django in this process against the bench database (for fast user set-up)."""
    for key in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "WARBOARD_VAR_DIR", "EMAIL_URL"):
        os.environ[key] = env[key]
    os.environ["DB_POOL"] = "0"
    os.environ["LOG_LEVEL"] = "WARNING"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def make_users(games: int, run: str) -> list[list[tuple[str, str]]]:
    """6K users with profiles and API tokens, in bulk: per game, six (username, token)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.db import transaction
    from rest_framework.authtoken.models import Token

    from games.models import Profile

    user_model = get_user_model()
    password = make_password(uuid.uuid4().hex)  # one hash for all: nobody signs in with it
    names = [f"load{run}g{g}s{s}" for g in range(games) for s in range(SEATS)]
    with transaction.atomic():
        users = user_model.objects.bulk_create(
            [user_model(username=n, password=password) for n in names], batch_size=1000
        )
        Profile.objects.bulk_create(
            [
                Profile(user=u, email_your_turn=False, email_reminder=False, email_game_over=False)
                for u in users
            ],
            batch_size=1000,
        )
        tokens = Token.objects.bulk_create(
            [Token(key=Token.generate_key(), user=u) for u in users], batch_size=1000
        )
    pairs = [(u.username, t.key) for u, t in zip(users, tokens, strict=True)]
    return [pairs[g * SEATS : (g + 1) * SEATS] for g in range(games)]


async def make_games(bases: list[str], seats: list[list[tuple[str, str]]]) -> list[dict[str, Any]]:
    """Create, join and start every game through the HTTP API (a few games at once)."""
    import aiohttp

    gate = asyncio.Semaphore(16)
    timeout = aiohttp.ClientTimeout(total=60)

    async def one(http: aiohttp.ClientSession, g: int, players: list[tuple[str, str]]) -> dict:
        base = bases[g % len(bases)]

        async def post(path: str, token: str, body: dict | None = None) -> dict:
            async with http.post(
                f"{base}{path}", json=body or {}, headers={"Authorization": f"Token {token}"}
            ) as response:
                if response.status not in (200, 201):
                    raise SystemExit(
                        f"set-up: POST {path} -> {response.status} {(await response.text())[:300]}"
                    )
                return await response.json()

        async with gate:
            (_, creator), *others = players
            # The AI answers at once: the load is the server's, not a pace for people to watch.
            game = await post(
                "/api/games", creator, {"seats": SEATS, "name": f"load {g}", "ai_delay_ms": 0}
            )
            for _, token in others:
                await post(f"/api/games/{game['id']}/join", token)
            started = await post(f"/api/games/{game['id']}/start", creator)
        by_name = {s["player"]: s["position"] for s in started["seats"]}
        return {
            "id": game["id"],
            "seats": [{"position": by_name[n], "username": n, "token": t} for n, t in players],
        }

    async with aiohttp.ClientSession(timeout=timeout) as http:
        return list(await asyncio.gather(*(one(http, g, p) for g, p in enumerate(seats))))


# --- the run ------------------------------------------------------------------------------------


def play(
    args: argparse.Namespace,
    games: list[dict[str, Any]],
    bases: list[str],
    sampler: CpuSampler,
    clients: list[Any],
    profile: Any,
) -> tuple[list, float, float]:
    """Client processes play ``games``; the records and the measured window (t0, t1)."""
    context = multiprocessing.get_context("spawn")
    queue = context.Queue()
    end = context.Value("d", 0.0)
    shares = [games[i :: args.client_processes] for i in range(args.client_processes)]
    shares = [s for s in shares if s]
    processes = [
        context.Process(
            target=run_clients,
            args=(share, bases, queue, end, not args.simultaneous_setup, args.think),
            daemon=True,
        )
        for share in shares
    ]
    for process in processes:
        process.start()
    clients.extend(processes)
    started = time.time()
    ready, set_up = 0, 0
    connected = setup_deadline = 0.0
    while True:  # warm up: --warmup seconds, and until every game is past its set-up
        try:
            kind, _ = queue.get(timeout=0.2)
        except Empty:
            kind = ""
        ready += kind == "ready"
        set_up += kind == "set_up"
        if not connected and ready == len(processes):
            connected = time.time()
            setup_deadline = connected + args.setup_timeout
            print(
                f"sockets: {len(games) * SEATS} opened in {connected - started:.1f} s", flush=True
            )
        elif not connected and time.time() > started + 600:
            raise SystemExit("the client processes could not open their sockets in 600 s")
        now = time.time()
        warm = connected and now >= connected + args.warmup
        if warm and (set_up == len(games) or now >= setup_deadline):
            break
    t0 = time.time()
    t1 = t0 + args.seconds
    note = "" if set_up == len(games) else f" ({len(games) - set_up} games still in set-up)"
    how = "six arrange decisions at once" if args.simultaneous_setup else "arranged in seat order"
    print(
        f"warm-up: {t0 - connected:.1f} s, until {set_up} of {len(games)} games were past "
        f"their set-up ({how}){note}; measuring {args.seconds:g} s",
        flush=True,
    )
    sampler.between(t0, t1)
    if profile is not None:
        threading.Thread(target=profile, args=(t0, t1), daemon=True).start()
    end.value = t1
    records = []
    while len(records) < len(processes):
        kind, payload = queue.get(timeout=args.seconds + 300)
        if kind == "record":
            records.append(payload)
    for process in processes:
        process.join(timeout=10)
    return records, t0, t1


def server_counters(pg: Postgres, redis_url: str) -> dict[str, float]:
    import redis

    names = ("xact_commit", "tup_fetched", "tup_inserted", "tup_updated")
    row = pg.sql(f"SELECT {', '.join(names)} FROM pg_stat_database WHERE datname = '{pg.name}'")
    counters: dict[str, float] = dict(zip(names, map(float, row.split("|")), strict=True))
    stats = redis.Redis.from_url(redis_url).info("stats")
    counters["redis_commands"] = float(stats["total_commands_processed"])
    return counters


def committed_in_db(game_ids: list[int], t0: float, t1: float) -> int:
    from datetime import UTC, datetime

    from games.models import ActionLog

    return ActionLog.objects.filter(
        game_id__in=game_ids,
        created_at__gte=datetime.fromtimestamp(t0, UTC),
        created_at__lt=datetime.fromtimestamp(t1, UTC),
    ).count()


def run_pgbench(pg: Postgres, clients: int) -> tuple[float | None, str]:
    """``pgbench -b simple-update`` on a scratch database: (tps, the command line)."""
    scratch = f"{pg.name}_pgbench"
    pg.ensure(scratch, fresh=True)
    try:
        subprocess.run(
            ["pgbench", *pg.args, "-i", "-q", scratch], env=pg.env, check=True, capture_output=True
        )
        command = [
            "pgbench",
            *pg.args,
            "-b",
            "simple-update",
            "-c",
            str(clients),
            "-j",
            "2",
            "-T",
            str(PGBENCH_SECONDS),
            scratch,
        ]
        out = subprocess.run(command, env=pg.env, capture_output=True, text=True)
        match = re.search(r"tps = ([\d.]+) \(without initial connection time\)", out.stdout)
        shown = " ".join(command[:1] + command[command.index("-b") :])
        if match is None:
            return None, f"{shown}: failed: {(out.stderr or out.stdout)[-300:]}"
        return float(match.group(1)), shown
    finally:
        pg.sql(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')


def pgbench_clients(pg: Postgres, wanted: int) -> tuple[int, str]:
    limit = int(pg.sql("SHOW max_connections"))
    reserved = int(pg.sql("SHOW superuser_reserved_connections"))
    in_use = int(
        pg.sql("SELECT count(*) FROM pg_stat_activity WHERE backend_type = 'client backend'")
    )
    cap = limit - reserved - in_use - 2
    if wanted <= cap:
        return wanted, ""
    return cap, (
        f"capped from {wanted} to {cap}: max_connections {limit}, {reserved} reserved, "
        f"{in_use} in use"
    )


def py_spy_profiler(stack: Stack, logs: Path, *, gil: bool = False) -> Any:
    """Record each daphne worker with py-spy over the measured window (collapsed stacks)."""
    spy = shutil.which("py-spy") or str(BIN / "py-spy")

    def record(t0: float, t1: float) -> None:
        time.sleep(max(0.0, t0 - time.time()))
        spies = [
            subprocess.Popen(
                [
                    spy,
                    "record",
                    "--pid",
                    str(pid),
                    "--duration",
                    str(int(t1 - t0)),
                    "--format",
                    "raw",
                    "--rate",
                    "50",
                    "--output",
                    str(logs / f"py-spy-daphne-{i}.txt"),
                    "--nonblocking",
                    "--threads",
                    "--gil" if gil else "--idle",
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            for i, pid in enumerate(stack.pids("daphne"))
        ]
        for spy_process in spies:
            spy_process.wait()

    return record


def report(
    args: argparse.Namespace, records: list[Any], t0: float, t1: float, db_committed: int
) -> dict[str, Any]:
    """Print the play figures; return the ones the goals need."""

    def inside(t: float) -> bool:
        return t0 <= t < t1

    seconds = t1 - t0
    actions = [(ms, via) for r in records for (t, ms, via) in r.actions if inside(t)]
    pushes = [ms for r in records for (t, ms) in r.pushes if inside(t)]
    stale = sum(1 for r in records for t in r.stale if inside(t))
    stale_all = sum(len(r.stale) for r in records)
    errors_window = Counter(kind for r in records for (t, kind, _) in r.errors if inside(t))
    errors_all = Counter(kind for r in records for (_, kind, _) in r.errors)
    lost = [item for r in records for item in r.lost_pushes]
    if lost:
        errors_all["push lost on a live socket"] += len(lost)
        errors_window["push lost on a live socket"] += sum(1 for item in lost if inside(item[0]))
    stalled = sorted(g for r in records for g in r.stalled_games)
    if stalled:
        errors_all["stalled game"] += len(stalled)
        errors_window["stalled game"] += len(stalled)
    lag = [ms for r in records for (t, ms) in r.lag if inside(t)]
    inflight = [n for r in records for (t, n) in r.inflight if inside(t)]
    finished = sum(r.finished_games for r in records)
    rate = len(actions) / seconds
    print(
        f"actions/s (committed)      {rate:8.1f}   ({len(actions)} acks in {seconds:.0f} s; "
        f"ActionLog rows in the window: {db_committed} = {db_committed / seconds:.1f}/s)"
    )
    print(f"action latency ms          {quantiles([ms for ms, _ in actions])}")
    for via in ("http", "socket"):
        print(f"  over {via:<6}              {quantiles([ms for ms, v in actions if v == via])}")
    print(f"push latency ms            {quantiles(pushes)}")
    print(
        f"409 stale_version          {stale} in the window ({stale_all} in the whole run), "
        "re-read and retried; not errors"
    )
    total_errors = sum(errors_all.values())
    print(
        f"errors                     {sum(errors_window.values())} in the window, "
        f"{total_errors} in the whole run" + (f": {dict(errors_all)}" if errors_all else "")
    )
    examples: dict[str, str] = {}
    for r in records:
        for _, kind, detail in r.errors:
            examples.setdefault(kind, detail)
    for kind, detail in examples.items():
        print(f"  e.g. {kind}: {detail}")
    if lost:
        early = sorted(lost)[:3]
        print(
            "  e.g. pushes lost: "
            + ", ".join(f"game {g} seat {p} version {v} ({w - t0:+.0f} s)" for w, g, p, v in early)
            + f"; {sum(1 for item in lost if item[3] <= SEATS)} of {len(lost)} within the "
            "set-up (versions 1-6)"
        )
    if stalled:
        print(
            f"  stalled games (running, no new version in the last {STALL:.0f} s): {stalled[:10]}"
        )
        for r in records:
            for line in r.stall_details:
                print(f"    {line}")
    late = sum(r.late_replies for r in records)
    if late:
        print(
            f"  socket answers after their {REQUEST_TIMEOUT:.0f} s timeout: {late} "
            "(not counted again)"
        )
    asked = sum(1 for r in records for t in r.state_requests if inside(t))
    if asked:
        print(
            f"  state asked again after {QUIET:.0f} s without progress: {asked} times in the window"
        )
    slow = sum(1 for r in records for t in r.slow_pushes if inside(t))
    if slow:
        print(
            f"waited > {WATCHDOG:.0f} s for a push   {slow} times in the window (then re-read the "
            "game over HTTP)"
        )
    print(
        f"submissions in flight      mean {statistics.fmean(inflight) if inflight else 0:.1f}, "
        f"max {max(inflight, default=0)} (of {args.games * SEATS} seats)"
    )
    print(
        f"client event-loop lag ms   p50 {percentile(lag, 50):.1f}   p99 {percentile(lag, 99):.1f}"
        f"   max {max(lag, default=0):.1f}   ({args.client_processes} client process(es))"
    )
    if finished:
        print(f"games finished             {finished} (their seats stopped playing)")
    return {
        "rate": rate,
        "push_p95": percentile(pushes, 95),
        "errors": total_errors,
        "inflight": statistics.fmean(inflight) if inflight else 0.0,
    }


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2, help="ASGI (daphne) processes")
    parser.add_argument("--games", type=int, default=100, help="concurrent 6-seat games")
    parser.add_argument("--seconds", type=float, default=60, help="measured duration")
    parser.add_argument(
        "--warmup",
        type=float,
        default=10,
        help="seconds played before measuring (at least until every game is past its set-up)",
    )
    parser.add_argument(
        "--database-url", default="postgres://postgres:postgres@127.0.0.1:5432/warboard_bench"
    )
    parser.add_argument(
        "--redis-url",
        default="redis://127.0.0.1:6379/2",
        help="flushed at the start: a database for the benchmark alone",
    )
    parser.add_argument(
        "--client-processes",
        type=int,
        default=1,
        help="bot client processes (one asyncio loop each)",
    )
    parser.add_argument(
        "--fresh-db", action="store_true", help="drop and re-create the benchmark database first"
    )
    parser.add_argument(
        "--py-spy",
        metavar="DIR",
        type=Path,
        help="record the daphne workers with py-spy in the window (raw stacks)",
    )
    parser.add_argument(
        "--py-spy-gil",
        action="store_true",
        help="with --py-spy: sample only the thread holding the GIL (where the CPU goes), "
        "instead of every thread including idle ones (where the time goes)",
    )
    parser.add_argument(
        "--setup-timeout",
        type=float,
        default=600,
        help="longest wait for every game to finish its set-up before measuring anyway",
    )
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds each bot pauses before acting (default 0: every game always has a "
        "decision in flight, so the stack runs saturated)",
    )
    parser.add_argument(
        "--simultaneous-setup",
        action="store_true",
        help="all six seats arrange at once (5 of 6 then get a 409 each round) instead of in "
        "seat order; the set-up is warm-up either way",
    )
    parser.add_argument(
        "--server-log-level",
        default="WARNING",
        help="LOG_LEVEL of the servers (INFO shows channels-redis dropping messages over capacity)",
    )
    parser.add_argument("--no-pgbench", action="store_true", help="skip the pgbench comparison")
    args = parser.parse_args()
    # Ctrl-C and a plain kill both stop the stack (see the finally below), even when this was
    # started with SIGINT ignored (a background job of a script).
    signal.signal(signal.SIGINT, _interrupt)
    signal.signal(signal.SIGTERM, _interrupt)

    for url, port, what in (
        (args.database_url, 5432, "PostgreSQL"),
        (args.redis_url, 6379, "Redis"),
    ):
        if not reachable(url, port):
            raise SystemExit(
                f"{what} is not reachable at {url}: start it first "
                "(scripts/services.sh shows how the tests do)"
            )
    pg = Postgres(args.database_url)
    created = pg.ensure(pg.name, fresh=args.fresh_db)
    import redis

    redis.Redis.from_url(args.redis_url).flushdb()

    logs = Path(tempfile.mkdtemp(prefix="warboard-load-"))
    run = uuid.uuid4().hex[:6]
    env = {
        **os.environ,
        "DATABASE_URL": args.database_url,
        "REDIS_URL": args.redis_url,
        "DB_POOL_MAX": str(DB_POOL_MAX),
        "EMAIL_URL": "dummymail://",
        "THROTTLE_ACTIONS": "100000/min",
        "DEBUG": "false",
        "LOG_LEVEL": args.server_log_level,
        "SECRET_KEY": f"load-bench-{uuid.uuid4().hex}",
        "WARBOARD_VAR_DIR": str(logs),
        "CHANNEL_LAYER_PREFIX": f"load{run}",
        "PYTHONUNBUFFERED": "1",
    }
    cores = os.cpu_count() or 1
    print(
        f"load: {args.workers} daphne worker(s), 1 Celery worker, {args.games} games x {SEATS} "
        f"seats ({args.games * SEATS} sockets; even seats act over HTTP, odd over the socket), "
        f"{args.client_processes} client process(es), think time {args.think:g} s"
    )
    print(
        f"machine: {cores} cores shared by the clients, the servers, PostgreSQL, Redis and "
        f"Celery; database {pg.name} ({'created' if created else 'reused'}), redis "
        f"{args.redis_url} (flushed); logs in {logs}",
        flush=True,
    )
    print(
        f"machine busy before the start (other work on it): {machine_busy(2.0):.0f}% of "
        f"{cores * 100}%",
        flush=True,
    )
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    stack = Stack(env, logs)
    clients: list[Any] = []  # the client processes, once started
    interrupted = False
    try:
        stack.start(args.workers)
        bases = [f"http://127.0.0.1:{port}" for port in stack.ports]
        django_setup(env)
        started = time.perf_counter()
        users = make_users(args.games, run)
        made = time.perf_counter()
        games = asyncio.run(make_games(bases, users))
        print(
            f"set-up: {args.games * SEATS} users + tokens (ORM, bulk) in {made - started:.1f} s; "
            f"{args.games} games created, joined, started over HTTP in "
            f"{time.perf_counter() - made:.1f} s",
            flush=True,
        )
        postgres_pids = lambda: _pids_named("postgres")  # noqa: E731
        sampler = CpuSampler(
            groups={
                "daphne": lambda: stack.pids("daphne"),
                "postgres": postgres_pids,
                "redis": lambda: _pids_named("redis-server"),
                "celery": lambda: stack.pids("celery"),
                "clients": lambda: [p.pid for p in clients if p.pid is not None],
            },
            counters=lambda: server_counters(pg, args.redis_url),
        )
        profile = py_spy_profiler(stack, args.py_spy, gil=args.py_spy_gil) if args.py_spy else None
        if args.py_spy:
            args.py_spy.mkdir(parents=True, exist_ok=True)
        records, t0, t1 = play(args, games, bases, sampler, clients, profile)
        stack.check_alive()
        db_committed = committed_in_db([g["id"] for g in games], t0, t1)
        print()
        figures = report(args, records, t0, t1, db_committed)
        for line in sampler.report(t1 - t0, db_committed):
            print(line)
        print(sampler.per_action(db_committed))
    except KeyboardInterrupt:
        interrupted = True
        print("\ninterrupted: stopping the stack")
    finally:
        for process in clients:
            if process.is_alive():
                process.terminate()
                process.join(timeout=5)
        stack.stop()
        from django.db import connections

        with contextlib.suppress(Exception):
            connections.close_all()
    if interrupted:
        raise SystemExit(130)

    tps = None
    if not args.no_pgbench:
        clients, note = pgbench_clients(pg, args.games)
        tps, command = run_pgbench(pg, clients)
        print(
            f"pgbench (stack stopped)    {command}: "
            + (f"{tps:.0f} tps" if tps is not None else "no figure")
        )
        print(
            f"  clients: one per game, as each game has about one decision in flight (measured "
            f"mean in flight {figures['inflight']:.1f}){'; ' + note if note else ''}"
        )
        if tps:
            print(f"actions/s / pgbench tps    {figures['rate'] / tps:.3f}")
    print()
    if tps:
        ratio = figures["rate"] / tps
        print(
            f"{'PASS' if ratio >= GOAL_RATIO else 'FAIL'}: actions/s >= 25% of pgbench tps "
            f"({figures['rate']:.1f} / {tps:.0f} = {100 * ratio:.1f}%)"
        )
    else:
        print("SKIP: actions/s >= 25% of pgbench tps (no pgbench figure)")
    push = figures["push_p95"]
    scale = (
        "" if args.games >= GOAL_PUSH_AT_GAMES else f" (goal is set at {GOAL_PUSH_AT_GAMES} games)"
    )
    print(
        f"{'PASS' if push <= GOAL_PUSH_P95_MS else 'FAIL'}: push p95 <= 50 ms at "
        f"{args.games} concurrent games ({push:.1f} ms){scale}"
    )
    print(f"{'PASS' if figures['errors'] == 0 else 'FAIL'}: zero errors ({figures['errors']})")
    print(f"(server logs: {logs})")


if __name__ == "__main__":
    main()
