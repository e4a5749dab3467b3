"""Make the small map: ``risk/data/small-risk-map.json`` and its board ``small-risk-board.json``.

A second map made by the project, so that nothing in the engine, the AI, the notation or the board
drawing can lean on the classic board unnoticed: 24 territories in 4 continents, 2 oceans with a
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
    "Northland": (4, ["Frost Cape", "Highmoor", "Ravenhold", "Greywater", "Stonegate", "Wolfden"]),
    "Southland": (3, ["Marshfen", "Dunmoor", "Brackwater", "Saltbay", "Redcliff", "Goldfield"]),
    "Eastmarch": (4, ["Windrift", "Coldpeak", "Ambermoor", "Thornfield", "Duskvale", "Ironspur"]),
    "Sunward Isles": (
        3, ["Coral Key", "Pearl Reach", "Tidewatch", "Sunspire", "Driftwood", "Gull Rock"],
    ),
}  # fmt: skip
#: territory -> (card symbol, the oceans it touches)
TERRITORIES: dict[str, tuple[str, list[str]]] = {
    "Frost Cape": ("Infantry", [WEST]),
    "Highmoor": ("Cavalry", []),
    "Ravenhold": ("Artillery", [WEST]),
    "Greywater": ("Cavalry", [WEST]),
    "Stonegate": ("Infantry", []),
    "Wolfden": ("Artillery", [EAST, WEST]),
    "Marshfen": ("Artillery", [WEST]),
    "Dunmoor": ("Infantry", []),
    "Brackwater": ("Cavalry", [EAST]),
    "Saltbay": ("Cavalry", [WEST]),
    "Redcliff": ("Artillery", [EAST]),
    "Goldfield": ("Infantry", [EAST]),
    "Windrift": ("Cavalry", [WEST]),
    "Coldpeak": ("Artillery", []),
    "Ambermoor": ("Infantry", [EAST]),
    "Thornfield": ("Artillery", [EAST, WEST]),
    "Duskvale": ("Cavalry", []),
    "Ironspur": ("Infantry", [EAST]),
    "Coral Key": ("Infantry", [EAST]),
    "Pearl Reach": ("Artillery", [EAST]),
    "Tidewatch": ("Cavalry", [EAST]),
    "Sunspire": ("Cavalry", [EAST]),
    "Driftwood": ("Infantry", [EAST]),
    "Gull Rock": ("Artillery", [EAST]),
}
BORDERS: list[tuple[str, str]] = [
    # Northland
    ("Frost Cape", "Highmoor"), ("Highmoor", "Ravenhold"), ("Frost Cape", "Greywater"),
    ("Highmoor", "Greywater"), ("Highmoor", "Stonegate"), ("Ravenhold", "Stonegate"),
    ("Ravenhold", "Wolfden"), ("Greywater", "Stonegate"), ("Stonegate", "Wolfden"),
    # Southland, and its ways north
    ("Marshfen", "Dunmoor"), ("Dunmoor", "Brackwater"), ("Marshfen", "Saltbay"),
    ("Dunmoor", "Saltbay"), ("Dunmoor", "Redcliff"), ("Brackwater", "Redcliff"),
    ("Brackwater", "Goldfield"), ("Saltbay", "Redcliff"), ("Redcliff", "Goldfield"),
    ("Greywater", "Marshfen"), ("Stonegate", "Dunmoor"), ("Wolfden", "Brackwater"),
    # Eastmarch
    ("Windrift", "Coldpeak"), ("Coldpeak", "Ambermoor"), ("Windrift", "Thornfield"),
    ("Coldpeak", "Thornfield"), ("Coldpeak", "Duskvale"), ("Ambermoor", "Duskvale"),
    ("Ambermoor", "Ironspur"), ("Thornfield", "Duskvale"), ("Duskvale", "Ironspur"),
    # the Sunward Isles
    ("Coral Key", "Pearl Reach"), ("Pearl Reach", "Tidewatch"), ("Coral Key", "Sunspire"),
    ("Pearl Reach", "Sunspire"), ("Pearl Reach", "Driftwood"), ("Tidewatch", "Driftwood"),
    ("Tidewatch", "Gull Rock"), ("Sunspire", "Driftwood"), ("Driftwood", "Gull Rock"),
    # across the channel, to the isles, and round the world's edge
    ("Ravenhold", "Windrift"), ("Wolfden", "Thornfield"), ("Goldfield", "Coral Key"),
    ("Duskvale", "Pearl Reach"), ("Ironspur", "Tidewatch"), ("Frost Cape", "Ambermoor"),
]  # fmt: skip
#: station -> (x, y) in 0..1, off its coast
STATIONS: dict[str, tuple[float, float]] = {
    f"{WEST}:Frost Cape": (0.025, 0.1),
    f"{WEST}:Ravenhold": (0.475, 0.07),
    f"{WEST}:Greywater": (0.03, 0.33),
    f"{WEST}:Wolfden": (0.485, 0.27),
    f"{WEST}:Marshfen": (0.02, 0.53),
    f"{WEST}:Saltbay": (0.05, 0.87),
    f"{WEST}:Windrift": (0.525, 0.07),
    f"{WEST}:Thornfield": (0.545, 0.27),
    f"{EAST}:Wolfden": (0.485, 0.42),
    f"{EAST}:Brackwater": (0.47, 0.55),
    f"{EAST}:Redcliff": (0.29, 0.94),
    f"{EAST}:Goldfield": (0.49, 0.8),
    f"{EAST}:Ambermoor": (0.985, 0.1),
    f"{EAST}:Thornfield": (0.545, 0.42),
    f"{EAST}:Ironspur": (0.985, 0.3),
    f"{EAST}:Coral Key": (0.53, 0.62),
    f"{EAST}:Pearl Reach": (0.8, 0.48),
    f"{EAST}:Tidewatch": (0.98, 0.6),
    f"{EAST}:Sunspire": (0.6, 0.93),
    f"{EAST}:Driftwood": (0.8, 0.96),
    f"{EAST}:Gull Rock": (0.985, 0.93),
}
LANES: list[tuple[str, str, int]] = [
    # the Western Ocean: down the west coast, along the north shore, into the channel
    (f"{WEST}:Frost Cape", f"{WEST}:Greywater", 1),
    (f"{WEST}:Greywater", f"{WEST}:Marshfen", 1),
    (f"{WEST}:Marshfen", f"{WEST}:Saltbay", 1),
    (f"{WEST}:Frost Cape", f"{WEST}:Ravenhold", 3),
    (f"{WEST}:Ravenhold", f"{WEST}:Windrift", 1),
    (f"{WEST}:Ravenhold", f"{WEST}:Wolfden", 1),
    (f"{WEST}:Windrift", f"{WEST}:Thornfield", 1),
    (f"{WEST}:Wolfden", f"{WEST}:Thornfield", 1),
    # the Eastern Ocean: the channel's south end, the south shore, the isles, the east coast
    (f"{EAST}:Wolfden", f"{EAST}:Thornfield", 1),
    (f"{EAST}:Wolfden", f"{EAST}:Brackwater", 1),
    (f"{EAST}:Brackwater", f"{EAST}:Goldfield", 1),
    (f"{EAST}:Goldfield", f"{EAST}:Redcliff", 2),
    (f"{EAST}:Goldfield", f"{EAST}:Coral Key", 1),
    (f"{EAST}:Thornfield", f"{EAST}:Coral Key", 1),
    (f"{EAST}:Coral Key", f"{EAST}:Sunspire", 1),
    (f"{EAST}:Coral Key", f"{EAST}:Pearl Reach", 2),
    (f"{EAST}:Sunspire", f"{EAST}:Driftwood", 1),
    (f"{EAST}:Driftwood", f"{EAST}:Gull Rock", 1),
    (f"{EAST}:Gull Rock", f"{EAST}:Tidewatch", 1),
    (f"{EAST}:Pearl Reach", f"{EAST}:Tidewatch", 1),
    (f"{EAST}:Tidewatch", f"{EAST}:Ironspur", 1),
    (f"{EAST}:Ironspur", f"{EAST}:Ambermoor", 1),
    # a two-ocean coast's own two stations
    (f"{WEST}:Wolfden", f"{EAST}:Wolfden", 1),
    (f"{WEST}:Thornfield", f"{EAST}:Thornfield", 1),
]

#: (x, y, radius) per territory on the 1000 x 600 board.
ANCHORS: dict[str, tuple[int, int, int]] = {
    "Frost Cape": (125, 90, 62),
    "Highmoor": (235, 80, 62),
    "Ravenhold": (345, 90, 62),
    "Greywater": (165, 195, 62),
    "Stonegate": (280, 195, 62),
    "Wolfden": (390, 200, 62),
    "Marshfen": (125, 310, 62),
    "Dunmoor": (235, 310, 62),
    "Brackwater": (345, 315, 62),
    "Saltbay": (165, 430, 62),
    "Redcliff": (275, 425, 62),
    "Goldfield": (390, 440, 62),
    "Windrift": (630, 90, 62),
    "Coldpeak": (745, 80, 62),
    "Ambermoor": (865, 95, 62),
    "Thornfield": (660, 200, 62),
    "Duskvale": (780, 200, 62),
    "Ironspur": (900, 210, 62),
    "Coral Key": (620, 360, 42),
    "Pearl Reach": (740, 340, 42),
    "Tidewatch": (870, 350, 42),
    "Sunspire": (680, 480, 42),
    "Driftwood": (810, 470, 42),
    "Gull Rock": (930, 490, 42),
}
ISLANDS = {"Coral Key", "Pearl Reach", "Tidewatch", "Sunspire", "Driftwood", "Gull Rock"}
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
            "24 territories deal into six piles of 4, as the classic 42 deal into piles of 7; "
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
