"""Round robins against the Berger tables FIDE publishes (Handbook C.05, Annex 1)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from games.competition import round_robin

# Written out by hand from FIDE's tables (first-named player has white).
FIDE_4 = [
    [(1, 4), (2, 3)],
    [(4, 3), (1, 2)],
    [(2, 4), (3, 1)],
]
FIDE_6 = [
    [(1, 6), (2, 5), (3, 4)],
    [(6, 4), (5, 3), (1, 2)],
    [(2, 6), (3, 1), (4, 5)],
    [(6, 5), (1, 4), (2, 3)],
    [(3, 6), (4, 2), (5, 1)],
]
FIDE_10_ROUNDS_2_AND_9 = (
    [(10, 6), (7, 5), (8, 4), (9, 3), (1, 2)],
    [(5, 10), (6, 4), (7, 3), (8, 2), (9, 1)],
)


def test_four_players_is_fides_table():
    assert round_robin(4) == FIDE_4


def test_six_players_is_fides_table():
    assert round_robin(6) == FIDE_6


def test_ten_players_matches_fides_table_where_sampled():
    rounds = round_robin(10)
    assert (rounds[1], rounds[8]) == FIDE_10_ROUNDS_2_AND_9


def test_five_players_use_the_table_of_six_with_a_bye():
    # FIDE_6 with player 6 taken out: whoever was drawn against 6 sits out.
    assert round_robin(5) == [
        [(1, None), (2, 5), (3, 4)],
        [(4, None), (5, 3), (1, 2)],
        [(2, None), (3, 1), (4, 5)],
        [(5, None), (1, 4), (2, 3)],
        [(3, None), (4, 2), (5, 1)],
    ]


@pytest.mark.parametrize("n", range(2, 17))
def test_everyone_meets_everyone_once_with_balanced_colours(n):
    rounds = round_robin(n)
    assert len(rounds) == n - 1 + n % 2
    games = [pair for r in rounds for pair in r if pair[1] is not None]
    met = Counter(frozenset(pair) for pair in games)
    assert set(met) == {frozenset(p) for p in combinations(range(1, n + 1), 2)}
    assert set(met.values()) == {1}
    for r in rounds:
        seated = [p for pair in r for p in pair if p is not None]
        assert sorted(seated) == list(range(1, n + 1))
    byes = Counter(pair[0] for r in rounds for pair in r if pair[1] is None)
    assert byes == (Counter(range(1, n + 1)) if n % 2 else Counter())
    whites = Counter(w for w, _ in games)
    blacks = Counter(b for _, b in games)
    for player in range(1, n + 1):
        assert abs(whites[player] - blacks[player]) <= 1


def test_fewer_than_two_players_is_refused():
    with pytest.raises(ValueError, match="at least 2 players"):
        round_robin(1)


def test_agrees_with_caissify_pairings_berger_tables_up_to_forty():
    """A second, independent implementation (it states it matches FIDE's tables exactly)."""
    from caissify_pairings.engines.round_robin import berger_schedule

    for n in range(2, 41, 2):
        assert round_robin(n) == [list(r) for r in berger_schedule(n)], n
