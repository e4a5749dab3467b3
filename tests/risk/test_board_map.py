"""The Fast Risk board as data: the classic map's facts, the sea graph, and broken maps refused."""

from __future__ import annotations

import copy
import json
from collections import Counter
from importlib import resources

import pytest

from risk.rules import board_map
from risk.rules.board_map import (
    BoardMap,
    MapError,
    board_shape_errors,
    board_shapes_path,
    clear_map_cache,
    load_board_shapes,
    load_map,
    map_errors,
    map_names,
    map_path,
    parse_map,
    parse_map_ref,
    register_map_source,
    unregister_map_source,
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
    assert map_names() == ("classic", "small")
    assert "sea" in RAW and len(RAW["territories"]) == 42
    assert [p.name for p in (ROOT / "combat" / "data").iterdir()] == ["risk_rolls.npz"]


def test_40_coastal_territories_each_with_a_station(board):
    coastal = [name for name in board.territories if board.coastal(name)]
    assert len(coastal) == 40
    assert all(board.stations_of(name) for name in coastal)
    assert len(board.stations) == 53  # 40 coasts, 13 of them on two oceans


def test_afghanistan_and_irkutsk_are_inland(board):
    inland = sorted(name for name in board.territories if not board.coastal(name))
    assert inland == ["Afghanistan", "Irkutsk"]
    assert board.stations_of("Afghanistan") == ()
    assert not [s for s in board.stations.values() if s.territory in inland]


def test_one_station_per_coast_and_ocean(board):
    pairs = {(t.name, o) for t in board.territories.values() for o in t.oceans}
    assert {(s.territory, s.ocean) for s in board.stations.values()} == pairs
    brazil = board.stations["Atlantic:Brazil"]
    assert (brazil.ocean, brazil.territory) == ("Atlantic", "Brazil")
    assert all(0 <= s.x <= 1 and 0 <= s.y <= 1 for s in board.stations.values())


def test_two_ocean_coasts_of_the_rule_text(board):
    for territory, oceans in TWO_OCEAN_COASTS.items():
        assert {board.ocean_of(key) for key in board.stations_of(territory)} == oceans, territory
    two = {name for name, t in board.territories.items() if len(t.oceans) == 2}
    assert two == set(TWO_OCEAN_COASTS)


def test_one_ocean_coasts_of_the_rule_text(board):
    assert board.stations_of("Eastern Australia") == ("Indian:Eastern Australia",)
    assert board.stations_of("Western Australia") == ("Pacific:Western Australia",)
    assert board.stations_of("Iceland") == ("Atlantic:Iceland",)


def test_stations_of_follows_the_map_ocean_order(board):
    assert board.oceans == ("Pacific", "Atlantic", "Indian", "Arctic")
    assert board.stations_of("Alaska") == ("Pacific:Alaska", "Arctic:Alaska")
    assert board.stations_of("Egypt") == ("Atlantic:Egypt", "Indian:Egypt")


# -- the sea graph ---------------------------------------------------------------------------------


def test_lanes_are_positive_and_stay_in_one_ocean_but_at_two_ocean_coasts(board):
    assert len(board.lanes) == 83
    assert all(isinstance(d, int) and d >= 1 for _, _, d in board.lanes)
    crossings = {
        frozenset((a, b)) for a, b, _ in board.lanes if board.ocean_of(a) != board.ocean_of(b)
    }
    assert crossings == {frozenset(board.stations_of(t)) for t in TWO_OCEAN_COASTS}
    assert all(d == 1 for a, b, d in board.lanes if frozenset((a, b)) in crossings)


def test_every_station_reaches_every_other(board):
    for start in board.stations:
        assert set(board.reachable(start, 10**6)) == set(board.stations), start


def test_every_station_reaches_its_own_ocean_without_leaving_it(board):
    for ocean in board.oceans:
        members = {k for k, s in board.stations.items() if s.ocean == ocean}
        links = {k: set() for k in members}
        for a, b, _ in board.lanes:
            if a in members and b in members:
                links[a].add(b)
                links[b].add(a)
        seen, todo = set(), [next(iter(members))]
        while todo:
            here = todo.pop()
            if here not in seen:
                seen.add(here)
                todo.extend(links[here])
        assert seen == members, ocean


def test_hand_worked_distances(board):
    # Brazil -2- North Africa -1- Congo (round by Argentina - South Africa it is 1 + 4 + 1).
    assert board.distance("Atlantic:Brazil", "Atlantic:Congo") == 3
    assert board.distance("Atlantic:Congo", "Atlantic:Brazil") == 3
    # The direct crossing (4) beats the northern shore Quebec-Greenland-Iceland-Britain (5).
    assert board.distance("Atlantic:Eastern United States", "Atlantic:Western Europe") == 4
    # Arctic Ural -1- Arctic Ukraine -1- Atlantic Ukraine (Black Sea) -1- Atlantic Middle East
    # -1- Indian Middle East -1- Indian India.
    assert board.distance("Arctic:Ural", "Indian:India") == 5
    # Central America to Siam: across to New Guinea 5 + Indonesia 1 + Siam 1 + into the Indian 1,
    # or by the north shore (Western US, Alberta, Alaska, Kamchatka, Mongolia, China, Siam) 7 + 1.
    assert board.distance("Pacific:Central America", "Indian:Siam") == 8
    assert board.distance("Pacific:Peru", "Pacific:Peru") == 0


def test_reachable_within_a_budget(board):
    assert board.reachable("Arctic:Greenland", 2) == {
        "Arctic:Greenland": 0,
        "Arctic:Northwest Territory": 1,
        "Atlantic:Greenland": 1,
        "Arctic:Alaska": 2,
        "Arctic:Scandinavia": 2,
        "Atlantic:Northwest Territory": 2,
        "Atlantic:Quebec": 2,
        "Atlantic:Iceland": 2,
    }
    assert board.reachable("Indian:Madagascar", 0) == {"Indian:Madagascar": 0}


def test_coasts_within_one_boat_length(board):
    assert board.coasts_within("Atlantic:Southern Europe") == (
        "Egypt",
        "Middle East",
        "North Africa",
        "Southern Europe",
        "Ukraine",
        "Western Europe",
    )
    # Alaska's Arctic station is 1 away but in another ocean: it does not add a coast.
    assert board.coasts_within("Pacific:Alaska") == ("Alaska", "Alberta", "Kamchatka")
    assert board.coasts_within("Indian:Siam") == ("India", "Indonesia", "Siam")
    assert board.coasts_within("Atlantic:Brazil", reach=2) == (
        "Argentina",
        "Brazil",
        "Central America",
        "North Africa",
        "Venezuela",
    )


def test_unknown_names_in_queries_raise_key_error(board):
    with pytest.raises(KeyError):
        board.distance("Atlantic:Atlantis", "Atlantic:Brazil")
    with pytest.raises(KeyError):
        board.coastal("Atlantis")


def test_load_map_is_cached():
    assert load_map() is load_map("classic")
    assert load_map().stations is load_map().stations


def test_unknown_map_name():
    with pytest.raises(MapError) as caught:
        load_map("no-such-board")
    assert caught.value.code == "unknown-map"
    with pytest.raises(MapError) as caught:
        map_path("../etc/passwd")
    assert caught.value.code == "bad-map-name"


def test_parse_map_builds_an_equal_map(board):
    again = parse_map(copy.deepcopy(RAW))
    assert again == board
    assert hash(again) == hash(board)


# -- broken maps -----------------------------------------------------------------------------------


def _drop(raw: dict, key: str, value: str) -> None:
    raw["territories"][key]["adjacent"].remove(value)


def _isolate(raw: dict, station: str) -> None:
    raw["sea"]["lanes"] = [lane for lane in raw["sea"]["lanes"] if station not in lane[:2]]


def _add_lane(raw: dict, a: str, b: str, d: int) -> None:
    raw["sea"]["lanes"].append([a, b, d])


def _set_distance(raw: dict, a: str, b: str, d) -> None:
    for lane in raw["sea"]["lanes"]:
        if lane[:2] == [a, b]:
            lane[2] = d


BROKEN = {
    "one-way-border": (lambda r: _drop(r, "Kamchatka", "Alaska"), ("Alaska", "Kamchatka")),
    "unknown-continent": (
        lambda r: r["territories"]["Peru"].update(continent="Atlantis"),
        ("Peru", "Atlantis"),
    ),
    "bad-card": (
        lambda r: r["territories"]["Japan"].update(card="Dragon"),
        ("Japan", "Dragon"),
    ),
    "uneven-cards": (
        lambda r: r["territories"]["Japan"].update(card="Infantry"),
        ("15 infantry", "13 artillery"),
    ),
    "bad-wild-cards": (lambda r: r.update(wild_cards=-1), ("wild_cards", "-1")),
    "bad-bonus": (lambda r: r["continents"]["Asia"].update(bonus=0), ("Asia",)),
    "missing-key": (lambda r: r["territories"]["Ural"].pop("adjacent"), ("Ural", "adjacent")),
    "bad-type": (lambda r: r["territories"]["Ural"].update(oceans="Arctic"), ("Ural", "oceans")),
    "self-border": (lambda r: r["territories"]["Ural"]["adjacent"].append("Ural"), ("Ural",)),
    "unknown-neighbour": (
        lambda r: r["territories"]["Ural"]["adjacent"].append("Atlantis"),
        ("Ural", "Atlantis"),
    ),
    "territory-in-two-continents": (
        lambda r: r["continents"]["Europe"]["territories"].append("Egypt"),
        ("Egypt", "Africa", "Europe"),
    ),
    "territory-in-no-continent": (
        lambda r: r["continents"]["Asia"]["territories"].remove("Siam"),
        ("Siam",),
    ),
    "unknown-ocean": (
        lambda r: r["territories"]["India"]["oceans"].append("Southern"),
        ("India", "Southern"),
    ),
    "missing-station": (
        lambda r: r["sea"]["stations"].pop("Atlantic:Brazil"),
        ("Brazil", "Atlantic"),
    ),
    "stray-station": (
        lambda r: r["sea"]["stations"].update({"Pacific:Brazil": {"x": 0.3, "y": 0.6}}),
        ("Pacific:Brazil",),
    ),
    "bad-station-key": (
        lambda r: r["sea"]["stations"].update({"Brazil": {"x": 0.3, "y": 0.6}}),
        ("Brazil",),
    ),
    "bad-coordinates": (
        lambda r: r["sea"]["stations"]["Atlantic:Brazil"].update(x=1.5),
        ("Atlantic:Brazil", "1.5"),
    ),
    "cross-ocean-lane": (
        lambda r: _add_lane(r, "Atlantic:Brazil", "Pacific:Peru", 3),
        ("Atlantic:Brazil", "Pacific:Peru"),
    ),
    "unknown-station": (
        lambda r: _add_lane(r, "Atlantic:Brazil", "Atlantic:Atlantis", 1),
        ("Atlantic:Atlantis",),
    ),
    "bad-distance": (
        lambda r: _set_distance(r, "Atlantic:Brazil", "Atlantic:North Africa", 0),
        ("Atlantic:Brazil", "Atlantic:North Africa"),
    ),
    "duplicate-lane": (
        lambda r: _add_lane(r, "Atlantic:North Africa", "Atlantic:Brazil", 3),
        ("Atlantic:North Africa", "Atlantic:Brazil"),
    ),
    "unreachable-station": (lambda r: _isolate(r, "Atlantic:Iceland"), ("Atlantic:Iceland",)),
    "no-border": (lambda r: _alone(r, "Madagascar"), ("Madagascar",)),
    "territory-count": (lambda r: _extra_territory(r, "Atlantis"), ("43 territories", "6 equal")),
    "bad-seats": (lambda r: r.update(seats={"min": 1, "max": 4}), ("seats", "2 <= m <= n <= 6")),
    "bad-name": (lambda r: _rename(r, "Peru", "Peru > Chile"), ("Peru > Chile", "'>'")),
}


def _alone(raw: dict, name: str) -> None:
    """``name`` borders nobody (both ways, so no one-way border is left)."""
    for other in raw["territories"][name]["adjacent"]:
        raw["territories"][other]["adjacent"].remove(name)
    raw["territories"][name]["adjacent"] = []


def _extra_territory(raw: dict, name: str) -> None:
    raw["territories"][name] = {"continent": "Asia", "card": "Infantry",
                                "adjacent": ["Ural"], "oceans": []}  # fmt: skip
    raw["territories"]["Ural"]["adjacent"].append(name)
    raw["continents"]["Asia"]["territories"].append(name)


def _rename(raw: dict, old: str, new: str) -> None:
    """Rename a territory everywhere the document names it."""
    text = json.dumps(raw).replace(f'"{old}"', f'"{new}"').replace(f":{old}", f":{new}")
    raw.clear()
    raw.update(json.loads(text))


@pytest.mark.parametrize("code", sorted(BROKEN))
def test_broken_maps_are_refused_naming_the_fault(code):
    change, culprits = BROKEN[code]
    error = refused(broken(change))
    assert error.code == code
    for culprit in culprits:
        assert culprit in error.message, (culprit, error.message)
    assert str(error) == f"[{code}] {error.message}"
    assert isinstance(error, ValueError)


def test_every_fault_of_a_kind_is_listed_at_once():
    """``map_errors`` lists them all (an editor mends them in one go); ``parse_map`` raises the
    first of them."""

    def three_faults(raw: dict) -> None:
        _drop(raw, "Kamchatka", "Alaska")  # one-way
        _alone(raw, "Madagascar")  # no border
        raw["territories"]["Japan"]["card"] = "Infantry"  # 15 infantry, 13 artillery

    raw = broken(three_faults)
    errors = map_errors(raw, source="three.json")
    assert [e.code for e in errors] == ["one-way-border", "no-border", "uneven-cards"]
    assert "'Alaska' lists 'Kamchatka'" in errors[0].message
    assert "'Madagascar' borders no territory" in errors[1].message
    assert refused(raw).code == "one-way-border"
    assert map_errors(copy.deepcopy(RAW)) == []


def test_the_sea_is_checked_once_the_land_is_good():
    """A missing station waits for the land's faults: the coasts are counted on good land."""

    def both(raw: dict) -> None:
        _drop(raw, "Kamchatka", "Alaska")
        raw["sea"]["stations"].pop("Atlantic:Brazil")

    assert [e.code for e in map_errors(broken(both))] == ["one-way-border"]
    lone = broken(lambda r: r["sea"]["stations"].pop("Atlantic:Brazil"))
    assert [e.code for e in map_errors(lone)] == ["missing-station"]


@pytest.mark.parametrize(
    ("name", "word"),
    [("Area 51", "number"), ("Fort S12", "ship"), ("Wild Lands", "wild"), ("Peru, North", "','")],
)
def test_names_the_move_notation_cannot_spell_are_refused(name: str, word: str):
    error = refused(broken(lambda r: _rename(r, "Peru", name)))
    assert error.code == "bad-name" and name in error.message and word in error.message


def test_two_territories_differing_only_in_case_are_refused():
    error = refused(broken(lambda r: _rename(r, "Peru", "BRAZIL")))
    assert error.code == "bad-name"
    assert "'Brazil' and 'BRAZIL'" in error.message or "'BRAZIL' and 'Brazil'" in error.message


def test_a_map_says_how_many_players_it_is_for():
    assert (load_map().min_seats, load_map().max_seats) == (2, 6)
    board = parse_map(broken(lambda r: r.update(seats={"min": 3, "max": 5})))
    assert (board.min_seats, board.max_seats) == (3, 5)


def test_map_refs_name_a_version():
    assert load_map("small@1") is load_map("small", 1)
    assert parse_map_ref("small@2") == ("small", 2)
    assert parse_map_ref("classic") == ("classic", 1)
    with pytest.raises(MapError) as caught:
        parse_map_ref("Small@2")
    assert caught.value.code == "bad-map-name"


def test_a_registered_source_answers_first_and_is_asked_once_per_version():
    """The server registers its database; version 1 of a packaged map falls back to the file,
    another version exists only where a source has it."""
    asked: list[tuple[str, int]] = []
    second = copy.deepcopy(RAW)
    second["continents"]["Asia"]["bonus"] = 9
    second["board"] = json.loads(board_shapes_path("classic").read_text(encoding="utf-8"))

    def source(name: str, version: int):
        asked.append((name, version))
        return second if (name, version) == ("classic", 2) else None

    clear_map_cache()
    register_map_source(source)
    try:
        assert load_map("classic", 2).continents["Asia"].bonus == 9
        assert load_map("classic", 2) is load_map("classic", 2)
        assert load_map("classic", 1).continents["Asia"].bonus == 7  # the packaged file
        assert load_board_shapes("classic", 2)["name"] == "classic"
        with pytest.raises(MapError) as caught:
            load_map("classic", 3)
        assert caught.value.code == "unknown-map" and "classic@3" in caught.value.message
        assert asked == [("classic", 2), ("classic", 1), ("classic", 2), ("classic", 3)]
    finally:
        unregister_map_source(source)
    assert source not in board_map._SOURCES
    with pytest.raises(MapError):
        load_map("classic", 2)


def test_a_two_ocean_station_cut_off_from_its_own_ocean_is_refused():
    """Joined to the Pacific, but no Atlantic lane: still unreachable inside the Atlantic."""

    def cut(raw: dict) -> None:
        raw["sea"]["lanes"] = [
            lane
            for lane in raw["sea"]["lanes"]
            if "Atlantic:Central America" not in lane[:2] or lane[0].startswith("Pacific:")
        ]

    error = refused(broken(cut))
    assert error.code == "unreachable-station"
    assert "Atlantic:Central America" in error.message


def test_oceans_sharing_a_coast_must_be_joined():
    def no_crossings(raw: dict) -> None:
        raw["sea"]["lanes"] = [
            lane for lane in raw["sea"]["lanes"] if lane[0].split(":")[0] == lane[1].split(":")[0]
        ]

    error = refused(broken(no_crossings))
    assert error.code == "disconnected-sea"
    assert "Atlantic" in error.message and "Pacific" in error.message


def test_oceans_that_share_no_coast_may_stay_apart():
    """A second map is only data: an ocean no two-ocean coast touches need not be joined."""

    def lone_indian(raw: dict) -> None:
        # Cut the Indian off: its two-ocean coasts keep only the Indian, the other station goes.
        for name in ("Egypt", "Middle East", "South Africa", "Siam", "Indonesia"):
            other = next(o for o in raw["territories"][name]["oceans"] if o != "Indian")
            raw["territories"][name]["oceans"] = ["Indian"]
            raw["territories"][name]["ocean_source"] = "test"
            del raw["sea"]["stations"][f"{other}:{name}"]
            raw["sea"]["lanes"] = [
                lane for lane in raw["sea"]["lanes"] if f"{other}:{name}" not in lane[:2]
            ]

    board = parse_map(broken(lone_indian))
    assert board.distance("Indian:Egypt", "Atlantic:North Africa") is None
    # Egypt -1- Middle East -1- India -1- Siam -1- Indonesia -2- Eastern Australia.
    assert board.distance("Indian:Egypt", "Indian:Eastern Australia") == 6
    assert len(board.stations) == 48


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


def test_every_fault_of_a_drawn_board_is_listed():
    raw = copy.deepcopy(BOARD_RAW)
    _drop_shape(raw)
    _no_station(raw)
    codes = [e.code for e in board_shape_errors(raw, load_map(), source="board.json")]
    assert codes == ["shape-missing", "station-missing"]
