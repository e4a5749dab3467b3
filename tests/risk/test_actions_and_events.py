"""Actions and events on the wire: JSON in, JSON out, and a clear error naming the field."""

from __future__ import annotations

import json

import pytest

from risk.rules import Event, InvalidAction, action_from_dict
from risk.rules.actions import Attack, EndTurn, Roll
from tests.risk.builders import act, make_state


def test_an_attack_reads_from_json_and_writes_back_the_same() -> None:
    wire = {"type": "attack", "player": "alice", "target": "Peru", "mode": "flanking",
            "flanks": [["Brazil", 2], ["S1", 2]]}  # fmt: skip
    action = action_from_dict(wire)
    assert action == Attack("alice", "Peru", "flanking", (("Brazil", 2), ("S1", 2)))
    assert action.to_dict() == wire


def test_fields_with_defaults_may_be_left_out() -> None:
    assert action_from_dict({"type": "roll", "player": "bob"}) == Roll("bob", 0, False)
    assert action_from_dict({"type": "end_turn", "player": "bob", "ally": None}) == EndTurn("bob")


@pytest.mark.parametrize(
    ("wire", "field", "words"),
    [
        ({"player": "a"}, "type", "unknown action type None"),
        ({"type": "fly", "player": "a"}, "type", "unknown action type 'fly'"),
        ({"type": "place", "player": "a", "armies": 3}, "territory", "required"),
        ({"type": "place", "player": "a", "territory": "Peru", "armies": "3"}, "armies",
         "whole number"),
        ({"type": "place", "player": "a", "territory": "Peru", "armies": True}, "armies",
         "whole number"),
        ({"type": "attack", "player": "a", "target": "Peru", "mode": "normal",
          "flanks": [["Brazil", "two"]]}, "flanks[0][1]", "whole number"),
        ({"type": "attack", "player": "a", "target": "Peru", "mode": "normal",
          "flanks": "Brazil"}, "flanks", "must be a list"),
        ({"type": "roll", "player": "a", "sides": 3}, "sides", "not a field"),
        ({"type": "challenge", "player": "a", "contest": "yes"}, "contest", "true or false"),
    ],
)  # fmt: skip
def test_malformed_actions_name_the_field(wire: dict, field: str, words: str) -> None:
    with pytest.raises(InvalidAction) as error:
        action_from_dict(wire)
    assert error.value.field == field
    assert words in error.value.message


def test_events_are_frozen_values_with_a_type_and_a_json_form() -> None:
    state = make_state(territories={"Alaska": ("alice", 5), "Kamchatka": ("bob", 1)})
    state.turn.attacked.append("bob")  # no mobilization cut: the only rolls are the battle's
    _, events = act(state, Attack("alice", "Kamchatka", "normal", (("Alaska", 4),)))
    assert all(isinstance(e, Event) for e in events)
    attack = events[0]
    assert attack["type"] == attack.type == "attack"
    expected = {"type": "attack", "attacker": "alice", "defender": "bob", "target": "Kamchatka",
                "mode": "normal", "flanks": [["Alaska", 4]]}  # fmt: skip
    assert attack == expected
    wire = json.loads(json.dumps(attack.to_dict()))
    assert Event.from_dict(wire) == attack
    with pytest.raises(AttributeError):
        attack.type = "other"  # type: ignore[misc]
