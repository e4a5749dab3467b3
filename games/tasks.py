"""Celery tasks of the game server. Each loads by id and calls a service; retries live here."""

from __future__ import annotations

import os
import socket

from celery import shared_task


@shared_task(name="games.ping")
def ping(token: str) -> dict[str, object]:
    """Echo ``token`` with where it ran: proves the broker and a worker are alive."""
    return {"token": token, "pid": os.getpid(), "host": socket.gethostname()}
