"""``Deploy``: a reinforcement drafted on the board and committed together, each placement as
its own ``Place`` would be, all of them or none (the first refused entry is named)."""

from __future__ import annotations

from risk.rules.actions import Deploy
from risk.rules.notation import format_action, parse_action
from risk.rules.state import REINFORCE
from risk.rules.vocabulary import Refusal
from tests.risk.builders import act, make_state, of_type, refused


def _reinforcing(to_place: int = 5):
    state = make_state(territories={"Alaska": ("alice", 2), "Alberta": ("alice", 1),
                                    "Peru": ("bob", 3)}, rest="bob", phase=REINFORCE)  # fmt: skip
    state.turn.to_place = to_place
    return state


def test_every_placement_lands_in_order_with_its_own_event():
    state, events = act(_reinforcing(), Deploy("alice", (("Alaska", 3), ("Alberta", 1),
                                                         ("Alaska", 1))))  # fmt: skip
    assert (state.territories["Alaska"].armies, state.territories["Alberta"].armies) == (6, 2)
    assert state.turn.to_place == 0
    assert [(e["territory"], e["armies"]) for e in of_type(events, "placed")] == [
        ("Alaska", 3), ("Alberta", 1), ("Alaska", 1)
    ]  # fmt: skip


def test_a_batch_with_one_bad_entry_places_nothing_and_names_it():
    state = _reinforcing()
    error = refused(state, Deploy("alice", (("Alaska", 2), ("Peru", 1))))
    assert (error.code, error.field) == (Refusal.NOT_YOURS, "placements[1]")
    assert "placement 2 (1 on Peru)" in error.reason
    assert state.territories["Alaska"].armies == 2 and state.turn.to_place == 5  # untouched


def test_a_batch_may_not_place_more_than_is_left():
    error = refused(_reinforcing(3), Deploy("alice", (("Alaska", 2), ("Alberta", 2))))
    assert (error.code, error.field) == (Refusal.ARMIES, "placements[1]")


def test_an_empty_batch_is_refused():
    error = refused(_reinforcing(), Deploy("alice", ()))
    assert (error.code, error.field) == (Refusal.ARMIES, "placements")


def test_the_notation_writes_and_reads_a_batch():
    state = _reinforcing()
    action = Deploy("alice", (("Alaska", 3), ("Alberta", 2)))
    assert format_action(state, action) == "deploy 3 Alaska, 2 Alberta"
    assert parse_action(state, "alice", "deploy 3 Alaska, 2 Alberta") == action
