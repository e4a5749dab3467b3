"""Make the small map: ``risk/data/small-risk-map.json`` and its board ``small-risk-board.json``.

A second map made by the project, so that nothing in the engine, the AI, the notation or the board
drawing can lean on the classic board unnoticed: 18 territories in 4 continents, 2 oceans with a
channel between the western and the eastern lands (two coasts lie on both oceans), one border
across the board's east-west edge, for 2-4 players (the other piles of the six are allied armies,
as on the classic map). Everything is written here as data; the board is drawn by
``make_board_shapes.board_document`` from one anchor per territory, as the classic board is.

Run: ``python scripts/make_small_map.py`` (writes both files; ``--check`` only compares). The
files are version 1 of the map ``small`` (``risk`` migration 0007 loads them): once shipped they
never change; a change is a new version (a draft made from it, published).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from make_board_shapes import board_document  # noqa: E402

from risk.rules.board_map import parse_map  # noqa: E402

WIDTH, HEIGHT = 1000, 600
DATA = ROOT / "risk" / "data"
MAP_OUT, BOARD_OUT = DATA / "small-risk-map.json", DATA / "small-risk-board.json"

WEST, EAST = "Western", "Eastern"

#: continent -> (bonus, its territories)
CONTINENTS: dict[str, tuple[int, list[str]]] = {
    "Northland": (3, ["Frost Cape", "Highmoor", "Ravenhold", "Greywater", "Stonegate"]),
    "Southland": (2, ["Marshfen", "Dunmoor", "Saltbay", "Redcliff"]),
    "Eastmarch": (3, ["Windrift", "Coldpeak", "Ambermoor", "Thornfield", "Duskvale"]),
    "Sunward Isles": (2, ["Coral Key", "Pearl Reach", "Tidewatch", "Sunspire"]),
}
#: territory -> (card symbol, the oceans it touches)
TERRITORIES: dict[str, tuple[str, list[str]]] = {
    "Frost Cape": ("Infantry", [WEST]),
    "Highmoor": ("Cavalry", []),
    "Ravenhold": ("Artillery", [WEST]),
    "Greywater": ("Cavalry", [WEST]),
    "Stonegate": ("Infantry", [EAST, WEST]),
    "Marshfen": ("Artillery", [WEST]),
    "Dunmoor": ("Infantry", []),
    "Saltbay": ("Cavalry", [WEST]),
    "Redcliff": ("Artillery", [EAST]),
    "Windrift": ("Cavalry", [WEST]),
    "Coldpeak": ("Artillery", []),
    "Ambermoor": ("Infantry", [EAST]),
    "Thornfield": ("Artillery", [EAST, WEST]),
    "Duskvale": ("Cavalry", [EAST]),
    "Coral Key": ("Infantry", [EAST]),
    "Pearl Reach": ("Artillery", [EAST]),
    "Tidewatch": ("Infantry", [EAST]),
    "Sunspire": ("Cavalry", [EAST]),
}
BORDERS: list[tuple[str, str]] = [
    # Northland
    ("Frost Cape", "Highmoor"), ("Frost Cape", "Greywater"), ("Highmoor", "Ravenhold"),
    ("Highmoor", "Greywater"), ("Highmoor", "Stonegate"), ("Ravenhold", "Stonegate"),
    ("Greywater", "Stonegate"),
    # Southland, and its ways north
    ("Marshfen", "Dunmoor"), ("Marshfen", "Saltbay"), ("Dunmoor", "Saltbay"),
    ("Dunmoor", "Redcliff"), ("Saltbay", "Redcliff"), ("Greywater", "Marshfen"),
    ("Stonegate", "Dunmoor"),
    # Eastmarch
    ("Windrift", "Coldpeak"), ("Windrift", "Thornfield"), ("Coldpeak", "Ambermoor"),
    ("Coldpeak", "Thornfield"), ("Coldpeak", "Duskvale"), ("Ambermoor", "Duskvale"),
    ("Thornfield", "Duskvale"),
    # the Sunward Isles
    ("Coral Key", "Pearl Reach"), ("Pearl Reach", "Tidewatch"), ("Pearl Reach", "Sunspire"),
    ("Coral Key", "Sunspire"), ("Tidewatch", "Sunspire"),
    # across the channel, to the isles, and round the world's edge
    ("Ravenhold", "Windrift"), ("Stonegate", "Thornfield"), ("Redcliff", "Coral Key"),
    ("Duskvale", "Pearl Reach"), ("Duskvale", "Tidewatch"), ("Frost Cape", "Ambermoor"),
]  # fmt: skip
#: station -> (x, y) in 0..1, off its coast
STATIONS: dict[str, tuple[float, float]] = {
    f"{WEST}:Frost Cape": (0.04, 0.06),
    f"{WEST}:Ravenhold": (0.505, 0.06),
    f"{WEST}:Greywater": (0.03, 0.4),
    f"{WEST}:Stonegate": (0.48, 0.38),
    f"{WEST}:Marshfen": (0.03, 0.6),
    f"{WEST}:Saltbay": (0.06, 0.9),
    f"{WEST}:Windrift": (0.555, 0.06),
    f"{WEST}:Thornfield": (0.575, 0.38),
    f"{EAST}:Stonegate": (0.48, 0.52),
    f"{EAST}:Redcliff": (0.45, 0.86),
    f"{EAST}:Ambermoor": (0.99, 0.32),
    f"{EAST}:Thornfield": (0.58, 0.52),
    f"{EAST}:Duskvale": (0.9, 0.55),
    f"{EAST}:Coral Key": (0.56, 0.74),
    f"{EAST}:Pearl Reach": (0.79, 0.54),
    f"{EAST}:Tidewatch": (0.975, 0.75),
    f"{EAST}:Sunspire": (0.66, 0.93),
}
LANES: list[tuple[str, str, int]] = [
    # the Western Ocean: down the west coast, along the north shore, through the channel
    (f"{WEST}:Frost Cape", f"{WEST}:Greywater", 1),
    (f"{WEST}:Greywater", f"{WEST}:Marshfen", 1),
    (f"{WEST}:Marshfen", f"{WEST}:Saltbay", 1),
    (f"{WEST}:Frost Cape", f"{WEST}:Ravenhold", 2),
    (f"{WEST}:Ravenhold", f"{WEST}:Windrift", 1),
    (f"{WEST}:Ravenhold", f"{WEST}:Stonegate", 1),
    (f"{WEST}:Windrift", f"{WEST}:Thornfield", 1),
    (f"{WEST}:Stonegate", f"{WEST}:Thornfield", 1),
    # the Eastern Ocean: the channel's south end, the isles, the east coast
    (f"{EAST}:Stonegate", f"{EAST}:Thornfield", 1),
    (f"{EAST}:Stonegate", f"{EAST}:Redcliff", 2),
    (f"{EAST}:Thornfield", f"{EAST}:Coral Key", 1),
    (f"{EAST}:Redcliff", f"{EAST}:Coral Key", 1),
    (f"{EAST}:Coral Key", f"{EAST}:Sunspire", 1),
    (f"{EAST}:Coral Key", f"{EAST}:Pearl Reach", 1),
    (f"{EAST}:Sunspire", f"{EAST}:Tidewatch", 2),
    (f"{EAST}:Pearl Reach", f"{EAST}:Duskvale", 1),
    (f"{EAST}:Pearl Reach", f"{EAST}:Tidewatch", 1),
    (f"{EAST}:Duskvale", f"{EAST}:Tidewatch", 1),
    (f"{EAST}:Duskvale", f"{EAST}:Ambermoor", 2),
    # a two-ocean coast's own two stations
    (f"{WEST}:Stonegate", f"{EAST}:Stonegate", 1),
    (f"{WEST}:Thornfield", f"{EAST}:Thornfield", 1),
]

#: (x, y, radius) per territory on the 1000 x 600 board.
ANCHORS: dict[str, tuple[int, int, int]] = {
    "Frost Cape": (140, 120, 72),
    "Highmoor": (265, 110, 72),
    "Ravenhold": (390, 120, 72),
    "Greywater": (200, 235, 72),
    "Stonegate": (340, 235, 72),
    "Marshfen": (150, 360, 72),
    "Dunmoor": (290, 370, 72),
    "Saltbay": (195, 490, 72),
    "Redcliff": (350, 480, 72),
    "Windrift": (660, 120, 72),
    "Coldpeak": (785, 110, 72),
    "Ambermoor": (905, 125, 70),
    "Thornfield": (700, 240, 72),
    "Duskvale": (840, 235, 72),
    "Coral Key": (640, 430, 48),
    "Pearl Reach": (775, 400, 48),
    "Tidewatch": (910, 430, 48),
    "Sunspire": (750, 525, 48),
}
ISLANDS = {"Coral Key", "Pearl Reach", "Tidewatch", "Sunspire"}
OCEAN_LABELS = {WEST: (40, 560), EAST: (900, 585)}


def map_document() -> dict:
    adjacent: dict[str, set[str]] = {name: set() for name in TERRITORIES}
    for a, b in BORDERS:
        adjacent[a].add(b)
        adjacent[b].add(a)
    continent_of = {t: c for c, (_, members) in CONTINENTS.items() for t in members}
    oceans = [WEST, EAST]
    order = {name: i for i, name in enumerate(TERRITORIES)}
    stations = sorted(
        STATIONS, key=lambda k: (oceans.index(k.split(":")[0]), order[k.split(":")[1]])
    )
    return {
        "name": "Small world: four lands and two oceans, for 2-4 players",
        "notes": [
            "Made by scripts/make_small_map.py: edit the script, not this file.",
            "18 territories deal into six piles of 3, as the classic 42 deal into piles of 7; "
            "with 2-4 players the other piles are allied armies.",
        ],
        "seats": {"min": 2, "max": 4},
        "continents": {
            name: {"bonus": bonus, "territories": [t for t in TERRITORIES if t in members]}
            for name, (bonus, members) in CONTINENTS.items()
        },
        "territories": {
            name: {
                "continent": continent_of[name],
                "card": card,
                "adjacent": sorted(adjacent[name]),
                "oceans": sorted(touches),
            }
            for name, (card, touches) in TERRITORIES.items()
        },
        "wild_cards": 2,
        "oceans": oceans,
        "sea": {
            "stations": {k: {"x": STATIONS[k][0], "y": STATIONS[k][1]} for k in stations},
            "lanes": [[a, b, length] for a, b, length in LANES],
        },
    }


def build() -> tuple[dict, dict]:
    doc = map_document()
    board = board_document(
        parse_map(doc, source="<small>"),
        name="small",
        notes=["Made by scripts/make_small_map.py: edit the script, not this file."],
        anchors=ANCHORS,
        islands=ISLANDS,
        ocean_labels=OCEAN_LABELS,
    )
    return doc, board


def main(argv: list[str]) -> int:
    doc, board = build()
    texts = {
        path: json.dumps(body, indent=1) + "\n"
        for path, body in ((MAP_OUT, doc), (BOARD_OUT, board))
    }
    if "--check" in argv:
        stale = [p for p, text in texts.items() if not p.exists() or p.read_text("utf-8") != text]
        for path in stale:
            print(f"{path} is out of date: run scripts/make_small_map.py")
        print("up to date" if not stale else "")
        return 1 if stale else 0
    for path, text in texts.items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
