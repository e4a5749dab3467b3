"""POST /api/combat/poker/evaluate."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


def post(client, body):
    return client.post("/api/combat/poker/evaluate", body, content_type="application/json")


def test_one_hand_is_valued(client):
    body = post(client, {"cards": ["Qh", "Qd", "As", "Ac", "Ad"]}).json()
    assert body["hands"] == [
        {
            "cards": ["Qh", "Qd", "As", "Ac", "Ad"],
            "category": "full-house",
            "description": "full house, aces over red queens",
            "rank": 1,
        }
    ]


def test_red_queens_outrank_aces_unless_turned_off(client):
    hands = [["Qh", "Qd", "2c", "5s", "9d"], ["As", "Ac", "3c", "6s", "8d"]]
    ranked = post(client, {"hands": hands}).json()["hands"]
    assert [h["rank"] for h in ranked] == [1, 2]
    plain = post(client, {"hands": hands, "red_queens_high": False}).json()["hands"]
    assert [h["rank"] for h in plain] == [2, 1]


def test_equal_hands_share_a_rank(client):
    hands = [
        ["2h", "5h", "7h", "9h", "Jh"],
        ["2s", "5s", "7s", "9s", "Js"],
        ["As", "Ad", "Ac", "2d", "3d"],
    ]
    assert [h["rank"] for h in post(client, {"hands": hands}).json()["hands"]] == [1, 1, 3]


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"cards": ["Qh", "Qd", "As", "Ac"]}, "cards", "min_length"),
        ({"cards": ["Qh", "Qd", "As", "Ac", "Xx"]}, "cards", "invalid_input"),
        (
            {"hands": [["Qh", "Qd", "As", "Ac", "Ad"], ["Qh", "Qh", "2s", "3c", "4d"]]},
            "hands.1",
            "invalid_input",
        ),
        ({}, "cards", "invalid_input"),
        (
            {"cards": ["Qh", "Qd", "As", "Ac", "Ad"], "red_queens_high": "yes"},
            "red_queens_high",
            "invalid",
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
    assert "/api/combat/poker/evaluate" in schema["paths"]
