"""The board of Nautical-but-Nice Fast Risk as validated, immutable data.

Pure rules (design.md section 1): standard library only. A map is a JSON document in
``risk/data/<name>-risk-map.json``, package data read through ``importlib.resources``; ``load_map``
reads and checks it once per process and hands out a frozen ``BoardMap``; ``parse_map`` checks
any decoded document (a second map is only data).

The document:

- ``name`` (text), ``notes`` (optional list of text);
- ``continents``: ``{name: {"bonus": positive int, "territories": [names]}}``;
- ``territories``: ``{name: {"continent", "card" ("Infantry"|"Cavalry"|"Artillery"),
  "adjacent": [names], "oceans": [ocean names], ...}}`` (extra keys such as ``ocean_source`` are
  kept out of the model but allowed);
- ``oceans``: the ocean names, in the map's order; ``wild_cards``: a non-negative int;
- ``sea``: the ocean station graph (design.md section 5). ``stations`` maps
  ``"<Ocean>:<Territory>"`` to drawing coordinates ``{"x", "y"}`` in 0..1 (x west to east,
  y north to south): exactly one station for every coast, i.e. every (territory, ocean in its
  ``oceans``) pair. ``lanes`` are undirected ``[station, station, boat lengths]``. A lane stays
  in one ocean, except the lane that joins a coast's own stations on two oceans (going round or
  through that coast).

Checks raise ``MapError`` on the first fault, with a short stable ``code`` and a message that names
the key, territory or station at fault (in the spirit of diplomacy's numbered map errors and Unciv's
ruleset validator). Nothing about the classic board is written here; its facts are in the tests.

Queries on the sea (``distance``, ``reachable``, ``coasts_within``) walk the whole station graph,
so a route may pass from one ocean to another through a two-ocean coast. Unknown territory or
station names in a query raise ``KeyError``.
"""

from __future__ import annotations

import heapq
import json
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from types import MappingProxyType
from typing import Any, Literal, TypeGuard

#: The maps and their drawn boards: package data of ``risk`` (``risk/data``), found through
#: ``importlib.resources`` wherever the package is installed, not by a path from this file.
DATA_DIR: Traversable = resources.files("risk") / "data"

#: A territory card's symbol as the model keeps it.
CardSymbol = Literal["infantry", "cavalry", "artillery"]
#: The card symbols as the file writes them, and as the model keeps them.
CARD_SYMBOLS: Mapping[str, CardSymbol] = MappingProxyType(
    {"Infantry": "infantry", "Cavalry": "cavalry", "Artillery": "artillery"}
)
#: Separates ocean and territory in a station key: ``"<ocean>:<territory>"``.
STATION_SEPARATOR = ":"

_MAP_NAME = re.compile(r"[a-z0-9][a-z0-9_-]*")


class MapError(ValueError):
    """A map document that breaks a rule: ``code`` is a short stable key, ``message`` the detail."""

    def __init__(self, code: str, message: str):
        super().__init__(f"[{code}] {message}")
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Continent:
    name: str
    bonus: int
    territories: tuple[str, ...]


@dataclass(frozen=True)
class Territory:
    name: str
    continent: str
    card: CardSymbol
    adjacent: tuple[str, ...]
    oceans: tuple[str, ...]


@dataclass(frozen=True)
class Station:
    key: str
    ocean: str
    territory: str
    x: float
    y: float


def station_key(ocean: str, territory: str) -> str:
    return f"{ocean}{STATION_SEPARATOR}{territory}"


