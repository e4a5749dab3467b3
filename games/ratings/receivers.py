"""Ratings react to a finished game or room (``games.hooks``): a rated one is rated by a task,
queued by name after the commit (the announcement comes after it)."""

from __future__ import annotations

from games.common.queue import enqueue
from games.hooks import GameFinished, RoomFinished, on_game_finished, on_room_finished


@on_game_finished.register
def rate_finished_game(event: GameFinished) -> None:
    if event.rated:
        enqueue("games.rate_game", event.game_id)


@on_room_finished.register
def rate_finished_room(event: RoomFinished) -> None:
    if event.rated:
        enqueue("games.rate_room", event.room_id)
