"""Playing games in tests: people's decisions taken by the random legal player, bots driven.

``play_out(game, users)`` plays a running game through the real services: each person's decision
goes through ``submissions.action_submit`` (with the expected version, as a client would send
it) and the server's through ``driver.step``. It drives the server itself, so it works whether
or not the test's transaction lets ``on_commit`` hooks run (with ``transactional_db`` the driver
has usually answered already and ``step`` finds nothing to do).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from games.models import Game
from games.play import driver, lobby, submit
from games.play.reads import fetch
from games.web.exceptions import ApplicationError
from risk.rules import GameState, pending_decisions
from risk.rules.bots import RandomBot, decide

#: Random picks tried for one decision before giving up (the random player works on the
#: redacted state, where a rare pick names a card it cannot see and is refused).
ATTEMPTS = 30

Until = Callable[[Game, GameState], bool]


def start_game(
    creator: Any,
    seats: int,
    *,
    others: Iterable[Any] = (),
    options: dict[str, Any] | None = None,
    client_seeds: dict[str, str] | None = None,
) -> Game:
    """A started game: ``creator`` and ``others`` seated in order, the rest bots."""
    seeds = client_seeds or {}
    game = lobby.game_create(
        creator=creator, seats=seats, options=options,
        client_seed=seeds.get(creator.get_username(), ""),
    )  # fmt: skip
    for user in others:
        lobby.game_join(game_id=game.pk, user=user, client_seed=seeds.get(user.get_username(), ""))
    lobby.game_fill_with_bots(game_id=game.pk, user=creator)
    return lobby.game_start(game_id=game.pk, user=creator)


def person_step(game: Game, user: Any, state: GameState, *, salt: int | str = 0) -> dict[str, Any]:
    """One decision of ``user``, picked at random among legal ones and submitted; the response."""
    name = user.get_username()
    for attempt in range(ATTEMPTS):
        rng = random.Random(f"{salt}:{game.pk}:{game.version}:{name}:{attempt}")
        action = decide(RandomBot(rng), state, name).to_dict()
        action.pop("player", None)
        try:
            return submit.action_submit(
                game_id=game.pk, user=user, action=action, expected_version=game.version
            )
        except ApplicationError:
            game.refresh_from_db()
    raise AssertionError(f"no legal action found for {name} at version {game.version}")


def play_out(
    game: Game,
    users: Iterable[Any],
    *,
    until: Until | None = None,
    max_steps: int = 20_000,
    salt: int | str = 0,
) -> Game:
    """Play ``game`` until it is over, or until ``until(game, state)`` holds; the game reloaded.

    ``users`` are the people whose decisions the random player takes; a pending decision of a
    person not in ``users`` stops the loop with an AssertionError (the test forgot someone).
    """
    people = {u.get_username(): u for u in users}
    for _ in range(max_steps):
        game.refresh_from_db()
        if game.status != Game.Status.RUNNING:
            return game
        state = fetch.game_state(game)
        if until is not None and until(game, state):
            return game
        waiting = [d.player for d in pending_decisions(state)]
        person = next((p for p in waiting if p in people), None)
        if person is not None:
            person_step(game, people[person], state, salt=salt)
        elif not driver.step(game.pk):
            raise AssertionError(f"game {game.pk} waits for {waiting}, who is not being played")
    raise AssertionError(f"game {game.pk} still running after {max_steps} steps")


def past_setup(game: Game, state: GameState) -> bool:
    """An ``until`` for ``play_out``: every seat has arranged, the first turn has begun."""
    return state.turn is not None