@dataclass(frozen=True)
class BoardMap:
    name: str
    continents: Mapping[str, Continent]
    territories: Mapping[str, Territory]
    oceans: tuple[str, ...]
    stations: Mapping[str, Station]
    lanes: tuple[tuple[str, str, int], ...]
    wild_cards: int
    _links: Mapping[str, tuple[tuple[str, int], ...]] = field(init=False, repr=False, compare=False)
    _distances: dict[str, Mapping[str, int]] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        links: dict[str, list[tuple[str, int]]] = {key: [] for key in self.stations}
        for a, b, length in self.lanes:
            links[a].append((b, length))
            links[b].append((a, length))
        object.__setattr__(
            self, "_links", MappingProxyType({k: tuple(v) for k, v in links.items()})
        )
        object.__setattr__(self, "_distances", {})

    def __repr__(self) -> str:
        return (
            f"BoardMap({self.name!r}: {len(self.territories)} territories, "
            f"{len(self.stations)} stations, {len(self.lanes)} lanes)"
        )

    def __hash__(self) -> int:
        # The mappings are unhashable; equal maps still hash alike.
        return hash((self.name, self.oceans, self.lanes, self.wild_cards))

    # -- land ---------------------------------------------------------------------------------

    def borders(self) -> frozenset[frozenset[str]]:
        """Every two-way border once, as a pair of territory names."""
        return frozenset(
            frozenset((t.name, other)) for t in self.territories.values() for other in t.adjacent
        )

    def coastal(self, territory: str) -> bool:
        return bool(self.territories[territory].oceans)

    def continent_of(self, territory: str) -> str:
        return self.territories[territory].continent

    # -- sea ----------------------------------------------------------------------------------

    def stations_of(self, territory: str) -> tuple[str, ...]:
        """The territory's station keys, in the map's ocean order (none when inland)."""
        touches = self.territories[territory].oceans
        return tuple(station_key(o, territory) for o in self.oceans if o in touches)

    def ocean_of(self, station: str) -> str:
        return self.stations[station].ocean

    def _from(self, start: str) -> Mapping[str, int]:
        """Shortest distances from ``start`` to every station it reaches (Dijkstra, cached)."""
        if start not in self.stations:
            raise KeyError(f"unknown station {start!r}")
        found = self._distances.get(start)
        if found is not None:
            return found
        best: dict[str, int] = {start: 0}
        queue = [(0, start)]
        while queue:
            dist, here = heapq.heappop(queue)
            if dist > best[here]:
                continue
            for there, length in self._links[here]:
                if dist + length < best.get(there, dist + length + 1):
                    best[there] = dist + length
                    heapq.heappush(queue, (dist + length, there))
        found = MappingProxyType(best)
        self._distances[start] = found
        return found

    def distance(self, a: str, b: str) -> int | None:
        """Shortest path from station ``a`` to ``b`` in boat lengths; None if unreachable."""
        if b not in self.stations:
            raise KeyError(f"unknown station {b!r}")
        return self._from(a).get(b)

    def reachable(self, start: str, budget: int) -> dict[str, int]:
        """Each station within ``budget`` boat lengths of ``start`` (itself at 0): its distance."""
        return {key: d for key, d in self._from(start).items() if d <= budget}

    def coasts_within(self, station: str, reach: int = 1) -> tuple[str, ...]:
        """Territories a ship at ``station`` can load from, unload to or land on, sorted by name.

        The station's own territory, plus every territory with a station in the same ocean at most
        ``reach`` boat lengths away.
        """
        here = self.stations[station]
        names = {here.territory}
        for key, d in self._from(station).items():
            other = self.stations[key]
            if d <= reach and other.ocean == here.ocean:
                names.add(other.territory)
        return tuple(sorted(names))


# -- reading and checking -----------------------------------------------------------------------


def map_path(name: str) -> Traversable:
    """Where the map called ``name`` lives: ``risk/data/<name>-risk-map.json``."""
    if not isinstance(name, str) or not _MAP_NAME.fullmatch(name):
        raise MapError("bad-map-name", f"map name {name!r} is not lower-case letters, digits, -, _")
    return DATA_DIR / f"{name}-risk-map.json"


def map_names() -> tuple[str, ...]:
    """The maps there are files for, sorted (what a new game may ask for)."""
    suffix = "-risk-map.json"
    names = (p.name[: -len(suffix)] for p in DATA_DIR.iterdir() if p.name.endswith(suffix))
    return tuple(sorted(names))


def load_map(name: str = "classic") -> BoardMap:
    """Read, check and freeze a map file; the same object on every call for the same name."""
    return _load(name)


