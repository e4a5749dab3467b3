"""The rooms' periodic check: reminders, vacations that ran out, turns past their grace period.

Run by the same periodic machinery as the games' deadlines (``games.sweep_rooms`` on Celery beat,
and the embedded sweeper thread of ``games.play.deadlines``). A room's clock has no task of
its own: days-long deadlines need no second-exact timers, and a check that is repeated is
harmless. Each room is checked in its own transaction under its row lock, and every step is
recorded on the row before it is acted on (``turn_reminded_at``, ``turn_timed_out_at``), so a
reminder or a timeout entry happens once per turn however often the check runs.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.common import queue
from games.models import Room
from games.rooms import journal, writing
from games.rooms.core import timecontrol
from games.rooms.core.timecontrol import Phase

logger = logging.getLogger(__name__)


def rooms_sweep(now: datetime | None = None, *, limit: int = 500) -> dict[str, int]:
    """Check every running timed room (and every room with a vacation to settle)."""
    now = now or timezone.now()
    counts = {"reminded": 0, "timed_out": 0, "back": 0, "failed": 0}
    ids = Room.objects.filter(status=Room.Status.RUNNING).values_list("pk", flat=True)
    for room_id in list(ids.order_by("pk")[:limit]):
        try:
            for key, n in room_tick(room_id, now).items():
                counts[key] += n
        except Exception:  # one broken room must not stop the check of the others
            counts["failed"] += 1
            logger.exception("room clock: room %s failed", room_id)
    return counts


def room_tick(room_id: int, now: datetime) -> dict[str, int]:
    """One room's check at ``now``."""
    counts = {"reminded": 0, "timed_out": 0, "back": 0}
    with transaction.atomic():
        room = writing.locked(room_id)
        if room.status != Room.Status.RUNNING:
            return counts
        sides = list(room.sides.all())
        for side in sides:
            if side.vacation_ends_at is not None and side.vacation_ends_at <= now:
                writing.settle_vacation(room, side, now)
                counts["back"] += 1
        if room.days_per_turn is None or room.turn_started_at is None:
            return counts
        side = next(s for s in sides if s.position == room.turn_position)
        due = writing.turn_due(room, side, now)
        phase = timecontrol.phase(
            now,
            due,
            remind_hours=room.remind_hours,
            grace_days=room.grace_days,
            on_vacation=side.vacation_started_at is not None,
        )
        if phase in (Phase.REMIND, Phase.GRACE) and room.turn_reminded_at is None:
            room.turn_reminded_at = now
            room.save(update_fields=["turn_reminded_at"])
            side_id = side.pk
            transaction.on_commit(lambda: queue.enqueue("games.room_remind", room_id, side_id))
            counts["reminded"] += 1
        if phase == Phase.TIMED_OUT and room.turn_timed_out_at is None:
            journal.write_timeout(room, side, now)
            counts["timed_out"] += 1
    return counts
