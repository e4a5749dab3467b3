"""Buchholz and Sonneborn-Berger worked by hand on a four-player round robin."""

from __future__ import annotations

import pytest

from games.competition import buchholz, scores, sonneborn_berger

# A beats B, C-D drawn; A-C drawn, B beats D; A beats D, C beats B.
GAMES = [("A", "B", 1.0), ("C", "D", 0.5), ("A", "C", 0.5), ("B", "D", 1.0), ("A", "D", 1.0)]
GAMES.append(("B", "C", 0.0))


def test_scores():
    assert scores(GAMES) == {"A": 2.5, "B": 1.0, "C": 2.0, "D": 0.5}


def test_buchholz_sums_the_opponents_scores():
    # A: B 1 + C 2 + D 0.5; B: A 2.5 + D 0.5 + C 2; C: D 0.5 + A 2.5 + B 1; D: C 2 + B 1 + A 2.5.
    assert buchholz(GAMES) == {"A": 3.5, "B": 5.0, "C": 4.0, "D": 5.5}


def test_sonneborn_berger_weighs_them_by_the_result():
    # A: beat B (1) + half of C (1) + beat D (0.5) = 2.5; B: beat D = 0.5;
    # C: half of D (0.25) + half of A (1.25) + beat B (1) = 2.5; D: half of C = 1.
    assert sonneborn_berger(GAMES) == {"A": 2.5, "B": 0.5, "C": 2.5, "D": 1.0}


def test_a_bye_scores_but_adds_no_tie_break():
    games = [("A", "B", 1.0), ("C", None, 1.0)]
    assert scores(games) == {"A": 1.0, "B": 0.0, "C": 1.0}
    assert buchholz(games) == {"A": 0.0, "B": 1.0, "C": 0.0}
    assert sonneborn_berger(games) == {"A": 0.0, "B": 0.0, "C": 0.0}


def test_a_score_outside_zero_to_one_is_refused():
    with pytest.raises(ValueError, match="between 0 and 1"):
        scores([("A", "B", 2.0)])
