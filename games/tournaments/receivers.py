"""Tournaments react to a finished game or room (``games.hooks``): its result goes to its table,
if it has one, by a task queued by name after the commit (the announcement comes after it)."""

from __future__ import annotations

from games.common.queue import enqueue
from games.hooks import GameFinished, RoomFinished, on_game_finished, on_room_finished


@on_game_finished.register
def record_finished_game(event: GameFinished) -> None:
    enqueue("games.tournament_game_over", event.game_id)


@on_room_finished.register
def record_finished_room(event: RoomFinished) -> None:
    enqueue("games.tournament_room_over", event.room_id)
