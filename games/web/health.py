"""Probes behind ``/healthz``: each one really touches its backend and reports what it found.

A probe never raises; it returns a ``Probe`` whose ``ok`` is False and whose ``detail`` names the
error, so one dead backend is reported by name instead of turning the probe itself into a 500.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from dataclasses import dataclass
from importlib import metadata
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import connections

#: How long the channel layer may take to hand a message back before it counts as down.
CHANNEL_LAYER_TIMEOUT_SECONDS = 2.0


@dataclass(frozen=True)
class Probe:
    ok: bool
    backend: str
    detail: str = "ok"

    @property
    def summary(self) -> str:
        return "ok" if self.ok else f"error: {self.detail}"


def _database_round_trip(alias: str) -> Probe:
    connection = connections[alias]
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            (value,) = cursor.fetchone()
        if value != 1:
            return Probe(False, connection.vendor, f"SELECT 1 returned {value!r}")
        return Probe(True, connection.vendor)
    except Exception as exc:  # any driver error means "down" to a health probe
        return Probe(False, connection.vendor, f"{type(exc).__name__}: {exc}")


async def probe_database(alias: str = "default") -> Probe:
    """Run ``SELECT 1`` on the database ``alias``.

    Runs on Django's one sync thread like any ORM call from an async view, so the connection is
    the request's own and Django's request-finished handler closes or keeps it per CONN_MAX_AGE.
    """
    return await sync_to_async(_database_round_trip, thread_sensitive=True)(alias)


async def probe_channel_layer() -> Probe:
    """Send a message to a fresh channel and receive it back: the path every broadcast takes."""
    layer = get_channel_layer()
    if layer is None:
        return Probe(False, "none", "CHANNEL_LAYERS has no default layer")
    backend = type(layer).__name__
    token = uuid.uuid4().hex
    channel: str | None = None
    try:
        channel = await layer.new_channel(prefix="healthz.")
        await layer.send(channel, {"type": "healthz.probe", "token": token})
        async with asyncio.timeout(CHANNEL_LAYER_TIMEOUT_SECONDS):
            message = await layer.receive(channel)
    except TimeoutError:
        return Probe(False, backend, f"no message back within {CHANNEL_LAYER_TIMEOUT_SECONDS:g}s")
    except Exception as exc:
        return Probe(False, backend, f"{type(exc).__name__}: {exc}")
    finally:
        await _release(layer, channel)
    if message.get("token") != token:
        return Probe(False, backend, "received a different message than was sent")
    return Probe(True, backend)


async def _release(layer: Any, channel: str | None) -> None:
    """Let the layer forget the probe's channel. The pub/sub layer holds a Redis subscription
    for every channel it has received on until a ``receive`` on it is cancelled (its only
    clean-up path, the one a closing socket takes), so each probe would leave one behind."""
    if channel is None:
        return
    with contextlib.suppress(Exception):  # TimeoutError as intended; a broken layer: reported
        async with asyncio.timeout(0.01):
            await layer.receive(channel)


def server_version() -> str:
    """The installed ``warboard`` distribution's version."""
    try:
        return metadata.version("warboard")
    except metadata.PackageNotFoundError:
        return "0+unknown"
