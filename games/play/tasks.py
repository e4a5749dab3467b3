"""Live games' Celery tasks. Each loads by id and calls a service; retries live here.

In the embedded default these run on the in-process pool (``config.celery.WarboardTask``); with
``REDIS_URL`` set, on Celery workers, with ``celery beat`` running ``games.sweep_deadlines``.
"""

from __future__ import annotations

import os
import socket

from celery import shared_task

from games.common.retries import DB_RETRY
from games.play import deadlines, driver, notify


@shared_task(name="games.ping", ignore_result=False)
def ping(token: str) -> dict[str, object]:
    """Echo ``token`` with where it ran: proves the broker and a worker are alive."""
    return {"token": token, "pid": os.getpid(), "host": socket.gethostname()}


@shared_task(name="games.advance", **DB_RETRY)
def advance(game_id: int) -> int:
    """The game's driver: the server answers what the game waits on it for (bots, allied
    armies' AIs, players out of time); it queues its own sequel after ``STEPS_PER_RUN``."""
    return driver.advance(game_id)


@shared_task(name="games.run_bots", **DB_RETRY)
def run_bots(game_id: int) -> int:
    """The name ``games.advance`` had before the per-game driver: messages queued by an older server
    still run."""
    return advance(game_id)


@shared_task(name="games.deadline_remind", **DB_RETRY)
def deadline_remind(deadline_id: int) -> bool:
    """The reminder of one deadline (idempotent: sent at most once)."""
    return deadlines.deadline_remind(deadline_id)


@shared_task(name="games.deadline_expire", **DB_RETRY)
def deadline_expire(deadline_id: int) -> bool:
    """One deadline's expiry: claim it, let the bot decide, count the timeout (idempotent)."""
    return deadlines.deadline_expire(deadline_id)


@shared_task(name="games.sweep_deadlines")
def sweep_deadlines() -> dict[str, int]:
    """The periodic backstop (Celery beat): reminders and expiries whose task never ran."""
    return deadlines.deadlines_sweep()


@shared_task(name="games.notify_your_turn", **DB_RETRY)
def notify_your_turn(game_id: int, seat_ids: list[int]) -> int:
    """ "Your turn" notices (push or mail) to the seats the game has just started waiting for."""
    return notify.your_turn(game_id, seat_ids)


@shared_task(name="games.notify_game_over", **DB_RETRY)
def notify_game_over(game_id: int) -> int:
    """Game-over emails with the result."""
    return notify.game_over(game_id)


@shared_task(name="games.notify_attacked", **DB_RETRY)
def notify_attacked(game_id: int, attacks: list[dict[str, str]]) -> int:
    """ "You were attacked" notices to the people an action attacked."""
    return notify.attacked(game_id, attacks)
