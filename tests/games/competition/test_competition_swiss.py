"""Swiss (Dutch system) through caissify-pairings: the issue's 9-player, 5-round test."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games.competition import SwissPairingError, swiss_pairings

PLAYERS = [f"p{i}" for i in range(1, 10)]


def test_round_one_is_the_dutch_top_half_against_the_bottom_half():
    # S1 = 1-4 against S2 = 5-8, 9 (the lowest) has the bye; the top player takes the initial
    # colour (white) and colours alternate down the boards (FIDE C.04.3).
    assert swiss_pairings(PLAYERS, [], total_rounds=5) == [
        ("p1", "p5"),
        ("p6", "p2"),
        ("p3", "p7"),
        ("p8", "p4"),
        ("p9", None),
    ]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_nine_players_five_rounds(seed):
    rng = random.Random(seed)
    history: list[list[tuple[str, str | None, float]]] = []
    for _ in range(5):
        pairs = swiss_pairings(PLAYERS, history, total_rounds=5)
        seated = [p for pair in pairs for p in pair if p is not None]
        assert sorted(seated) == sorted(PLAYERS)
        assert sum(black is None for _, black in pairs) == 1
        history.append(
            [(w, b, 1.0 if b is None else rng.choice([1.0, 0.5, 0.0])) for w, b in pairs]
        )
    games = [frozenset((w, b)) for r in history for w, b, _ in r if b is not None]
    assert len(games) == len(set(games)) == 20
    byes = Counter(w for r in history for w, b, _ in r if b is None)
    assert len(byes) == 5 and set(byes.values()) == {1}


def test_a_withdrawn_player_is_no_longer_paired():
    first = swiss_pairings(PLAYERS, [], total_rounds=3)
    history = [[(w, b, 1.0) for w, b in first]]
    second = swiss_pairings(PLAYERS[:-1], history, total_rounds=3)
    seated = [p for pair in second for p in pair if p is not None]
    assert sorted(seated) == sorted(PLAYERS[:-1])
    assert all(black is not None for _, black in second)


def test_bad_input_is_refused():
    with pytest.raises(SwissPairingError, match="twice"):
        swiss_pairings(["a", "b", "a"], [], total_rounds=3)
    with pytest.raises(SwissPairingError, match="past total_rounds"):
        swiss_pairings(["a", "b"], [[("a", "b", 1.0)]], total_rounds=1)


def test_an_engine_answer_breaking_an_absolute_criterion_is_refused():
    from games.competition.swiss import _checked, _replay

    players = ["a", "b", "c", "d", "e"]
    entrants, met = _replay(players, [[("a", "b", 1.0), ("c", "d", 0.5), ("e", None, 1.0)]])
    assert met == {(1, 2), (3, 4)}
    assert (entrants["e"].byes, entrants["e"].floats, entrants["e"].colours) == (
        1,
        ["down"],
        ["none"],
    )
    assert [entrants[p].score for p in players] == [1.0, 0.0, 0.5, 0.5, 1.0]
    assert entrants["d"].colours == ["black"]

    def boards(*pairs):
        return [{"white_id": w, "black_id": b, "table": t} for t, (w, b) in enumerate(pairs, 1)]

    with pytest.raises(SwissPairingError, match="'e' a second bye"):
        _checked(boards((1, 3), (2, 4), (5, None)), players, entrants, met)
    with pytest.raises(SwissPairingError, match="repeated the game 'b' v 'a'"):
        _checked(boards((3, 5), (2, 1), (4, None)), players, entrants, met)
    with pytest.raises(SwissPairingError, match="every player exactly once"):
        _checked(boards((1, 3), (2, 5), (1, None)), players, entrants, met)
    assert _checked(boards((1, 3), (2, 5), (4, None)), players, entrants, met) == [
        ("a", "c"),
        ("b", "e"),
        ("d", None),
    ]
