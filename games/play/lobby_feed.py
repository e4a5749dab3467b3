"""The live lobby's feed: which public games changed, pushed to ``/ws/lobby/`` after the commit.

A lobby client holds lists (open games, running games, its own, those waiting on it) and needs
to know when to read them again, not what changed: the push names the changed games' ids only,
and the client re-reads them through the API, which applies ``access`` and the caller's filters.
So the feed never carries anything of a private game (it names none: ``changed`` ignores them).

What counts as a change the lobby shows: a public game created, a seat taken or given up, bots
seated, the start, a person joining or leaving a running game (its armies free or taken), a new
turn (``effects`` tells it: the seat or controller of the turn differs), the end.

Cost: the ids changed in one transaction are gathered in one callback registered with
``transaction.on_commit`` (found again on the connection's list for the next change), so a
commit costs at most one ``group_send``, whatever it changed; nothing is sent for a rolled-back
transaction, and an action that leaves the turn where it was sends nothing at all (the action
path's push budget, tests/integration/test_push_commands.py).
"""

from __future__ import annotations

import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

#: The channel-layer group every lobby socket listens on.
LOBBY_GROUP = "lobby"


class _Batch:
    """The ids one transaction changed; called once, when it commits."""

    def __init__(self, game_id: int) -> None:
        self.ids = [game_id]

    def __call__(self) -> None:
        announce(self.ids)


def changed(game_id: int, *, public: bool) -> None:
    """Note that a game the lobby lists changed; pushed once the transaction commits (at once
    outside one). A private game is never announced."""
    if not public:
        return
    connection = transaction.get_connection()
    if connection.in_atomic_block:
        for entry in connection.run_on_commit:
            batch = entry[1]  # (savepoint ids, callback, robust)
            if isinstance(batch, _Batch):
                if game_id not in batch.ids:
                    batch.ids.append(game_id)
                return
    transaction.on_commit(_Batch(game_id))


def announce(game_ids: list[int]) -> None:
    """One push to every lobby socket naming ``game_ids``. A lost push costs a client only
    freshness (the page also re-reads on reconnect), never the commit."""
    layer = get_channel_layer()
    if layer is None or not game_ids:
        return
    message: dict[str, Any] = {"type": "lobby.message", "games": list(game_ids)}
    try:
        async_to_sync(layer.group_send)(LOBBY_GROUP, message)
    except Exception:
        logger.exception("lobby push of games %s failed", game_ids)
