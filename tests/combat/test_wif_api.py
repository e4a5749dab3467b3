"""POST /api/combat/wif/land: the World in Flames 2d10 Land CRT over HTTP."""

from __future__ import annotations

import re

import pytest

from combat.api import wif as wif_api
from combat.dice import verify

pytestmark = pytest.mark.django_db

URL = "/api/combat/wif/land"


def post(client, body):
    return client.post(URL, body, content_type="application/json")


def test_odds_by_default(client):
    response = post(client, {"attack": 7.3, "defense": 2, "fractional_odds": True})
    assert response.status_code == 200
    body = response.json()
    assert (body["table"], body["odds_level"], body["odds_drm"], body["drm"]) == (
        "wif-2d10-land",
        "3:1",
        7.3,
        7.3,
    )
    assert sum(body["distribution"].values()) == pytest.approx(1)
    assert "rolls" not in body


def test_modifiers_come_back_line_by_line(client):
    body = post(
        client,
        {
            "attack": 6,
            "defense": 2,
            "column": "blitz",
            "drm": -1,
            "modifiers": {"attacking_arm": 2, "defending_mech": 1, "face_down_defenders": 1},
        },
    ).json()
    assert [line["value"] for line in body["explanation"]] == [6, -2, 2, 2, -1]
    assert body["drm"] == 7
    assert body["column"] == "blitz"


def test_codes_are_keyed_as_printed(client):
    body = post(client, {"attack": 1, "defense": 2}).json()
    assert body["distribution"]["†1/2S"] == 0.01


def test_resolve_rolls_server_dice_with_a_commitment(client, monkeypatch):
    monkeypatch.setattr(wif_api, "new_seed", lambda: "s" * 64)
    response = post(client, {"attack": 7.3, "defense": 2, "fractional_odds": True, "resolve": True})
    assert response.status_code == 200
    body = response.json()
    assert re.fullmatch(r"wif-land:[0-9a-f-]{36}", body["context"])
    assert re.fullmatch(r"[0-9a-f]{64}", body["commitment"])
    assert [(roll["counter"], roll["sides"]) for roll in body["rolls"]] == [
        (0, 10),
        (1, 10),
        (2, 10),
    ]
    assert verify("s" * 64, body["commitment"], body["context"], body["rolls"])
    first, second, fraction = (roll["value"] for roll in body["rolls"])
    assert body["row"] == min(23, first + second + 7 + (fraction <= 3))
    assert body["odds"]["drm"] == 7.3
    assert body["outcome"]["attacker_losses"] >= 0
    assert "seed" not in body


def test_each_resolution_has_its_own_seed_and_context(client):
    first = post(client, {"attack": 3, "defense": 1, "resolve": True}).json()
    second = post(client, {"attack": 3, "defense": 1, "resolve": True}).json()
    assert first["commitment"] != second["commitment"]
    assert first["context"] != second["context"]
    assert len(first["rolls"]) == 2


@pytest.mark.parametrize(
    ("body", "field", "code"),
    [
        ({"attack": 3}, "defense", "required"),
        ({"attack": "3", "defense": 1}, "attack", "invalid"),
        ({"attack": True, "defense": 1}, "attack", "invalid"),
        ({"attack": -3, "defense": 1}, "attack", "invalid_input"),
        ({"attack": 3, "defense": 0}, "defense", "invalid_input"),
        ({"attack": 3, "defense": 1, "column": "flank"}, "column", "invalid_input"),
        ({"attack": 3, "defense": 1, "drm": 0.25}, "drm", "invalid_input"),
        ({"attack": 3, "defense": 1, "resolve": "yes"}, "resolve", "invalid"),
        ({"attack": 3, "defense": 1, "fractional_odds": 1}, "fractional_odds", "invalid"),
        ({"attack": 3, "defense": 1, "odds": "3:1"}, "odds", "unknown_field"),
        ({"attack": 3, "defense": 1, "modifiers": [1]}, "modifiers", "not_a_dict"),
        (
            {"attack": 3, "defense": 1, "modifiers": {"weather": "fog"}},
            "modifiers.weather",
            "invalid_input",
        ),
        (
            {"attack": 3, "defense": 1, "modifiers": {"tanks": 2}},
            "modifiers.tanks",
            "invalid_input",
        ),
        (
            {"attack": 3, "defense": 1, "modifiers": {"defending_arm": "2"}},
            "modifiers.defending_arm",
            "invalid_input",
        ),
        (
            {"attack": 3, "defense": 1, "resolve": True, "modifiers": {"defending_at": 1}},
            "modifiers.defending_at",
            "invalid_input",
        ),
    ],
)
def test_bad_input_is_a_400_naming_the_field(client, body, field, code):
    response = post(client, body)
    assert response.status_code == 400
    answer = response.json()
    assert (answer["error"], answer["field"]) == (code, field)
    assert isinstance(answer["message"], str) and answer["message"]


def test_a_bad_weather_lists_the_allowed_ones(client):
    body = post(client, {"attack": 3, "defense": 1, "modifiers": {"weather": "fog"}}).json()
    assert (body["error"], body["field"]) == ("invalid_input", "modifiers.weather")
    assert body["message"] == "unknown weather 'fog'"
    assert body["allowed"] == ["blizzard", "fine", "rain", "snow", "storm"]


@pytest.mark.parametrize("fractional_odds", [True, False])
def test_odds_past_the_float_range_are_answered_not_a_500(client, fractional_odds):
    """Schemathesis found it: 1 against 1.1e-308 made an odds DRM past the float range (an
    OverflowError, a 500). It is reported whole, and every roll reads the top row."""
    body = {"attack": 1.0, "defense": 1.1125369292536007e-308, "fractional_odds": fractional_odds}
    response = post(client, body)

    assert response.status_code == 200, response.json()
    odds = response.json()
    assert odds["distribution"] == {"*/2S": 1.0}
    assert isinstance(odds["odds_drm"], int) and odds["odds_drm"] > 10**307


def test_the_endpoint_is_in_the_schema(client):
    schema = client.get("/api/schema/?format=json").json()
    operation = schema["paths"][URL]["post"]
    assert operation["tags"] == ["combat: World in Flames"]
    request = schema["components"]["schemas"]["WifLandInput"]["properties"]
    assert {"attack", "defense", "column", "drm", "modifiers", "fractional_odds", "resolve"} <= set(
        request
    )
    assert "winterised_attackers" in request["modifiers"]["properties"]
    # 401 (a bad token), 413 and 415 (the body), 429 (anonymous use is rate-limited).
    assert set(operation["responses"]) == {"200", "400", "401", "413", "415", "429"}
