"""A finished game on the board, step by step: the spectator's view before the first log entry
and, for every entry, the JSON Patch that turns the view before it into the view after it.

The replay viewer (``/games/<id>/replay``) paints the board from ``start`` and applies the
patches in order, so stepping to entry n shows exactly what a spectator saw after it. The
replay is the one ``games.play.verify`` checks (design.md section 2, step 3):
``new_game(players, seed=<engine seed>, options=...)``, then each logged action in sequence
order applied with ``game_dice(state)``. Only ``view_for(state, None)`` (the spectator's view)
goes into the answer, so nothing a spectator would not see leaves here: no hands, no draw
order (the seed itself appears only in the final view, where a finished game reveals it).

Bounded work: one ``apply``, one view and one diff per entry, so the cost is linear in the log.
A finished game's log is what the engine let it play (no engine limit caps its length; the win
conditions end it); ``MAX_ENTRIES`` refuses a log longer than any game produces in practice
rather than replay it without end (the server computes the answer once per finished game and
caches it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from risk.rules.actions import action_from_dict
from risk.rules.engine import apply, game_dice
from risk.rules.setup import new_game
from risk.rules.state import Options
from risk.rules.view_patch import view_patch
from risk.rules.views import view_for

__all__ = ["MAX_ENTRIES", "LoggedAction", "ReplayTooLong", "board_replay"]

#: The longest log replayed. A bot-played 3-seat one-round game logs about 110-240 entries; a
#: long last-standing game among six people, by estimate, some thousands. Measured here: about
#: 15 ms an entry (one apply, one view, one diff), so a log at this bound is a few minutes of one
#: worker, once per finished game (the answer is then cached). A longer log is refused rather
#: than replayed without end.
MAX_ENTRIES = 20_000


class ReplayTooLong(ValueError):
    """A log longer than ``MAX_ENTRIES``: not replayed."""


@dataclass(frozen=True)
class LoggedAction:
    """One log entry as the board replay needs it: its sequence number and the action."""

    sequence: int
    action: Mapping[str, Any]


def board_replay(
    players: Sequence[str],
    seed: str,
    options: Options,
    entries: Sequence[LoggedAction],
) -> dict[str, Any]:
    """``{"start": view, "steps": [{"sequence", "patch"}]}`` of the game the log replays.

    ``seed`` is the engine seed (``games.play.seeds.engine_seed`` of the revealed server
    seed and the client seeds). An entry the engine refuses raises ``IllegalAction``: the log
    of a finished game always replays (``manage.py verify_game`` checks it does).
    """
    if len(entries) > MAX_ENTRIES:
        raise ReplayTooLong(f"{len(entries)} log entries; at most {MAX_ENTRIES} are replayed")
    state = new_game(players, seed=seed, options=options)
    start = view_for(state, None)
    before = start
    steps: list[dict[str, Any]] = []
    for entry in entries:
        state, _events = apply(state, action_from_dict(dict(entry.action)), game_dice(state))
        after = view_for(state, None)
        steps.append({"sequence": entry.sequence, "patch": view_patch(before, after)})
        before = after
    return {"start": start, "steps": steps}
