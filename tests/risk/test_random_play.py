"""Random play: many seeded games of 2-6 players, invariants checked after every action.

Each game is played with ``sample_action`` (now and then a player leaves or a late-comer joins)
to the end or a round cap. After every action: one owner and at least one army per territory;
no army from nowhere (the army ledger balances: armies on the board = created - lost, by source);
the 44 Risk and 52 poker cards all accounted for; ships keep an army (outside battles);
``from_dict(to_dict(s)) == s`` through real JSON; every view hides other hands, the decks' order
and the seed. At the end the game replays from its seed and actions to the identical state.
"""

from __future__ import annotations

import json
import random

import pytest

from risk.rules import (
    action_from_dict,
    apply,
    events_for,
    from_dict,
    game_dice,
    join_or_leave,
    load_map,
    new_game,
    pending_decisions,
    sample_action,
    to_dict,
    view_for,
)
from risk.rules.actions import Concede, VoteDraw
from risk.rules.invariants import violations
from risk.rules.state import PLAYER, GameState
from risk.rules.turns import leave_refusal
from tests.depth import seed_count

ROUND_CAP = 8
ACTION_CAP = 2500
GAMES = [(seed, 2 + seed % 5) for seed in range(seed_count(15, 10))]  # tests/depth.py


def check_invariants(state: GameState) -> None:
    """Every invariant of ``risk.rules.invariants`` holds (its sentences name what broke)."""
    assert violations(state) == []


def check_views(state: GameState) -> None:
    for seat in state.seats:
        for viewer in (seat.actor, None):
            view = view_for(state, viewer)
            text = json.dumps(view)
            assert "seed" not in view or state.over
            if not state.over:
                assert state.seed not in text
            assert isinstance(view["risk_deck"]["draw"], int)
            assert isinstance(view["poker_deck"]["draw"], int)
            for shown in view["seats"]:
                if viewer is None or shown["id"] != seat.id:
                    assert "risk_hand" not in shown and "poker_hand" not in shown
                else:
                    assert shown["poker_hand"] == seat.poker_cards
            hand = (view["contest"] or {}).get("hand")
            if hand is not None:
                for player in hand["players"]:
                    if viewer is None or player["player"] != seat.id:
                        assert "hand" not in player and "stash" not in player


def play(seed: int, players: int) -> tuple[GameState, list[dict], GameState]:
    names = [f"p{i}" for i in range(players)]
    start = new_game(names, seed=f"game-{seed}")
    rng = random.Random(seed)
    state, log = start, []
    check_invariants(state)
    newcomers = iter(f"late{i}" for i in range(10))
    for _ in range(ACTION_CAP):
        if state.over or state.round > ROUND_CAP:
            break
        if rng.random() < 0.01:  # a late-comer joins, or someone leaves, when the rules allow it
            person = rng.choice([*names, next(newcomers, "late-x")])
            action = join_or_leave(state, person, rng)
            playing = sum(s.kind == "player" and s.alive for s in state.seats)
            if action is not None and action.type == "leave" and playing <= 2:
                action = None  # a leave would end the game at once: keep playing
            if action is not None and action.type == "join":
                names.append(person)
        else:
            action = None
        if action is None:
            actor = pending_decisions(state)[0].player
            action = sample_action(state, actor, rng)
        wire = json.loads(json.dumps(action.to_dict()))
        assert action_from_dict(wire) == action
        state, events = apply(state, action, game_dice(state))
        log.append(wire)
        for seat in state.seats:
            seen = events_for(state, events, seat.actor)
            for event in seen:
                if "private_to" in event and event["private_to"] != seat.id:
                    assert "cards" not in event
        check_invariants(state)
        assert from_dict(json.loads(json.dumps(to_dict(state)))) == state
    return start, log, state


@pytest.mark.parametrize(("seed", "players"), GAMES)
def test_random_game_keeps_every_invariant_and_replays(seed: int, players: int) -> None:
    start, log, end = play(seed, players)
    assert len(log) > 100  # the game really went somewhere
    check_views(end)
    replayed = new_game([s.id for s in start.seats if s.kind == "player"], seed=f"game-{seed}")
    assert replayed == start
    for wire in log:
        replayed, _ = apply(replayed, action_from_dict(wire), game_dice(replayed))
    assert replayed == end


def test_a_six_player_game_is_played_to_its_end() -> None:
    """Six players leave no allied army; random play ends with one player left standing.

    The default win condition, last player standing (design.md section 5, RULES.md J5), ends it:
    p5, p1, p2, p3 and p4 go out in that order (beaten, or a pirate put out, J6/J10), and p0,
    holding all 42 territories, is the last player; the ranking puts the last out first (J12).
    """
    state = new_game([f"p{i}" for i in range(6)], seed="to-the-end")
    rng = random.Random(3)
    for _ in range(60_000):
        if state.over:
            break
        actor = pending_decisions(state)[0].player
        state, _ = apply(state, sample_action(state, actor, rng), game_dice(state))
    assert state.over
    assert (state.winner, state.round) == ("p0", 127)
    assert state.eliminated == ["p5", "p1", "p2", "p3", "p4"]
    assert state.ranking == ["p0", "p4", "p3", "p2", "p1", "p5"]
    assert set(state.owned(state.winner)) == set(load_map().territories)
    assert pending_decisions(state) == []
    check_invariants(state)
    assert view_for(state, None)["seed"] == "to-the-end"


@pytest.mark.parametrize("seed", range(6))
def test_a_game_ended_mid_battle_or_mid_hand_keeps_every_invariant(seed: int) -> None:
    """RULES.md J11: wherever random play stands in a battle (any stage) or a poker hand, a game
    ended there -- every other live player conceding, or everyone agreeing to a draw -- settles
    the battle and the hand first: the final state keeps every invariant (the army ledger, the
    44 Risk and 52 poker cards, an army on every territory and aboard every ship)."""
    players = 2 + seed % 3
    state = new_game([f"p{i}" for i in range(players)], seed=f"cut-off-{seed}")
    rng = random.Random(seed)
    ended, conceded = {"battle": 0, "poker": 0}, 0
    for _ in range(6000):
        if state.over or min(ended.values()) >= 10:
            break
        busy = "battle" if state.battle is not None else None
        if state.contest is not None and state.contest.hand is not None:
            busy = "poker"
        if busy is not None and ended[busy] < 10:
            live = [s for s in state.seats if s.kind == PLAYER and s.alive]
            end = state
            for seat in live:  # a draw: every live player agrees
                end, _ = apply(end, VoteDraw(seat.actor, agree=True), game_dice(end))
            assert end.over and end.battle is None and end.contest is None
            check_invariants(end)
            involved = {state.battle.attacker, state.battle.defender} if state.battle else set()
            others = [s for s in live if s.id not in involved and leave_refusal(state, s) is None]
            if busy == "battle" and len(others) == len(live) - 1:  # the others concede
                end = state
                for seat in others:
                    end, _ = apply(end, Concede(seat.actor), game_dice(end))
                assert end.over and end.battle is None
                check_invariants(end)
                conceded += 1
            ended[busy] += 1
        actor = pending_decisions(state)[0].player
        state, _ = apply(state, sample_action(state, actor, rng), game_dice(state))
    assert ended == {"battle": 10, "poker": 10}
    assert conceded >= 1
