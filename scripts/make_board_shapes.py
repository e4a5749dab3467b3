"""Make ``risk/data/classic-risk-board.json``: the drawn board for the game page.

The project's own art, made from data: one hand-placed anchor point per territory (its rough
place on a 1000 x 600 world, west to east, north to south), then each territory's shape is a
disc round its anchor cut by the half-planes that share the space with every other anchor (a
Voronoi cell clipped to a disc). Neighbours on one land mass keep a hairline gap; a different
continent or an island keeps a wider gap (water). Oceans take their stations from the map's
``sea.stations`` (0..1 scaled to the view box) and a hand-placed label.

``links`` lists the adjacent pairs whose shapes do not touch (borders across water, such as
Alaska-Kamchatka); ``wrap`` marks a link drawn across the board's east-west edge.

Run: ``python scripts/make_board_shapes.py`` (writes the file; ``--check`` only compares).
``board_document`` draws any map the same way from its anchors (``scripts/make_small_map.py``).
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from risk.rules.board_map import BoardMap, load_map, validate_board_shapes  # noqa: E402

WIDTH, HEIGHT = 1000, 600
#: In the source tree (the package reads it as package data: ``board_map.board_shapes_path``).
OUT = ROOT / "risk" / "data" / "classic-risk-board.json"

#: (x, y, radius) per territory: rough world places chosen for this board.
ANCHORS: dict[str, tuple[int, int, int]] = {
    "Alaska": (60, 100, 55),
    "Northwest Territory": (160, 95, 60),
    "Greenland": (330, 60, 55),
    "Alberta": (140, 160, 55),
    "Ontario": (215, 160, 55),
    "Quebec": (290, 160, 50),
    "Western United States": (145, 225, 55),
    "Eastern United States": (230, 235, 60),
    "Central America": (175, 295, 45),
    "Venezuela": (250, 330, 45),
    "Peru": (240, 410, 50),
    "Brazil": (315, 390, 60),
    "Argentina": (265, 490, 55),
    "Iceland": (425, 105, 28),
    "Great Britain": (420, 175, 30),
    "Scandinavia": (500, 100, 45),
    "Northern Europe": (490, 175, 40),
    "Western Europe": (430, 245, 40),
    "Southern Europe": (505, 240, 40),
    "Ukraine": (580, 160, 55),
    "North Africa": (470, 340, 65),
    "Egypt": (540, 300, 45),
    "East Africa": (580, 380, 50),
    "Congo": (500, 410, 45),
    "South Africa": (555, 485, 55),
    "Madagascar": (625, 475, 28),
    "Ural": (640, 130, 50),
    "Siberia": (715, 130, 55),
    "Yakutsk": (820, 70, 50),
    "Kamchatka": (905, 110, 55),
    "Irkutsk": (805, 135, 45),
    "Mongolia": (840, 215, 45),
    "Japan": (945, 215, 30),
    "Afghanistan": (650, 220, 50),
    "China": (745, 245, 60),
    "Middle East": (600, 275, 50),
    "India": (700, 320, 50),
    "Siam": (790, 335, 40),
    "Indonesia": (810, 410, 40),
    "New Guinea": (910, 395, 40),
    "Western Australia": (830, 500, 50),
    "Eastern Australia": (915, 495, 50),
}
#: Islands keep water round them even from their own continent.
ISLANDS = {
    "Iceland",
    "Great Britain",
    "Greenland",
    "Madagascar",
    "Japan",
    "Indonesia",
    "New Guinea",
}
#: Ocean labels, hand-placed.
OCEAN_LABELS = {
    "Pacific": (70, 420),
    "Atlantic": (375, 285),
    "Indian": (690, 440),
    "Arctic": (600, 25),
}

LAND_GAP = 1.0  # half the gap between two territories on one land mass
WATER_GAP = 6.0  # half the gap across water
SIDES = 32  # the disc's polygon
SCALE = 1.35  # the discs' radii, times


def _clip(
    poly: list[tuple[float, float]], nx: float, ny: float, c: float
) -> list[tuple[float, float]]:
    """Keep the part of ``poly`` where nx*x + ny*y <= c (Sutherland-Hodgman, one half-plane)."""
    out: list[tuple[float, float]] = []
    for i, p in enumerate(poly):
        q = poly[(i + 1) % len(poly)]
        dp, dq = nx * p[0] + ny * p[1] - c, nx * q[0] + ny * q[1] - c
        if dp <= 0:
            out.append(p)
        if (dp < 0) != (dq < 0) and dp != dq:
            t = dp / (dp - dq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


Anchors = dict[str, tuple[int, int, int]]


def shape(
    name: str, continents: dict[str, str], anchors: Anchors = ANCHORS,
    islands: set[str] = ISLANDS,
) -> list[tuple[float, float]]:  # fmt: skip
    def blob(territory: str) -> str:
        return territory if territory in islands else continents[territory]

    x, y, r = anchors[name]
    r *= SCALE
    poly = [
        (x + r * math.cos(2 * math.pi * k / SIDES), y + r * math.sin(2 * math.pi * k / SIDES))
        for k in range(SIDES)
    ]
    for other, (ox, oy, _) in anchors.items():
        if other == name:
            continue
        dx, dy = ox - x, oy - y
        d = math.hypot(dx, dy)
        nx, ny = dx / d, dy / d
        gap = LAND_GAP if blob(name) == blob(other) else WATER_GAP
        # the bisector of the two anchors, moved back towards this anchor by the gap
        c = nx * (x + ox) / 2 + ny * (y + oy) / 2 - gap
        poly = _clip(poly, nx, ny, c)
    return [(min(max(px, 0.0), WIDTH), min(max(py, 0.0), HEIGHT)) for px, py in poly]


def _centroid(poly: list[tuple[float, float]]) -> tuple[float, float]:
    a = cx = cy = 0.0
    for i, (x0, y0) in enumerate(poly):
        x1, y1 = poly[(i + 1) % len(poly)]
        cross = x0 * y1 - x1 * y0
        a += cross
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    if abs(a) < 1e-9:
        return poly[0]
    return cx / (3 * a), cy / (3 * a)


def _seg_dist(p: tuple[float, float], a: tuple[float, float], b: tuple[float, float]) -> float:
    dx, dy = b[0] - a[0], b[1] - a[1]
    n = dx * dx + dy * dy
    t = 0.0 if n == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / n))
    return math.dist(p, (a[0] + t * dx, a[1] + t * dy))


def _touch(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> bool:
    """Whether two shapes share a stretch of border (only their land gap between them)."""
    near = 2 * LAND_GAP + 1.0
    shared = 0.0
    for i, p in enumerate(a):
        q = a[(i + 1) % len(a)]
        steps = max(1, int(math.dist(p, q) / 2))
        for k in range(steps):
            t = (k + 0.5) / steps
            m = (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))
            if any(_seg_dist(m, b[j], b[(j + 1) % len(b)]) <= near for j in range(len(b))):
                shared += math.dist(p, q) / steps
    return shared >= 6


def board_document(
    board: BoardMap, *, name: str, notes: list[str], anchors: Anchors,
    islands: set[str], ocean_labels: dict[str, tuple[int, int]],
) -> dict:  # fmt: skip
    """The drawn board of ``board``: a shape per territory round its anchor, the map's stations
    scaled to the view box, the links across water, the lanes; checked before it is returned."""
    continents = {t: data.continent for t, data in board.territories.items()}
    shapes = {t: shape(t, continents, anchors, islands) for t in board.territories}
    r1 = lambda v: round(v, 1)  # noqa: E731
    territories = [
        {
            "name": t,
            "continent": continents[t],
            "polygon": [[r1(x), r1(y)] for x, y in shapes[t]],
            "label": [r1(v) for v in _centroid(shapes[t])],
        }
        for t in board.territories
    ]
    links = []
    for pair in sorted(tuple(sorted(p)) for p in board.borders()):
        a, b = pair
        if not _touch(shapes[a], shapes[b]):
            links.append({"a": a, "b": b, "wrap": abs(anchors[a][0] - anchors[b][0]) > WIDTH / 2})
    oceans = []
    for ocean in board.oceans:
        stations = {
            key: [r1(s.x * WIDTH), r1(s.y * HEIGHT)]
            for key, s in sorted(board.stations.items())
            if s.ocean == ocean
        }
        oceans.append({"name": ocean, "label": list(ocean_labels[ocean]), "stations": stations})
    doc = {
        "name": name,
        "notes": notes,
        "viewBox": [0, 0, WIDTH, HEIGHT],
        "territories": territories,
        "links": links,
        "oceans": oceans,
        # the sea lanes as the map has them, so the drawn board shows the boat lengths ships sail
        "lanes": [[a, b, length] for a, b, length in board.lanes],
    }
    validate_board_shapes(doc, board, source="<generated>")
    return doc


def build() -> dict:
    return board_document(
        load_map("classic"),
        name="classic",
        notes=[
            "Made by scripts/make_board_shapes.py from hand-placed anchors: "
            "edit the script, not this file."
        ],
        anchors=ANCHORS,
        islands=ISLANDS,
        ocean_labels=OCEAN_LABELS,
    )


def main(argv: list[str]) -> int:
    text = json.dumps(build(), indent=1) + "\n"
    if "--check" in argv:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{OUT} is out of date: run scripts/make_board_shapes.py")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
