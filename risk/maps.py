"""Copy a validated map (``risk.rules.board_map.BoardMap``) into the map tables.

The map file is the source of truth and ``parse_map`` its validator; the rows are a browsable,
joinable copy. Loading is a sync, so it is idempotent: rows are matched by their natural keys
(names, station keys, the pair of ends of a border or lane), missing rows are created, changed
ones updated, rows the file no longer has deleted, and a reload of the same file writes nothing.
A game's board protects the territories and stations it uses, so a reload that would remove one
of those fails instead of breaking a live game.

The data migration and ``manage.py load_map`` call the same ``sync_map``; the migration passes its
historical ``apps`` so the loader keeps working as the models change.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from django.apps import apps as global_apps
from django.apps.registry import Apps
from django.db import models, transaction

from risk.rules.board_map import BoardMap

#: The tables of one map, parents first (rows are created in this order, deleted in reverse).
MAP_TABLES = ("Continent", "Territory", "Border", "Ocean", "Station", "SeaLane")


@dataclass(frozen=True)
class MapSync:
    """The map row after a load, and how many rows the load created, changed or deleted."""

    map: Any  # risk.models.Map (or its historical version inside a migration)
    written: int


def load_map_rows(board_map: BoardMap, name: str, *, apps: Apps | None = None) -> Any:
    """Create or update the rows of ``board_map`` under the map name games use (``Options.map``).

    ``name`` is separate from ``board_map.name`` because that is the document's title ("Classic
    Risk world map ..."), while games name their map by its file: risk/data/<name>-risk-map.json.
    """
    return sync_map(board_map, name, apps=apps).map


def sync_map(board_map: BoardMap, name: str, *, apps: Apps | None = None) -> MapSync:
    """``load_map_rows`` that also says how many rows it wrote (0 when the rows were current)."""
    registry = apps or global_apps

    def model(table: str) -> type[models.Model]:
        return registry.get_model("risk", table)

    with transaction.atomic():
        map_row, written = _upsert_map(model("Map"), board_map, name)
        sync = _MapSync(map_row, model)
        continents = sync.upsert(
            "Continent",
            key=lambda row: row.name,
            wanted={c.name: {"bonus": c.bonus} for c in board_map.continents.values()},
        )
        territories = sync.upsert(
            "Territory",
            key=lambda row: row.name,
            wanted={
                t.name: {"continent_id": continents[t.continent], "card": t.card}
                for t in board_map.territories.values()
            },
        )
        sync.upsert(
            "Border",
            key=lambda row: (row.a_id, row.b_id),
            wanted={
                _ordered(territories[x], territories[y]): {}
                for x, y in (sorted(pair) for pair in board_map.borders())
            },
        )
        oceans = sync.upsert(
            "Ocean", key=lambda row: row.name, wanted={name: {} for name in board_map.oceans}
        )
        stations = sync.upsert(
            "Station",
            key=lambda row: row.key,
            wanted={
                s.key: {
                    "ocean_id": oceans[s.ocean],
                    "territory_id": territories[s.territory],
                    "x": s.x,
                    "y": s.y,
                }
                for s in board_map.stations.values()
            },
        )
        sync.upsert(
            "SeaLane",
            key=lambda row: (row.a_id, row.b_id),
            wanted={
                _ordered(stations[a], stations[b]): {"distance": distance}
                for a, b, distance in board_map.lanes
            },
        )
        sync.delete_stale()
    return MapSync(map_row, written + sync.written)


def map_counts(map_row: Any) -> dict[str, int]:
    """How many rows of each table the map has (what ``load_map`` prints)."""
    return {
        "continents": map_row.continents.count(),
        "territories": map_row.territories.count(),
        "borders": map_row.borders.count(),
        "oceans": map_row.oceans.count(),
        "stations": map_row.stations.count(),
        "lanes": map_row.lanes.count(),
    }


def _ordered(a: int, b: int) -> tuple[int, int]:
    """A border or lane is stored once, smaller id first (a check constraint holds it)."""
    return (a, b) if a < b else (b, a)


def _upsert_map(model: type[models.Model], board_map: BoardMap, name: str) -> tuple[Any, int]:
    fields = {"title": board_map.name, "wild_cards": board_map.wild_cards}
    row = model.objects.filter(name=name).first()
    if row is None:
        return model.objects.create(name=name, **fields), 1
    changed = [field for field, value in fields.items() if getattr(row, field) != value]
    for field in changed:
        setattr(row, field, fields[field])
    if changed:
        row.save(update_fields=changed)
    return row, int(bool(changed))


class _MapSync:
    """Brings each table of one map in line with the wanted rows, counting what it writes."""

    def __init__(self, map_row: Any, model: Callable[[str], type[models.Model]]):
        self.map_row = map_row
        self.model = model
        self.written = 0
        self.stale: dict[str, list[int]] = {}

    def upsert(
        self,
        table: str,
        *,
        key: Callable[[Any], Hashable],
        wanted: dict[Hashable, dict[str, Any]],
    ) -> dict[Hashable, int]:
        """Create and update rows so every wanted key has its fields; return key -> pk.

        Rows whose key is no longer wanted are only noted here and deleted at the end, children
        first, so a territory moving to a renamed continent is updated rather than cascaded away.
        """
        model = self.model(table)
        existing = {key(row): row for row in model.objects.filter(map=self.map_row)}
        changed: list[Any] = []
        for row_key, fields in wanted.items():
            row = existing.get(row_key)
            if row is None:
                continue
            if any(getattr(row, field) != value for field, value in fields.items()):
                for field, value in fields.items():
                    setattr(row, field, value)
                changed.append(row)
        if changed:
            model.objects.bulk_update(changed, _field_names(wanted))
        new_keys = [row_key for row_key in wanted if row_key not in existing]
        if new_keys:
            model.objects.bulk_create(
                [model(map=self.map_row, **_key_fields(table, k), **wanted[k]) for k in new_keys]
            )
            existing = {key(row): row for row in model.objects.filter(map=self.map_row)}
        self.stale[table] = [row.pk for row_key, row in existing.items() if row_key not in wanted]
        self.written += len(changed) + len(new_keys)
        return {row_key: row.pk for row_key, row in existing.items()}

    def delete_stale(self) -> None:
        for table in reversed(MAP_TABLES):
            pks = self.stale.get(table, [])
            if pks:
                self.model(table).objects.filter(pk__in=pks).delete()
                self.written += len(pks)


def _key_fields(table: str, key: Hashable) -> dict[str, Any]:
    """The key's own columns for a new row."""
    if table in ("Border", "SeaLane"):
        a, b = key  # type: ignore[misc]
        return {"a_id": a, "b_id": b}
    if table == "Station":
        return {"key": key}
    return {"name": key}


def _field_names(wanted: dict[Hashable, dict[str, Any]]) -> list[str]:
    """The updated columns as ``bulk_update`` names them (``continent``, not ``continent_id``)."""
    fields = next(iter(wanted.values()), {})
    return [name.removesuffix("_id") for name in fields]
