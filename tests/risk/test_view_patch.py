"""``view_patch`` / ``apply_patch``: the JSON Patch a socket push carries instead of the view.

Hand-worked cases pin the exact operations (pointer escaping, nested removal, null values,
lists replaced whole); the property test plays random games and checks that every seat's (and
the spectator's) patch from one action to the next rebuilds the next view exactly.
"""

from __future__ import annotations

import json
import random

import pytest

from risk.rules import (
    PatchError,
    apply,
    apply_patch,
    game_dice,
    new_game,
    pending_decisions,
    view_for,
    view_patch,
)
from risk.rules.bots import RandomBot, decide
from risk.rules.view_patch import pointer

# --- hand-worked cases ------------------------------------------------------------------------


def test_equal_documents_need_no_operation():
    assert view_patch({"a": [1, {"b": None}]}, {"a": [1, {"b": None}]}) == []


def test_keys_are_escaped_as_json_pointers():
    assert pointer(["a/b", "c~d", "~1"]) == "/a~1b/c~0d/~01"
    before = {"a/b": 1, "m~n": {"x": 1}}
    after = {"a/b": 2, "m~n": {"x": 1, "~/": 3}}
    ops = view_patch(before, after)
    assert ops == [
        {"op": "replace", "path": "/a~1b", "value": 2},
        {"op": "add", "path": "/m~0n/~0~1", "value": 3},
    ]
    assert apply_patch(before, ops) == after


def test_nested_removal_and_addition():
    before = {"seats": {"alice": {"hand": ["R1"], "pot": 2}, "bob": {"pot": 0}}}
    after = {"seats": {"alice": {"pot": 2, "ally": "bob"}}}
    ops = view_patch(before, after)
    assert ops == [
        {"op": "remove", "path": "/seats/bob"},
        {"op": "remove", "path": "/seats/alice/hand"},
        {"op": "add", "path": "/seats/alice/ally", "value": "bob"},
    ]
    assert apply_patch(before, ops) == after


def test_null_values_are_values_not_absences():
    before = {"battle": {"stage": "roll"}, "contest": None, "turn": None}
    after = {"battle": None, "contest": None, "turn": {"seat": "bob"}, "winner": None}
    ops = view_patch(before, after)
    assert ops == [
        {"op": "replace", "path": "/battle", "value": None},
        {"op": "replace", "path": "/turn", "value": {"seat": "bob"}},
        {"op": "add", "path": "/winner", "value": None},
    ]
    assert apply_patch(before, ops) == after
    assert apply_patch(after, view_patch(after, before)) == before


def test_a_list_that_differs_is_replaced_whole():
    before = {"seats": [{"id": "alice", "pot": 1}, {"id": "bob", "pot": 0}], "log": [1, 2]}
    after = {"seats": [{"id": "alice", "pot": 2}, {"id": "bob", "pot": 0}], "log": [1, 2]}
    assert view_patch(before, after) == [
        {"op": "replace", "path": "/seats", "value": after["seats"]},
    ]


def test_booleans_and_numbers_of_equal_value_still_differ():
    # True == 1 and 1 == 1.0 in Python, not in JSON.
    assert view_patch({"a": 1, "b": 1}, {"a": True, "b": 1.0}) == [
        {"op": "replace", "path": "/a", "value": True},
        {"op": "replace", "path": "/b", "value": 1.0},
    ]


def test_a_type_change_replaces_the_value():
    assert view_patch({"a": {"b": 1}}, {"a": [1]}) == [
        {"op": "replace", "path": "/a", "value": [1]},
    ]
    assert view_patch({"a": 1}, {"a": {"b": 1}}) == [
        {"op": "replace", "path": "/a", "value": {"b": 1}},
    ]


def test_the_whole_document_can_be_replaced():
    assert view_patch(None, {"a": 1}) == [{"op": "replace", "path": "", "value": {"a": 1}}]
    assert apply_patch(None, [{"op": "replace", "path": "", "value": {"a": 1}}]) == {"a": 1}


def test_apply_leaves_its_input_alone_and_copies_values():
    before = {"a": {"b": 1}}
    value = {"c": [1]}
    after = apply_patch(before, [{"op": "add", "path": "/a/d", "value": value}])
    value["c"].append(2)
    assert before == {"a": {"b": 1}}
    assert after == {"a": {"b": 1, "d": {"c": [1]}}}


@pytest.mark.parametrize(
    "op",
    [
        {"op": "remove", "path": "/missing"},
        {"op": "replace", "path": "/missing", "value": 1},
        {"op": "add", "path": "/missing/deeper", "value": 1},
        {"op": "add", "path": "/list/0", "value": 1},
        {"op": "move", "path": "/a", "from": "/list"},
        {"op": "add", "path": "no-slash", "value": 1},
        {"op": "remove", "path": ""},
    ],
)
def test_an_operation_that_does_not_fit_is_refused(op):
    with pytest.raises(PatchError):
        apply_patch({"a": 1, "list": [0]}, [op])


# --- property: real views of random games -----------------------------------------------------


def _views(state, viewers):
    return {viewer: view_for(state, viewer) for viewer in viewers}


@pytest.mark.parametrize("seed", range(3))
def test_patches_rebuild_every_viewers_next_view_in_random_games(seed: int):
    players = ["alice", "bob", "carol", "dave", "erin", "frank"][: 2 + seed * 2]
    viewers = [*players, None]
    state = new_game(players, seed=f"view-patch-{seed}")
    rng = random.Random(seed)
    views = _views(state, viewers)
    steps = sizes = whole = 0
    while steps < 250:
        decisions = pending_decisions(state)
        if not decisions:
            break
        actor = rng.choice(decisions).player
        action = decide(RandomBot(rng), state, actor)
        state, _ = apply(state, action, game_dice(state))
        after = _views(state, viewers)
        for viewer in viewers:
            ops = view_patch(views[viewer], after[viewer])
            rebuilt = apply_patch(views[viewer], ops)
            assert rebuilt == after[viewer], (seed, steps, viewer, ops)
            # The patch travels as JSON: it must survive the round trip unchanged.
            assert apply_patch(views[viewer], json.loads(json.dumps(ops))) == after[viewer]
            sizes += len(json.dumps(ops))
            whole += len(json.dumps(after[viewer]))
        # And backwards: the diff does not depend on which side has more keys.
        other = rng.choice(viewers)
        assert apply_patch(after[other], view_patch(after[other], views[other])) == views[other]
        views = after
        steps += 1
    assert steps >= 100
    assert sizes * 3 < whole, "patches are a fraction of the views they replace"
