"""How the tasks that touch the database retry: every feature's tasks share one policy."""

from __future__ import annotations

from typing import Any

from django.db import InterfaceError, OperationalError

#: Database faults worth another try: a dropped connection (a restart, ``pg_terminate_backend``,
#: a failover) or a server briefly refusing connections. Anything else is a bug, not retried.
TRANSIENT_DB_ERRORS = (OperationalError, InterfaceError)

#: Retries of the tasks that touch the database (a bot run that met a dropped
#: connection used to fail for good, and the game waited forever). Backoff 1, 2, 4 ... 60 s
#: with jitter, 8 tries (about 3 minutes); past that the periodic sweep re-queues the game. A
#: retry is a fresh message, so the worker's Django fixup replaces the broken connection first.
DB_RETRY: dict[str, Any] = {
    "autoretry_for": TRANSIENT_DB_ERRORS,
    "retry_backoff": 1,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 8,
}
