"""Room battles priced up front and resolved in two lanes, with a work budget per player.

A room battle's odds are computed on the server, and a big battle (``500 inf vs 500 inf``: 4.6 s
of CPU) once held the process's only battle slot while every other player's ``3 inf vs 2 inf``
was turned away busy; one mail of ten such lines cost 43 s. Each battle now passes, before any
work:

1. **The price** (``combat.battle_notation.price``: the solver's own count of the work on the
   path it will take, in microseconds of solver work). Past ``ROOM_BATTLE_MAX_SECONDS`` it is a
   400 ``too_large`` naming the field (``notation`` or ``arguments``), the estimate and the
   limit: nothing is written, nothing is computed.
2. **The player's budget**: at most ``ROOM_BATTLE_USER_SECONDS`` of priced work per
   ``ROOM_BATTLE_USER_WINDOW`` seconds, whatever the path (site, API or mail), and at most one
   big battle of a player's being resolved at a time. Past either, a 429 (``battle_budget_spent``
   or ``battle_running``) with Retry-After. The counts are in Django's cache (Redis in
   production, so across processes); with the cache unreachable the battle goes through, logged,
   as the throttles do.
3. **A lane**: a battle priced at most ``ROOM_BATTLE_SMALL_SECONDS`` runs in the small lane
   (``ROOM_BATTLE_SMALL_SLOTS`` at once per process), a bigger one in the big lane
   (``ROOM_BATTLE_BIG_SLOTS``). A small battle never waits for a big one; a request that finds no
   slot of its lane within ``SLOT_WAIT`` seconds is a 503 ``battles_busy`` with Retry-After and
   its budget is given back.

A voided battle's re-roll (the referee's ruling) goes through the lanes but is not refused for
its price or charged: its request was accepted when it was made, and a ruling must not fail on it.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from django.conf import settings
from django.core.cache import cache

from combat.battle_notation.price import BattlePrice, battle_price
from games.web.exceptions import ApplicationError, ThrottledError, UnavailableError

logger = logging.getLogger(__name__)

#: How long a battle waits for a free slot of its lane before it is told to come back.
SLOT_WAIT = 2.0

_lanes_lock = threading.Lock()
_lanes: dict[str, tuple[int, threading.BoundedSemaphore]] = {}


class BattleBudgetSpent(ThrottledError):
    """The player's battle work in the window is spent (or a big battle of theirs is running)."""

    code = "battle_budget_spent"


def lane(name: str) -> threading.BoundedSemaphore:
    """The process's slots of lane ``small`` or ``big`` (made again if the setting changed)."""
    size = settings.ROOM_BATTLE_SMALL_SLOTS if name == "small" else settings.ROOM_BATTLE_BIG_SLOTS
    with _lanes_lock:
        held = _lanes.get(name)
        if held is None or held[0] != size:
            held = (size, threading.BoundedSemaphore(size))
            _lanes[name] = held
        return held[1]


def micros(seconds: float) -> int:
    return round(seconds * 1_000_000)


def checked_price(system: str, arguments: Mapping[str, Any], *, field: str) -> BattlePrice:
    """The battle's price; a 400 ``too_large`` naming ``field`` and the limit past it."""
    price = battle_price(system, arguments)
    limit = micros(settings.ROOM_BATTLE_MAX_SECONDS)
    if price.micros > limit:
        raise ApplicationError(
            f"this battle is too large to resolve in a room: its odds need about "
            f"{price.seconds:.2f} s of solver work ({price.detail}); the limit is "
            f"{limit / 1_000_000:.2f} s: split it into smaller battles",
            field=field,
            code="too_large",
            extra={"limit": limit, "estimate": price.micros, "unit": "microseconds"},
        )
    return price


@contextmanager
def battle_slot(
    system: str, arguments: Mapping[str, Any], *, user: Any, field: str, charged: bool = True
) -> Iterator[BattlePrice]:
    """Hold a slot of the battle's lane while the ``with`` body resolves it (module docstring).
    ``charged=False`` (a re-roll) skips the price limit and the player's budget."""
    if charged:
        price = checked_price(system, arguments, field=field)
    else:
        price = battle_price(system, arguments)
    big = price.micros > micros(settings.ROOM_BATTLE_SMALL_SECONDS)
    user_id = getattr(user, "pk", None) if charged else None
    window = _charge(user_id, price) if user_id is not None else None
    try:
        running = _start_big(user_id) if big and user_id is not None else False
    except BattleBudgetSpent:
        _refund(user_id, price, window)
        raise
    slots = lane("big" if big else "small")
    if not slots.acquire(timeout=SLOT_WAIT):
        _refund(user_id, price, window)
        _end_big(user_id, running)
        raise UnavailableError(
            f"every {'big' if big else 'small'} battle slot is busy: send it again in a few "
            "seconds",
            code="battles_busy",
        )
    try:
        yield price
    finally:
        slots.release()
        _end_big(user_id, running)


def _window_key(user_id: int) -> tuple[str, float]:
    """The cache key of the player's current window and the seconds left in it."""
    length = settings.ROOM_BATTLE_USER_WINDOW
    now = time.time()
    start = int(now // length) * length
    return f"room-battle-work:{user_id}:{start}", start + length - now


def _charge(user_id: int, price: BattlePrice) -> str | None:
    """Count the price against the player's window; ``BattleBudgetSpent`` past the budget.
    The window's key (for a refund), or None when the cache is unreachable."""
    key, left = _window_key(user_id)
    budget = micros(settings.ROOM_BATTLE_USER_SECONDS)
    try:
        cache.add(key, 0, timeout=int(left) + 1)
        used = cache.incr(key, price.micros)
        if used > budget:
            cache.decr(key, price.micros)
    except Exception:  # the cache (Redis) is down: let the battle through, say so
        logger.warning("room battle budget unavailable (cache down); battle not counted")
        return None
    if used > budget:
        spent = max(0, used - price.micros)
        raise BattleBudgetSpent(
            f"your battles used {spent / 1_000_000:.2f} s of solver work in this "
            f"{settings.ROOM_BATTLE_USER_WINDOW // 60}-minute window; this one needs "
            f"{price.seconds:.2f} s and the budget is {budget / 1_000_000:.2f} s: send it "
            f"again in {int(left) + 1} s",
            wait=left,
        )
    return key


def _refund(user_id: int | None, price: BattlePrice, key: str | None) -> None:
    if user_id is None or key is None:
        return
    try:
        cache.decr(key, price.micros)
    except Exception:  # gone with the window, or the cache down: the charge stands
        logger.warning("room battle budget: refund not counted")


def _start_big(user_id: int) -> bool:
    """Mark the player's big battle as running; ``BattleBudgetSpent`` (``battle_running``)
    when one already is. True when marked (False: the cache is down, not counted)."""
    try:
        added = cache.add(f"room-battle-running:{user_id}", 1, timeout=60)
    except Exception:
        logger.warning("room battle budget unavailable (cache down); big battle not marked")
        return False
    if not added:
        busy = BattleBudgetSpent(
            "another big battle of yours is being resolved: send this one when it is done",
            wait=SLOT_WAIT,
        )
        busy.code = "battle_running"
        raise busy
    return True


def _end_big(user_id: int | None, running: bool) -> None:
    if not running or user_id is None:
        return
    try:
        cache.delete(f"room-battle-running:{user_id}")
    except Exception:  # the mark times out on its own
        logger.warning("room battle budget: running mark not cleared")
