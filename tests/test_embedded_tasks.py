"""Embedded default: Celery tasks run in-process, but off the request path."""

from __future__ import annotations

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


def test_a_failing_task_reraises_on_get():
    result = fail.delay()
    with pytest.raises(ValueError, match="the AI resigned"):
        result.get(timeout=5)
    assert result.successful() is False


def test_countdown_delays_the_run():
    started = time.monotonic()
    result = ping.apply_async(args=["later"], countdown=0.3)
    assert result.ready() is False
    assert result.get(timeout=5)["token"] == "later"
    assert time.monotonic() - started >= 0.3
