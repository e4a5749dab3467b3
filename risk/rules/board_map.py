"""The board of Nautical-but-Nice Fast Risk as validated, immutable data.

Pure rules (design.md section 1): standard library only. A map is a JSON document; ``parse_map``
checks any decoded document and builds a frozen ``BoardMap`` (a second map is only data), and
``map_errors`` lists every fault it finds instead of stopping at the first (an editor wants them
all at once). Each map has a name (``classic``) and versions 1, 2, ...: a version, once a game can
be played on it, never changes, so ``load_map(name, version)`` is cached for good.

Where the documents come from: the sources registered with ``register_map_source`` (the server
registers the maps of its database, ``risk.maps``, from ``RiskConfig.ready``), asked in turn;
then the package data ``risk/data/<name>-risk-map.json`` (read through ``importlib.resources``),
which is version 1 of that map. So the rules, the AI, their tests and the benchmarks run the
packaged maps with no database at all.

The document:

- ``name`` (the map's title, text), ``notes`` (optional list of text);
- ``seats`` (optional): ``{"min": m, "max": n}``, the players a game on the map may have,
  ``MIN_SEATS`` to ``MAX_SEATS`` when left out;
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

What the set-up and the notation need of any map is checked too: every territory has a border;
the territories deal into ``PILES`` equal piles of at least ``ALLY_EXTRA`` (``risk.rules.setup``);
the card symbols are equally many (the deck: one card per territory with its symbol, plus
``wild_cards``); names are words a move by mail can spell (no ``>``, ``+``, ``,`` or ``:``, not a
number, a ship or ``wild``, and no two territories differing only in case).

Checks raise ``MapError`` with a short stable ``code`` and a message that names the key, territory
or station at fault (in the spirit of diplomacy's numbered map errors and Unciv's ruleset
validator). Nothing about the classic board is written here; its facts are in the tests.

Queries on the sea (``distance``, ``reachable``, ``coasts_within``) walk the whole station graph,
so a route may pass from one ocean to another through a two-ocean coast. Unknown territory or
station names in a query raise ``KeyError``.
"""

from __future__ import annotations

import heapq
import json
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
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

_MAP_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
#: ``"<name>@<version>"``: one version of a map, as a game records it and a URL names it.
_MAP_REF = re.compile(r"(?P<name>[a-z0-9][a-z0-9_-]{0,39})@(?P<version>[1-9][0-9]{0,8})")
#: The version the packaged file of a map is.
PACKAGED_VERSION = 1

#: The set-up deals the territory cards into this many equal piles, one per seat, players and
#: allied armies together (``risk.rules.setup``); an allied army's pile takes
#: ``ALLY_EXTRA`` extra armies on as many of its territories, so a pile holds at least that many.
PILES = 6
ALLY_EXTRA = 3
#: The fewest and most players a map may allow (``seats``); the rest of the piles are allies.
MIN_SEATS, MAX_SEATS = 2, PILES
#: Words of the move notation (``risk.rules.notation``) a name must not be or hold.
_NOT_IN_NAMES = (">", "+", ",", STATION_SEPARATOR)
_NOTATION_WORD = re.compile(r"[0-9]+|[sS][0-9]+|wild", re.IGNORECASE)


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
    min_seats: int = MIN_SEATS
    max_seats: int = MAX_SEATS
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

    def deck(self) -> tuple[str, ...]:
        """The Risk cards the map implies: one per territory (its symbol is the territory's
        ``card``), in map order, then ``wild_cards`` wilds (named ``"wild"``, as a hand holds
        them)."""
        return (*self.territories, *("wild",) * self.wild_cards)

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
    """Where the packaged map called ``name`` lives: ``risk/data/<name>-risk-map.json``."""
    check_map_name(name)
    return DATA_DIR / f"{name}-risk-map.json"


def check_map_name(name: Any) -> str:
    """``name`` if it is a map name (lower-case letters, digits, ``-``, ``_``; at most 40)."""
    if not isinstance(name, str) or not _MAP_NAME.fullmatch(name):
        raise MapError("bad-map-name", f"map name {name!r} is not lower-case letters, digits, -, _")
    return name