@cache
def _load(name: str) -> BoardMap:
    path = map_path(name)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise MapError("unknown-map", f"no map {name!r}: {path} does not exist") from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise MapError("bad-json", f"{path}: not JSON ({exc})") from None
    return parse_map(raw, source=str(path))


def parse_map(raw: Any, *, source: str = "<data>") -> BoardMap:
    """Check a decoded map document and build its ``BoardMap``; raise ``MapError`` on a fault."""
    return _Checker(source).build(raw)


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


class _Checker:
    def __init__(self, source: str):
        self.source = source

    def fail(self, code: str, message: str) -> MapError:
        return MapError(code, f"{self.source}: {message}")

    # typed access ---------------------------------------------------------------------------

    def get(self, obj: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str):
        if key not in obj:
            raise self.fail("missing-key", f"{where} has no {key!r}")
        value = obj[key]
        if not isinstance(value, kind) or isinstance(value, bool):
            expected = (
                kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
            )
            raise self.fail(
                "bad-type", f"{where}.{key} must be {expected}, not {type(value).__name__}"
            )
        return value

    def names(self, obj: Mapping[str, Any], key: str, where: str) -> list[str]:
        """A list of non-empty, distinct strings."""
        values = self.get(obj, key, list, where)
        seen: set[str] = set()
        for value in values:
            if not isinstance(value, str) or not value:
                raise self.fail("bad-type", f"{where}.{key} holds {value!r}, not a name")
            if value in seen:
                raise self.fail("duplicate-entry", f"{where}.{key} lists {value!r} twice")
            seen.add(value)
        return values

    # the document ---------------------------------------------------------------------------

    def build(self, raw: Any) -> BoardMap:
        if not isinstance(raw, dict):
            raise self.fail("bad-type", f"the map must be a JSON object, not {type(raw).__name__}")
        name = self.get(raw, "name", str, "map")
        if "notes" in raw:
            notes = self.get(raw, "notes", list, "map")
            if not all(isinstance(note, str) for note in notes):
                raise self.fail("bad-type", "map.notes must hold only text")
        oceans = self.oceans(raw)
        continents = self.continents(raw)
        territories = self.territories(raw, continents, oceans)
        self.membership(continents, territories)
        self.borders(territories)
        wild_cards = self.cards(raw, territories)
        sea = self.get(raw, "sea", dict, "map")
        stations = self.stations(sea, territories, oceans)
        lanes = self.lanes(sea, stations)
        self.connected(oceans, territories, stations, lanes)
        return BoardMap(
            name=name,
            continents=MappingProxyType(continents),
            territories=MappingProxyType(territories),
            oceans=oceans,
            stations=MappingProxyType(stations),
            lanes=lanes,
            wild_cards=wild_cards,
        )

    def oceans(self, raw: dict[str, Any]) -> tuple[str, ...]:
        oceans = self.names(raw, "oceans", "map")
        for ocean in oceans:
            if STATION_SEPARATOR in ocean:
                raise self.fail("bad-ocean", f"ocean {ocean!r} contains {STATION_SEPARATOR!r}")
        return tuple(oceans)

    def continents(self, raw: dict[str, Any]) -> dict[str, Continent]:
        continents: dict[str, Continent] = {}
        for name, body in self.get(raw, "continents", dict, "map").items():
            where = f"continent {name!r}"
            if not isinstance(body, dict):
                raise self.fail("bad-type", f"{where} must be an object")
            if "bonus" not in body:
                raise self.fail("missing-key", f"{where} has no 'bonus'")
            bonus = body["bonus"]
            if not _is_int(bonus) or bonus < 1:
                raise self.fail("bad-bonus", f"{where} has bonus {bonus!r}, not a positive int")
            members = self.names(body, "territories", where)
            if not members:
                raise self.fail("empty-continent", f"{where} lists no territory")
            continents[name] = Continent(name, bonus, tuple(members))
        if not continents:
            raise self.fail("missing-key", "map.continents is empty")
        return continents

    def territories(
        self, raw: dict[str, Any], continents: dict[str, Continent], oceans: tuple[str, ...]
    ) -> dict[str, Territory]:
        body_of = self.get(raw, "territories", dict, "map")
        if not body_of:
            raise self.fail("missing-key", "map.territories is empty")
        territories: dict[str, Territory] = {}
        for name, body in body_of.items():
            where = f"territory {name!r}"
            if STATION_SEPARATOR in name:
                raise self.fail("bad-territory", f"{where} contains {STATION_SEPARATOR!r}")
            if not isinstance(body, dict):
                raise self.fail("bad-type", f"{where} must be an object")
            continent = self.get(body, "continent", str, where)
            if continent not in continents:
                raise self.fail(
                    "unknown-continent", f"{where} is in unknown continent {continent!r}"
                )
            card = self.get(body, "card", str, where)
            if card not in CARD_SYMBOLS:
                raise self.fail(
                    "bad-card",
                    f"{where} has card symbol {card!r}, not one of {', '.join(CARD_SYMBOLS)}",
                )
            adjacent = self.names(body, "adjacent", where)
            for other in adjacent:
                if other == name:
                    raise self.fail("self-border", f"{where} lists itself as adjacent")
                if other not in body_of:
                    raise self.fail(
                        "unknown-neighbour", f"{where} is adjacent to unknown territory {other!r}"
                    )
            touches = self.names(body, "oceans", where)
            for ocean in touches:
                if ocean not in oceans:
                    raise self.fail("unknown-ocean", f"{where} touches unknown ocean {ocean!r}")
            territories[name] = Territory(
                name, continent, CARD_SYMBOLS[card], tuple(adjacent), tuple(touches)
            )
        return territories

    def membership(
        self, continents: dict[str, Continent], territories: dict[str, Territory]
    ) -> None:
        listed_in: dict[str, str] = {}
        for continent in continents.values():
            for member in continent.territories:
                if member not in territories:
                    raise self.fail(
                        "unknown-territory",
                        f"continent {continent.name!r} lists unknown territory {member!r}",
                    )
                if member in listed_in:
                    raise self.fail(
                        "territory-in-two-continents",
                        f"territory {member!r} is listed in continents {listed_in[member]!r} "
                        f"and {continent.name!r}",
                    )
                listed_in[member] = continent.name
        for territory in territories.values():
            if territory.name not in listed_in:
                raise self.fail(
                    "territory-in-no-continent",
                    f"territory {territory.name!r} is listed in no continent",
                )
            if listed_in[territory.name] != territory.continent:
                raise self.fail(
                    "continent-mismatch",
                    f"territory {territory.name!r} says continent {territory.continent!r} but is "
                    f"listed in {listed_in[territory.name]!r}",
                )

    def borders(self, territories: dict[str, Territory]) -> None:
        for territory in territories.values():
            for other in territory.adjacent:
                if territory.name not in territories[other].adjacent:
                    raise self.fail(
                        "one-way-border",
                        f"{territory.name!r} lists {other!r} as adjacent but {other!r} does not "
                        f"list {territory.name!r}",
                    )

    def cards(self, raw: dict[str, Any], territories: dict[str, Territory]) -> int:
        counts = Counter(t.card for t in territories.values())
        per_symbol = {symbol: counts[symbol] for symbol in CARD_SYMBOLS.values()}
        if len(set(per_symbol.values())) != 1:
            shown = ", ".join(f"{n} {symbol}" for symbol, n in per_symbol.items())
            raise self.fail("uneven-cards", f"card symbols are not equally many: {shown}")
        if "wild_cards" not in raw:
            raise self.fail("missing-key", "map has no 'wild_cards'")
        wild = raw["wild_cards"]
        if not _is_int(wild) or wild < 0:
            raise self.fail("bad-wild-cards", f"wild_cards is {wild!r}, not a non-negative int")
        return wild

    def stations(
        self, sea: dict[str, Any], territories: dict[str, Territory], oceans: tuple[str, ...]
    ) -> dict[str, Station]:
        body_of = self.get(sea, "stations", dict, "sea")
        given: dict[str, Station] = {}
        for key, body in body_of.items():
            where = f"station {key!r}"
            ocean, sep, territory = key.partition(STATION_SEPARATOR)
            if not sep or ocean not in oceans or territory not in territories:
                raise self.fail(
                    "bad-station-key",
                    f"{where} is not '<ocean>{STATION_SEPARATOR}<territory>' with a known ocean "
                    "and territory",
                )
            if ocean not in territories[territory].oceans:
                raise self.fail(
                    "stray-station", f"{where}: territory {territory!r} does not touch {ocean!r}"
                )
            if not isinstance(body, dict):
                raise self.fail("bad-type", f"{where} must be an object")
            place = []
            for axis in ("x", "y"):
                value = body.get(axis)
                if not _is_number(value) or not 0 <= value <= 1:
                    raise self.fail(
                        "bad-coordinates", f"{where} has {axis} = {value!r}, not a number in 0..1"
                    )
                place.append(float(value))
            given[key] = Station(key, ocean, territory, place[0], place[1])
        # One station per coast: the map's ocean order, then territory order.
        stations: dict[str, Station] = {}
        for ocean in oceans:
            for territory in territories.values():
                if ocean not in territory.oceans:
                    continue
                key = station_key(ocean, territory.name)
                if key not in given:
                    raise self.fail(
                        "missing-station",
                        f"territory {territory.name!r} touches {ocean!r} but has no station "
                        f"{key!r}",
                    )
                stations[key] = given[key]
        for ocean in oceans:
            if not any(s.ocean == ocean for s in stations.values()):
                raise self.fail("empty-ocean", f"no territory touches ocean {ocean!r}")
        return stations

    def lanes(
        self, sea: dict[str, Any], stations: dict[str, Station]
    ) -> tuple[tuple[str, str, int], ...]:
        lanes: list[tuple[str, str, int]] = []
        seen: set[frozenset[str]] = set()
        for number, lane in enumerate(self.get(sea, "lanes", list, "sea"), start=1):
            where = f"lane {number} {lane!r}"
            if not isinstance(lane, list) or len(lane) != 3:
                raise self.fail("bad-lane", f"{where} is not [station, station, distance]")
            a, b, length = lane
            for end in (a, b):
                if not isinstance(end, str) or end not in stations:
                    raise self.fail("unknown-station", f"{where} names unknown station {end!r}")
            if a == b:
                raise self.fail("self-lane", f"{where} joins station {a!r} to itself")
            if not _is_int(length) or length < 1:
                raise self.fail(
                    "bad-distance", f"{where} has distance {length!r}, not a positive int"
                )
            pair = frozenset((a, b))
            if pair in seen:
                raise self.fail("duplicate-lane", f"{where} joins {a!r} and {b!r} a second time")
            seen.add(pair)
            here, there = stations[a], stations[b]
            if here.ocean != there.ocean and here.territory != there.territory:
                raise self.fail(
                    "cross-ocean-lane",
                    f"{where} joins {a!r} and {b!r}: a lane between two oceans must join one "
                    "coast's own stations",
                )
            lanes.append((a, b, length))
        return tuple(lanes)

    def connected(
        self,
        oceans: tuple[str, ...],
        territories: dict[str, Territory],
        stations: dict[str, Station],
        lanes: tuple[tuple[str, str, int], ...],
    ) -> None:
        # Within each ocean, by that ocean's own lanes.
        for ocean in oceans:
            members = [key for key, s in stations.items() if s.ocean == ocean]
            inside = [
                (a, b) for a, b, _ in lanes if stations[a].ocean == stations[b].ocean == ocean
            ]
            parts = _components(members, inside)
            if len(parts) > 1:
                main = max(parts, key=len)
                stray = next(key for key in members if key not in main)
                raise self.fail(
                    "unreachable-station",
                    f"station {stray!r} cannot be reached from {next(iter(main))!r} by the lanes "
                    f"of the {ocean}",
                )
        # Across oceans: oceans that share a coast must be joined by the lanes.
        can_meet = _components(
            list(oceans),
            [
                (t.oceans[0], other)
                for t in territories.values()
                if len(t.oceans) > 1
                for other in t.oceans[1:]
            ],
        )
        sea = _components(list(stations), [(a, b) for a, b, _ in lanes])
        part_of = {key: index for index, part in enumerate(sea) for key in part}
        for group in can_meet:
            firsts = [
                next(k for k, s in stations.items() if s.ocean == o) for o in oceans if o in group
            ]
            for key in firsts[1:]:
                if part_of[key] != part_of[firsts[0]]:
                    raise self.fail(
                        "disconnected-sea",
                        f"the {stations[key].ocean} cannot be reached from the "
                        f"{stations[firsts[0]].ocean} ({key!r} from {firsts[0]!r}) although "
                        "two-ocean coasts link them",
                    )


