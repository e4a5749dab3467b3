"""Benchmark: /healthz latency and websocket ping round trips against a real daphne process.

Starts the server exactly as `make run` does (scripts/serve.sh) with the current environment,
so it measures the embedded default by default and the full stack when DATABASE_URL and
REDIS_URL are set (the database must exist). Prints figures; asserts nothing.

    .venv/bin/python bench/healthz_and_ping.py [--requests 500]
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def get_json(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=5) as response:
        return json.loads(response.read())


def wait_until_up(url: str, seconds: float = 60) -> dict:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            return get_json(url)
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"server at {url} never came up")


def describe(label: str, samples_ms: list[float]) -> str:
    samples_ms.sort()
    p95 = samples_ms[int(len(samples_ms) * 0.95) - 1]
    return (
        f"{label:<28} n={len(samples_ms):<5} median {statistics.median(samples_ms):6.2f} ms"
        f"   p95 {p95:6.2f} ms   max {samples_ms[-1]:6.2f} ms"
        f"   => {1000 * len(samples_ms) / sum(samples_ms):7.1f} /s sequential"
    )


def timed(action, count: int) -> list[float]:
    samples = []
    for _ in range(count):
        start = time.perf_counter()
        action()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=500)
    args = parser.parse_args()

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "VENV": sys.prefix, "PORT": str(port)}
    env.setdefault("WARBOARD_VAR_DIR", tempfile.mkdtemp(prefix="warboard-bench-"))
    server = subprocess.Popen(
        ["bash", str(ROOT / "scripts" / "serve.sh")],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        health = wait_until_up(f"{base}/healthz")
        print(f"server: {health['backends']}  version {health['version']}")
        print(describe("GET /healthz", timed(lambda: get_json(f"{base}/healthz"), args.requests)))
        with connect(f"ws://127.0.0.1:{port}/ws/ping/", origin=base) as ws:

            def ping() -> None:
                ws.send('{"type": "ping"}')
                ws.recv(timeout=5)

            print(describe("ws ping -> pong (1 socket)", timed(ping, args.requests)))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
