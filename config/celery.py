"""The Celery app, and the embedded-mode task runner.

With a broker (``REDIS_URL`` or ``CELERY_BROKER_URL``) tasks go to real workers. In the embedded
default there is no broker and no worker process, yet a request that queues work (an AI turn, a
notification) must still return before that work runs. ``WarboardTask.apply_async`` therefore
hands the task to a small thread pool inside the web process and returns at once; the task body
runs through Celery's own ``apply`` so it behaves as it would on a worker (same signature
binding, ``self.request``, retries executed eagerly).
"""

from __future__ import annotations

import logging
import os
import threading
import uuid
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from celery import Celery, Task
from django.conf import settings
from django.db import close_old_connections

from config import redis_broker

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

logger = logging.getLogger(__name__)

_executor: ThreadPoolExecutor | None = None
_executor_lock = threading.Lock()


def _embedded_executor() -> ThreadPoolExecutor:
    """The process-wide pool for embedded tasks, created on first use (after settings load)."""
    global _executor
    with _executor_lock:
        if _executor is None:
            _executor = ThreadPoolExecutor(
                max_workers=settings.WARBOARD_EMBEDDED_TASK_THREADS,
                thread_name_prefix="warboard-task",
            )
        return _executor


class EmbeddedResult:
    """What ``apply_async`` returns in embedded mode: the subset of ``AsyncResult`` callers use."""

    def __init__(self, task_id: str, future: Future[Any]) -> None:
        self.id = task_id
        self._future = future

    def ready(self) -> bool:
        return self._future.done()

    def successful(self) -> bool:
        """True once the task has returned without raising (as ``AsyncResult.successful``)."""
        if not self._future.done() or self._future.exception() is not None:
            return False
        return self._future.result().successful()

    def get(self, timeout: float | None = None) -> Any:
        """The task's return value; re-raises the task's exception like ``AsyncResult.get``."""
        eager = self._future.result(timeout=timeout)
        return eager.get(propagate=True)


class WarboardTask(Task):
    """Base class of every task: dispatches to the embedded pool when there is no broker."""

    def apply_async(self, args=None, kwargs=None, task_id=None, **options):  # type: ignore[override]
        if getattr(settings, "WARBOARD_TASKS_INLINE", False):
            return _inline(self, args, kwargs, task_id, options)
        if not getattr(settings, "WARBOARD_EMBEDDED_TASKS", False):
            return super().apply_async(args, kwargs, task_id=task_id, **options)
        task_id = task_id or str(uuid.uuid4())
        delay = _delay_seconds(options.get("countdown"), options.get("eta"))
        future: Future[Any] = Future()
        submit = _submitter(self, args or (), kwargs or {}, task_id, future)
        if delay > 0:
            timer = threading.Timer(delay, submit)
            timer.daemon = True
            timer.start()
        else:
            submit()
        return EmbeddedResult(task_id, future)


def _inline(task: Task, args: Any, kwargs: Any, task_id: str | None, options: dict) -> Any:
    """``WARBOARD_TASKS_INLINE`` (the game server's tests): run now, in the caller's thread,
    so a test sees the bots' moves when its request returns. A task for later (``eta`` or
    ``countdown``: deadline reminders and expiries) is not run at all; such tests move a
    frozen clock and call the periodic sweep, which is what claims overdue work anyway.

    A task queued by a task already running here waits in this thread's queue and runs once
    that one returns, never inside it: run nested, the driver's sequel (queued every
    ``STEPS_PER_RUN`` steps) started inside the run that queued it, and a game whose driver
    kept finding work recursed until Python's recursion limit (94 runs deep, 18,404 steps),
    a ``RecursionError`` only the dispatcher's log showed. The queue drains before the
    outermost call returns, so the caller still sees every effect; a task that fails does not
    stop the others, and the first failure is raised at the end, as the one task's would be."""
    if _delay_seconds(options.get("countdown"), options.get("eta")) > 0:
        logger.debug("inline tasks: %s for later not run", task.name)
        return None
    queued: deque[_Queued] | None = getattr(_inline_queue, "tasks", None)
    job = _Queued(task, tuple(args or ()), dict(kwargs or {}), task_id)
    if queued is not None:  # inside a running inline task: after it, not within it
        queued.append(job)
        return None
    _inline_queue.tasks = queued = deque()
    failures: list[Exception] = []
    try:
        result = _run_inline(job, failures)
        while queued:
            _run_inline(queued.popleft(), failures)
    finally:
        _inline_queue.tasks = None
    if failures:
        raise failures[0]
    return result


def _run_inline(job: _Queued, failures: list[Exception]) -> Any:
    """Run one inline task; its exception is logged and noted in ``failures``, not raised."""
    try:
        return job.task.apply(job.args, job.kwargs, task_id=job.task_id, throw=True)
    except Exception as exc:
        logger.exception("inline task %s[%s] failed", job.task.name, job.task_id)
        failures.append(exc)
        return None


@dataclass(frozen=True)
class _Queued:
    """One task waiting in the inline queue of its thread."""

    task: Task
    args: tuple[Any, ...]
    kwargs: dict[str, Any]
    task_id: str | None


#: Per thread: the inline tasks waiting for the running one to return (None: none running).
_inline_queue = threading.local()


def _delay_seconds(countdown: float | None, eta: datetime | None) -> float:
    if countdown:
        return float(countdown)
    if eta is not None:
        return max(0.0, (eta - datetime.now(UTC)).total_seconds())
    return 0.0


def _submitter(task: Task, args: tuple, kwargs: dict, task_id: str, future: Future[Any]):
    """A callable that runs ``task`` on the pool and settles ``future`` with its EagerResult."""

    def run() -> None:
        close_old_connections()
        try:
            # apply() logs and stores the task's own exception in the EagerResult, as a worker
            # would; what reaches the except below is a fault of the runner itself.
            future.set_result(task.apply(args, kwargs, task_id=task_id))
        except BaseException as exc:
            logger.exception("embedded task %s[%s] could not run", task.name, task_id)
            future.set_exception(exc)
        finally:
            close_old_connections()

    def submit() -> None:
        _embedded_executor().submit(run)

    return submit


# A lost Redis broker must not stop the worker (config.redis_broker): set before any connection.
redis_broker.use()
app = Celery("warboard", task_cls=WarboardTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.on_after_configure.connect
def _beat_schedule(sender: Celery, **kwargs: Any) -> None:
    """``celery -A config beat`` (one per deployment) runs the deadline sweep, the backstop for
    reminder and expiry tasks a worker lost. Set here, after the Django settings are loaded,
    because the interval is one of them (``DEADLINE_SWEEP_SECONDS``)."""
    seconds = settings.DEADLINE_SWEEP_SECONDS
    sender.conf.beat_schedule = {
        **(sender.conf.beat_schedule or {}),
        "games.sweep_deadlines": {
            "task": "games.sweep_deadlines",
            "schedule": float(seconds),
            # A sweep nobody ran within its interval is superseded by the next one: do not let
            # them pile up in the broker while the workers are down.
            "options": {"expires": float(seconds)},
        },
        # Rooms' clocks (games.rooms.clock): days-long turns, checked on the same beat.
        "games.sweep_rooms": {
            "task": "games.sweep_rooms",
            "schedule": float(seconds),
            "options": {"expires": float(seconds)},
        },
        # Tournament tables whose game or room ended while the result task was lost.
        "games.sweep_tournaments": {
            "task": "games.sweep_tournaments",
            "schedule": float(seconds),
            "options": {"expires": float(seconds)},
        },
    }