def _components(nodes: list[str], edges: list[tuple[str, str]]) -> list[list[str]]:
    """Connected parts of an undirected graph, each in ``nodes`` order, first-met first."""
    parent = {node: node for node in nodes}

    def root(node: str) -> str:
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    for a, b in edges:
        parent[root(a)] = root(b)
    parts: dict[str, list[str]] = {}
    for node in nodes:
        parts.setdefault(root(node), []).append(node)
    return list(parts.values())


# -- the drawn board -----------------------------------------------------------------------------
#
# ``risk/data/<name>-risk-board.json`` (made by ``scripts/make_board_shapes.py``) draws a map
# for the game page: ``viewBox`` ``[0, 0, width, height]``; ``territories``, a list of
# ``{"name", "polygon": [[x, y], ...], "label": [x, y], ...}`` (a list, so a name given twice is
# seen); ``links``, ``[{"a", "b", "wrap"}]`` adjacent pairs drawn as a line across water;
# ``oceans``, a list of ``{"name", "label": [x, y], "stations": {station key: [x, y]}}``.


def board_shapes_path(name: str) -> Traversable:
    """Where the drawn board of map ``name`` lives: ``risk/data/<name>-risk-board.json``."""
    map_path(name)  # checks the name
    return DATA_DIR / f"{name}-risk-board.json"


