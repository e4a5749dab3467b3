"""The bot interface: a bot sees only what its seat may see, and still finds legal moves.

Random games are played where every decision is taken by ``RandomBot`` through ``decide`` (the
redacted state), and each pick is applied to the real state: the engine must accept it. Along
the way every redacted state is checked card by card against the real one.
"""

from __future__ import annotations

import random

import pytest

from risk.rules import apply, game_dice, new_game, pending_decisions
from risk.rules.bots import HIDDEN, RandomBot, bot_view, decide, redacted_state
from risk.rules.state import GameState
from risk.rules.views import controls_turn_of

STEPS = 700


def _check_redaction(state: GameState, player: str) -> None:
    seen = redacted_state(state, player)
    me = state.seat_of_actor(player)
    assert seen.seed == ""
    for real, shown in zip(state.seats, seen.seats, strict=True):
        if me is not None and real.id == me.id:
            assert shown.risk_cards == real.risk_cards
            assert shown.poker_cards == real.poker_cards
        elif controls_turn_of(state, player, real.id):  # an allied turn the player declared
            assert shown.risk_cards == real.risk_cards
            assert shown.poker_cards == [HIDDEN] * len(real.poker_cards)
        else:
            assert shown.risk_cards == [HIDDEN] * len(real.risk_cards)
            assert shown.poker_cards == [HIDDEN] * len(real.poker_cards)
    assert seen.risk_deck.draw == [HIDDEN] * len(state.risk_deck.draw)
    assert seen.risk_deck.discard == state.risk_deck.discard  # turned-in sets were shown
    assert seen.poker_deck.draw == [HIDDEN] * len(state.poker_deck.draw)
    assert seen.poker_deck.discard == [HIDDEN] * len(state.poker_deck.discard)
    if state.contest is not None and state.contest.hand is not None:
        hand, shown_hand = state.contest.hand, seen.contest.hand
        assert shown_hand.deck == (HIDDEN,) * len(hand.deck)
        for real_seat, shown_seat in zip(hand.seats, shown_hand.seats, strict=True):
            if me is not None and real_seat.player == me.id:
                assert shown_seat == real_seat
            else:
                assert set(shown_seat.stash) <= {HIDDEN}
                assert set(shown_seat.discards) <= {HIDDEN}


@pytest.mark.parametrize("seed", range(4))
def test_bots_pick_only_legal_actions_from_what_they_may_see(seed: int) -> None:
    players = ["alice", "bob", "carol", "dave"][: 2 + seed % 3]
    state = new_game(players, seed=f"bots-{seed}")
    contests = 0
    for step in range(STEPS):
        decisions = pending_decisions(state)
        if not decisions:
            break
        actor = decisions[step % len(decisions)].player
        _check_redaction(state, actor)
        action = decide(RandomBot(random.Random(step)), state, actor)
        state, _ = apply(state, action, game_dice(state))  # raises if the pick was illegal
        contests += state.contest is not None and state.contest.hand is not None
    assert state.actions >= min(STEPS, 100)
    assert contests > 0, "each of these seeded games reaches a poker hand (checked above)"


def test_a_spectator_redaction_hides_every_hand() -> None:
    state = new_game(["alice", "bob"], seed="spectator")
    seen = redacted_state(state, None)
    for seat in seen.seats:
        assert set(seat.risk_cards) <= {HIDDEN}
        assert set(seat.poker_cards) <= {HIDDEN}
    # The original is untouched: alice still holds her real cards.
    assert HIDDEN not in state.seat("alice").poker_cards


def test_the_bot_view_carries_the_seats_own_view() -> None:
    state = new_game(["alice", "bob"], seed="view")
    view = bot_view(state, "alice")
    assert view.player == "alice"
    assert view.view["you"] == "alice"
    mine = next(s for s in view.view["seats"] if s["id"] == "alice")
    assert mine["poker_hand"] == state.seat("alice").poker_cards
    bob = next(s for s in view.view["seats"] if s["id"] == "bob")
    assert "poker_hand" not in bob
