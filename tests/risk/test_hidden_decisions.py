"""No decision gives a hand away: what the game waits for never depends on a hidden card.

Seeded random games are played with ``sample_action``. Before each action a twin of the state is
made in which the cards nobody but their holder may see are dealt differently among the other
seats (each keeps as many as it held): the Risk hands of the players who answer a mobilization
themselves, and every poker stash. The same action is applied to both with the same dice. The
decisions the game then waits for, the battle's and the declaration's stage, and which fields the
spectator's view holds must be the same in both: otherwise a watcher could learn a hand from
them (RULES.md M3; before it, a missed cut went to a public ``mobilize`` stage only when the
defender held a card it could reveal).

Allied armies, and players whose standing preference is ``reveal-all``, reveal their eligible
cards at once in public: that reveal is the rule's own public act, so their hands are not dealt
differently here.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from risk.rules import (
    IllegalAction,
    apply,
    clone,
    game_dice,
    new_game,
    pending_decisions,
    sample_action,
    view_for,
)
from risk.rules.state import ASK, PLAYER, GameState

GAMES = [(seed, 2 + seed % 5) for seed in range(16)]
STEPS = 900


def _redeal(state: GameState, actor: str, rng: random.Random) -> GameState:
    """A twin whose hidden cards (not the actor's, not an allied turn's hand) lie elsewhere."""
    twin = clone(state)
    me = twin.seat_of_actor(actor)
    turn = twin.turn
    seen = {me.id if me is not None else None}
    if turn is not None and turn.controller == actor:
        seen.add(turn.seat)  # the declarer sees the hand of the ally it plays (RULES.md A7)
    risk = [s for s in twin.seats if s.id not in seen and s.kind == PLAYER and s.reveal == ASK]
    poker = [s for s in twin.seats if s.id not in seen]
    for seats, hand in ((risk, "risk_cards"), (poker, "poker_cards")):
        cards = [card for seat in seats for card in getattr(seat, hand)]
        rng.shuffle(cards)
        for seat in seats:
            count = len(getattr(seat, hand))
            setattr(seat, hand, cards[:count])
            cards = cards[count:]
    return twin


def _shape(value: Any) -> Any:
    """Which fields a view holds, not what they hold (armies may differ: a die is a die)."""
    if isinstance(value, dict):
        return {key: _shape(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_shape(item) for item in value]
    return type(value).__name__


def _public(state: GameState) -> tuple[Any, ...]:
    view = view_for(state, None)
    battle, contest = state.battle, state.contest
    return (
        pending_decisions(state),
        battle.stage if battle is not None else None,
        contest.stage if contest is not None else None,
        _shape(view),
    )


@pytest.mark.slow
@pytest.mark.parametrize(("seed", "players"), GAMES)
def test_what_the_game_waits_for_never_depends_on_a_hidden_card(seed: int, players: int) -> None:
    state = new_game([f"p{i}" for i in range(players)], seed=f"hidden-{seed}")
    rng = random.Random(seed)
    mobilizations = 0
    for step in range(STEPS):
        if state.over:
            break
        actor = pending_decisions(state)[0].player
        action = sample_action(state, actor, rng)
        twin = _redeal(state, actor, rng)
        after, _ = apply(state, action, game_dice(state))
        try:
            twin_after, _ = apply(twin, action, game_dice(twin))
        except IllegalAction as error:
            pytest.fail(
                f"step {step}: {action} is legal or not depending on others' cards: {error}"
            )
        assert _public(after) == _public(twin_after), f"step {step}: {action}"
        mobilizations += any(d.kind == "mobilize" for d in pending_decisions(after))
        state = after
    assert mobilizations > 0  # the games reached the decisions this test is about
