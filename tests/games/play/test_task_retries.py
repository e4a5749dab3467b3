"""Tasks that touch the database retry a dropped connection instead of failing for good (issue
15: a bot run that met ``OperationalError`` used to end there, and its game waited forever)."""

from __future__ import annotations

import pytest
from django.db import OperationalError

from games.common.retries import TRANSIENT_DB_ERRORS
from games.play import driver, tasks


class Flaky:
    """``driver.advance`` that meets a dropped connection ``faults`` times, then takes 3 steps."""

    def __init__(self, faults: int, error: Exception) -> None:
        self.faults = faults
        self.error = error
        self.calls = 0

    def __call__(self, game_id: int) -> int:
        self.calls += 1
        if self.calls <= self.faults:
            raise self.error
        return 3


def test_the_driver_task_retries_a_dropped_connection(monkeypatch):
    flaky = Flaky(2, OperationalError("server closed the connection unexpectedly"))
    monkeypatch.setattr(driver, "advance", flaky)
    result = tasks.advance.apply((7,))
    assert (result.successful(), result.get(), flaky.calls) == (True, 3, 3)


def test_a_bug_is_not_retried(monkeypatch):
    flaky = Flaky(1, ValueError("a bug"))
    monkeypatch.setattr(driver, "advance", flaky)
    result = tasks.advance.apply((7,))
    assert result.failed() and flaky.calls == 1
    with pytest.raises(ValueError, match="a bug"):
        result.get()


def test_retries_back_off_and_end():
    """1, 2, 4 ... seconds capped at a minute, 8 tries; after that the sweep re-queues."""
    for task in (tasks.advance, tasks.deadline_expire, tasks.deadline_remind,
                 tasks.notify_your_turn, tasks.notify_game_over, tasks.run_bots):  # fmt: skip
        assert task.autoretry_for == TRANSIENT_DB_ERRORS, task.name
        assert (task.retry_backoff, task.retry_backoff_max, task.max_retries) == (1, 60, 8)
