"""The pure Fast Risk rules engine: ``apply(state, action, dice) -> (state, events)``.

Standard library and ``combat`` only; a test fails on any Django, DRF, Channels or Celery import.
The public contract (what the server and the tests may rely on):

- ``new_game(players, *, seed, options=Options()) -> GameState``
- ``apply(state, action, dice) -> (GameState, list[Event])``, raising ``IllegalAction(reason)``;
  ``apply_recorded`` also returns what it touched (``risk.rules.touched``), and
  ``risk.rules.pieces`` says what rows the server keeps of a state's pieces.
- ``legal_actions(state, player) -> list[ActionSpec]``
- ``pending_decisions(state) -> list[Decision]``
- ``sample_action(state, player, rng) -> Action``
- ``view_for(state, player | None) -> dict``, ``events_for(state, events, player)``
- ``to_dict(state)`` / ``from_dict(d)``; ``action_from_dict(d)`` / ``Action.to_dict()``
- ``game_dice(state)``: the verifiable dice of the next action.
- ``format_action(state, action) -> str`` / ``parse_action(state, player, line) -> Action`` and
  ``legal_moves_text(state, player) -> list[str]``: the move notation for mail.
- ``view_patch(before, after) -> list[op]`` / ``apply_patch(doc, ops)``: the JSON Patch between
  two views that a socket push carries.
"""

from risk.rules.actions import (
    ACTION_TYPES,
    Action,
    IllegalAction,
    InvalidAction,
    action_from_dict,
)
from risk.rules.board_map import BoardMap, MapError, load_map
from risk.rules.engine import (
    ActionSpec,
    Decision,
    apply,
    apply_recorded,
    game_dice,
    legal_actions,
    pending_decisions,
)
from risk.rules.events import Event
from risk.rules.notation import format_action, legal_moves_text, parse_action
from risk.rules.sampler import NoAction, join_or_leave, sample_action
from risk.rules.setup import new_game
from risk.rules.state import GameState, Options, clone, from_dict, to_dict
from risk.rules.view_patch import PatchError, apply_patch, view_patch
from risk.rules.views import action_for, events_for, view_for

__all__ = [
    "ACTION_TYPES",
    "Action",
    "ActionSpec",
    "BoardMap",
    "Decision",
    "Event",
    "GameState",
    "IllegalAction",
    "InvalidAction",
    "MapError",
    "NoAction",
    "Options",
    "PatchError",
    "action_for",
    "action_from_dict",
    "apply",
    "apply_patch",
    "apply_recorded",
    "clone",
    "events_for",
    "format_action",
    "from_dict",
    "game_dice",
    "join_or_leave",
    "legal_actions",
    "legal_moves_text",
    "load_map",
    "new_game",
    "parse_action",
    "pending_decisions",
    "sample_action",
    "to_dict",
    "view_for",
    "view_patch",
]
