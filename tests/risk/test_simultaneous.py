"""Which answers cross without a conflict (``risk.rules.simultaneous``)."""

from __future__ import annotations

import random

from risk.rules import new_game, sample_action
from risk.rules.actions import Challenge, Poker
from risk.rules.simultaneous import leaves_alone, simultaneous_answer
from risk.rules.vocabulary import DecisionKind


def test_an_arrangement_at_the_start_is_a_simultaneous_answer_of_every_player():
    state = new_game(["alice", "bob", "carol"], seed="simultaneous")
    for player in ("alice", "bob", "carol"):
        action = sample_action(state, player, random.Random(player))
        assert simultaneous_answer(state, player, action) == DecisionKind.ARRANGE
    # Asked to arrange, not to challenge nor to choose poker cards.
    assert simultaneous_answer(state, "alice", Challenge("alice", contest=True)) is None
    assert simultaneous_answer(state, "alice", Poker("alice", move="choose")) is None


def test_only_other_answers_to_the_same_decision_and_asides_leave_it_alone():
    assert leaves_alone(DecisionKind.ARRANGE, {"type": "arrange", "player": "bob"})
    assert leaves_alone(DecisionKind.CHALLENGE, {"type": "challenge", "contest": True})
    assert leaves_alone(DecisionKind.POKER, {"type": "poker", "move": "choose", "cards": []})
    assert leaves_alone(DecisionKind.POKER, {"type": "vote_draw", "agree": False})
    assert leaves_alone(DecisionKind.CHALLENGE, {"type": "prefer", "defence_dice": 1})
    # A bet is one seat's turn; a join or leave redeals; the declarer's answer ends the asking.
    assert not leaves_alone(DecisionKind.POKER, {"type": "poker", "move": "bet"})
    assert not leaves_alone(DecisionKind.ARRANGE, {"type": "join", "ally": "A1"})
    assert not leaves_alone(DecisionKind.CHALLENGE, {"type": "leave"})
    assert not leaves_alone(DecisionKind.CHALLENGE, {"type": "answer", "demur": False})
    assert not leaves_alone(DecisionKind.ARRANGE, {"type": "challenge", "contest": True})
