"""Outages fail fast (config.outages): a 503 with ``Retry-After`` and the backend's name within
seconds, and a websocket closed with 4503 after an ``error`` message, never a bare 500.

Each test runs its own daphne against backends it can take away without touching the
machine's own servers:

- PostgreSQL: daphne reaches the test database through a TCP proxy of the test's own; taking
  the database away drops the proxied connections and then accepts new ones without ever
  answering (a server that is gone, not one refusing at once: the case connect timeouts are
  for). Before, each request waited for the pool's 30 s and got a 500.
- Redis: a redis-server of the test's own on a free port, killed. Before, every websocket
  handshake got a bare HTTP 500.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
import websockets
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token

from tests.integration.processes import Daphne, RedisServer, server_env, servers_database_url

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

#: The longest an answer may take during an outage (connect timeout 3 s, pool wait 4 s).
FAIL_FAST_SECONDS = 8


class TcpProxy:
    """Forwards 127.0.0.1:<port> to a server; ``blackhole()`` drops every proxied connection
    and from then on accepts new ones but never forwards or answers, until ``resume()``."""

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.forwarding = True
        self.sockets: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            with self.lock:
                self.sockets.append(client)
                if not self.forwarding:
                    continue  # held open, never answered
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self.lock:
                self.sockets.append(upstream)
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pipe, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pipe(source: socket.socket, sink: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while data := source.recv(65536):
                sink.sendall(data)
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def blackhole(self) -> None:
        with self.lock:
            self.forwarding = False
            for sock in self.sockets:
                with contextlib.suppress(OSError):
                    sock.shutdown(socket.SHUT_RDWR)
                sock.close()
            self.sockets.clear()

    def resume(self) -> None:
        with self.lock:
            self.forwarding = True
            for sock in self.sockets:  # the held ones: their clients gave up long ago
                sock.close()
            self.sockets.clear()

    def close(self) -> None:
        self.listener.close()
        self.blackhole()


def get(server: Daphne, path: str, token: str | None = None) -> tuple[int, dict[str, str], bytes]:
    """(status, headers, body) of a GET; error statuses are answers, not raised."""
    headers = {"Authorization": f"Token {token}"} if token else {}
    request = urllib.request.Request(f"{server.http}{path}", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=40) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


@pytest.fixture
def proxied_web(transactional_db, tmp_path: Path) -> Iterator[tuple[Daphne, TcpProxy]]:
    url = urlsplit(servers_database_url())
    proxy = TcpProxy((url.hostname or "127.0.0.1", url.port or 5432))
    netloc = url.netloc.rsplit("@", 1)[0] + f"@127.0.0.1:{proxy.port}"
    env = server_env(
        DATABASE_URL=urlunsplit(url._replace(netloc=netloc)),
        CELERY_BROKER_URL="memory://",  # nothing queued in the machine's Redis
        CHANNEL_LAYER_PREFIX=f"warboard-outage-{uuid.uuid4().hex[:8]}",
    )
    web = Daphne("web", env, tmp_path)
    try:
        web.start()
        web.wait_ready()
        yield web, proxy
    except BaseException:
        print(web.text()[-20000:])
        raise
    finally:
        web.stop()
        proxy.close()


def test_with_postgresql_gone_requests_get_a_503_with_retry_after_within_seconds(proxied_web):
    web, proxy = proxied_web
    alice = get_user_model().objects.create_user("alice", password="a long enough password 7")
    token = Token.objects.create(user=alice).key
    assert get(web, "/api/auth/me", token)[0] == 200

    proxy.blackhole()
    for path, api in (("/api/auth/me", True), ("/api/games", True), ("/players/alice", False)):
        started = time.monotonic()
        status, headers, body = get(web, path, token if api else None)
        elapsed = time.monotonic() - started
        assert status == 503, (path, status, body[:500])
        assert elapsed < FAIL_FAST_SECONDS, (path, elapsed)
        assert headers["Retry-After"] == "5"
        if api:
            assert json.loads(body) == {
                "error": "unavailable", "field": None, "allowed": None, "backend": "database",
                "message": "the database is unavailable; try again in 5 seconds",
            }  # fmt: skip
        else:
            assert b"The database is unavailable" in body

    proxy.resume()  # and it serves again, on fresh connections
    deadline = time.monotonic() + 30
    while (status := get(web, "/api/auth/me", token)[0]) != 200 and time.monotonic() < deadline:
        time.sleep(0.5)
    assert status == 200
    assert "database unavailable: GET /api/auth/me" in web.text()


@pytest.fixture
def redis_web(transactional_db, tmp_path: Path) -> Iterator[tuple[Daphne, RedisServer]]:
    redis = RedisServer(tmp_path)
    redis.start()
    redis.wait_ready()
    env = server_env(
        REDIS_URL=redis.url, CELERY_BROKER_URL="memory://",
        CHANNEL_LAYER_PREFIX=f"warboard-outage-{uuid.uuid4().hex[:8]}",
    )  # fmt: skip
    web = Daphne("web", env, tmp_path)
    try:
        web.start()
        web.wait_ready()
        yield web, redis
    except BaseException:
        print(web.text()[-20000:])
        raise
    finally:
        web.stop()
        redis.stop()


async def socket_answer(web: Daphne, path: str) -> tuple[list[dict[str, Any]], int | None]:
    """The messages a socket receives until it is closed, and its close code."""
    uri = f"ws://127.0.0.1:{web.port}{path}"
    async with websockets.connect(uri, origin=web.http, open_timeout=10) as ws:
        messages: list[dict[str, Any]] = []
        with contextlib.suppress(websockets.ConnectionClosed):
            while True:
                messages.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
        return messages, ws.close_code


def test_with_redis_gone_a_websocket_is_closed_with_4503_and_a_reason_not_a_500(redis_web):
    web, redis = redis_web
    redis.kill()
    for path in ("/ws/ping/", "/ws/lobby/", "/ws/games/1/"):
        started = time.monotonic()
        messages, code = asyncio.run(socket_answer(web, path))
        assert time.monotonic() - started < FAIL_FAST_SECONDS
        assert code == 4503, (path, code, messages)
        assert messages == [{
            "type": "error", "status": 503, "error": "unavailable", "field": None,
            "allowed": None, "backend": "redis",
            "message": "the Redis server is unavailable; try again in 5 seconds",
        }], path  # fmt: skip
    assert "redis unavailable: websocket /ws/ping/ closed with 4503" in web.text()


def test_a_broker_channel_whose_connection_is_gone_refuses_with_a_connection_error():
    """config.redis_broker, the cause of the worker's exit in one step: once Celery has
    collected a lost connection, acknowledging a task on its channel (a task that ran through
    the outage) must raise an error kombu and Celery handle ("Couldn't ack"), not an
    AttributeError that stops the worker. Uses the machine's Redis only to open the channel;
    nothing is written to it."""
    from config.celery import app

    with app.connection_for_write(os.environ["REDIS_URL"]) as connection:
        channel = connection.default_channel
        connection.collect()
        channel.close()  # a second close is harmless
        with pytest.raises(connection.connection_errors) as raised:  # not AttributeError
            channel.basic_ack("a-delivery-tag")
        assert "connection of this channel was closed" in str(raised.value)
