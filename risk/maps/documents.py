"""A map version's rows as the JSON documents, and a document as rows.

The format is the one of ``risk/data``: the map document (``<name>-risk-map.json``, checked by
``risk.rules.board_map.parse_map``) and its drawn board (``<name>-risk-board.json``, checked by
``validate_board_shapes``). A file someone uploads, or downloads from the server, is the map
document with the drawn board under ``"board"`` (``map_file``): one file per map.

``export_map(import_map(document))`` gives the document back: the same keys and values, with
the lists that are sets on the board (a territory's ``adjacent`` and ``oceans``) sorted by name
and the links written with their two names in order, as the packaged files have them.

Every function takes the model classes as ``MapModels`` so the data migrations can use them with
the historical models (``MapModels.of(apps)``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.utils import timezone

from risk.rules.board_map import (
    CARD_SYMBOLS,
    MAX_SEATS,
    MIN_SEATS,
    STATION_SEPARATOR,
    MapError,
    board_shape_errors,
    map_errors,
    parse_map,
)

Document = dict[str, Any]
#: "infantry" -> "Infantry": the symbol as the document writes it.
CARD_NAMES = {symbol: name for name, symbol in CARD_SYMBOLS.items()}
#: A document territory's keys that are rows of their own; any other key is kept in ``extra``.
TERRITORY_KEYS = ("continent", "card", "adjacent", "oceans")
DRAFT, PUBLISHED = "draft", "published"


@dataclass(frozen=True)
class MapModels:
    """The map's model classes: today's, or a migration's historical ones."""

    Map: Any
    Continent: Any
    Territory: Any
    Border: Any
    Ocean: Any
    Station: Any
    Lane: Any

    @classmethod
    def of(cls, apps: Any = None) -> MapModels:
        if apps is None:
            from risk import models

            return cls(models.Map, models.Continent, models.Territory, models.Border,
                       models.Ocean, models.Station, models.Lane)  # fmt: skip
        return cls(*(apps.get_model("risk", name) for name in cls.__dataclass_fields__))


def split_file(raw: Mapping[str, Any]) -> tuple[Document, Any]:
    """A map file as (the map document, its drawn board or None)."""
    doc = {key: value for key, value in raw.items() if key != "board"}
    return doc, raw.get("board")


def file_problems(raw: Any, *, source: str = "the file") -> list[MapError]:
    """Every fault of a map file (``map_file``'s shape): the map's, then its drawn board's."""
    if not isinstance(raw, dict):
        return [MapError("bad-type", f"{source}: the map file must be a JSON object")]
    doc, drawn = split_file(raw)
    errors = map_errors(doc, source=source)
    if errors:
        return errors
    if drawn is None:
        return [MapError("missing-board", f"{source}: the file has no drawn board ('board')")]
    return board_shape_errors(drawn, parse_map(doc), source=f"{source}, board")


# -- document -> rows ----------------------------------------------------------------------------


