"""A map's rows and its JSON documents: the packaged files load into rows (migrations 0006 and
0007) and the rows give the same documents back, so the files stay the import/export format."""

from __future__ import annotations

import copy
import json

import pytest

from risk.maps.documents import (
    export_board,
    export_map,
    file_problems,
    import_map,
    map_file,
    split_file,
)
from risk.models import Border, Map, Station, Territory
from risk.rules.board_map import (
    board_shapes_path,
    load_board_shapes,
    load_map,
    map_path,
    parse_map,
)
from tests.maps.conftest import packaged_file

pytestmark = pytest.mark.usefixtures("packaged_maps")


def _file(name: str) -> dict:
    return json.loads(map_path(name).read_text(encoding="utf-8"))


def _board(name: str) -> dict:
    return json.loads(board_shapes_path(name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", ["classic", "small"])
def test_the_migrations_loaded_the_packaged_maps_as_published_version_1(name):
    the_map = Map.objects.get(name=name)
    assert (the_map.version, the_map.status) == (1, Map.Status.PUBLISHED)
    assert the_map.published_at is not None and the_map.author is None
    assert export_map(the_map) == _file(name)
    assert export_board(the_map) == _board(name)


def test_the_classic_rows_count_what_the_file_has():
    classic = Map.objects.get(name="classic", version=1)
    assert classic.territories.count() == 42
    assert classic.borders.count() == 83  # one row per two-way border
    assert classic.continents.count() == 6
    assert classic.oceans.count() == 4
    assert classic.stations.count() == 53
    assert classic.lanes.count() == len(_file("classic")["sea"]["lanes"])
    assert Border.objects.filter(map=classic, link=True).count() == len(_board("classic")["links"])
    alaska = Territory.objects.get(map=classic, name="Alaska")
    assert (alaska.continent.name, alaska.card, alaska.extra) == (
        "North America", "infantry", {"ocean_source": "rules"},
    )  # fmt: skip
    assert Station.objects.get(map=classic, ocean__name="Pacific", territory=alaska).x == 0.03


def test_the_deck_is_one_card_per_territory_and_the_wilds():
    """44 classic cards: 14 of each symbol and 2 wilds, from the territories themselves."""
    deck = Map.objects.get(name="classic", version=1).deck()
    assert len(deck) == 44
    symbols = [symbol for _, symbol in deck]
    counts = [symbols.count(s) for s in ("infantry", "cavalry", "artillery", "wild")]
    assert counts == [14, 14, 14, 2]
    assert deck[0] == ("Alaska", "infantry")
    assert list(load_map().deck()) == [name for name, _ in deck]


@pytest.mark.parametrize("name", ["classic", "small"])
def test_import_then_export_gives_the_file_back(name):
    """export(import(file)) == file: every key and value, lists in the file's order."""
    doc, board = _file(name), _board(name)
    copied = import_map(doc, board, name=f"{name}-copy", version=1)
    assert copied.status == Map.Status.DRAFT
    assert export_map(copied) == doc
    assert export_board(copied) == {**board, "name": f"{name}-copy"}
    assert map_file(copied) == {**doc, "board": {**board, "name": f"{name}-copy"}}
    assert parse_map(export_map(copied)) == parse_map(doc)


def _semantic(doc: dict) -> dict:
    """The document with the lists that are sets on the board made sets."""
    out = copy.deepcopy(doc)
    for body in out["territories"].values():
        body["adjacent"], body["oceans"] = sorted(body["adjacent"]), sorted(body["oceans"])
    for body in out["continents"].values():
        body["territories"] = sorted(body["territories"])
    return out


def test_a_file_written_in_another_order_round_trips_semantically():
    """Adjacency and coasts are sets: a file listing them in any order comes back sorted, the
    same map."""
    raw = packaged_file("small")
    for body in raw["territories"].values():
        body["adjacent"].reverse()
        body["oceans"].reverse()
    doc, board = split_file(raw)
    assert file_problems(raw) == []
    exported = export_map(import_map(doc, board, name="shuffled", version=1))
    assert exported != doc
    assert _semantic(exported) == _semantic(doc)
    assert parse_map(_semantic(exported)) == parse_map(_semantic(doc))


def test_the_engine_reads_a_published_version_from_its_rows(monkeypatch):
    """Version 1 of the classic map comes from the database (the file is only the fallback):
    a published version served once is cached for good."""
    from risk.maps import store

    asked: list[tuple[str, int]] = []
    real = store.map_source

    def counting(name: str, version: int):
        asked.append((name, version))
        return real(name, version)

    monkeypatch.setattr(store, "map_source", counting)
    from risk.rules import board_map

    monkeypatch.setattr(board_map, "_SOURCES", [counting])
    board = load_map("classic", 1)
    assert board == parse_map(_file("classic"))
    assert load_board_shapes("classic", 1) == _board("classic")
    assert load_map("classic", 1) is board
    assert asked == [("classic", 1), ("classic", 1)]  # once for the map, once for its board
