"""Stored states of an older schema load through ``risk.rules.upcast`` (issue 14)."""

from __future__ import annotations

import pytest

from risk.rules import new_game, to_dict
from risk.rules.state import SCHEMA_VERSION, Options, from_dict
from risk.rules.upcast import V1_OPTIONS, load_state, upcast


def schema_1_save() -> dict:
    """A 3-player game's state as schema 1 stored it: version 1, and options from before
    ``reveal_once`` and ``ally_cards`` existed (so the dict has no such keys)."""
    data = to_dict(new_game(["alice", "bob", "carol"], seed="upcast", options=Options()))
    data["version"] = 1
    del data["options"]["reveal_once"], data["options"]["ally_cards"]
    return data


def test_a_schema_1_save_loads_as_the_current_schema():
    old = schema_1_save()
    state = load_state(old)
    assert (state.version, SCHEMA_VERSION) == (2, 2)
    # The missing options take the values schema-1 games played with, spelled out in upcast.
    assert (state.options.reveal_once, state.options.ally_cards) == (False, "own")
    assert V1_OPTIONS["reveal_once"] is False and V1_OPTIONS["ally_cards"] == "own"
    assert to_dict(state) == {
        **old,
        "version": 2,
        "options": {**old["options"], "reveal_once": False, "ally_cards": "own"},
    }
    assert old["version"] == 1 and "reveal_once" not in old["options"]  # not modified


def test_from_dict_reads_only_the_current_schema():
    with pytest.raises(ValueError, match="state schema 1 is not 2"):
        from_dict(schema_1_save())


@pytest.mark.parametrize("version", [0, 3, None, "2"])
def test_an_unknown_schema_is_refused_by_name(version):
    data = dict(schema_1_save(), version=version)
    with pytest.raises(ValueError, match=f"version: state schema {version!r} is not 1..2"):
        upcast(data)


def test_a_current_save_passes_unchanged():
    data = to_dict(new_game(["alice", "bob"], seed="current", options=Options()))
    assert upcast(data) is data
