"""Embedded default: Celery tasks run in-process, but off the request path."""

from __future__ import annotations

import logging
import threading
import time

import pytest
from celery import shared_task

from config.celery import EmbeddedResult, WarboardTask, app
from games.play.tasks import ping

release = threading.Event()


@shared_task(name="tests.wait_for_release")
def wait_for_release() -> str:
    """Stands in for an AI turn: it cannot finish until the test lets it."""
    if not release.wait(timeout=10):
        raise TimeoutError("never released")
    return threading.current_thread().name


@shared_task(name="tests.fail")
def fail() -> None:
    raise ValueError("the AI resigned")


@pytest.fixture(autouse=True)
def _reset_release():
    release.clear()
    yield
    release.set()  # never leave a pool thread blocked


def test_every_task_uses_the_dispatching_base_class():
    assert isinstance(ping, WarboardTask)
    assert app.conf.broker_url == "memory://"


def test_queueing_returns_before_the_task_has_run():
    result = wait_for_release.delay()
    assert isinstance(result, EmbeddedResult)
    time.sleep(0.05)
    assert result.ready() is False  # the caller (a request) is already free
    release.set()
    assert result.get(timeout=5).startswith("warboard-task")
    assert result.successful()


def test_a_task_runs_with_its_arguments():
    assert ping.delay("t-1").get(timeout=5)["token"] == "t-1"


def test_a_failing_task_reraises_on_get_and_is_logged_with_its_traceback(caplog):
    """Nobody may ever call ``get`` (a queued AI turn): the failure is in the log regardless."""
    with caplog.at_level(logging.ERROR, logger="celery.app.trace"):
        result = fail.delay()
        with pytest.raises(ValueError, match="the AI resigned"):
            result.get(timeout=5)
    assert result.successful() is False
    (record,) = [r for r in caplog.records if r.name == "celery.app.trace"]
    assert "tests.fail[" in record.getMessage() and "raised unexpected" in record.getMessage()
    assert record.exc_info is not None and record.exc_info[0] is ValueError


def test_countdown_delays_the_run():
    started = time.monotonic()
    result = ping.apply_async(args=["later"], countdown=0.3)
    assert result.ready() is False
    assert result.get(timeout=5)["token"] == "later"
    assert time.monotonic() - started >= 0.3


# --- no task runs inside another ---------------------------------------------------------------

#: What the chain below did, in order: ("start"|"end", n, how many tasks this thread was in).
trace: list[tuple[str, int, int]] = []
_stack = threading.local()


@shared_task(name="tests.chain")
def chain(n: int) -> int:
    """Queues its successor (n - 1) while it runs, as the driver queues its sequel."""
    _stack.depth = getattr(_stack, "depth", 0) + 1
    trace.append(("start", n, _stack.depth))
    try:
        if n:
            chain.delay(n - 1)
        return n
    finally:
        trace.append(("end", n, _stack.depth))
        _stack.depth -= 1


def test_a_task_queued_by_a_running_task_runs_on_a_pool_thread_of_its_own():
    """The embedded default (what a server without a broker runs): queuing only hands the task
    to the pool, so the driver's sequel never starts inside the run that queued it."""
    trace.clear()
    chain.delay(2)
    deadline = time.monotonic() + 5
    while len(trace) < 6 and time.monotonic() < deadline:  # the three ran, on either thread
        time.sleep(0.01)
    assert sorted(trace) == sorted(
        (event, n, 1) for event in ("start", "end") for n in (2, 1, 0)
    )  # fmt: skip


@shared_task(name="tests.fail_then_chain")
def fail_then_chain() -> None:
    """Queues a failing task, then one that works."""
    fail.delay()
    chain.delay(0)


# --- the tests' inline mode (WARBOARD_TASKS_INLINE) ---------------------------------------------


@pytest.fixture
def inline(settings) -> None:
    settings.WARBOARD_TASKS_INLINE = True
    trace.clear()


@pytest.mark.usefixtures("inline")
def test_inline_a_task_queued_by_a_running_task_runs_after_it_not_inside_it():
    assert chain.delay(2).get() == 2  # the outer task's own result
    # All three ran before delay() returned, one after the other, never two at once.
    assert trace == [
        ("start", 2, 1), ("end", 2, 1),
        ("start", 1, 1), ("end", 1, 1),
        ("start", 0, 1), ("end", 0, 1),
    ]  # fmt: skip


@pytest.mark.usefixtures("inline")
def test_inline_a_failure_is_logged_with_its_traceback_and_raised_once_the_queue_drained(caplog):
    with caplog.at_level(logging.ERROR, logger="config.celery"), pytest.raises(ValueError):
        fail_then_chain.delay()
    assert trace == [("start", 0, 1), ("end", 0, 1)]  # queued after the failure: still ran
    (record,) = [r for r in caplog.records if r.name == "config.celery"]
    assert record.getMessage().startswith("inline task tests.fail[")
    assert record.exc_info is not None and record.exc_info[0] is ValueError
