"""Real server processes for the integration tests: daphne, a Celery worker and beat, and a
Redis server of the test's own that it may kill and restart.

Every process serves pytest-django's test database (the tests using them are transactional, so
the processes see the rows the test writes) and tags its connections with ``application_name``
so a test can drop exactly theirs (``pg_terminate_backend``) and not its own.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

from django.conf import settings

from tests.conftest import ROOT

#: The ``application_name`` of the server processes' database connections.
APPLICATION_NAME = "warboard-under-test"

BIN = Path(sys.executable).parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def servers_database_url() -> str:
    """``DATABASE_URL`` pointed at this run's test database, connections tagged."""
    url = urlsplit(os.environ["DATABASE_URL"])
    database = settings.DATABASES["default"]["NAME"]
    query = urlencode({"application_name": APPLICATION_NAME})
    return urlunsplit(url._replace(path=f"/{database}", query=query))


def server_env(**overrides: str) -> dict[str, str]:
    """This run's environment for a server process, on the test database and secret key."""
    return {
        **os.environ,
        "DATABASE_URL": servers_database_url(),
        "SECRET_KEY": settings.SECRET_KEY,
        **overrides,
    }


class Process:
    """A child process writing to its own log file."""

    def __init__(self, name: str, argv: list[str], env: dict[str, str], log_dir: Path) -> None:
        self.name = name
        self.argv = argv
        self.env = env
        self.log = log_dir / f"{name}.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        with self.log.open("ab") as out:
            # Its own process group, so a SIGKILL reaches a worker's pool children too.
            self.process = subprocess.Popen(
                self.argv, cwd=ROOT, env=self.env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def children(self) -> list[int]:
        """Pids of the direct children (a Celery worker's pool processes)."""
        path = Path(f"/proc/{self.pid}/task/{self.pid}/children")
        return [int(pid) for pid in path.read_text().split()] if path.exists() else []

    def kill(self) -> None:
        """SIGKILL the whole process group at once: no clean shutdown, as a crash would."""
        if self.running():
            os.killpg(self.pid, signal.SIGKILL)
            assert self.process is not None
            self.process.wait(timeout=10)

    def stop(self) -> None:
        if not self.running():
            return
        assert self.process is not None
        os.killpg(self.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.kill()
        # A worker's pool children may outlive its main process by a moment, holding database
        # connections; the test database could then not be dropped at the end of the run.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)

    def text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""


class RedisServer(Process):
    """A Redis of the test's own on a free port, keeping nothing on disk: killing and starting
    it again is a crash and an empty restart."""

    def __init__(self, log_dir: Path) -> None:
        self.port = free_port()
        argv = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", str(log_dir)]  # fmt: skip
        super().__init__("redis", argv, dict(os.environ), log_dir)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def wait_ready(self, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        last: OSError | None = None
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(16).startswith(b"+PONG"):
                        return
            except OSError as error:
                last = error  # not listening yet
            time.sleep(0.1)
        raise AssertionError(f"redis not ready ({last}):\n{self.text()}")


class Daphne(Process):
    """One daphne process serving ``config.asgi`` on a free port, with an HTTP client."""

    def __init__(self, name: str, env: dict[str, str], log_dir: Path) -> None:
        self.port = free_port()
        argv = [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(self.port),
                "config.asgi:application"]  # fmt: skip
        super().__init__(name, argv, env, log_dir)
        #: (request, seconds) of each request made through ``request``.
        self.timings: list[tuple[str, float]] = []

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def wait_ready(self, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        last: OSError | None = None
        while time.monotonic() < deadline:
            assert self.running(), f"{self.name} exited:\n{self.text()}"
            try:
                with urllib.request.urlopen(f"{self.http}/healthz", timeout=2):
                    return  # 200, or 503 while Redis is down: either way it serves
            except urllib.error.HTTPError:
                return
            except OSError as error:
                last = error  # not listening yet
            time.sleep(0.2)
        raise AssertionError(f"{self.name} not ready in {timeout}s ({last}):\n{self.text()}")

    def request(
        self, method: str, path: str, body: dict[str, Any] | None = None, token: str | None = None
    ) -> tuple[int, Any]:
        """(status, parsed JSON body) of one request; HTTP errors are answers, not raised."""
        headers = {"Content-Type": "application/json"}
        if token is not None:
            headers["Authorization"] = f"Token {token}"
        data = json.dumps(body).encode() if body is not None else None
        started = time.monotonic()
        try:
            return self._request(method, path, data, headers)
        finally:
            self.timings.append((f"{method} {path}", time.monotonic() - started))

    def _request(
        self, method: str, path: str, data: bytes | None, headers: dict[str, str]
    ) -> tuple[int, Any]:
        request = urllib.request.Request(f"{self.http}{path}", data=data, method=method,
                                         headers=headers)  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            raw = error.read()
            try:
                return error.code, json.loads(raw)
            except ValueError:
                return error.code, raw.decode(errors="replace")


def celery_worker(name: str, env: dict[str, str], log_dir: Path, concurrency: int = 1) -> Process:
    """A Celery worker with one prefork pool child by default (not the solo pool): killing
    the child mid-task is the fault ``task_reject_on_worker_lost`` answers. The compose file
    runs two (``concurrency=2``): the worker then fetches a second task while one runs."""
    argv = [str(BIN / "celery"), "-A", "config", "worker", "--pool", "prefork",
            "--concurrency", str(concurrency), "--hostname", f"{name}@%h", "--without-gossip",
            "--without-mingle", "--without-heartbeat", "--loglevel", "INFO"]  # fmt: skip
    return Process(name, argv, env, log_dir)


def celery_beat(env: dict[str, str], log_dir: Path) -> Process:
    """Celery beat, sending the periodic sweep every ``DEADLINE_SWEEP_SECONDS``."""
    argv = [str(BIN / "celery"), "-A", "config", "beat", "--loglevel", "INFO",
            "--schedule", str(log_dir / "beat-schedule")]  # fmt: skip
    return Process("beat", argv, env, log_dir)
