"""Bounds on the calculators (combat.api.limits): a rate limit for anonymous use, a cap on the
calculations running at once, and a work budget inside the solvers."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from combat.api import limits

RISK_ODDS = "/api/combat/risk/odds"


@pytest.fixture
def calculator_rate(settings):
    def set_rate(rate: str) -> None:
        rest = settings.REST_FRAMEWORK
        rates = {**rest["DEFAULT_THROTTLE_RATES"], "calculator": rate}
        settings.REST_FRAMEWORK = {**rest, "DEFAULT_THROTTLE_RATES": rates}

    return set_rate


def test_anonymous_calculator_requests_are_rate_limited(calculator_rate):
    calculator_rate("3/min")
    client = APIClient()
    answers = [client.post(RISK_ODDS, {"attackers": 3, "defenders": 2}, format="json")
               for _ in range(4)]  # fmt: skip
    assert [a.status_code for a in answers] == [200, 200, 200, 429]
    assert answers[3].json()["error"] == "throttled"
    assert answers[3].headers["Retry-After"] == "60"


@pytest.mark.django_db
def test_signed_in_players_are_not_rate_limited(calculator_rate, django_user_model):
    calculator_rate("1/min")
    client = APIClient()
    client.force_authenticate(django_user_model.objects.create_user("alice", password="x"))
    answers = [client.post(RISK_ODDS, {"attackers": 3, "defenders": 2}, format="json")
               for _ in range(3)]  # fmt: skip
    assert [a.status_code for a in answers] == [200, 200, 200]


def test_no_free_slot_is_a_503_with_retry_after(settings, monkeypatch):
    settings.COMBAT_CONCURRENCY = 1
    monkeypatch.setattr(limits, "SLOT_WAIT", 0.01)
    slots = limits._semaphore()
    assert slots.acquire(timeout=1)  # another request holds the only slot
    try:
        answer = APIClient().post(RISK_ODDS, {"attackers": 3, "defenders": 2}, format="json")
    finally:
        slots.release()
    assert answer.status_code == 503
    assert answer.json()["error"] == "calculators_busy"
    assert answer.headers["Retry-After"] == "1"
    again = APIClient().post(RISK_ODDS, {"attackers": 3, "defenders": 2}, format="json")
    assert again.status_code == 200  # the slot was given back


def test_a_calculation_past_its_time_budget_is_stopped_with_a_503(settings):
    """The flanking battle takes about a quarter of a second; with a budget of a millisecond the
    solver stops at its next check and the answer says which limit ran out."""
    from combat import risk_dice

    settings.COMBAT_SECONDS = 0.001
    risk_dice._battle_odds.cache_clear()  # a cached answer would cost no work at all
    body = {"defenders": 40, "mode": "flanking", "flanks": [20, 20, 20]}
    answer = APIClient().post(RISK_ODDS, body, format="json")
    assert answer.status_code == 503
    error = answer.json()
    assert (error["error"], error["limit"], error["budget"]) == (
        "budget_exceeded",
        "seconds",
        0.001,
    )
    assert answer.headers["Retry-After"] == "1"


def test_a_battle_past_the_state_limit_is_refused_before_any_work(settings):
    settings.COMBAT_MAX_STATES = 1000
    answer = APIClient().post(RISK_ODDS, {"attackers": 60, "defenders": 40, "mode": "committed"},
                              format="json")  # fmt: skip
    assert answer.status_code == 400
    error = answer.json()
    assert (error["error"], error["field"], error["limit"]) == ("too_large", "attackers", 1000)
    assert error["estimate"] == 98_400


def test_a_battle_of_more_dice_than_a_float_coefficient_holds_is_solved_not_a_500(settings):
    """Schemathesis found it: 999 heavy bombers roll 1,998 dice; comb(1998, k) overflowed a
    float (OverflowError, a 500). One round of them against 4 defenders: the attacker wins."""
    settings.COMBAT_SECONDS = 30
    battle = {
        "attacker": {"bomber": 999},
        "defender": {"infantry": 3, "armor": 1},
        "techs": ["heavy_bombers"],
        "rounds": 1,
    }
    answer = APIClient().post("/api/combat/aa/odds", battle, format="json")

    assert answer.status_code == 200, answer.json()
    odds = answer.json()
    assert odds["attacker_wins"] == pytest.approx(1.0)
    assert sum(o["probability"] for o in odds["outcomes"]) == pytest.approx(1.0)


def test_binomial_terms_past_the_float_range_are_the_distribution():
    """The terms made from logarithms sum to 1 and peak at the mean, as a binomial does."""
    from combat.axis_allies.rules import ExactChance

    outcomes = ExactChance().dice(3000, 2, 6, "attacker", "general")

    assert sum(p for p, _hits in outcomes) == pytest.approx(1.0)
    assert max(outcomes)[1] == 1000
