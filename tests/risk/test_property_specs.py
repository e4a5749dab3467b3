"""What ``legal_actions`` offers, ``apply`` accepts: no client built on the specs hits a dead end.

Seeded random games of 2-6 players (late-comers joining, players leaving) are played with
``sample_action``. At every step, for the player the game waits on and for one other person
(who may only take the actions open at any time: join, leave, concede, vote for a draw, set a
preference), every spec is turned into concrete actions by ``spec_actions.actions_from_spec``,
which reads the spec's choices alone (each range at its ends and middle, every listed target,
source, mode, card and station), and each of them must be accepted by ``apply``.
"""

from __future__ import annotations

import random

import pytest

from risk.rules import (
    IllegalAction,
    apply,
    game_dice,
    join_or_leave,
    legal_actions,
    new_game,
    pending_decisions,
    sample_action,
)
from risk.rules.state import GameState, Options
from tests.depth import seed_count
from tests.risk.spec_actions import actions_from_spec

GAMES = [(seed, 2 + seed % 5) for seed in range(seed_count(12, 6))]  # tests/depth.py
STEPS = 700
CHECKED_PER_STEP = 60  # built actions applied per step, drawn from all of them when more


def _check_specs(state: GameState, person: str, rng: random.Random) -> int:
    built = []
    for spec in legal_actions(state, person):
        built += [(spec, action) for action in actions_from_spec(spec, person)]
    if len(built) > CHECKED_PER_STEP:
        built = rng.sample(built, CHECKED_PER_STEP)
    for spec, action in built:
        try:
            apply(state, action, game_dice(state))
        except IllegalAction as error:
            pytest.fail(f"{spec} offered {action}, which apply refuses: {error}")
    return len(built)


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "players"), GAMES)
def test_every_action_built_from_a_spec_is_accepted(seed: int, players: int) -> None:
    _play_and_check(seed, players, Options())


#: The host options against the flanking loophole (RULES.md C10, C11): what a spec offers under
#: them is accepted too (a committed block from ``min_commitment``, two flanks of it from one
#: source only with twice that to spare).
FLANKING_OPTIONS = [
    Options(min_commitment=3, defender_dice="normal"),
    Options(min_commitment=4),
]


@pytest.mark.parametrize("options", FLANKING_OPTIONS, ids=["min3-normal-dice", "min4"])
def test_every_action_built_from_a_spec_is_accepted_under_the_flanking_options(
    options: Options,
) -> None:
    _play_and_check(3, 3, options, steps=400)


def _play_and_check(seed: int, players: int, options: Options, steps: int = STEPS) -> None:
    names = [f"p{i}" for i in range(players)]
    state = new_game(names, seed=f"specs-{seed}", options=options)
    rng = random.Random(seed)
    newcomers = [f"late{i}" for i in range(4)]
    checked = 0
    for _ in range(steps):
        if state.over:
            break
        actor = pending_decisions(state)[0].player
        checked += _check_specs(state, actor, rng)
        bystander = rng.choice([*names, *newcomers])
        if bystander != actor:
            checked += _check_specs(state, bystander, rng)
        action = None
        if rng.random() < 0.01:
            action = join_or_leave(state, bystander, rng)
            playing = sum(s.kind == "player" and s.alive for s in state.seats)
            if action is not None and action.type == "leave" and playing <= 2:
                action = None  # a leave would end the game at once: keep playing
            if action is not None and action.type == "join":
                names.append(bystander)
        if action is None:
            action = sample_action(state, actor, rng)
        state, _ = apply(state, action, game_dice(state))
    assert checked > 2000 * steps // STEPS  # the game went somewhere, offering real choices
