"""Celery tasks of the game server. Each loads by id and calls a service; retries live here.

In the embedded default these run on the in-process pool (``config.celery.WarboardTask``); with
``REDIS_URL`` set, on Celery workers, with ``celery beat`` running ``games.sweep_deadlines``.
"""

from __future__ import annotations

import os
import socket

from celery import shared_task

#: Bot steps one task takes before handing the rest to a fresh task (fairness between games).
BOT_STEPS_PER_TASK = 200


@shared_task(name="games.ping")
def ping(token: str) -> dict[str, object]:
    """Echo ``token`` with where it ran: proves the broker and a worker are alive."""
    return {"token": token, "pid": os.getpid(), "host": socket.gethostname()}


@shared_task(name="games.run_bots")
def run_bots(game_id: int) -> int:
    """Let the bots (bot seats, allied armies' AIs) take every decision waiting for them."""
    from games.services import bots

    taken = bots.bots_play(game_id, limit=BOT_STEPS_PER_TASK)
    if taken == BOT_STEPS_PER_TASK and bots.bots_waited_for(game_id):
        run_bots.delay(game_id)
    return taken


@shared_task(name="games.deadline_remind")
def deadline_remind(deadline_id: int) -> bool:
    """The 80% reminder of one deadline (idempotent: sent at most once)."""
    from games.services import deadlines

    return deadlines.deadline_remind(deadline_id)


@shared_task(name="games.deadline_expire")
def deadline_expire(deadline_id: int) -> bool:
    """One deadline's expiry: claim it, let the bot decide, count the timeout (idempotent)."""
    from games.services import deadlines

    return deadlines.deadline_expire(deadline_id)


@shared_task(name="games.sweep_deadlines")
def sweep_deadlines() -> dict[str, int]:
    """The periodic backstop (Celery beat): reminders and expiries whose task never ran."""
    from games.services import deadlines

    return deadlines.deadlines_sweep()


@shared_task(name="games.notify_your_turn")
def notify_your_turn(game_id: int, seat_ids: list[int]) -> int:
    """ "Your turn" emails to the seats the game has just started waiting for."""
    from games.services import notify

    return notify.your_turn(game_id, seat_ids)


@shared_task(name="games.notify_game_over")
def notify_game_over(game_id: int) -> int:
    """Game-over emails with the result."""
    from games.services import notify

    return notify.game_over(game_id)