def import_map(
    doc: Mapping[str, Any],
    board: Mapping[str, Any],
    *,
    name: str,
    version: int,
    status: str = DRAFT,
    author: Any = None,
    models: MapModels | None = None,
) -> Any:
    """Rows for a good map document and its drawn board (check them first: ``file_problems``);
    the new ``Map`` of ``name``/``version`` with ``status``."""
    m = models or MapModels.of()
    seats = doc.get("seats") or {"min": MIN_SEATS, "max": MAX_SEATS}
    the_map = m.Map.objects.create(
        name=name, version=version, title=doc["name"], notes=list(doc.get("notes", [])),
        board_notes=list(board.get("notes", [])), author=author, status=DRAFT,
        wild_cards=doc["wild_cards"], min_seats=seats["min"], max_seats=seats["max"],
        view_box=list(board["viewBox"]),
    )  # fmt: skip
    continents = {
        cname: m.Continent(map=the_map, name=cname, bonus=body["bonus"], position=i)
        for i, (cname, body) in enumerate(doc["continents"].items())
    }
    m.Continent.objects.bulk_create(continents.values())
    shapes = {shape["name"]: shape for shape in board["territories"]}
    territories = {}
    for i, (tname, body) in enumerate(doc["territories"].items()):
        shape = shapes[tname]
        territories[tname] = m.Territory(
            map=the_map, name=tname, continent=continents[body["continent"]],
            card=CARD_SYMBOLS[body["card"]], position=i, polygon=shape["polygon"],
            label_x=shape["label"][0], label_y=shape["label"][1],
            extra={k: v for k, v in body.items() if k not in TERRITORY_KEYS},
        )  # fmt: skip
    m.Territory.objects.bulk_create(territories.values())
    links = {frozenset((link["a"], link["b"])): link for link in board.get("links", [])}
    pairs = sorted(
        {tuple(sorted((t, o))) for t, body in doc["territories"].items() for o in body["adjacent"]}
    )
    m.Border.objects.bulk_create(
        m.Border(
            map=the_map,
            a=territories[a],
            b=territories[b],
            link=frozenset((a, b)) in links,
            wrap=bool(links.get(frozenset((a, b)), {}).get("wrap")),
        )
        for a, b in pairs
    )
    drawn = {body["name"]: body for body in board["oceans"]}
    oceans = {
        oname: m.Ocean(
            map=the_map,
            name=oname,
            position=i,
            label_x=drawn[oname]["label"][0],
            label_y=drawn[oname]["label"][1],
        )
        for i, oname in enumerate(doc["oceans"])
    }
    m.Ocean.objects.bulk_create(oceans.values())
    stations = {}
    for key, place in doc["sea"]["stations"].items():
        oname, _, tname = key.partition(STATION_SEPARATOR)
        at = drawn[oname]["stations"][key]
        stations[key] = m.Station(
            map=the_map, ocean=oceans[oname], territory=territories[tname], x=place["x"],
            y=place["y"], board_x=at[0], board_y=at[1],
        )  # fmt: skip
    m.Station.objects.bulk_create(stations.values())
    m.Lane.objects.bulk_create(
        m.Lane(map=the_map, a=stations[a], b=stations[b], length=length, position=i)
        for i, (a, b, length) in enumerate(doc["sea"]["lanes"])
    )
    if status != DRAFT:
        the_map.status = status
        the_map.published_at = timezone.now() if status == PUBLISHED else None
        the_map.save(update_fields=["status", "published_at"])
    return the_map


# -- rows -> document ----------------------------------------------------------------------------


@dataclass
class _Rows:
    """One map version's rows, read once (seven queries), in map order."""

    the_map: Any
    continents: list[Any]
    territories: list[Any]
    borders: list[Any]
    oceans: list[Any]
    stations: list[Any]
    lanes: list[Any]

    @classmethod
    def read(cls, the_map: Any) -> _Rows:
        by_order = ("position", "pk")
        return cls(
            the_map,
            list(the_map.continents.order_by(*by_order)),
            list(the_map.territories.select_related("continent").order_by(*by_order)),
            list(the_map.borders.select_related("a", "b").order_by("pk")),
            list(the_map.oceans.order_by(*by_order)),
            list(
                the_map.stations.select_related("ocean", "territory").order_by(
                    "ocean__position", "ocean__pk", "territory__position", "territory__pk"
                )
            ),
            list(
                the_map.lanes.select_related(
                    "a__ocean", "a__territory", "b__ocean", "b__territory"
                ).order_by(*by_order)
            ),
        )


def _key(station: Any) -> str:
    return f"{station.ocean.name}{STATION_SEPARATOR}{station.territory.name}"


def export_map(the_map: Any) -> Document:
    """The map document of a version's rows (``risk/data/<name>-risk-map.json``'s format)."""
    return _map_document(_Rows.read(the_map))


def export_board(the_map: Any) -> Document:
    """The drawn board of a version's rows (``risk/data/<name>-risk-board.json``'s format)."""
    return _board_document(_Rows.read(the_map))


