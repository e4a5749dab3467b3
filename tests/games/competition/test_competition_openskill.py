"""OpenSkill (Plackett-Luce) through the pure wrapper, against the library's own example."""

from __future__ import annotations

import pytest

from games.competition import openskill_table, openskill_update
from games.competition.openskill_rating import DEFAULT_RATING


def test_the_libraries_documented_example():
    # openskill.py README, "Limited Example": two teams of two new players, the first wins.
    new = DEFAULT_RATING
    [[a, b], [x, y]] = openskill_update([[new, new], [new, new]], [1, 2])
    assert a == pytest.approx((26.964294621803063, 8.177962604389991), rel=1e-12)
    assert x == pytest.approx((23.035705378196937, 8.177962604389991), rel=1e-12)
    assert a == b and x == y


def test_a_table_with_a_shared_place():
    new = DEFAULT_RATING
    first, second_a, second_b, last = openskill_table([new] * 4, [1, 2, 2, 4])
    assert DEFAULT_RATING == (25.0, 25 / 3)
    assert second_a == second_b
    assert first[0] > second_a[0] > last[0]
    assert first[0] > 25 > last[0]


def test_ranks_must_match_the_teams():
    with pytest.raises(ValueError, match="ranks gives 1 ranks for 2 teams"):
        openskill_update([[DEFAULT_RATING], [DEFAULT_RATING]], [1])
    with pytest.raises(ValueError, match="at least 2 teams"):
        openskill_update([[DEFAULT_RATING]], [1])
