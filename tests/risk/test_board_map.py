"""The Fast Risk board as data: the classic map's facts, the sea graph, and broken maps refused."""

from __future__ import annotations

import copy
import json
from collections import Counter
from importlib import resources

import pytest

from risk.rules.board_map import (
    BoardMap,
    MapError,
    board_shapes_path,
    load_board_shapes,
    load_map,
    map_names,
    map_path,
    parse_map,
    validate_board_shapes,
)
from tests.conftest import ROOT

RAW = json.loads(map_path("classic").read_text(encoding="utf-8"))

TWO_OCEAN_COASTS = {
    "South Africa": {"Atlantic", "Indian"},
    "Middle East": {"Atlantic", "Indian"},
    "Egypt": {"Atlantic", "Indian"},
    "Central America": {"Pacific", "Atlantic"},
    "Argentina": {"Pacific", "Atlantic"},
    "Alaska": {"Arctic", "Pacific"},
    "Kamchatka": {"Arctic", "Pacific"},
    "Scandinavia": {"Arctic", "Atlantic"},
    "Greenland": {"Arctic", "Atlantic"},
    "Northwest Territory": {"Arctic", "Atlantic"},
    "Ukraine": {"Arctic", "Atlantic"},
    "Siam": {"Indian", "Pacific"},
    "Indonesia": {"Indian", "Pacific"},
}


@pytest.fixture(scope="module")
def board() -> BoardMap:
    return load_map()


def broken(change) -> dict:
    """A deep copy of the classic document with one fault put in by ``change``."""
    raw = copy.deepcopy(RAW)
    change(raw)
    return raw


def refused(raw: dict) -> MapError:
    with pytest.raises(MapError) as caught:
        parse_map(raw, source="broken.json")
    assert caught.value.message.startswith("broken.json: ")
    return caught.value


# -- the classic land map ------------------------------------------------------------------------


def test_classic_map_has_42_territories_and_83_borders(board):
    assert len(board.territories) == 42
    assert len(board.borders()) == 83
    assert frozenset({"Alaska", "Kamchatka"}) in board.borders()
    assert frozenset({"Brazil", "North Africa"}) in board.borders()
    assert all(len(pair) == 2 for pair in board.borders())


def test_classic_continents_and_bonuses(board):
    assert {name: c.bonus for name, c in board.continents.items()} == {
        "North America": 5,
        "South America": 2,
        "Europe": 5,
        "Africa": 3,
        "Asia": 7,
        "Australia": 2,
    }
    assert [len(c.territories) for c in board.continents.values()] == [9, 4, 7, 6, 12, 4]
    assert board.continent_of("Middle East") == "Asia"
    assert board.continent_of("Egypt") == "Africa"


def test_classic_cards_are_14_of_each_symbol_and_2_wild(board):
    assert Counter(t.card for t in board.territories.values()) == {
        "infantry": 14,
        "cavalry": 14,
        "artillery": 14,
    }
    assert board.wild_cards == 2
    assert board.territories["Alaska"].card == "infantry"


def test_the_map_and_its_drawn_board_are_package_data_of_risk():
    """The map exists once, ``risk/data/classic-risk-map.json`` (the sea graph included), beside
    its drawn board, found through ``importlib.resources``; the resolver's data folder keeps
    only what its own code reads (the one-roll tables of ``combat.risk_dice``)."""
    data = ROOT / "risk" / "data"
    assert map_path("classic") == resources.files("risk") / "data" / "classic-risk-map.json"
    assert map_path("classic") == data / "classic-risk-map.json"
    assert board_shapes_path("classic") == data / "classic-risk-board.json"
    assert map_names() == ("classic",)
    assert "sea" in RAW and len(RAW["territories"]) == 42
    assert [p.name for p in (ROOT / "combat" / "data").iterdir()] == ["risk_rolls.npz"]


def test_a_document_that_is_not_an_object_is_refused():
    with pytest.raises(MapError) as caught:
        parse_map([])
    assert caught.value.code == "bad-type"
    assert caught.value.message == "<data>: the map must be a JSON object, not list"


def test_the_classic_facts_are_not_written_into_the_validator():
    text = (ROOT / "risk" / "rules" / "board_map.py").read_text()
    for fact in ("Afghanistan", "Irkutsk", "Atlantic", "Pacific", "42", "83", "14"):
        assert fact not in text, fact


# -- the drawn board (risk/data/classic-risk-board.json) --------------------------------------

BOARD_RAW = json.loads(board_shapes_path("classic").read_text(encoding="utf-8"))


def drawn_refused(change) -> MapError:
    raw = copy.deepcopy(BOARD_RAW)
    change(raw)
    with pytest.raises(MapError) as caught:
        validate_board_shapes(raw, load_map(), source="board.json")
    assert caught.value.message.startswith("board.json: ")
    return caught.value


def test_the_drawn_board_has_one_shape_per_territory_inside_the_view_box(board):
    shapes = load_board_shapes("classic")
    names = [t["name"] for t in shapes["territories"]]
    assert sorted(names) == sorted(board.territories) and len(names) == 42
    _, _, width, height = shapes["viewBox"]
    assert (width, height) == (1000, 600)
    for t in shapes["territories"]:
        assert all(0 <= x <= width and 0 <= y <= height for x, y in t["polygon"])
    stations = {k for o in shapes["oceans"] for k in o["stations"]}
    assert stations == set(board.stations)


def test_the_drawn_board_file_is_what_the_script_makes():
    script = ROOT / "scripts" / "make_board_shapes.py"
    import subprocess
    import sys

    done = subprocess.run([sys.executable, str(script), "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_links_are_drawn_for_borders_across_water():
    links = {frozenset((link["a"], link["b"])): link["wrap"] for link in BOARD_RAW["links"]}
    assert links[frozenset(("Alaska", "Kamchatka"))] is True
    assert frozenset(("Brazil", "North Africa")) in links


def _drop_shape(raw: dict) -> None:
    raw["territories"] = [t for t in raw["territories"] if t["name"] != "Peru"]


def _twice(raw: dict) -> None:
    raw["territories"].append(copy.deepcopy(raw["territories"][0]))


def _unknown(raw: dict) -> None:
    raw["territories"][0]["name"] = "Atlantis"


def _outside(raw: dict) -> None:
    raw["territories"][3]["polygon"][0] = [1000.5, 10]


def _no_station(raw: dict) -> None:
    raw["oceans"][0]["stations"].popitem()


def _not_adjacent(raw: dict) -> None:
    raw["links"].append({"a": "Peru", "b": "Japan", "wrap": False})


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (_drop_shape, "shape-missing"),
        (_twice, "shape-duplicate"),
        (_unknown, "shape-unknown"),
        (_outside, "shape-outside"),
        (_no_station, "station-missing"),
        (_not_adjacent, "bad-link"),
    ],
)
def test_broken_drawn_boards_are_refused(change, code):
    assert drawn_refused(change).code == code