def map_file(the_map: Any) -> Document:
    """The one file of a map version: its document with the drawn board under ``"board"``."""
    rows = _Rows.read(the_map)
    return {**_map_document(rows), "board": _board_document(rows)}


def _map_document(rows: _Rows) -> Document:
    m = rows.the_map
    neighbours: dict[int, set[str]] = {t.pk: set() for t in rows.territories}
    for border in rows.borders:
        neighbours.setdefault(border.a_id, set()).add(border.b.name)
        neighbours.setdefault(border.b_id, set()).add(border.a.name)
    coasts: dict[int, set[str]] = {t.pk: set() for t in rows.territories}
    for station in rows.stations:
        coasts.setdefault(station.territory_id, set()).add(station.ocean.name)
    doc: Document = {"name": m.title}
    if m.notes:
        doc["notes"] = list(m.notes)
    if (m.min_seats, m.max_seats) != (MIN_SEATS, MAX_SEATS):
        doc["seats"] = {"min": m.min_seats, "max": m.max_seats}
    doc["continents"] = {
        c.name: {
            "bonus": c.bonus,
            "territories": [t.name for t in rows.territories if t.continent_id == c.pk],
        }
        for c in rows.continents
    }
    doc["territories"] = {
        t.name: {
            "continent": t.continent.name,
            "card": CARD_NAMES.get(t.card, t.card),
            "adjacent": sorted(neighbours[t.pk]),
            "oceans": sorted(coasts[t.pk]),
            **t.extra,
        }
        for t in rows.territories
    }
    doc["wild_cards"] = m.wild_cards
    doc["oceans"] = [o.name for o in rows.oceans]
    doc["sea"] = {
        "stations": {_key(s): {"x": s.x, "y": s.y} for s in rows.stations},
        "lanes": [[_key(lane.a), _key(lane.b), lane.length] for lane in rows.lanes],
    }
    return doc


def _board_document(rows: _Rows) -> Document:
    m = rows.the_map
    doc: Document = {"name": m.name}
    if m.board_notes:
        doc["notes"] = list(m.board_notes)
    doc["viewBox"] = list(m.view_box)
    doc["territories"] = [
        {
            "name": t.name,
            "continent": t.continent.name,
            "polygon": t.polygon,
            "label": [t.label_x, t.label_y],
        }
        for t in rows.territories
    ]
    doc["links"] = sorted(
        ({"a": b.a.name, "b": b.b.name, "wrap": b.wrap} for b in rows.borders if b.link),
        key=lambda link: (link["a"], link["b"]),
    )
    doc["oceans"] = [
        {
            "name": o.name,
            "label": [o.label_x, o.label_y],
            "stations": {
                _key(s): [s.board_x, s.board_y]
                for s in sorted(rows.stations, key=_key)
                if s.ocean_id == o.pk
            },
        }
        for o in rows.oceans
    ]
    doc["lanes"] = [[_key(lane.a), _key(lane.b), lane.length] for lane in rows.lanes]
    return doc


def row_problems(the_map: Any) -> list[MapError]:
    """Every fault of a version's rows, named as the validator names it (empty: playable)."""
    return file_problems(map_file(the_map), source=the_map.ref)


def load_packaged(apps: Any, name: str) -> None:
    """Version 1 of the packaged map ``name`` as published rows (the data migrations), unless it
    is there already; ``risk/data``'s files are the fixture, checked before they are loaded."""
    from risk.rules.board_map import board_shapes_path, map_path

    models = MapModels.of(apps)
    if models.Map.objects.filter(name=name, version=1).exists():
        return
    doc = json.loads(map_path(name).read_text(encoding="utf-8"))
    board = json.loads(board_shapes_path(name).read_text(encoding="utf-8"))
    errors = file_problems({**doc, "board": board}, source=f"risk/data/{name}")
    if errors:
        raise errors[0]
    import_map(doc, board, name=name, version=1, status=PUBLISHED, models=models)


def unload_packaged(apps: Any, name: str) -> None:
    MapModels.of(apps).Map.objects.filter(name=name, version=1).delete()
