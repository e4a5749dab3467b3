"""The README's first command, past the install: scripts/serve.sh on a bare environment.

Starts the real daphne process as `make run` does (migrate, collectstatic, daphne), with no
Warboard variables set, then checks /healthz and a websocket ping over real sockets.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from websockets.sync.client import connect

from tests.conftest import ROOT


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def served(bare_env: dict[str, str], tmp_path: Path):
    """The server as `make run` starts it; its output goes to a file (printed if a test fails)."""
    port = free_port()
    env = {**bare_env, "VENV": sys.prefix, "PORT": str(port)}
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            ["bash", str(ROOT / "scripts" / "serve.sh")],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        yield port, Path(bare_env["WARBOARD_VAR_DIR"]), log
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)
        print(log.read_text())


def test_serve_script_answers_health_and_websocket_ping(served):
    port, var_dir, log = served
    server_url = f"http://127.0.0.1:{port}"
    body = None
    deadline = time.monotonic() + 120  # migrating a fresh database on a busy machine
    while body is None and time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{server_url}/healthz", timeout=2) as response:
                body = json.loads(response.read())
        except OSError:
            time.sleep(0.3)
    assert body is not None, "daphne never answered /healthz (server log below)"
    assert body["status"] == "ok"
    assert body["backends"] == {"database": "sqlite", "channel_layer": "InMemoryChannelLayer"}
    assert (var_dir / "warboard.sqlite3").exists()  # migrated into the embedded file
    # Once it answers, the script says where to go (and never before: the probe came first).
    ready = f"Warboard is ready: open http://127.0.0.1:{port}/ "
    deadline = time.monotonic() + 10
    while ready not in log.read_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    printed = log.read_text()
    assert ready in printed
    steps = ["Preparing the database (migrate)", "Collecting the static files",
             f"Starting the server (daphne on 127.0.0.1:{port})", ready]  # fmt: skip
    assert [printed.index(step) for step in steps] == sorted(printed.index(s) for s in steps)

    with connect(f"ws://127.0.0.1:{port}/ws/ping/", origin=server_url, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=10)) == {"type": "pong", "user": None}

    with urllib.request.urlopen(f"{server_url}/status", timeout=5) as response:
        page = response.read().decode()
    assert "<title>Server status - Warboard</title>" in page
    static_path = page.split('<script type="module" src="')[1].split('"')[0]
    assert static_path.startswith("/static/frontend/status.")  # hashed by collectstatic
    with urllib.request.urlopen(f"{server_url}{static_path}", timeout=5) as response:
        assert b"/ws/ping/" in response.read()


def fake_python(venv: Path, pip_output: str, status: int) -> None:
    """A venv whose python answers ``-m pip ...`` with ``pip_output`` and ``status``."""
    (venv / "bin").mkdir(parents=True)
    python = venv / "bin" / "python"
    python.write_text(f"#!/bin/sh\ncat <<'OUT'\n{pip_output}\nOUT\nexit {status}\n")
    python.chmod(0o755)


PIP_OUTPUT = """Looking in links: /somewhere
Collecting Django<5.3,>=5.2 (from warboard==0.1)
  Using cached django-5.2.8-py3-none-any.whl
Collecting channels==4.3.1
Installing collected packages: channels, Django, warboard
Successfully installed channels-4.3.1 Django-5.2.8 warboard-0.1"""


def test_bootstrap_shows_each_step_and_package_while_pip_works(bare_env, tmp_path):
    """`make run` on a fresh machine: a line per step and per package, not one line for two
    minutes; pip's whole output is in the log."""
    venv, log = tmp_path / "venv", tmp_path / "install.log"
    fake_python(venv, PIP_OUTPUT, 0)
    env = {**bare_env, "VENV": str(venv), "INSTALL_LOG": str(log)}
    done = subprocess.run(["bash", str(ROOT / "scripts" / "bootstrap.sh")], env=env,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"Updating pip in {venv} (pip's log: {log})"
    assert lines[5] == f"Installing warboard and its dependencies into {venv} (pip's log: {log})"
    assert lines[6:9] == ["  collecting Django<5.3,>=5.2", "  collecting channels==4.3.1",
                          "  installing them"]  # fmt: skip
    assert lines[9].startswith("  done in ") and lines[9].endswith(" s")
    assert log.read_text().count("Successfully installed") == 2  # both steps, in full
    again = subprocess.run(["bash", str(ROOT / "scripts" / "bootstrap.sh")], env=env,
                           capture_output=True, text=True, timeout=60)  # fmt: skip
    assert again.stdout == f"warboard is installed in {venv} (up to date)\n"


def test_bootstrap_prints_the_end_of_pips_log_when_it_fails(bare_env, tmp_path):
    venv, log = tmp_path / "venv", tmp_path / "install.log"
    fake_python(venv, "Collecting nothing-such\nERROR: No matching distribution", 1)
    env = {**bare_env, "VENV": str(venv), "INSTALL_LOG": str(log)}
    done = subprocess.run(["bash", str(ROOT / "scripts" / "bootstrap.sh")], env=env,
                          capture_output=True, text=True, timeout=60)  # fmt: skip
    assert done.returncode == 1
    assert done.stdout.splitlines()[1:] == ["  collecting nothing-such"]
    end = "Collecting nothing-such\nERROR: No matching distribution\n"
    assert done.stderr == f"pip failed; the end of {log}:\n{end}"
    assert not (venv / ".warboard-installed").exists()
