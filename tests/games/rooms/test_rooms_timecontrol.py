"""A room's clock arithmetic (games.rooms.core.timecontrol), every value worked by hand.

The cast: Germany's turn 3 starts Tuesday 2026-11-24 10:00 UTC; 3 days per turn, a reminder 24
hours before the deadline, 2 days' grace.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from games.rooms.core.timecontrol import (
    Phase,
    deadline,
    overlap,
    paused_within_turn,
    phase,
    remind_at,
    timeout_at,
    vacation_days_used,
    vacation_end,
)


def at(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 11, day, hour, minute, tzinfo=UTC)


TURN = at(24, 10)


def test_the_deadline_is_the_turn_start_plus_its_days():
    assert deadline(TURN, 3, timedelta(0)) == at(27, 10)


def test_the_reminder_and_the_timeout_frame_the_deadline():
    due = at(27, 10)
    assert remind_at(due, 24) == at(26, 10)
    assert timeout_at(due, 2) == at(29, 10)


def test_the_phases_change_exactly_at_their_moments():
    due = at(27, 10)

    def p(now: datetime, on_vacation: bool = False) -> Phase:
        return phase(now, due, remind_hours=24, grace_days=2, on_vacation=on_vacation)

    assert p(at(26, 9, 59)) == Phase.ON_TIME
    assert p(at(26, 10)) == Phase.REMIND
    assert p(at(27, 9, 59)) == Phase.REMIND
    assert p(at(27, 10)) == Phase.GRACE
    assert p(at(29, 9, 59)) == Phase.GRACE
    assert p(at(29, 10)) == Phase.TIMED_OUT
    assert p(at(30, 10), on_vacation=True) == Phase.PAUSED


def test_a_vacation_within_the_turn_moves_the_deadline_by_its_length():
    """Away from Wednesday 06:00 to Thursday 08:00: 26 hours paused, so the deadline moves
    from Friday 10:00 to Saturday 12:00, and the vacation uses 2 days (a started day counts)."""
    paused = paused_within_turn(TURN, at(25, 6), at(26, 8), now=at(26, 9))
    assert paused == timedelta(hours=26)
    assert deadline(TURN, 3, paused) == at(28, 12)
    assert vacation_days_used(at(25, 6), at(26, 8)) == 2


def test_only_the_part_of_a_vacation_inside_the_turn_pauses_it():
    """Away from Monday 00:00 to Wednesday 00:00, the turn starting Tuesday 10:00: 14 hours."""
    assert paused_within_turn(TURN, at(23, 0), at(25, 0), now=at(25, 12)) == timedelta(hours=14)


def test_a_running_vacation_pauses_the_clock_up_to_now():
    """Away since Wednesday 06:00 for 3 days; at Wednesday 12:00, 6 hours are paused."""
    end = vacation_end(at(25, 6), 3)
    assert end == at(28, 6)
    assert paused_within_turn(TURN, at(25, 6), end, now=at(25, 12)) == timedelta(hours=6)


def test_vacation_days_are_used_day_by_day():
    start = at(25, 6)
    assert vacation_days_used(start, start) == 0
    assert vacation_days_used(start, start + timedelta(minutes=1)) == 1
    assert vacation_days_used(start, start + timedelta(days=1)) == 1
    assert vacation_days_used(start, start + timedelta(days=1, seconds=1)) == 2


def test_overlap_of_disjoint_spans_is_zero():
    assert overlap(at(20, 0), at(21, 0), at(24, 0), at(25, 0)) == timedelta(0)
