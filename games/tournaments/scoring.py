"""A table's result written: places, points, done. Below pairing (a bye or a forfeit is
scored as it is paired) and results (a played table is scored when it ends)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils import timezone

from games.competition.points import table_points
from games.models import TableSeat, Tournament, TournamentTable


def competition_places(keys: Sequence[tuple[Any, ...]]) -> list[int]:
    """Standard competition ranking (1, 2, 2, 4) of ``keys``, lower key better."""
    ordered = sorted(keys)
    return [1 + sum(1 for k in ordered if k < key) for key in keys]


def score(
    tournament: Tournament,
    table: TournamentTable,
    places: Sequence[int],
    *,
    outcome: str,
    territories: Sequence[int | None] | None = None,
    points: Sequence[float] | None = None,
) -> None:
    """Write the table's places (by seat position) and points; the table is done."""
    seats = sorted(table.seats.all(), key=lambda s: s.position)
    if points is None:
        if tournament.format == Tournament.Format.TABLES:
            at_table = [(s.position, p, 0) for s, p in zip(seats, places, strict=True)]
            by_place = table_points(at_table, tournament.place_points)
            points = [by_place[s.position] for s in seats]
        else:
            points = [1.0 if p < o else 0.0 if p > o else 0.5
                      for p, o in zip(places, reversed(places), strict=True)]  # fmt: skip
    for i, seat in enumerate(seats):
        seat.place, seat.points = places[i], points[i]
        seat.territories = territories[i] if territories is not None else None
    TableSeat.objects.bulk_update(seats, ["place", "points", "territories"])
    table.outcome, table.done_at = outcome, timezone.now()
    table.save(update_fields=["outcome", "done_at"])
