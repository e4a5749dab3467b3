"""Forced steps (risk/RULES.md F1): exactly one legal action with nothing to choose, which the
server takes for a person; never a step with a real choice, and never one whose forcedness
would tell the table about a hidden hand."""

from __future__ import annotations

from risk.rules.actions import Attack, EndCampaign, EndTurn, MoveIn, Place, Roll
from risk.rules.forced import forced_action, note
from risk.rules.state import END, REINFORCE
from tests.risk.builders import act, kamchatka_front, make_state

#: bob holds everything alice does not: no allied army to declare at the turn's end.
LONE = {"Alaska": ("alice", 1)}


def test_a_campaign_with_nothing_to_attack_or_sail_ends_by_itself():
    state = make_state(territories=LONE, rest="bob")
    assert forced_action(state, "alice") == EndCampaign("alice")
    assert forced_action(state, "bob") is None  # not bob's decision


def test_a_campaign_with_an_attack_open_is_a_choice():
    state = make_state(territories={"Alaska": ("alice", 2)}, rest="bob")
    assert forced_action(state, "alice") is None


def test_a_ship_that_may_cruise_is_a_choice():
    state = make_state(territories=LONE, rest="bob", ships={"S1": ("alice", "Alaska", 1)})
    assert forced_action(state, "alice") is None


def test_the_end_of_a_turn_with_no_transfer_and_no_ally_is_forced():
    state = make_state(territories=LONE, rest="bob", phase=END)
    assert forced_action(state, "alice") == EndTurn("alice")


def test_an_ally_to_declare_or_a_transfer_is_a_choice():
    with_ally = make_state(territories=LONE, allies=("ally-1",), phase=END)
    assert forced_action(with_ally, "alice") is None
    transfer = make_state(territories={"Alaska": ("alice", 3), "Alberta": ("alice", 1)},
                          rest="bob", phase=END)  # fmt: skip
    assert forced_action(transfer, "alice") is None


def test_placing_the_last_army_on_the_only_territory_is_forced_only_with_a_small_hand():
    state = make_state(territories=LONE, rest="bob", phase=REINFORCE,
                       risk_hands={"alice": ["Peru", "Brazil"]})  # fmt: skip
    state.turn.to_place = 1
    assert forced_action(state, "alice") == Place("alice", "Alaska", 1)
    # Three cards may be a set (hidden): a turn-in may be open, so it is never forced, whatever
    # the cards are, or the server's speed would tell everyone the hand holds no set.
    state.seat("alice").risk_cards = ["Peru", "Brazil", "Egypt"]
    assert forced_action(state, "alice") is None


def test_a_committed_block_with_nothing_to_add_rolls_by_itself_a_normal_one_may_retreat():
    state = kamchatka_front(10)
    committed, _ = act(state, Attack("alice", "Kamchatka", "committed", (("Alaska", 9),)))
    assert forced_action(committed, "alice") == Roll("alice")
    some_left, _ = act(state, Attack("alice", "Kamchatka", "committed", (("Alaska", 5),)))
    assert forced_action(some_left, "alice") is None  # it may add up to 4 before rolling
    normal, _ = act(state, Attack("alice", "Kamchatka", "normal", (("Alaska", 9),)))
    assert forced_action(normal, "alice") is None


def test_a_move_in_with_one_possible_count_is_forced():
    state = kamchatka_front(1)
    state, _ = act(state, Attack("alice", "Kamchatka", "normal", (("Alaska", 1),)))
    state, _ = act(state, Roll("alice"), 6, 1)
    assert forced_action(state, "alice") == MoveIn("alice", 1)


def test_the_note_names_the_player_and_the_action():
    assert note("alice", EndTurn("alice")) == {"type": "forced", "player": "alice",
                                               "action": "end_turn"}  # fmt: skip


def test_a_defender_holding_cards_is_asked_even_with_none_it_may_reveal():
    """bob holds Egypt only (not his territory: nothing he may reveal, a hidden fact); the
    game waits on him as it would with a card to reveal (RULES.md M3), and the server does not
    answer for him, or its speed would tell everyone his hand has nothing to show."""
    state = kamchatka_front(5, mobilized=False, risk_hands={"bob": ["Egypt"]})
    state, _ = act(state, Attack("alice", "Kamchatka", "normal", (("Alaska", 3),)), 1)
    assert state.battle.stage == "mobilize"
    assert forced_action(state, "bob") is None
