"""Multiplayer (Fast Risk table) scoring: points by finishing place, territories as tie-break.

Carnage-style, configurable: the default table gives 10, 6, 4, 3, 2 and 1 points for places
1 to 6 whatever the table's size (a win is a win; the seating keeps tables within one player of
each other). Players sharing a place (a tie in the finishing order) share the points of the
places they cover equally: two players tied for 2nd at a table of four get (6 + 4) / 2 = 5
each and the next player is 4th. Standings rank by points, then by territories held at the end
of their games (summed), then by first appearance in the results (a stable sort).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

P = TypeVar("P", bound=Hashable)

#: Points for 1st, 2nd, ... 6th place.
DEFAULT_PLACE_POINTS: tuple[float, ...] = (10, 6, 4, 3, 2, 1)

#: One player's result at one table: (player, finishing place from 1, territories held).
TableResult = tuple[P, int, int]


@dataclass(frozen=True)
class Standing(Generic[P]):
    player: P
    points: float
    territories: int
    games: int


def table_points(
    results: Sequence[TableResult[P]], place_points: Sequence[float] = DEFAULT_PLACE_POINTS
) -> dict[P, float]:
    """Points for each player at one finished table; tied places share their points.

    Places must be standard competition ranking (1, 2, 2, 4): raises ``ValueError`` naming the
    place otherwise, or when the table is larger than the points table.
    """
    if len(results) > len(place_points):
        raise ValueError(
            f"a table of {len(results)} needs {len(results)} place points, "
            f"the table has {len(place_points)}"
        )
    ordered = sorted(results, key=lambda r: r[1])
    points: dict[P, float] = {}
    index = 0
    while index < len(ordered):
        place = ordered[index][1]
        if place != index + 1:
            raise ValueError(f"place {place} at position {index + 1}: expected place {index + 1}")
        tied = [r for r in ordered if r[1] == place]
        share = sum(place_points[index : index + len(tied)]) / len(tied)
        for player, _, _ in tied:
            points[player] = share
        index += len(tied)
    return points


def standings(
    tables: Sequence[Sequence[TableResult[P]]],
    place_points: Sequence[float] = DEFAULT_PLACE_POINTS,
) -> list[Standing[P]]:
    """The event's standings over all finished tables, best first."""
    totals: dict[P, list[float]] = {}
    for table in tables:
        points = table_points(table, place_points)
        for player, _, territories in table:
            entry = totals.setdefault(player, [0.0, 0, 0])
            entry[0] += points[player]
            entry[1] += territories
            entry[2] += 1
    rows = [Standing(p, t[0], int(t[1]), int(t[2])) for p, t in totals.items()]
    return sorted(rows, key=lambda s: (-s.points, -s.territories))
