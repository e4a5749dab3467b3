"""The engine reports every piece an action changes (``apply_recorded``, ``risk.rules.touched``).

The server writes a game's piece rows from what each action touched (``pieces.changes``), so a
change the engine forgets to report would leave a row behind the state for good. Here random
games (players joining, leaving and conceding now and then, played to their end) keep a model of
the tables: every row of the start (``pieces_of``), then after each action only the changes;
after every action the model must equal every row of the new state. This test may compare whole
states; the server never does.
"""

from __future__ import annotations

import random

import pytest

from risk.rules import (
    apply_recorded,
    game_dice,
    join_or_leave,
    new_game,
    pending_decisions,
    sample_action,
)
from risk.rules.actions import Concede
from risk.rules.pieces import Changes, Pieces, changes, pieces_of
from risk.rules.state import GameState
from risk.rules.touched import Touched, recording, territory
from tests.depth import seed_count

ACTION_BOUND = 25_000


class Tables:
    """The three tables of one game, keyed as their unique constraints are."""

    def __init__(self, start: Pieces) -> None:
        self.holdings = {row.territory: row for row in start.holdings}
        self.ships = {row.ship: row for row in start.ships}
        self.cards = {(row.kind, row.pile, row.holder, row.position): row for row in start.cards}

    def write(self, done: Changes) -> None:
        self.holdings.update((row.territory, row) for row in done.holdings)
        self.ships.update((row.ship, row) for row in done.ships)
        for ship_id in done.sunk:
            del self.ships[ship_id]
        for key, length in done.shrunk:
            for at in [k for k in self.cards if k[:3] == key and k[3] >= length]:
                del self.cards[at]
        self.cards.update(((r.kind, r.pile, r.holder, r.position), r) for r in done.cards)

    def rows(self) -> Pieces:
        return Pieces(
            [self.holdings[k] for k in sorted(self.holdings)],
            [self.ships[k] for k in sorted(self.ships)],
            [self.cards[k] for k in sorted(self.cards)],
        )


def play(seed: int, players: int, *, rounds: int | None = None) -> tuple[GameState, int]:
    """A random game checked action by action; its final state and the rows it wrote."""
    names = [f"p{i}" for i in range(players)]
    state = new_game(names, seed=f"touched-{seed}")
    tables = Tables(pieces_of(state))
    rng = random.Random(seed)
    newcomers = iter(f"late{i}" for i in range(20))
    written = 0
    for _ in range(ACTION_BOUND):
        if state.over or (rounds is not None and state.round > rounds):
            break
        action = None
        if rng.random() < 0.01:
            person = rng.choice([*names, next(newcomers, "late-x")])
            action = join_or_leave(state, person, rng)
            playing = sum(s.kind == "player" and s.alive for s in state.seats)
            if action is not None and action.type == "leave" and playing <= 2:
                action = None  # it would end the game at once: play on
            if action is not None and action.type == "join":
                names.append(person)
            elif action is not None and rng.random() < 0.3:
                action = Concede(person)
        if action is None:
            action = sample_action(state, pending_decisions(state)[0].player, rng)
        after, _, touched = apply_recorded(state, action, game_dice(state))
        done = changes(state, after, touched)
        tables.write(done)
        written += len(done.holdings) + len(done.ships) + len(done.cards)
        assert tables.rows() == pieces_of(after), f"seed {seed}, action {after.actions}: {action}"
        state = after
    return state, written


@pytest.mark.parametrize("seed", range(6))
def test_the_rows_written_from_what_was_touched_equal_the_state(seed: int) -> None:
    state, written = play(seed, 2 + seed % 5, rounds=12)
    assert state.actions > 300  # the game went somewhere
    assert written < 6 * state.actions  # a few rows an action, not the board each time


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6, 6 + seed_count(24, 12)))  # tests/depth.py
def test_random_games_played_to_their_end_never_leave_a_row_behind(seed: int) -> None:
    state, _ = play(seed, 2 + seed % 5)
    assert state.over


def test_nothing_is_recorded_outside_a_recording() -> None:
    territory("Alaska")  # no recording: a no-op
    with recording() as outer:
        territory("Alaska")
        with recording() as inner:
            territory("Brazil")
    assert (outer.territories, inner.territories) == ({"Alaska"}, {"Brazil"})


def test_a_placement_touches_its_territory_and_nothing_else() -> None:
    """Placing 3 armies on Alaska writes Alaska's row alone, with its new armies."""
    state = new_game(["ann", "bob"], seed="placement")
    rng = random.Random(0)
    while state.turn is None or state.turn.to_place == 0:
        actor = pending_decisions(state)[0].player
        state, _ = apply_recorded(state, sample_action(state, actor, rng), game_dice(state))[:2]
    seat = state.turn.seat
    target = sorted(state.owned(seat))[0]
    from risk.rules.actions import Place

    after, _, touched = apply_recorded(state, Place(seat, target, 3), game_dice(state))
    assert touched == Touched(territories={target})
    done = changes(state, after, touched)
    assert [(r.territory, r.armies) for r in done.holdings] == [
        (target, state.territories[target].armies + 3)
    ]
    assert (done.ships, done.sunk, done.cards, done.shrunk) == ([], [], [], [])
