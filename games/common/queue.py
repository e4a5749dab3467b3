"""Queue a Celery task by its registered name.

``games.tasks`` calls the services, so a service that imported it to queue one would close an
import cycle (they were held together by function-level imports). Queuing by name keeps the
layers one way, tasks above services; the task object looked up is the registered
one, so the embedded runner (``config.celery``) and test doubles see the same object.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from config.celery import app


def enqueue(name: str, *args: Any, eta: datetime | None = None) -> None:
    """Queue task ``name`` (e.g. ``"games.advance"``) with ``args``, at ``eta`` if given."""
    if name not in app.tasks:  # a process that has not loaded the task modules yet
        app.loader.import_default_modules()  # Celery's autodiscovery: each app's tasks.py
    task = app.tasks[name]
    if eta is None:
        task.delay(*args)
    else:
        task.apply_async(args, eta=eta)
