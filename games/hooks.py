"""Where features meet: a finished game or room, announced once, after its commit.

Live play and rooms announce that something ended; ratings and tournaments react (rate it,
record the table's result). So ``play`` and ``rooms`` import neither, and a feature that wants
to react registers here instead of being called by name (lichess's ``finishGame`` event).
The receivers register in ``GamesConfig.ready`` (``games.ratings.receivers``,
``games.tournaments.receivers``).

Callers announce after the commit (from ``transaction.on_commit`` or an after-commit
dispatcher), never inside the transaction: a receiver may queue a task, which must not see a
result that then rolls back. Each receiver is tried on its own: the end is committed, so one
receiver's fault (a broker down) must not keep the others from running; the periodic sweeps
back up whatever a lost task did not do.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Generic, TypeVar

logger = logging.getLogger(__name__)

Event = TypeVar("Event")


@dataclass(frozen=True)
class GameFinished:
    """A live game ended. ``rated``: whether its ratings are to be updated (a rated game that
    ended by play; a game an administrator ended has no result to rate)."""

    game_id: int
    rated: bool


@dataclass(frozen=True)
class RoomFinished:
    """A correspondence room ended with a result. ``rated``: the room was created rated."""

    room_id: int
    rated: bool


class Hook(Generic[Event]):
    """A list of receivers of one kind of event, called in the order they registered."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._receivers: list[Callable[[Event], object]] = []

    def register(self, receiver: Callable[[Event], object]) -> Callable[[Event], object]:
        """Add ``receiver`` (once; usable as a decorator)."""
        if receiver not in self._receivers:
            self._receivers.append(receiver)
        return receiver

    def receivers(self) -> list[Callable[[Event], object]]:
        return list(self._receivers)

    def send(self, event: Event) -> None:
        """Call every receiver with ``event``; one that raises is logged, the others still run."""
        for receiver in self._receivers:
            try:
                receiver(event)
            except Exception:  # committed already: log it, carry on with the other receivers
                logger.exception("%s: receiver %s failed for %s", self.name, receiver, event)


on_game_finished: Hook[GameFinished] = Hook("on_game_finished")
on_room_finished: Hook[RoomFinished] = Hook("on_room_finished")