def map_names() -> tuple[str, ...]:
    """The maps there are packaged files for, sorted (each is version 1 of its map)."""
    suffix = "-risk-map.json"
    names = (p.name[: -len(suffix)] for p in DATA_DIR.iterdir() if p.name.endswith(suffix))
    return tuple(sorted(names))


def map_ref(name: str, version: int) -> str:
    """``"classic@1"``: how a game, a URL or a log names one version of a map."""
    return f"{name}@{version}"


def parse_map_ref(text: str) -> tuple[str, int]:
    """``"small@2"`` as ``("small", 2)``; a bare name is its packaged version (1)."""
    match = _MAP_REF.fullmatch(text) if isinstance(text, str) else None
    if match:
        return match["name"], int(match["version"])
    return check_map_name(text), PACKAGED_VERSION


#: A source of map documents: ``source(name, version)`` gives the document of that version (the
#: map document, with its drawn board under ``"board"`` if it has one), or None when it has no
#: such map. It must only ever answer with a version that no longer changes: ``load_map`` keeps
#: the answer for the life of the process.
MapSource = Callable[[str, int], Mapping[str, Any] | None]
_SOURCES: list[MapSource] = []


def register_map_source(source: MapSource) -> None:
    """Ask ``source`` for maps before the packaged files (once, however often registered)."""
    if source not in _SOURCES:
        _SOURCES.append(source)


def unregister_map_source(source: MapSource) -> None:
    if source in _SOURCES:
        _SOURCES.remove(source)
    clear_map_cache()


def clear_map_cache() -> None:
    """Forget every map read so far (tests that make maps of their own; a version that a source
    has served never changes, so the server itself never needs this)."""
    _load.cache_clear()
    _load_shapes.cache_clear()


def load_map(name: str = "classic", version: int = PACKAGED_VERSION) -> BoardMap:
    """Version ``version`` of map ``name`` (or ``name`` written ``"small@2"``), checked and
    frozen; the same object on every call.

    Cached per (name, version) in a bounded LRU: a version never changes once served (an edit
    is a new version), so nothing is ever invalidated; a map pushed out is simply read again.
    """
    if isinstance(name, str) and "@" in name:
        name, version = parse_map_ref(name)
    return _load(name, version)


def _document(name: str, version: int) -> tuple[Mapping[str, Any], str, bool]:
    """The document of (name, version), where it came from (for messages), and whether that is
    the packaged file (whose drawn board is a file of its own)."""
    check_map_name(name)
    if not _is_int(version) or version < 1:
        raise MapError("bad-map-version", f"map version {version!r} is not a whole number >= 1")
    for source in tuple(_SOURCES):
        found = source(name, version)
        if found is not None:
            return found, map_ref(name, version), False
    if version == PACKAGED_VERSION:
        path = map_path(name)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise MapError("unknown-map", f"no map {name!r}: {path} does not exist") from None
        try:
            return json.loads(text), str(path), True
        except json.JSONDecodeError as exc:
            raise MapError("bad-json", f"{path}: not JSON ({exc})") from None
    raise MapError("unknown-map", f"no map {map_ref(name, version)!r}")


@lru_cache(maxsize=64)
def _load(name: str, version: int) -> BoardMap:
    raw, source, _packaged = _document(name, version)
    return parse_map(raw, source=source)


def parse_map(raw: Any, *, source: str = "<data>") -> BoardMap:
    """Check a decoded map document and build its ``BoardMap``; raise the first ``MapError``."""
    checker = _Checker(source)
    try:
        return checker.build(raw)
    except _Stop:
        raise checker.found[0] from None
    except MapError:
        if checker.found:
            raise checker.found[0] from None
        raise


def map_errors(raw: Any, *, source: str = "<data>") -> list[MapError]:
    """Every fault of a map document that ``parse_map`` would refuse, in the order it checks them
    (empty: the map is good). Faults of one kind are all listed; a later check that depends on an
    earlier one (the sea on its stations) waits until the earlier faults are mended."""
    checker = _Checker(source)
    try:
        checker.build(raw)
    except _Stop:
        return list(checker.found)
    except MapError as error:
        return [*checker.found, error]
    return []


class _Stop(Exception):
    """Faults were noted (``_Checker.found``) that keep the next checks from making sense."""


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> TypeGuard[int | float]:
    return isinstance(value, int | float) and not isinstance(value, bool)


