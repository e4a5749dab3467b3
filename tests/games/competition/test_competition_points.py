"""Multiplayer points tables: places, shared places, territories as the tie-break."""

from __future__ import annotations

import pytest

from games.competition import DEFAULT_PLACE_POINTS, Standing, standings, table_points


def test_the_default_table():
    assert DEFAULT_PLACE_POINTS == (10, 6, 4, 3, 2, 1)


def test_tied_places_share_their_points():
    # B and C tie for 2nd: (6 + 4) / 2 each; D is 4th.
    table = [("A", 1, 30), ("B", 2, 5), ("C", 2, 7), ("D", 4, 0)]
    assert table_points(table) == {"A": 10, "B": 5, "C": 5, "D": 3}


def test_a_configured_table():
    assert table_points([("A", 2, 0), ("B", 1, 9), ("C", 3, 1)], (5, 2, 0)) == {
        "A": 2,
        "B": 5,
        "C": 0,
    }


def test_standings_add_up_points_then_territories():
    first = [("A", 1, 30), ("B", 2, 5), ("C", 2, 7), ("D", 4, 0)]
    second = [("B", 1, 25), ("C", 2, 10), ("A", 3, 3)]
    assert standings([first, second]) == [
        Standing("B", 15, 30, 2),
        Standing("A", 14, 33, 2),
        Standing("C", 11, 17, 2),
        Standing("D", 3, 0, 1),
    ]


def test_equal_points_are_split_by_territories():
    first = [("X", 1, 20), ("Y", 2, 10), ("Z", 3, 5)]
    second = [("Y", 1, 15), ("X", 2, 12), ("Z", 3, 2)]
    assert [(s.player, s.points, s.territories) for s in standings([first, second])] == [
        ("X", 16, 32),
        ("Y", 16, 25),
        ("Z", 8, 7),
    ]


def test_bad_places_are_refused():
    with pytest.raises(ValueError, match="place 3 at position 2"):
        table_points([("A", 1, 0), ("B", 3, 0), ("C", 3, 0)])
    with pytest.raises(ValueError, match="a table of 7"):
        table_points([(p, i + 1, 0) for i, p in enumerate("ABCDEFG")])
