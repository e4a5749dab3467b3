"""The requests that once took the server down (minutes of CPU, 11 GB) are refused in time.

Each was measured before the limits: committed 60 attackers against 1,000 defenders with 940
reserves ran over 400 s and grew the process to 11 GB; committed 60 v 100 took 45 s; exact A&A
odds with 145 aircraft against an AA gun ran past 60 s; a Monte Carlo of 1,000 v 1,000 units
took 38 s. Now each is refused with a 4xx (or answered) well within two seconds, and the answer
names the field at fault.
"""

from __future__ import annotations

import time

import pytest
from rest_framework.test import APIClient

RISK_ODDS = "/api/combat/risk/odds"
AA_ODDS = "/api/combat/aa/odds"

REFUSED = [
    (RISK_ODDS, {"attackers": 60, "defenders": 1000, "mode": "committed", "reserves": 940}),
    (AA_ODDS, {"attacker": {"fighter": 100, "bomber": 45}, "defender": {"infantry": 10,
                                                                       "aa_gun": 1}}),
    (AA_ODDS, {"attacker": {"infantry": 1000}, "defender": {"infantry": 1000},
               "method": "monte-carlo"}),
]  # fmt: skip


@pytest.mark.parametrize(("url", "body"), REFUSED)
def test_each_request_that_took_the_server_down_is_refused_within_two_seconds(url, body):
    started = time.monotonic()
    answer = APIClient().post(url, body, format="json")
    elapsed = time.monotonic() - started
    assert 400 <= answer.status_code < 500, answer.json()
    assert elapsed < 2.0
    error = answer.json()
    assert error["field"] is not None and error["message"]


def test_committed_sixty_against_a_hundred_is_answered_within_a_second():
    started = time.monotonic()
    answer = APIClient().post(
        RISK_ODDS, {"attackers": 60, "defenders": 100, "mode": "committed"}, format="json"
    )
    assert time.monotonic() - started < 1.0
    assert answer.status_code in (200, 400), answer.json()


#: The largest battles of bench/risk_odds.py and bench/aa_odds.py, as players would ask them.
ANSWERED = [
    (RISK_ODDS, {"attackers": 200, "defenders": 200}),
    (RISK_ODDS, {"attackers": 60, "defenders": 40, "mode": "committed"}),
    (RISK_ODDS, {"defenders": 40, "mode": "flanking", "flanks": [20, 20, 20]}),
    (RISK_ODDS, {"attackers": 12, "defenders": 10, "mode": "committed", "naval": True}),
    (AA_ODDS, {"attacker": {"infantry": 16, "artillery": 8, "armor": 10, "fighter": 4,
                            "bomber": 2},
               "defender": {"infantry": 24, "artillery": 4, "armor": 6, "fighter": 5,
                            "bomber": 1, "aa_gun": 1}}),
    (AA_ODDS, {"attacker": {"infantry": 30, "artillery": 12, "armor": 10, "fighter": 5,
                            "bomber": 3, "battleship": 4, "destroyer": 2},
               "defender": {"infantry": 36, "artillery": 8, "armor": 10, "fighter": 6},
               "amphibious": True, "techs": ["combined_bombardment"]}),
]  # fmt: skip


@pytest.mark.parametrize(("url", "body"), ANSWERED)
def test_the_benchmarked_battles_are_answered_within_a_second(url, body):
    started = time.monotonic()
    answer = APIClient().post(url, body, format="json")
    assert answer.status_code == 200, answer.json()
    assert time.monotonic() - started < 1.0
    assert 0 < answer.json()["attacker_wins"] < 1
