"""Stored states of earlier schema versions, brought up to the current one.

A game's state is stored as ``state.to_dict`` wrote it, schema version included (the ``version``
key; the game's snapshot row repeats it as ``schema_version``). When the state changes shape,
``state.SCHEMA_VERSION`` goes up by one and an upcaster here turns a dict of the old version into
one of the next, so a game saved before the change loads and plays on. ``from_dict`` itself reads
only the current version; everything older goes through ``load_state``.

History:

* **1 -> 2** (when states moved from board tables to one JSON row):
  - a naval battle saved before battles named each ship's target has no ``support`` and flanks
    without ``target``: every flank attacks the battle's one target and every other defending
    ship backs it (``from_dict`` used to patch this inline);
  - options saved before an option existed get the value that applied before it did: the old
    behaviour, written out here rather than taken from today's ``Options`` defaults, so a later
    change of a default cannot change a game already running.

* **2 -> 3** (rule revision 2, risk/RULES.md):
  - options saved before revision 2 get ``V2_OPTIONS``: the readings those games were played by
    (``revision`` 1) and every option added since switched off or set as it then played;
  - a turn under way gets ``turned_in`` 0 (revision 1 games do not limit turn-ins anyway).
  - ``eliminated`` (the order seats went out, for the ranking, RULES.md J12) is filled with the
    seats already out, in seat order, the best known (a finished game's true order is in its
    log: ``games.ratings.rerank``), and ``landless`` (J10) starts empty.

The game's own options (stored apart from the state, used to set it up again for a replay or
``verify_game``) are read with ``stored_options``, which fills a missing option the same way.

Pure: dicts in, dicts out (the input is not modified).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from risk.rules.state import SCHEMA_VERSION, GameState, Options, from_dict

Data = dict[str, Any]

#: Every option as version 1 games played it when the option was not stored.
V1_OPTIONS: dict[str, Any] = {
    "win": "last-standing",
    "round_limit": None,
    "red_queens_high": True,
    "reveal_needs_cut": False,
    "map": "classic",
    "ally_defender": "next",
    "ally_cards": "own",
    "reveal_once": False,
}


#: Every option added with schema version 3, as version 2 games played before it existed.
V2_OPTIONS: dict[str, Any] = {
    "revision": 1,
    "min_commitment": 2,
    "defender_dice": "commitment",
    "pirate_turns": None,
}


#: Every option added with schema version 4, as version 3 games played before it existed.
V3_OPTIONS: dict[str, Any] = {"map_version": 1}


def stored_options(options: Data) -> Options:
    """A game's stored options, an option it was created without set as it then played (the
    oldest games' options lack those of ``V1_OPTIONS`` too)."""
    return Options.from_dict({**V1_OPTIONS, **V2_OPTIONS, **V3_OPTIONS, **options})


def _v1_to_v2(data: Data) -> Data:
    data["options"] = {**V1_OPTIONS, **data["options"]}
    battle = data.get("battle")
    if battle is not None and battle["kind"] == "naval" and "support" not in battle:
        battle["flanks"] = [{**f, "target": battle["target"]} for f in battle["flanks"]]
        battle["support"] = {s: battle["target"] for s in battle["defending_ships"][1:]}
    data["version"] = 2
    return data


def _v2_to_v3(data: Data) -> Data:
    data["options"] = {**V2_OPTIONS, **data["options"]}
    if data.get("turn") is not None:  # a turn under way: its turn-ins were not counted
        data["turn"] = {"turned_in": 0, **data["turn"]}
    data["eliminated"] = [s["id"] for s in data["seats"] if not s.get("alive", True)]
    data["landless"] = {}
    data["version"] = 3
    return data


def _v3_to_v4(data: Data) -> Data:
    data["options"] = {**V3_OPTIONS, **data["options"]}
    data["version"] = 4
    return data


#: version -> the upcaster from it to the next version.
UPCASTERS: dict[int, Callable[[Data], Data]] = {1: _v1_to_v2, 2: _v2_to_v3, 3: _v3_to_v4}


def upcast(data: Data) -> Data:
    """``data`` (any stored version) as the current schema version."""
    version = data.get("version")
    if not isinstance(version, int) or not 1 <= version <= SCHEMA_VERSION:
        raise ValueError(f"version: state schema {version!r} is not 1..{SCHEMA_VERSION}")
    if version == SCHEMA_VERSION:
        return data
    data = copy.deepcopy(data)
    while data["version"] < SCHEMA_VERSION:
        data = UPCASTERS[data["version"]](data)
    return data


def load_state(data: Data) -> GameState:
    """The state stored as ``data``, whatever schema version it was saved with."""
    return from_dict(upcast(data))
