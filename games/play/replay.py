"""A finished game's replays, loaded and cached: the board replay (``GET
/api/games/{id}/replay/board``) and the log with the seeds (``GET /api/games/{id}/replay``).

The replay itself is pure (``risk.rules.replay_board``); this shell reads the game's rows the way
``manage.py verify_game`` does (``verify.game_replay_data``), derives the engine seed from the
revealed seeds, and keeps the answer in Django's cache: a finished game never changes, so the
key is the game id and its final version, and the log is replayed once, not once per viewer.

The log with the seeds (``game_log_replay``) of a 4,430-entry game is 2.1 MB of JSON and took
0.4 s of CPU per anonymous request: it is rendered once, gzipped (about a tenth of the size) and
kept as those bytes, so a later request costs a cache read and, for the rare client that does
not accept gzip, a decompression. It is computed one at a time per process, like the board.
"""

from __future__ import annotations

import gzip
import logging
import threading
from collections.abc import Callable
from typing import Any

from django.core.cache import cache
from rest_framework.renderers import JSONRenderer

from games.models import Game
from games.play.reads import shown
from games.play.seeds import engine_seed
from games.play.verify import game_replay_data
from games.web.exceptions import ConflictError, UnavailableError
from risk.rules.replay_board import LoggedAction, ReplayTooLong, board_replay
from risk.rules.upcast import stored_options

logger = logging.getLogger(__name__)

#: Part of the key: bump it when the answer's shape (or the spectator view's) changes, so an
#: answer cached by an older release is not served by a newer one.
FORMAT = 1
#: A week: long enough to serve a popular replay from the cache, short enough that entries of
#: replays nobody opens any more leave a shared cache on their own.
TIMEOUT = 7 * 24 * 3600
#: One replay computed at a time per process: the first viewer of a long finished game costs
#: about 2 ms of CPU an entry (``bench``-style measure: 1,500 entries in 2.8 s on a loaded
#: 2-core machine), so several such requests at once would take every core. Others wait up to
#: ``SLOT_WAIT`` seconds, then get a 503 with Retry-After; once computed the answer is cached.
_computing = threading.BoundedSemaphore(1)
SLOT_WAIT = 0.5


#: The log replay's slot (its first request for a long game costs about 0.4 s of CPU).
_logging = threading.BoundedSemaphore(1)


def cache_key(game: Game) -> str:
    return f"replay-board:{FORMAT}:{game.pk}:{game.version}"


def log_cache_key(game: Game) -> str:
    return f"replay-log:{FORMAT}:{game.pk}:{game.version}"


def game_log_replay(game: Game) -> bytes:
    """The gzipped JSON (as the API renders it) of ``shown.replay``: the whole log with the
    revealed seeds, computed once per finished game. ``ConflictError`` ``not_over`` while the
    game runs (its seed is still secret)."""
    if game.status != Game.Status.FINISHED:
        raise ConflictError("the replay opens when the game is over", code="not_over")
    return bytes(
        _computed_once(
            log_cache_key(game),
            _logging,
            lambda: gzip.compress(JSONRenderer().render(shown.replay(game)), compresslevel=6),
        )
    )


def game_board_replay(game: Game) -> dict[str, Any]:
    """``{"start", "steps"}`` of a finished game; ``ConflictError`` ``not_over`` while it runs
    (its seed is still secret) and ``replay_too_long`` past ``risk.rules.replay_board``'s bound.
    """
    if game.status != Game.Status.FINISHED:
        raise ConflictError("the replay opens when the game is over", code="not_over")
    return _computed_once(cache_key(game), _computing, lambda: _replay(game))


def _computed_once(key: str, slot: threading.BoundedSemaphore, build: Callable[[], Any]) -> Any:
    """The cached answer under ``key``, else ``build()`` run in ``slot`` (one at a time per
    process, so a burst of readers of one finished game computes it once) and cached."""
    cached = _cached(key)
    if cached is not None:
        return cached
    if not slot.acquire(timeout=SLOT_WAIT):
        raise UnavailableError(
            "another replay is being prepared: try again in a few seconds", code="replays_busy"
        )
    try:
        body = _cached(key)  # made by the request that held the slot before us?
        if body is None:
            body = build()
            _keep(key, body)
    finally:
        slot.release()
    return body


def _cached(key: str) -> Any:
    """The cached answer, or None (also when the cache's Redis is unreachable: the replay is
    then computed for this request, and that is logged, rather than refused with a 500)."""
    try:
        return cache.get(key)
    except Exception:
        logger.warning("replay cache unavailable (cache down); %s computed afresh", key)
        return None


def _keep(key: str, body: Any) -> None:
    try:
        cache.set(key, body, timeout=TIMEOUT)
    except Exception:
        logger.warning("replay cache unavailable (cache down); %s not kept", key)


def _replay(game: Game) -> dict[str, Any]:
    data = game_replay_data(game, with_final_state=False)
    try:
        return board_replay(
            data.players,
            engine_seed(data.server_seed, data.client_seeds),
            stored_options(data.options),
            [LoggedAction(e.sequence, e.action) for e in data.entries],
        )
    except ReplayTooLong as exc:
        raise ConflictError(str(exc), code="replay_too_long") from exc
