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


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"attackers": 3}, "defenders"),
        ({"attackers": "3", "defenders": 2}, "attackers"),
        ({"attackers": 3, "defenders": 2, "mode": "blitz"}, "mode"),
        ({"attackers": 1, "defenders": 2, "mode": "committed"}, "attackers"),
        ({"attackers": 3, "defenders": 2, "flank": [1]}, "flank"),
        ({"defenders": 2, "mode": "flanking", "flanks": [5]}, "flanks"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(client, body, field):
    response = post(client, body)
    assert response.status_code == 400
    assert response.json()["error"]["field"] == field


def test_the_endpoint_is_in_the_schema(client):
    schema = client.get("/api/schema/?format=json").json()
    assert "/api/combat/risk/odds" in schema["paths"]
