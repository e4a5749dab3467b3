"""Multiplayer seating: table sizes, determinism, and the issue's bound on repeat meetings."""

from __future__ import annotations

import random
import time
from itertools import combinations

import pytest

from games.competition import seat_tables, table_sizes
from games.competition.seating import play_event, random_event, repeat_meetings


@pytest.mark.parametrize(
    ("n", "sizes"),
    [(30, [6] * 5), (7, [4, 3]), (13, [5, 4, 4]), (12, [6, 6]), (6, [6]), (3, [3]), (0, [])],
)
def test_fewest_tables_as_even_as_possible(n, sizes):
    assert table_sizes(n) == sizes


@pytest.mark.parametrize(("n", "low", "high"), [(2, 3, 6), (7, 3, 3), (11, 4, 5)])
def test_a_field_that_cannot_be_seated_is_refused(n, low, high):
    with pytest.raises(ValueError, match=f"{n} players cannot be seated"):
        table_sizes(n, low, high)


def test_everyone_is_seated_once_at_tables_of_the_right_sizes():
    players = [f"p{i}" for i in range(13)]
    tables = seat_tables(players, [])
    assert sorted(len(t) for t in tables) == [4, 4, 5]
    assert sorted(p for t in tables for p in t) == sorted(players)


def test_a_clean_second_round_when_one_exists():
    # Nine players who sat in three tables of three: each new table takes one of each.
    history = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]
    tables = seat_tables(list(range(1, 10)), history, min_size=3, max_size=3)
    assert repeat_meetings([history, tables]) == 0
    for table in tables:
        assert sorted((p - 1) // 3 for p in table) == [0, 1, 2]


def test_any_hashable_players_and_the_same_answer_every_time():
    players = [("team", 1), 2, "three", frozenset({4}), 5.5, None, ("x",)]
    history = [[("team", 1), 2, "three"], [frozenset({4}), 5.5, None, ("x",)]]
    first = seat_tables(players, history)
    assert first == seat_tables(players, history)
    assert sorted(len(t) for t in first) == [3, 4]
    assert {p for t in first for p in t} == set(players)


def test_a_player_listed_twice_is_refused():
    with pytest.raises(ValueError, match="twice"):
        seat_tables(["a", "b", "c", "a"], [])


def test_repeat_meetings_counts_each_pair_again_each_time():
    rounds = [[["a", "b", "c"]], [["a", "b", "d"]], [["a", "b", "c"]]]
    # Round 2: a-b again (1). Round 3: a-b, a-c, b-c again (3).
    assert repeat_meetings(rounds) == 4


def random_average(players: list[int], rounds: int) -> float:
    """Random seating's mean repeats over seeds 0-19 (about 152 at 30 players x 6 rounds)."""
    return sum(repeat_meetings(random_event(players, rounds, s)) for s in range(20)) / 20


def test_thirty_players_six_rounds_at_most_a_third_of_random_repeats():
    players = list(range(30))
    ours = repeat_meetings(play_event(players, 6, seat_tables))
    # Worked bounds: 450 meetings over 435 pairs force 15 repeats at least; random seating
    # averages about 152, so a third is about 50.
    assert 15 <= ours <= random_average(players, 6) / 3


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(20))
def test_the_bound_holds_at_every_seed(seed):
    players = list(range(30))
    ours = repeat_meetings(
        play_event(players, 6, lambda field, history: seat_tables(field, history, seed=seed))
    )
    assert 15 <= ours <= random_average(players, 6) / 3


@pytest.mark.slow
@pytest.mark.parametrize("shuffle", range(5))
def test_the_bound_holds_whatever_order_the_players_come_in(shuffle):
    players = list(range(30))
    random.Random(1000 + shuffle).shuffle(players)
    assert players != list(range(30))
    ours = repeat_meetings(play_event(players, 6, seat_tables))
    assert 15 <= ours <= random_average(list(range(30)), 6) / 3


def test_thirty_players_are_seated_in_under_a_second():
    players = list(range(30))
    history = [t for r in play_event(players, 5, seat_tables) for t in r]
    timings = []
    for _ in range(3):  # the best of three: the machine is shared
        start = time.perf_counter()
        seat_tables(players, history)
        timings.append(time.perf_counter() - start)
    assert min(timings) < 1.0


def test_no_pair_is_left_unmet_while_avoidable_in_round_two():
    # Round 2 of 30 in tables of 6 after five tables of 6: each new table holds six players
    # from five old tables, so exactly one old pair per table is the minimum (5).
    players = list(range(30))
    first = [players[i : i + 6] for i in range(0, 30, 6)]
    second = seat_tables(players, first)
    assert repeat_meetings([first, second]) == 5
    assert all(len(t) == 6 for t in second)
    assert len({frozenset(p) for t in second for p in combinations(t, 2)}) == 75
