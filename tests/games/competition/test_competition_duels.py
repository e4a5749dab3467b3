"""One-to-one events' standings, crosstable and knockout progress, and each format's round
(games.competition.duels and formats): values worked by hand."""

from __future__ import annotations

import pytest

from games.competition import (
    crosstable,
    duel_round,
    duel_standings,
    knockout_next_round,
    knockout_winner,
    total_rounds,
)

# A 4-player round robin in FIDE's Berger order (round 1: 1-4, 2-3; round 2: 4-3, 1-2;
# round 3: 2-4, 3-1). Player 1 wins everything, 2 beats 3 and 4, 3 and 4 draw.
ROUNDS = [
    [(1, 4, 1.0), (2, 3, 1.0)],
    [(4, 3, 0.5), (1, 2, 1.0)],
    [(2, 4, 1.0), (3, 1, 0.0)],
]


def test_round_robin_standings_worked_by_hand():
    rows = duel_standings([1, 2, 3, 4], [g for r in ROUNDS for g in r])
    # Scores 3, 2, 0.5, 0.5. Buchholz (opponents' scores): 1: 2 + .5 + .5 = 3; 2: 3 + .5 + .5
    # = 4; 3 and 4: 3 + 2 + .5 = 5.5. Sonneborn-Berger: 1 beat all: 2 + .5 + .5 = 3; 2 beat
    # 3 and 4: 1; 3 and 4 only drew each other: .5 x .5 = .25. 3 and 4 tie on everything
    # (no wins) and the seed order puts 3 first.
    assert [
        (r.player, r.score, r.buchholz, r.sonneborn_berger, r.wins, r.played) for r in rows
    ] == [
        (1, 3.0, 3.0, 3.0, 3, 3),
        (2, 2.0, 4.0, 1.0, 2, 3),
        (3, 0.5, 5.5, 0.25, 0, 3),
        (4, 0.5, 5.5, 0.25, 0, 3),
    ]
    # Given the other seed order, the tied pair swaps: the order is total, never arbitrary.
    assert [r.player for r in duel_standings([1, 2, 4, 3], [g for r in ROUNDS for g in r])] == [
        1, 2, 4, 3,
    ]  # fmt: skip


def test_buchholz_breaks_a_tie_before_the_seed():
    # 5 players, 2 rounds. b, d and e all score 1. Buchholz: d met c (1.5) and b (1) = 2.5;
    # e met a (1.5) = 1.5, its bye adding nothing; b met only d (1) = 1. So b, the best seed,
    # is last of the three. a and c (1.5 each) tie on Buchholz (2.5), Sonneborn-Berger (1.75)
    # and wins (1): the seed order puts a first.
    games = [("c", "d", 1.0), ("a", "e", 1.0), ("b", None, 1.0), ("e", None, 1.0),
             ("b", "d", 0.0), ("a", "c", 0.5)]  # fmt: skip
    rows = duel_standings(["b", "a", "c", "d", "e"], games)
    assert [(r.player, r.score, r.buchholz) for r in rows] == [
        ("a", 1.5, 2.5),
        ("c", 1.5, 2.5),
        ("d", 1.0, 2.5),
        ("e", 1.0, 1.5),
        ("b", 1.0, 1.0),
    ]


def test_crosstable_sees_each_game_from_both_sides():
    table = crosstable(ROUNDS)
    assert [(c.round, c.opponent, c.score, c.first) for c in table[3]] == [
        (1, 2, 0.0, False),
        (2, 4, 0.5, False),
        (3, 1, 0.0, True),
    ]
    swiss = crosstable([[("a", None, 1.0), ("b", "c", 0.0)]])
    assert [(c.opponent, c.score) for c in swiss["a"]] == [(None, 1.0)]
    assert [(c.opponent, c.score) for c in swiss["c"]] == [("b", 1.0)]


def test_a_drawn_knockout_game_goes_to_the_better_seed():
    seeds = {"s1": 0, "s2": 1, "s7": 6}
    assert knockout_winner(("s7", "s2", 0.5), seeds) == "s2"
    assert knockout_winner(("s2", "s7", 0.5), seeds) == "s2"
    assert knockout_winner(("s1", "s7", 0.0), seeds) == "s7"
    assert knockout_winner(("s7", None, 1.0), seeds) == "s7"


def test_thirteen_seeded_players_to_the_champion():
    # Round 1 (worked in test_competition_knockout): 1 bye, 8-9, 4-13, 5-12, 2 bye, 7-10,
    # 3 bye, 6-11. Upsets: 9 beats 8, 12 beats 5; the 7-10 game is drawn (7 goes through).
    field = list(range(1, 14))
    seeds = {p: p - 1 for p in field}
    round1 = duel_round("knockout", 1, field, field, [], 4)
    upsets, drawn = {(8, 9), (5, 12)}, (7, 10)
    played1 = [(a, b, 0.5 if (a, b) == drawn else 0.0 if (a, b) in upsets else 1.0)
               for a, b in round1]  # fmt: skip
    round2 = duel_round("knockout", 2, field, field, [played1], 4)
    assert round2 == [(1, 9), (4, 12), (2, 7), (3, 6)]
    # Round 2: favourites win; semi-finals 1-4 and 2-3, the better seed named first.
    round3 = knockout_next_round([(a, b, 1.0) for a, b in round2], seeds)
    assert round3 == [(1, 4), (2, 3)]
    # 4 beats 1, 2 beats 3: the final is 2 v 4, seed 2 named first; a draw gives it to 2.
    final = knockout_next_round([(1, 4, 0.0), (2, 3, 1.0)], seeds)
    assert final == [(2, 4)]
    assert knockout_winner((2, 4, 0.5), seeds) == 2
    with pytest.raises(ValueError, match="final"):
        knockout_next_round([(2, 4, 0.5)], seeds)
    assert total_rounds("knockout", 13) == 4


def test_a_round_robin_round_names_players_by_seed():
    field = ["ann", "bea", "cid", "dan", "eve"]
    # 5 players use the table of 6: round 1 is 1-6, 2-5, 3-4, and 6 is the bye.
    assert duel_round("round_robin", 1, field, field, [], 5) == [
        ("ann", None),
        ("bea", "eve"),
        ("cid", "dan"),
    ]
    assert total_rounds("round_robin", 5) == 5
    assert total_rounds("round_robin", 6) == 5
    with pytest.raises(ValueError, match="follows 0 played rounds"):
        duel_round("round_robin", 2, field, field, [], 5)


def test_swiss_rounds_default_to_log2_and_tables_need_a_count():
    assert total_rounds("swiss", 9) == 4
    assert total_rounds("swiss", 9, 5) == 5
    assert total_rounds("swiss", 16) == 4
    with pytest.raises(ValueError, match="number of rounds"):
        total_rounds("tables", 12)
    assert total_rounds("tables", 12, 3) == 3
    with pytest.raises(ValueError, match="unknown format"):
        total_rounds("ladder", 4)
