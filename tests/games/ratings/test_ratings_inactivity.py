"""RD growth over inactivity (games.competition.inactivity), worked by hand."""

from __future__ import annotations

import math

import pytest

from games.competition import inactive_deviation, is_provisional


def test_a_year_takes_a_typical_rd_from_60_to_110():
    # lila's comment on 0.21436 periods/day: "a typical player's RD goes from 60 -> 110 in
    # 1 year"; by hand: sqrt((60/173.7178)^2 + 365 * 0.21436 * 0.06^2) * 173.7178 = 110.0008.
    assert inactive_deviation(60.0, 0.06, 365.0) == pytest.approx(110.0008, abs=1e-4)


def test_no_idle_time_changes_nothing_and_one_period_is_step_6():
    assert inactive_deviation(80.0, 0.06, 0.0) == 80.0
    one_period_days = 1 / 0.21436
    step6 = math.sqrt((80.0 / 173.7178) ** 2 + 0.06**2) * 173.7178
    assert inactive_deviation(80.0, 0.06, one_period_days) == pytest.approx(step6, abs=1e-9)


def test_capped_at_350():
    assert inactive_deviation(300.0, 0.06, 100_000.0) == 350.0


def test_refuses_bad_input_by_name():
    with pytest.raises(ValueError, match="days"):
        inactive_deviation(60.0, 0.06, -1.0)
    with pytest.raises(ValueError, match="rd"):
        inactive_deviation(0.0, 0.06, 1.0)
    with pytest.raises(ValueError, match="volatility"):
        inactive_deviation(60.0, -0.1, 1.0)


def test_provisional_above_110():
    assert is_provisional(110.01) is True
    assert is_provisional(110.0) is False
