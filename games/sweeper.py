"""The embedded server's periodic sweep: what Celery beat runs when there is a broker.

The embedded default has no beat, so the web server process runs beat's three sweeps on a
daemon thread: live games' deadlines (``games.play.deadlines``), the rooms' clocks
(``games.rooms.clock``) and the tournaments' lost results (``games.sweep_tournaments``, queued by
name). It composes features, like ``config.celery``'s beat schedule, so it sits at the top of
``games`` and is started by ``config.asgi``.
"""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Sequence
from pathlib import PurePath

from django.conf import settings
from django.db import close_old_connections

from games.common.queue import enqueue
from games.play import deadlines
from games.rooms import clock

logger = logging.getLogger(__name__)

_sweeper: threading.Thread | None = None
_sweeper_stop = threading.Event()
_sweeper_lock = threading.Lock()


def server_process(argv: Sequence[str] | None = None) -> bool:
    """Whether this process is the web server (daphne, or ``manage.py runserver``).

    The embedded sweeper belongs to the server only: ``config.asgi`` is also imported by tests
    (websocket communicators) and a management command must not grow a background thread.
    """
    argv = list(sys.argv if argv is None else argv)
    if not argv:
        return False
    program = PurePath(argv[0])
    if program.name == "daphne" or program.parent.name == "daphne":  # also `python -m daphne`
        return True
    return program.name == "manage.py" and argv[1:2] == ["runserver"]


def sweeper_start(interval: float | None = None) -> bool:
    """Start the embedded periodic sweep (a daemon thread) once per process; False if running.

    The embedded default has no Celery beat. Its per-deadline tasks wait on timers in memory,
    lost when the server restarts, so this thread plays beat's part: every
    ``DEADLINE_SWEEP_SECONDS`` it runs ``deadlines.deadlines_sweep``, the rooms' clock
    (``clock.rooms_sweep``) and the tournaments' lost results
    (the ``games.sweep_tournaments`` task, queued), as beat runs the three.
    """
    global _sweeper
    seconds = float(interval if interval is not None else settings.DEADLINE_SWEEP_SECONDS)
    with _sweeper_lock:
        if _sweeper is not None and _sweeper.is_alive():
            return False
        _sweeper_stop.clear()
        _sweeper = threading.Thread(
            target=_sweep_forever,
            args=(seconds, _sweeper_stop),
            name="warboard-sweeper",
            daemon=True,
        )
        _sweeper.start()
        logger.info("embedded deadline sweep: every %s s", seconds)
        return True


def sweeper_stop(timeout: float = 5.0) -> None:
    """Stop the embedded sweeper (tests; a clean shutdown) and wait for it."""
    global _sweeper
    with _sweeper_lock:
        thread, _sweeper = _sweeper, None
        _sweeper_stop.set()
    if thread is not None:
        thread.join(timeout)


def _sweep_forever(seconds: float, stop: threading.Event) -> None:
    while not stop.wait(seconds):
        close_old_connections()
        try:
            counts = deadlines.deadlines_sweep()
            if any(counts.values()):
                logger.info("deadline sweep: %s", counts)
            room_counts = clock.rooms_sweep()
            if any(room_counts.values()):
                logger.info("room clock: %s", room_counts)
            # Queued by name, as beat queues it: the pool runs it.
            enqueue("games.sweep_tournaments")
        except Exception:  # keep sweeping: the next run may find the database back
            logger.exception("deadline sweep failed")
        finally:
            close_old_connections()
