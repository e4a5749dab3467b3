"""A room's clock: the deadline of the side to move, its reminder, grace period and vacation.

Decisions (the issue is silent on the details):

- Only the side to move has a running clock. Its deadline is the turn's start plus
  ``days_per_turn`` days plus the time its clock was paused by vacation within the turn.
- A vacation pauses the side's clock from its start until it ends: the side comes back (posts
  anything in the room) or the days it declared run out. It uses up vacation days day by day:
  every started day counts (a vacation of 26 hours uses 2 days), settled when it ends.
- The reminder goes out ``remind_hours`` before the deadline; after the deadline a grace period
  of ``grace_days`` runs, and past it the turn is declared timed out (a journal entry): the
  referee decides what follows, the turn stays with the side.

Plain datetimes in, datetimes and phases out; every function is worked by hand in
tests/games/test_rooms_timecontrol.py.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from enum import StrEnum

DAY = timedelta(days=1)


class Phase(StrEnum):
    """Where the side to move stands at a moment."""

    ON_TIME = "on_time"
    REMIND = "remind"  # within remind_hours of the deadline
    GRACE = "grace"  # past the deadline, within the grace period
    TIMED_OUT = "timed_out"  # past the grace period
    PAUSED = "paused"  # on vacation: its clock stands still


def overlap(
    start: datetime, end: datetime, window_start: datetime, window_end: datetime
) -> timedelta:
    """How much of [start, end) lies within [window_start, window_end) (never negative)."""
    later_start = max(start, window_start)
    earlier_end = min(end, window_end)
    return max(earlier_end - later_start, timedelta(0))


def paused_within_turn(
    turn_started: datetime, vacation_start: datetime, vacation_end: datetime, now: datetime
) -> timedelta:
    """The part of a vacation (up to ``now``) that fell within the current turn."""
    return overlap(vacation_start, min(vacation_end, now), turn_started, now)


def deadline(turn_started: datetime, days_per_turn: int, paused: timedelta) -> datetime:
    """The moment the side to move is due: its days plus whatever vacation paused its clock."""
    return turn_started + days_per_turn * DAY + paused


def remind_at(due: datetime, remind_hours: int) -> datetime:
    return due - timedelta(hours=remind_hours)


def timeout_at(due: datetime, grace_days: int) -> datetime:
    return due + grace_days * DAY


def phase(
    now: datetime, due: datetime, *, remind_hours: int, grace_days: int, on_vacation: bool
) -> Phase:
    """The side's phase at ``now`` for a deadline ``due`` (already including its pauses)."""
    if on_vacation:
        return Phase.PAUSED
    if now >= timeout_at(due, grace_days):
        return Phase.TIMED_OUT
    if now >= due:
        return Phase.GRACE
    if now >= remind_at(due, remind_hours):
        return Phase.REMIND
    return Phase.ON_TIME


def vacation_end(start: datetime, days: int) -> datetime:
    """When a vacation of ``days`` days declared at ``start`` runs out."""
    return start + days * DAY


def vacation_days_used(start: datetime, end: datetime) -> int:
    """Days a vacation from ``start`` to ``end`` uses: every started day counts."""
    if end <= start:
        return 0
    return math.ceil((end - start) / DAY)
