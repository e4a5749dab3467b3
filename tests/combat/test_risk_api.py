"""POST /api/combat/risk/odds."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def post(client, body):
    return client.post("/api/combat/risk/odds", body, content_type="application/json")


def test_one_against_one_is_five_twelfths(client):
    response = post(client, {"attackers": 1, "defenders": 1})
    assert response.status_code == 200
    assert response.json()["attacker_wins"] == pytest.approx(5 / 12)


def test_flanking_odds_carry_expected_captures(client):
    body = post(client, {"defenders": 1, "mode": "flanking", "flanks": [2, 2]}).json()
    p1, q1 = 161 / 216, 55 / 216
    assert body["expected_captures"] == pytest.approx(p1 + q1 * (p1 + q1 * 7 / 12))


def test_naval_odds_carry_sinking_and_capture(client):
    body = post(client, {"attackers": 2, "defenders": 1, "naval": True}).json()
    assert body["naval"]["defender_ship_capturable"] == pytest.approx(125 / 216)


def test_the_defender_dice_option_of_fast_risk_games(client):
    """risk/RULES.md C11: with defender_dice "normal" a committed 2 v 2 meets 2 dice: both
    defenders fall 295/1296, one each 420/1296, then 1 v 1 wins 15/36."""
    body = {"attackers": 2, "defenders": 2, "mode": "committed", "defender_dice": "normal"}
    answer = post(client, body).json()
    assert answer["attacker_wins"] == pytest.approx(295 / 1296 + 420 / 1296 * 15 / 36)


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"attackers": 3}, "defenders", "required"),
        ({"attackers": "3", "defenders": 2}, "attackers", "invalid"),
        ({"attackers": 3, "defenders": 2, "mode": "blitz"}, "mode", "invalid_choice"),
        ({"attackers": 1, "defenders": 2, "mode": "committed"}, "attackers", "invalid_input"),
        ({"attackers": 3, "defenders": 2, "flank": [1]}, "flank", "unknown_field"),
        ({"defenders": 2, "mode": "flanking", "flanks": [5]}, "flanks", "invalid_input"),
        (
            {"attackers": 2, "defenders": 2, "defender_dice": "all"},
            "defender_dice",
            "invalid_choice",
        ),
    ],
)
def test_bad_input_is_a_400_naming_the_field(client, body, field, code):
    response = post(client, body)
    assert response.status_code == 400
    answer = response.json()
    assert (answer["error"], answer["field"]) == (code, field)
    assert isinstance(answer["message"], str) and answer["message"]


def test_the_endpoint_is_in_the_schema(client):
    schema = client.get("/api/schema/?format=json").json()
    assert "/api/combat/risk/odds" in schema["paths"]


def test_the_outcome_list_is_the_likeliest_first_and_says_what_it_leaves_out(client):
    """1 v 1: the defender holds with 21/36 (ties to the defender), the attacker wins 15/36."""
    body = post(client, {"attackers": 1, "defenders": 1, "max_outcomes": 1}).json()
    assert [(o["attackers_left"], o["defenders_left"]) for o in body["outcomes"]] == [(0, 1)]
    assert body["outcomes"][0]["probability"] == pytest.approx(7 / 12)
    assert (body["outcomes_total"], body["outcomes_left_out"]) == (2, pytest.approx(5 / 12))
    every = post(client, {"attackers": 1, "defenders": 1}).json()
    assert (len(every["outcomes"]), every["outcomes_left_out"]) == (2, 0.0)


def test_a_large_flanking_battle_lists_500_of_its_end_states_unless_asked(client):
    body = post(client, {"defenders": 20, "mode": "flanking", "flanks": [15, 15]}).json()
    assert (len(body["outcomes"]), body["outcomes_total"]) == (500, 860)
    shown = sum(o["probability"] for o in body["outcomes"])
    assert shown + body["outcomes_left_out"] == pytest.approx(1.0, abs=1e-12)
    asked = {"defenders": 20, "mode": "flanking", "flanks": [15, 15], "max_outcomes": 10_000}
    assert len(post(client, asked).json()["outcomes"]) == 860
    too_many = post(client, dict(asked, max_outcomes=10_001)).json()
    assert (too_many["error"], too_many["field"]) == ("max_value", "max_outcomes")
