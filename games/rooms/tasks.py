"""The rooms' Celery tasks: notices, reminders and the periodic clock (task names unchanged)."""

from __future__ import annotations

from celery import shared_task

from games.common.retries import DB_RETRY
from games.rooms import clock, mail


@shared_task(name="games.room_notify", **DB_RETRY)
def room_notify(entry_id: int) -> int:
    """A room entry (a challenge, a ruling, a timeout, the end) mailed to everyone in it."""
    return mail.entry_notice(entry_id)


@shared_task(name="games.room_remind", **DB_RETRY)
def room_remind(room_id: int, side_id: int) -> int:
    """The reminder of the side to move in a timed room."""
    return mail.turn_reminder(room_id, side_id)


@shared_task(name="games.sweep_rooms")
def sweep_rooms() -> dict[str, int]:
    """The rooms' periodic check (Celery beat): reminders, vacations, timed-out turns."""
    return clock.rooms_sweep()
