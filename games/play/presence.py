"""Who is looking at a game right now: the sockets each (game, user) has open.

"No 'your turn' mail while the player is connected to that game's socket" needs an
answer that holds across server processes: the socket may be open on one daphne process while
the mail task runs on a Celery worker. So presence lives in the Django cache, which is Redis
when ``REDIS_URL`` is set (shared by every process) and the local-memory cache in the embedded
default (one process, so that is enough).

One cache entry per (game, user) holds ``{channel_name: expires_at}``: one item per open socket,
so a second browser tab closing does not make the first one look gone.

**TTL.** A process that crashes never calls ``presence_disconnected``. Every channel's entry
therefore expires ``PRESENCE_TTL`` seconds (3 minutes) after it was last refreshed, and the
consumer refreshes it by calling ``presence_connected`` again on every message it receives.
Clients send a heartbeat (``{"type": "ping"}``) at least once a minute, so a live socket
survives two lost heartbeats, and a dead process makes its users look absent at most three
minutes later. The cost of that window is one "your turn" mail not sent to a player whose
socket has just died; the deadline reminder (which is sent regardless) still reaches them.

The consumer is async: call these through ``channels.db.database_sync_to_async`` or
``asgiref.sync.sync_to_async``.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Iterator

from django.core.cache import cache

logger = logging.getLogger(__name__)

#: Seconds a socket counts as connected after its last sign of life (see the module docstring).
PRESENCE_TTL = 180
#: Seconds the read-modify-write lock of one (game, user) entry is held at most.
LOCK_TTL = 5
LOCK_TRIES = 50
LOCK_WAIT = 0.01


def _key(game_id: int, user_id: int) -> str:
    return f"presence:{game_id}:{user_id}"


def presence_connected(game_id: int, user_id: int, channel_name: str) -> None:
    """``channel_name`` (a socket of ``user_id`` on ``game_id``) is open: add or refresh it."""
    now = time.time()
    with _locked(game_id, user_id):
        channels = _live(cache.get(_key(game_id, user_id)), now)
        channels[channel_name] = now + PRESENCE_TTL
        cache.set(_key(game_id, user_id), channels, timeout=PRESENCE_TTL)


def presence_disconnected(game_id: int, user_id: int, channel_name: str) -> None:
    """The socket ``channel_name`` closed; the user stays connected through any other."""
    now = time.time()
    with _locked(game_id, user_id):
        channels = _live(cache.get(_key(game_id, user_id)), now)
        channels.pop(channel_name, None)
        if channels:
            # The entry lives as long as its longest-lived socket.
            timeout = max(1, int(max(channels.values()) - now) + 1)
            cache.set(_key(game_id, user_id), channels, timeout=timeout)
        else:
            cache.delete(_key(game_id, user_id))


def presence_is_connected(game_id: int, user_id: int) -> bool:
    """Whether ``user_id`` has at least one live socket on ``game_id`` (any process)."""
    return bool(_live(cache.get(_key(game_id, user_id)), time.time()))


def _live(channels: object, now: float) -> dict[str, float]:
    """The channels whose refresh has not run out (a crashed process's sockets drop out here)."""
    if not isinstance(channels, dict):
        return {}
    return {name: expires for name, expires in channels.items() if expires > now}


@contextlib.contextmanager
def _locked(game_id: int, user_id: int) -> Iterator[None]:
    """A short lock around the read-modify-write of one entry (``cache.add`` is atomic: SET NX
    on Redis), so two sockets of one user opening at once on two processes both stay listed.

    If the lock cannot be had in about half a second (a holder died), go on without it: the
    worst case is one socket missing until its next refresh, never an error on the socket.
    """
    lock = f"{_key(game_id, user_id)}:lock"
    held = False
    for _ in range(LOCK_TRIES):
        if cache.add(lock, 1, timeout=LOCK_TTL):
            held = True
            break
        time.sleep(LOCK_WAIT)
    else:
        logger.warning("presence of user %s in game %s: updating without the lock", user_id,
                       game_id)  # fmt: skip
    try:
        yield
    finally:
        if held:
            cache.delete(lock)
