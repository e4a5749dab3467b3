"""POST /api/combat/france-1944."""

from __future__ import annotations

import re

import pytest

from combat.api import france_1944 as api
from combat.dice import verify

pytestmark = pytest.mark.django_db

URL = "/api/combat/france-1944"
ATTACK = {
    "attack": 12,
    "defense": 8,
    "attacker_morale": 1,
    "defender_morale": 4,
    "attacking_units": 1,
}


def post(client, body):
    return client.post(URL, body, content_type="application/json")


def test_odds_follow_rule_2_example(client):
    """A -3 combat modifier at 3-2 reads the 1-2 column (A A A A B B)."""
    response = post(client, ATTACK)
    assert response.status_code == 200
    body = response.json()
    assert (body["table"], body["odds_level"], body["column"], body["drm"]) == (
        "france-1944",
        "3-2",
        "1-2",
        0,
    )
    assert body["distribution"] == pytest.approx(
        {"A": 4 / 6, "B": 2 / 6, "C": 0, "D": 0, "E": 0, "F": 0}
    )
    assert body["explanation"][0] == {
        "condition": "morale: attacker 1 - defender 4",
        "count": 1,
        "value": -3,
    }


def test_odds_take_fractional_strengths_mobile_combat_and_adjustments(client):
    body = post(
        client,
        {
            **ATTACK,
            "attack": 7.5,
            "defense": 5,
            "combat": "mobile",
            "attacker_morale": 6,
            "defender_morale": 1,
            "terrain_morale": 0,
            "other_morale": -3,
        },
    ).json()
    # 3-2; morale 6 against 1 - 3, held at 1: +5, two shifts past 4-1 -> 4-1 with +2, which
    # reads rows 3, 4, 5, 6, 6, 6 of D F F C C C
    assert (body["odds_level"], body["column"], body["drm"]) == ("3-2", "4-1", 2)
    assert body["distribution"]["F"] == pytest.approx(1 / 6)
    assert body["distribution"]["C"] == pytest.approx(5 / 6)


def test_resolve_rolls_server_dice_with_a_commitment(client):
    body = post(client, {**ATTACK, "resolve": True}).json()
    assert re.fullmatch(r"[0-9a-f]{64}", body["commitment"])
    assert re.fullmatch(r"france-1944:[0-9a-f-]{36}", body["context"])
    assert "seed" not in body
    [roll] = body["rolls"]
    assert (roll["counter"], roll["sides"]) == (0, 6)
    assert 1 <= roll["value"] <= 6
    assert body["row"] == roll["value"]  # no die-roll modifier at 1-2
    assert body["code"] == "AAAABB"[body["row"] - 1]
    assert body["odds"]["column"] == "1-2"


def test_the_roll_reproduces_from_the_seed(client, monkeypatch):
    """The seed is kept secret; with it, anyone can check the roll against the commitment."""
    seed = "ab" * 32
    monkeypatch.setattr(api, "new_seed", lambda: seed)
    body = post(client, {**ATTACK, "resolve": True}).json()
    assert verify(seed, body["commitment"], body["context"], body["rolls"])


def test_each_resolution_gets_its_own_seed_and_context(client):
    first = post(client, {**ATTACK, "resolve": True}).json()
    second = post(client, {**ATTACK, "resolve": True}).json()
    assert first["commitment"] != second["commitment"]
    assert first["context"] != second["context"]


@pytest.mark.parametrize(
    ("change", "field", "code"),
    [
        ({"attacker_morale": 7}, "attacker_morale", "invalid_input"),
        ({"defender_morale": 0}, "defender_morale", "invalid_input"),
        ({"defense": 0}, "defense", "invalid_input"),
        ({"attack": 1, "defense": 5}, "attack", "invalid_input"),
        ({"combat": "blitz"}, "combat", "invalid_input"),
        ({"attacking_units": 9}, "attacking_units", "invalid_input"),
        ({"terrain_morale": 3}, "terrain_morale", "invalid_input"),
        ({"attack": "12"}, "attack", "invalid"),
        ({"attacker_morale": "3"}, "attacker_morale", "invalid"),
        ({"resolve": "yes"}, "resolve", "invalid"),
        ({"terrain": 2}, "terrain", "unknown_field"),
        ({"defender_morale": 7, "resolve": True}, "defender_morale", "invalid_input"),
    ],
)
def test_bad_input_is_a_400_naming_the_field(client, change, field, code):
    response = post(client, {**ATTACK, **change})
    assert response.status_code == 400
    answer = response.json()
    assert (answer["error"], answer["field"]) == (code, field)
    assert isinstance(answer["message"], str) and answer["message"]


def test_a_missing_field_is_named(client):
    body = {key: value for key, value in ATTACK.items() if key != "attacking_units"}
    response = post(client, body)
    assert response.status_code == 400
    answer = response.json()
    assert (answer["error"], answer["field"]) == ("required", "attacking_units")
    assert answer["message"] == "This field is required."


def test_an_unknown_combat_type_lists_the_known_ones(client):
    answer = post(client, {**ATTACK, "combat": "blitz"}).json()
    assert (answer["error"], answer["field"]) == ("invalid_input", "combat")
    assert answer["allowed"] == ["mobile", "set-piece"]
    assert answer["message"]


def test_the_endpoint_is_in_the_schema(client):
    schema = client.get("/api/schema/?format=json").json()
    operation = schema["paths"][URL]["post"]
    assert operation["tags"] == ["combat: France 1944"]
    assert "France1944Input" in schema["components"]["schemas"]
    assert {"200", "400"} <= set(operation["responses"])