def validate_board_shapes(raw: Any, board: BoardMap, *, source: str = "<data>") -> None:
    """Check a drawn board against its map; raise ``MapError`` on the first fault.

    Every territory has exactly one shape (codes ``shape-missing``, ``shape-duplicate``,
    ``shape-unknown``), every point is inside the view box (``shape-outside``), a polygon has
    at least three points (``bad-shape``); every ocean and station of the map is placed once and
    nothing else (``ocean-missing``, ``ocean-unknown``, ``station-missing``, ``station-unknown``);
    links join adjacent territories (``bad-link``); every sea lane of the map is drawn once with
    its boat lengths and nothing else (``lane-missing``, ``lane-unknown``, ``lane-duplicate``,
    ``bad-lane``), so the board a player reads distances from is the map the engine sails by.
    """
    check = _Checker(source)
    if not isinstance(raw, dict):
        raise check.fail("bad-type", "the board document must be a JSON object")
    box = raw.get("viewBox")
    if (
        not isinstance(box, list)
        or len(box) != 4
        or not all(_is_number(v) for v in box)
        or box[2] <= 0
        or box[3] <= 0
    ):
        raise check.fail("bad-viewbox", f"viewBox is {box!r}, not [x, y, width, height]")
    x0, y0, width, height = box

    def point(value: Any, where: str) -> None:
        if not (isinstance(value, list) and len(value) == 2 and all(_is_number(v) for v in value)):
            raise check.fail("bad-shape", f"{where}: {value!r} is not a point [x, y]")
        if not (x0 <= value[0] <= x0 + width and y0 <= value[1] <= y0 + height):
            raise check.fail("shape-outside", f"{where}: point {value!r} is outside the viewBox")

    shapes = check.get(raw, "territories", list, "the board")
    seen: set[str] = set()
    for body in shapes:
        if not isinstance(body, dict) or not isinstance(body.get("name"), str):
            raise check.fail("bad-shape", f"territory shape {str(body)[:60]!r} has no name")
        name = body["name"]
        where = f"shape of {name!r}"
        if name not in board.territories:
            raise check.fail("shape-unknown", f"{where}: no such territory on the map")
        if name in seen:
            raise check.fail("shape-duplicate", f"{where} is given twice")
        seen.add(name)
        polygon = body.get("polygon")
        if not isinstance(polygon, list) or len(polygon) < 3:
            raise check.fail("bad-shape", f"{where}: polygon is not a list of 3 or more points")
        for p in polygon:
            point(p, where)
        point(body.get("label"), f"label of {name!r}")
    for name in board.territories:
        if name not in seen:
            raise check.fail("shape-missing", f"territory {name!r} has no shape")

    for link in raw.get("links", []):
        a, b = (link.get("a"), link.get("b")) if isinstance(link, dict) else (None, None)
        if not (isinstance(a, str) and isinstance(b, str)) or not (
            a in board.territories and b in board.territories
        ):
            raise check.fail("bad-link", f"link {link!r} does not join two territories")
        if b not in board.territories[a].adjacent:
            raise check.fail("bad-link", f"link {a!r}-{b!r}: they are not adjacent")

    oceans = check.get(raw, "oceans", list, "the board")
    placed: set[str] = set()
    named: set[str] = set()
    for body in oceans:
        name = body.get("name") if isinstance(body, dict) else None
        if name not in board.oceans:
            raise check.fail("ocean-unknown", f"ocean {name!r} is not on the map")
        if name in named:
            raise check.fail("ocean-duplicate", f"ocean {name!r} is given twice")
        named.add(name)
        point(body.get("label"), f"label of ocean {name!r}")
        stations = check.get(body, "stations", dict, f"ocean {name!r}")
        for key, value in stations.items():
            if key not in board.stations or board.stations[key].ocean != name:
                raise check.fail("station-unknown", f"ocean {name!r}: no station {key!r} there")
            point(value, f"station {key!r}")
            placed.add(key)
    for name in board.oceans:
        if name not in named:
            raise check.fail("ocean-missing", f"ocean {name!r} is not drawn")
    for key in board.stations:
        if key not in placed:
            raise check.fail("station-missing", f"station {key!r} is not drawn")

    _check_drawn_lanes(check, check.get(raw, "lanes", list, "the board"), board)


