"""Stored states of an older schema load through ``risk.rules.upcast``."""

from __future__ import annotations

import pytest

from risk.rules import new_game, to_dict
from risk.rules.state import SCHEMA_VERSION, Options, from_dict
from risk.rules.upcast import (
    V1_OPTIONS,
    V2_OPTIONS,
    V3_OPTIONS,
    load_state,
    stored_options,
    upcast,
)


def schema_1_save() -> dict:
    """A 3-player game's state as schema 1 stored it: version 1, and options from before
    ``reveal_once`` and ``ally_cards`` existed (so the dict has no such keys)."""
    data = to_dict(new_game(["alice", "bob", "carol"], seed="upcast", options=Options()))
    data["version"] = 1
    del data["options"]["reveal_once"], data["options"]["ally_cards"]
    for name in [*V2_OPTIONS, *V3_OPTIONS]:  # nor any option added with schema 3 or 4
        del data["options"][name]
    return data


def test_a_schema_1_save_loads_as_the_current_schema():
    old = schema_1_save()
    state = load_state(old)
    assert (state.version, SCHEMA_VERSION) == (4, 4)
    # The missing options take the values schema-1 games played with, spelled out in upcast.
    assert (state.options.reveal_once, state.options.ally_cards) == (False, "own")
    assert V1_OPTIONS["reveal_once"] is False and V1_OPTIONS["ally_cards"] == "own"
    assert to_dict(state) == {
        **old,
        "version": 4,
        "options": {
            **old["options"],
            "reveal_once": False,
            "ally_cards": "own",
            **V2_OPTIONS,
            **V3_OPTIONS,
        },
    }
    assert old["version"] == 1 and "reveal_once" not in old["options"]  # not modified


def test_from_dict_reads_only_the_current_schema():
    with pytest.raises(ValueError, match="state schema 1 is not 4"):
        from_dict(schema_1_save())


@pytest.mark.parametrize("version", [0, 5, None, "2"])
def test_an_unknown_schema_is_refused_by_name(version):
    data = dict(schema_1_save(), version=version)
    with pytest.raises(ValueError, match=f"version: state schema {version!r} is not 1..4"):
        upcast(data)


def test_a_current_save_passes_unchanged():
    data = to_dict(new_game(["alice", "bob"], seed="current", options=Options()))
    assert upcast(data) is data


def schema_2_save() -> dict:
    """A game's state as schema 2 stored it: no ``revision`` option (rule revision 1)."""
    data = to_dict(new_game(["alice", "bob"], seed="upcast-2", options=Options()))
    data["version"] = 2
    for name in [*V2_OPTIONS, *V3_OPTIONS]:
        del data["options"][name]
    return data


def test_a_schema_2_save_plays_by_rule_revision_1():
    state = load_state(schema_2_save())
    assert state.version == 4
    assert state.options.revision == 1


def test_a_schema_3_save_plays_version_1_of_its_map():
    """Games stored before maps had versions were all played on version 1 of their map."""
    data = to_dict(new_game(["alice", "bob"], seed="upcast-3", options=Options()))
    data["version"] = 3
    del data["options"]["map_version"]
    state = load_state(data)
    assert (state.version, state.options.map, state.options.map_version) == (4, "classic", 1)
    assert to_dict(state) == {
        **data,
        "version": 4,
        "options": {**data["options"], "map_version": 1},
    }
    assert "map_version" not in data["options"]  # not modified
    options = Options().to_dict()
    del options["map_version"]
    assert stored_options(options) == Options(map_version=1)


def test_a_game_stored_without_revision_is_set_up_again_by_revision_1():
    """``verify_game`` and the replay set a game up from its stored options: a game created
    before revision 2 replays by the readings it was played with."""
    options = Options().to_dict()
    del options["revision"], options["reveal_once"]
    assert stored_options(options) == Options(revision=1, reveal_once=False)
    assert stored_options(Options().to_dict()) == Options()
    assert Options().revision == 2
