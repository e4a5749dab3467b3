"""The last committed rules state of recently active games, kept in this process.

Loading a board through the adapter is most of an action's database time (6 queries and a
``from_dict``). The state an action commits is exactly what the next action of that game would
load, so it is kept here, keyed by what identifies it: the game, its board, the log version and
the start time (ids can be reused after a test database flush; the start time cannot). An entry
is written only from ``transaction.on_commit`` (a rolled-back action never reaches it), and
``play.commit_action`` is the only writer of the board, bumping the version each time, so a hit
is always the state in the database. With several server processes each keeps its own entries:
a miss just loads from the database. States are never mutated (``apply`` copies), so sharing one
object between threads is safe.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import datetime

from risk.rules import GameState

#: Games kept; a game not acted on for a while drops out (a state is ~50 kB).
SIZE = 512

Key = tuple[int, int, int, datetime | None]
_states: OrderedDict[Key, GameState] = OrderedDict()
_lock = threading.Lock()


def get(key: Key) -> GameState | None:
    with _lock:
        state = _states.get(key)
        if state is not None:
            _states.move_to_end(key)
        return state


def put(key: Key, state: GameState) -> None:
    with _lock:
        stale = [k for k in _states if k[0] == key[0] and k != key]
        for k in stale:
            del _states[k]
        _states[key] = state
        _states.move_to_end(key)
        while len(_states) > SIZE:
            _states.popitem(last=False)


def clear() -> None:
    with _lock:
        _states.clear()