def _check_drawn_lanes(check: _Checker, drawn: list[Any], board: BoardMap) -> None:
    """Each drawn lane ``[station, station, boat lengths]`` is one lane of the map (either way
    round), with the map's length; each map lane is drawn exactly once."""
    lengths = {frozenset((a, b)): length for a, b, length in board.lanes}
    seen: set[frozenset[str]] = set()
    for lane in drawn:
        if not (isinstance(lane, list) and len(lane) == 3 and isinstance(lane[2], int)):
            raise check.fail("bad-lane", f"drawn lane {lane!r} is not [station, station, length]")
        a, b, length = lane
        pair = frozenset((a, b)) if isinstance(a, str) and isinstance(b, str) else frozenset()
        if pair not in lengths:
            raise check.fail("lane-unknown", f"drawn lane {a!r}-{b!r} is not a lane of the map")
        if pair in seen:
            raise check.fail("lane-duplicate", f"drawn lane {a!r}-{b!r} is given twice")
        if length != lengths[pair]:
            raise check.fail(
                "bad-lane", f"drawn lane {a!r}-{b!r} is {length} long; the map says {lengths[pair]}"
            )
        seen.add(pair)
    for a, b, _length in board.lanes:
        if frozenset((a, b)) not in seen:
            raise check.fail("lane-missing", f"lane {a!r}-{b!r} is not drawn")


@cache
def load_board_shapes(name: str = "classic") -> Mapping[str, Any]:
    """Read and check the drawn board of map ``name`` (cached; treat the result as read-only)."""
    path = board_shapes_path(name)
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise MapError("unknown-board", f"no drawn board {name!r}: {path} does not exist") from None
    validate_board_shapes(raw, load_map(name), source=str(path))
    return raw
