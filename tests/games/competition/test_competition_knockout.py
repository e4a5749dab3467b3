"""Seeded knockout brackets: byes to the top seeds, 1 and 2 only meeting in the final."""

from __future__ import annotations

import pytest

from games.competition import knockout_bracket
from games.competition.knockout import bracket_order

SEEDS = [f"s{i}" for i in range(1, 14)]


def test_thirteen_players_worked_by_hand():
    # Bracket of 16 in standard order 1,16,8,9,4,13,5,12,2,15,7,10,3,14,6,11; seeds 14-16 do
    # not exist, so their opponents (1, 2 and 3) have byes.
    assert knockout_bracket(SEEDS) == [
        ("s1", None),
        ("s8", "s9"),
        ("s4", "s13"),
        ("s5", "s12"),
        ("s2", None),
        ("s7", "s10"),
        ("s3", None),
        ("s6", "s11"),
    ]


def test_the_standard_order_of_eight():
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


@pytest.mark.parametrize("n", [3, 5, 8, 13, 16, 17, 32])
def test_when_favourites_win_the_semis_are_1_4_and_2_3_and_the_final_1_2(n):
    pairs = knockout_bracket(list(range(1, n + 1)))
    byes = sorted(a for a, b in pairs if b is None)
    assert byes == list(range(1, 2 * len(pairs) - n + 1))
    # Everyone still in after round 1 (the better seed wins), then round by round.
    fields = [[a if b is None else min(a, b) for a, b in pairs]]
    while len(fields[-1]) > 1:
        last = fields[-1]
        fields.append([min(last[i], last[i + 1]) for i in range(0, len(last), 2)])
    assert fields[-2] == [1, 2]
    if n > 4:
        assert fields[-3] == [1, 4, 2, 3]


def test_bad_fields_are_refused():
    with pytest.raises(ValueError, match="at least 2 players"):
        knockout_bracket(["only"])
    with pytest.raises(ValueError, match="twice"):
        knockout_bracket(["a", "b", "a"])
