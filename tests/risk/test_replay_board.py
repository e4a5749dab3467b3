"""``risk.rules.replay_board``: a seeded bot game replayed onto the board as the viewer sees it.

The game is played here with the engine (random bots, a one-round limit so it ends), its actions
kept as a log; the board replay of that log must start at the spectator's view of the freshly
dealt game, have one patch per entry, and land exactly on the spectator's view of the end.
"""

from __future__ import annotations

import json
import random

import pytest

from risk.rules import (
    Options,
    apply,
    apply_patch,
    game_dice,
    new_game,
    pending_decisions,
    view_for,
)
from risk.rules.bots import RandomBot, decide
from risk.rules.replay_board import LoggedAction, ReplayTooLong, board_replay
from risk.rules.state import GameState

PLAYERS = ["alice", "bob", "carol"]
SEED = "replay-board-seed"
OPTIONS = Options.from_dict({"win": "round-limit", "round_limit": 1})


def played() -> tuple[list[LoggedAction], list[GameState]]:
    """The log of a seeded random-bot game to its end, and the state after each entry."""
    rng = random.Random(7)
    state = new_game(PLAYERS, seed=SEED, options=OPTIONS)
    log: list[LoggedAction] = []
    states: list[GameState] = []
    for n in range(1, 5000):
        decisions = pending_decisions(state)
        if not decisions:
            break
        action = decide(RandomBot(rng), state, rng.choice(decisions).player)
        state, _ = apply(state, action, game_dice(state))
        log.append(LoggedAction(n, action.to_dict()))
        states.append(state)
    assert state.over, "the one-round game should have ended"
    return log, states


@pytest.fixture(scope="module")
def game() -> tuple[list[LoggedAction], list[GameState], dict]:
    log, states = played()
    return log, states, board_replay(PLAYERS, SEED, OPTIONS, log)


def test_the_start_is_the_spectator_view_of_the_new_game(game):
    _, _, body = game
    assert body["start"] == view_for(new_game(PLAYERS, seed=SEED, options=OPTIONS), None)
    # as dealt: no turn yet, every seat still to arrange its armies
    assert body["start"]["turn"] is None
    assert [(d["seat"], d["kind"]) for d in body["start"]["pending"]] == [
        ("alice", "arrange"),
        ("bob", "arrange"),
        ("carol", "arrange"),
    ]


def test_one_patch_per_entry_numbered_as_the_log(game):
    log, _, body = game
    assert len(body["steps"]) == len(log) > 20
    assert [s["sequence"] for s in body["steps"]] == list(range(1, len(log) + 1))


def test_all_patches_applied_give_the_final_spectator_view(game):
    _, states, body = game
    view = body["start"]
    for step in body["steps"]:
        view = apply_patch(view, step["patch"])
    assert view == view_for(states[-1], None)
    assert view["over"] is True and "seed" in view  # the end reveals the seed to everyone


def test_each_step_is_the_spectator_view_after_that_entry(game):
    _, states, body = game
    view = body["start"]
    for step, state in zip(body["steps"], states, strict=True):
        view = apply_patch(view, step["patch"])
        assert view == view_for(state, None), step["sequence"]


def test_nothing_a_spectator_does_not_see_is_in_the_answer(game):
    _, _, body = game
    text = json.dumps(body)
    # seat views carry hands only for their own seat; the spectator's never do
    assert "risk_hand" not in text and "poker_hand" not in text
    assert body["start"]["you"] is None


def test_a_log_past_the_bound_is_refused_before_any_work(monkeypatch):
    monkeypatch.setattr("risk.rules.replay_board.MAX_ENTRIES", 2)
    entries = [LoggedAction(n, {"type": "end_turn"}) for n in range(1, 4)]
    with pytest.raises(ReplayTooLong, match="3 log entries; at most 2"):
        board_replay(PLAYERS, SEED, OPTIONS, entries)
