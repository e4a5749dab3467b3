"""Glicko-2 against the worked example of Glickman's "Example of the Glicko-2 system"."""

from __future__ import annotations

import math

import pytest

from games.competition import glicko2_update

PAPER_RESULTS = [(1400, 30, 1), (1550, 100, 0), (1700, 300, 0)]


def test_the_papers_worked_example():
    rating, rd, volatility = glicko2_update((1500, 200, 0.06), PAPER_RESULTS, tau=0.5)
    # The paper prints 1464.06 from intermediates rounded to 4 places (mu' = -0.2069); the
    # unrounded algorithm gives 1464.0507, within the paper's last printed digit.
    assert rating == pytest.approx(1464.06, abs=0.01)
    assert rd == pytest.approx(151.52, abs=0.005)
    # The paper prints the volatility to five places, 0.05999 (the algorithm: 0.059996).
    assert volatility == pytest.approx(0.05999, abs=0.00001)


def test_tau_defaults_to_the_papers_value():
    assert glicko2_update((1500, 200, 0.06), PAPER_RESULTS) == glicko2_update(
        (1500, 200, 0.06), PAPER_RESULTS, tau=0.5
    )


def test_no_games_only_widens_the_deviation():
    # Step 6 alone: phi* = sqrt(phi^2 + sigma^2) on the Glicko-2 scale, i.e. on the Glicko
    # scale sqrt(200^2 + (0.06 * 173.7178)^2) = sqrt(40108.64...) = 200.2714.
    rating, rd, volatility = glicko2_update((1500, 200, 0.06), [])
    assert (rating, volatility) == (1500.0, 0.06)
    assert rd == pytest.approx(math.sqrt(200**2 + (0.06 * 173.7178) ** 2))
    assert rd == pytest.approx(200.2714, abs=0.0001)


def test_a_draw_between_equals_moves_nothing_but_the_deviation():
    rating, rd, _ = glicko2_update((1500, 200, 0.06), [(1500, 200, 0.5)])
    assert rating == pytest.approx(1500.0)
    assert rd < 200


@pytest.mark.parametrize(
    ("player", "results", "word"),
    [
        ((1500, 0, 0.06), [], "rd"),
        ((1500, 200, 0), [], "volatility"),
        ((1500, 200, 0.06), [(1400, 30, 2)], "results[0] score"),
        ((1500, 200, 0.06), [(1400, 0, 1)], "results[0] opponent rd"),
        ((7000, 200, 0.06), [], "rating must be within"),
        ((1500, 200, 0.06), [(1400, 30, 1), (100_000, 30, 0)], "results[1] opponent rating"),
    ],
)
def test_bad_input_names_the_field(player, results, word):
    with pytest.raises(ValueError, match=word.replace("[", r"\[").replace("]", r"\]")):
        glicko2_update(player, results)