class _Checker:
    """One check of one document. A fault that leaves nothing to check further is raised at
    once (``fail``); a fault in one entry among many is noted (``note``) and the entries after it
    are still checked, and ``settle`` stops before a step that builds on faulty ones."""

    def __init__(self, source: str):
        self.source = source
        self.found: list[MapError] = []

    def fail(self, code: str, message: str) -> MapError:
        return MapError(code, f"{self.source}: {message}")

    def note(self, code: str, message: str) -> None:
        self.found.append(self.fail(code, message))

    def settle(self) -> None:
        if self.found:
            raise _Stop

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

    def spelt(self, name: str, what: str) -> None:
        """A name a move by mail can write (``risk.rules.notation`` reads whole words)."""
        bad = [part for part in _NOT_IN_NAMES if part in name]
        words = name.split()
        if bad or not words or " ".join(words) != name:
            shown = f"holds {bad[0]!r}" if bad else "has stray spaces"
            self.note("bad-name", f"{what} {name!r} {shown}: the move notation cannot spell it")
        elif any(_NOTATION_WORD.fullmatch(word) for word in words):
            self.note(
                "bad-name",
                f"{what} {name!r} has a word the move notation reads otherwise (a number, a "
                "ship such as S3, or wild)",
            )

    # the document ---------------------------------------------------------------------------

    def build(self, raw: Any) -> BoardMap:
        if not isinstance(raw, dict):
            raise self.fail("bad-type", f"the map must be a JSON object, not {type(raw).__name__}")
        name = self.get(raw, "name", str, "map")
        if "notes" in raw:
            notes = self.get(raw, "notes", list, "map")
            if not all(isinstance(note, str) for note in notes):
                raise self.fail("bad-type", "map.notes must hold only text")
        seats = self.seats(raw)
        oceans = self.oceans(raw)
        continents = self.continents(raw)
        territories = self.territories(raw, continents, oceans)
        self.settle()
        self.membership(continents, territories)
        self.borders(territories)
        wild_cards = self.cards(raw, territories)
        sea = self.get(raw, "sea", dict, "map")
        self.settle()
        stations = self.stations(sea, territories, oceans)
        self.settle()
        lanes = self.lanes(sea, stations)
        self.settle()
        self.connected(oceans, territories, stations, lanes)
        self.settle()
        return BoardMap(
            name=name,
            continents=MappingProxyType(continents),
            territories=MappingProxyType(territories),
            oceans=oceans,
            stations=MappingProxyType(stations),
            lanes=lanes,
            wild_cards=wild_cards,
            min_seats=seats[0],
            max_seats=seats[1],
        )

    def seats(self, raw: dict[str, Any]) -> tuple[int, int]:
        if "seats" not in raw:
            return MIN_SEATS, MAX_SEATS
        body = self.get(raw, "seats", dict, "map")
        least, most = body.get("min"), body.get("max")
        if not (_is_int(least) and _is_int(most) and MIN_SEATS <= least <= most <= MAX_SEATS):
            raise self.fail(
                "bad-seats",
                f"seats {body!r} is not {{'min': m, 'max': n}} with "
                f"{MIN_SEATS} <= m <= n <= {MAX_SEATS}",
            )
        return least, most

    def oceans(self, raw: dict[str, Any]) -> tuple[str, ...]:
        oceans = self.names(raw, "oceans", "map")
        for ocean in oceans:
            if STATION_SEPARATOR in ocean:
                raise self.fail("bad-ocean", f"ocean {ocean!r} contains {STATION_SEPARATOR!r}")
            self.spelt(ocean, "ocean")
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
                self.note("bad-bonus", f"{where} has bonus {bonus!r}, not a positive int")
            members = self.names(body, "territories", where)
            if not members:
                self.note("empty-continent", f"{where} lists no territory")
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
        folded: dict[str, str] = {}
        for name, body in body_of.items():
            where = f"territory {name!r}"
            if STATION_SEPARATOR in name:
                raise self.fail("bad-territory", f"{where} contains {STATION_SEPARATOR!r}")
            self.spelt(name, "territory")
            if name.lower() in folded:
                self.note(
                    "bad-name",
                    f"{where} and {folded[name.lower()]!r} differ only in case: the move "
                    "notation reads names in any case",
                )
            folded[name.lower()] = name
            if not isinstance(body, dict):
                raise self.fail("bad-type", f"{where} must be an object")
            continent = self.get(body, "continent", str, where)
            if continent not in continents:
                self.note("unknown-continent", f"{where} is in unknown continent {continent!r}")
            card = self.get(body, "card", str, where)
            if card not in CARD_SYMBOLS:
                self.note(
                    "bad-card",
                    f"{where} has card symbol {card!r}, not one of {', '.join(CARD_SYMBOLS)}",
                )
            adjacent = self.names(body, "adjacent", where)
            for other in adjacent:
                if other == name:
                    self.note("self-border", f"{where} lists itself as adjacent")
                elif other not in body_of:
                    self.note(
                        "unknown-neighbour", f"{where} is adjacent to unknown territory {other!r}"
                    )
            touches = self.names(body, "oceans", where)
            for ocean in touches:
                if ocean not in oceans:
                    self.note("unknown-ocean", f"{where} touches unknown ocean {ocean!r}")
            territories[name] = Territory(
                name, continent, CARD_SYMBOLS.get(card, "infantry"), tuple(adjacent),
                tuple(touches),
            )  # fmt: skip
        return territories

    def membership(
        self, continents: dict[str, Continent], territories: dict[str, Territory]
    ) -> None:
        listed_in: dict[str, str] = {}
        for continent in continents.values():
            self.spelt(continent.name, "continent")
            for member in continent.territories:
                if member not in territories:
                    self.note(
                        "unknown-territory",
                        f"continent {continent.name!r} lists unknown territory {member!r}",
                    )
                elif member in listed_in:
                    self.note(
                        "territory-in-two-continents",
                        f"territory {member!r} is listed in continents {listed_in[member]!r} "
                        f"and {continent.name!r}",
                    )
                else:
                    listed_in[member] = continent.name
        for territory in territories.values():
            if territory.name not in listed_in:
                self.note(
                    "territory-in-no-continent",
                    f"territory {territory.name!r} is listed in no continent",
                )
            elif listed_in[territory.name] != territory.continent:
                self.note(
                    "continent-mismatch",
                    f"territory {territory.name!r} says continent {territory.continent!r} but is "
                    f"listed in {listed_in[territory.name]!r}",
                )
        count = len(territories)
        if count % PILES or count < PILES * ALLY_EXTRA:
            self.note(
                "territory-count",
                f"the map has {count} territories: the set-up deals them into {PILES} equal "
                f"piles of at least {ALLY_EXTRA}, so a multiple of {PILES}, at least "
                f"{PILES * ALLY_EXTRA}",
            )

    def borders(self, territories: dict[str, Territory]) -> None:
        for territory in territories.values():
            if not territory.adjacent:
                self.note("no-border", f"territory {territory.name!r} borders no territory")
            for other in territory.adjacent:
                if territory.name not in territories[other].adjacent:
                    self.note(
                        "one-way-border",
                        f"{territory.name!r} lists {other!r} as adjacent but {other!r} does not "
                        f"list {territory.name!r}",
                    )

    def cards(self, raw: dict[str, Any], territories: dict[str, Territory]) -> int:
        counts = Counter(t.card for t in territories.values())
        per_symbol = {symbol: counts[symbol] for symbol in CARD_SYMBOLS.values()}
        if len(set(per_symbol.values())) != 1:
            shown = ", ".join(f"{n} {symbol}" for symbol, n in per_symbol.items())
            self.note("uneven-cards", f"card symbols are not equally many: {shown}")
        if "wild_cards" not in raw:
            raise self.fail("missing-key", "map has no 'wild_cards'")
        wild = raw["wild_cards"]
        if not _is_int(wild) or wild < 0:
            self.note("bad-wild-cards", f"wild_cards is {wild!r}, not a non-negative int")
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
                self.note(
                    "bad-station-key",
                    f"{where} is not '<ocean>{STATION_SEPARATOR}<territory>' with a known ocean "
                    "and territory",
                )
                continue
            if ocean not in territories[territory].oceans:
                self.note(
                    "stray-station", f"{where}: territory {territory!r} does not touch {ocean!r}"
                )
                continue
            if not isinstance(body, dict):
                raise self.fail("bad-type", f"{where} must be an object")
            place = []
            for axis in ("x", "y"):
                value = body.get(axis)
                if not _is_number(value) or not 0 <= value <= 1:
                    self.note(
                        "bad-coordinates", f"{where} has {axis} = {value!r}, not a number in 0..1"
                    )
                    value = 0
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
                    self.note(
                        "missing-station",
                        f"territory {territory.name!r} touches {ocean!r} but has no station "
                        f"{key!r}",
                    )
                    continue
                stations[key] = given[key]
        for ocean in oceans:
            if not any(ocean in t.oceans for t in territories.values()):
                self.note("empty-ocean", f"no territory touches ocean {ocean!r}")
        return stations

    def lanes(
        self, sea: dict[str, Any], stations: dict[str, Station]
    ) -> tuple[tuple[str, str, int], ...]:
        lanes: list[tuple[str, str, int]] = []
        seen: set[frozenset[str]] = set()
        for number, lane in enumerate(self.get(sea, "lanes", list, "sea"), start=1):
            where = f"lane {number} {lane!r}"
            if not isinstance(lane, list) or len(lane) != 3:
                self.note("bad-lane", f"{where} is not [station, station, distance]")
                continue
            a, b, length = lane
            unknown = [end for end in (a, b) if not isinstance(end, str) or end not in stations]
            if unknown:
                self.note("unknown-station", f"{where} names unknown station {unknown[0]!r}")
                continue
            if a == b:
                self.note("self-lane", f"{where} joins station {a!r} to itself")
                continue
            if not _is_int(length) or length < 1:
                self.note("bad-distance", f"{where} has distance {length!r}, not a positive int")
            pair = frozenset((a, b))
            if pair in seen:
                self.note("duplicate-lane", f"{where} joins {a!r} and {b!r} a second time")
            seen.add(pair)
            here, there = stations[a], stations[b]
            if here.ocean != there.ocean and here.territory != there.territory:
                self.note(
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
                for stray in (key for key in members if key not in main):
                    self.note(
                        "unreachable-station",
                        f"station {stray!r} cannot be reached from {next(iter(main))!r} by the "
                        f"lanes of the {ocean}",
                    )
        self.settle()
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
                    self.note(
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
# ``oceans``, a list of ``{"name", "label": [x, y], "stations": {station key: [x, y]}}``. A map
# from a source carries its drawn board in the document, under ``"board"``.


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
    errors = board_shape_errors(raw, board, source=source)
    if errors:
        raise errors[0]


def board_shape_errors(raw: Any, board: BoardMap, *, source: str = "<data>") -> list[MapError]:
    """Every fault ``validate_board_shapes`` would refuse a drawn board for (empty: good)."""
    check = _Checker(source)
    try:
        _check_board(check, raw, board)
    except MapError as error:
        return [*check.found, error]
    return list(check.found)


def _check_board(check: _Checker, raw: Any, board: BoardMap) -> None:
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

    def point(value: Any, where: str) -> bool:
        if not (isinstance(value, list) and len(value) == 2 and all(_is_number(v) for v in value)):
            check.note("bad-shape", f"{where}: {value!r} is not a point [x, y]")
            return False
        if not (x0 <= value[0] <= x0 + width and y0 <= value[1] <= y0 + height):
            check.note("shape-outside", f"{where}: point {value!r} is outside the viewBox")
            return False
        return True

    shapes = check.get(raw, "territories", list, "the board")
    seen: set[str] = set()
    for body in shapes:
        if not isinstance(body, dict) or not isinstance(body.get("name"), str):
            check.note("bad-shape", f"territory shape {str(body)[:60]!r} has no name")
            continue
        name = body["name"]
        where = f"shape of {name!r}"
        if name not in board.territories:
            check.note("shape-unknown", f"{where}: no such territory on the map")
            continue
        if name in seen:
            check.note("shape-duplicate", f"{where} is given twice")
            continue
        seen.add(name)
        polygon = body.get("polygon")
        if not isinstance(polygon, list) or len(polygon) < 3:
            check.note("bad-shape", f"{where}: polygon is not a list of 3 or more points")
        else:
            all(point(p, where) for p in polygon)  # the first bad point of a shape is enough
        point(body.get("label"), f"label of {name!r}")
    for name in board.territories:
        if name not in seen:
            check.note("shape-missing", f"territory {name!r} has no shape")

    links = raw.get("links", [])
    for link in links if isinstance(links, list) else [links]:
        a, b = (link.get("a"), link.get("b")) if isinstance(link, dict) else (None, None)
        if not (isinstance(a, str) and isinstance(b, str)) or not (
            a in board.territories and b in board.territories
        ):
            check.note("bad-link", f"link {link!r} does not join two territories")
        elif b not in board.territories[a].adjacent:
            check.note("bad-link", f"link {a!r}-{b!r}: they are not adjacent")

    oceans = check.get(raw, "oceans", list, "the board")
    placed: set[str] = set()
    named: set[str] = set()
    for body in oceans:
        name = body.get("name") if isinstance(body, dict) else None
        if name not in board.oceans:
            check.note("ocean-unknown", f"ocean {name!r} is not on the map")
            continue
        if name in named:
            check.note("ocean-duplicate", f"ocean {name!r} is given twice")
            continue
        named.add(name)
        point(body.get("label"), f"label of ocean {name!r}")
        stations = check.get(body, "stations", dict, f"ocean {name!r}")
        for key, value in stations.items():
            if key not in board.stations or board.stations[key].ocean != name:
                check.note("station-unknown", f"ocean {name!r}: no station {key!r} there")
                continue
            point(value, f"station {key!r}")
            placed.add(key)
    for name in board.oceans:
        if name not in named:
            check.note("ocean-missing", f"ocean {name!r} is not drawn")
    for key in board.stations:
        if key not in placed and board.stations[key].ocean in named:
            check.note("station-missing", f"station {key!r} is not drawn")

    _check_drawn_lanes(check, check.get(raw, "lanes", list, "the board"), board)


def _check_drawn_lanes(check: _Checker, drawn: list[Any], board: BoardMap) -> None:
    """Each drawn lane ``[station, station, boat lengths]`` is one lane of the map (either way
    round), with the map's length; each map lane is drawn exactly once."""
    lengths = {frozenset((a, b)): length for a, b, length in board.lanes}
    seen: set[frozenset[str]] = set()
    for lane in drawn:
        if not (isinstance(lane, list) and len(lane) == 3 and isinstance(lane[2], int)):
            check.note("bad-lane", f"drawn lane {lane!r} is not [station, station, length]")
            continue
        a, b, length = lane
        pair = frozenset((a, b)) if isinstance(a, str) and isinstance(b, str) else frozenset()
        if pair not in lengths:
            check.note("lane-unknown", f"drawn lane {a!r}-{b!r} is not a lane of the map")
        elif pair in seen:
            check.note("lane-duplicate", f"drawn lane {a!r}-{b!r} is given twice")
        elif length != lengths[pair]:
            check.note(
                "bad-lane", f"drawn lane {a!r}-{b!r} is {length} long; the map says {lengths[pair]}"
            )
        seen.add(pair)
    for a, b, _length in board.lanes:
        if frozenset((a, b)) not in seen:
            check.note("lane-missing", f"lane {a!r}-{b!r} is not drawn")


def load_board_shapes(name: str = "classic", version: int = PACKAGED_VERSION) -> Mapping[str, Any]:
    """The checked drawn board of version ``version`` of map ``name`` (cached like ``load_map``;
    treat the result as read-only)."""
    return _load_shapes(name, version)


@lru_cache(maxsize=64)
def _load_shapes(name: str, version: int) -> Mapping[str, Any]:
    raw, source, packaged = _document(name, version)
    drawn = raw.get("board")
    if drawn is None and packaged:
        path = board_shapes_path(name)
        try:
            drawn = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise MapError("unknown-board", f"no drawn board: {path} does not exist") from None
        source = str(path)
    if drawn is None:
        raise MapError("unknown-board", f"map {map_ref(name, version)!r} has no drawn board")
    validate_board_shapes(drawn, load_map(name, version), source=source)
    return drawn
