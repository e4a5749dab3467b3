"""Bounds on the work of one calculator request, so no request can take the server down.

The exact solvers' work grows with the product of the armies (and, in A&A, with the AA gun's
plane losses), so a handful of requests could once pin the cores for minutes and grow a
process to gigabytes. Each odds request now passes three checks:

1. **Up front**: the solver's own estimate of its work (``risk_dice.estimated_states``,
   ``axis_allies.odds.estimated_work``) against ``COMBAT_MAX_STATES``. Too large is a 400
   ``too_large`` naming the field to shrink and the limit, before any work.
2. **A slot**: at most ``COMBAT_CONCURRENCY`` calculations run at once in a process (they are
   CPU-bound: more would only share the cores and slow every other request). A request that
   finds no slot within ``SLOT_WAIT`` seconds is a 503 ``calculators_busy`` with Retry-After.
3. **A budget inside the solver** (``combat.budget``): the states counted as they are expanded
   and the wall time, ``COMBAT_SECONDS``. When it runs out the solver stops at once and the
   answer is a 503 ``budget_exceeded`` naming the limit; the work does not go on after the
   request, whether the client waits or not.

Django runs these sync views in a thread per request (ASGI's ``ThreadSensitiveContext``), never
on the event loop. Anonymous requests are rate-limited (``CalculatorThrottle``).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from django.conf import settings
from rest_framework.request import Request
from rest_framework.views import APIView

from combat.budget import Budget, BudgetExceeded
from games.web.exceptions import ApplicationError, UnavailableError
from games.web.throttles import SettingsScopedRateThrottle

T = TypeVar("T")

#: How long a request waits for a free calculation slot before it is told to come back.
SLOT_WAIT = 0.25

_slots_lock = threading.Lock()
_slots: tuple[int, threading.BoundedSemaphore] | None = None


class CalculatorThrottle(SettingsScopedRateThrottle):
    """Anonymous calculator requests, per client address (signed-in players are not counted)."""

    scope = "calculator"
    per_user = False

    def allow_request(self, request: Request, view: APIView) -> bool:
        if request.user is not None and request.user.is_authenticated:
            return True
        return super().allow_request(request, view)


def _semaphore() -> threading.BoundedSemaphore:
    """The process's calculation slots (made again if the setting changed, as in tests)."""
    global _slots
    size = settings.COMBAT_CONCURRENCY
    with _slots_lock:
        if _slots is None or _slots[0] != size:
            _slots = (size, threading.BoundedSemaphore(size))
        return _slots[1]


def bounded(estimate: int, field: str, compute: Callable[[], T], *, remedy: str = "") -> T:
    """Run ``compute`` within the request limits. ``field`` is the one to change when the
    estimate is too large (``remedy`` says how; by default, make it smaller)."""
    limit = settings.COMBAT_MAX_STATES
    if estimate > limit:
        raise ApplicationError(
            f"this calculation needs about {estimate:,} states; the limit is {limit:,}: "
            f"{remedy or f'make {field} smaller'}",
            field=field,
            code="too_large",
            extra={"limit": limit, "estimate": estimate},
        )
    slots = _semaphore()
    if not slots.acquire(timeout=SLOT_WAIT):
        raise UnavailableError(
            "every calculator is busy: try again in a second", code="calculators_busy"
        )
    try:
        with Budget(states=limit, seconds=settings.COMBAT_SECONDS):
            return compute()
    except BudgetExceeded as error:
        raise UnavailableError(
            f"{error.message}: the calculation was stopped (limit {error.limit}: "
            f"{error.allowed:,})",
            code="budget_exceeded",
            extra={"limit": error.limit, "budget": error.allowed},
        ) from error
    finally:
        slots.release()
