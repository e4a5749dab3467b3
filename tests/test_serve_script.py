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
        yield port, Path(bare_env["WARBOARD_VAR_DIR"])
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)
        print(log.read_text())


def test_serve_script_answers_health_and_websocket_ping(served):
    port, var_dir = served
    server_url = f"http://127.0.0.1:{port}"
    body = None
    deadline = time.monotonic() + 60
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

    with connect(f"ws://127.0.0.1:{port}/ws/ping/", origin=server_url, open_timeout=10) as ws:
        ws.send(json.dumps({"type": "ping"}))
        assert json.loads(ws.recv(timeout=10)) == {"type": "pong", "user": None}

    with urllib.request.urlopen(f"{server_url}/", timeout=5) as response:
        page = response.read().decode()
    assert "<title>Warboard</title>" in page
    static_path = page.split('<script type="module" src="')[1].split('"')[0]
    assert static_path.startswith("/static/frontend/status.")  # hashed by collectstatic
    with urllib.request.urlopen(f"{server_url}{static_path}", timeout=5) as response:
        assert b"/ws/ping/" in response.read()
