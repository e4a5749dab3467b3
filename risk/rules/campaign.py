"""The step from reinforcement to the campaign: every attack and cruise takes it first.

On its own (below ``turns``, ``battles`` and ``ships``) so the battles need not import the turn
machinery, which imports the endings, which settle battles: the three would close a cycle.
"""

from __future__ import annotations

from risk.rules import board
from risk.rules.actions import IllegalAction
from risk.rules.state import CAMPAIGN, REINFORCE, GameState
from risk.rules.vocabulary import Refusal


def campaign_ready(state: GameState) -> None:
    """Move from reinforcement to the campaign, once everything won has been placed."""
    turn = state.turn
    if turn is None:
        raise IllegalAction(Refusal.NO_TURN, "the game has not started")
    if turn.phase == CAMPAIGN:
        return
    if turn.phase != REINFORCE:
        raise IllegalAction(Refusal.WRONG_PHASE, f"the campaign is over (phase {turn.phase})")
    seat = state.seat(turn.seat)
    if turn.to_place:
        raise IllegalAction(Refusal.PLACE_FIRST, f"place your {turn.to_place} reinforcements first")
    if turn.ships_to_place:
        raise IllegalAction(Refusal.PLACE_FIRST, "launch the ship you won first (place_ship)")
    if len(seat.risk_cards) >= board.MUST_TURN_IN_AT and state.owned(seat.id):
        raise IllegalAction(
            Refusal.MUST_TURN_IN,
            f"you hold {len(seat.risk_cards)} Risk cards: turn in a set first (5 or more)",
        )
    turn.phase = CAMPAIGN
