"""The A&A resolver over HTTP: odds, battles with verifiable server dice, and the error shape."""

from __future__ import annotations

import hashlib
import json
import uuid
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from combat.dice import derive_roll
from combat.models import AABattle

pytestmark = pytest.mark.django_db

ODDS = "/api/combat/aa/odds"
BATTLES = "/api/combat/aa/battles"
# Three infantry attack one: the first round always rolls four dice (three attack, one defends).
THREE_V_ONE = {"attacker": {"infantry": 3}, "defender": {"infantry": 1}}


def post(client, url: str, body: Any, **extra):
    return client.post(url, body, content_type="application/json", **extra)


def all_rolls(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [roll for rnd in report["rounds"] for fire in rnd["fire"] for roll in fire["rolls"]]


def create(client, body: dict[str, Any] = THREE_V_ONE) -> dict[str, Any]:
    response = post(client, BATTLES, body)
    assert response.status_code == 201, response.json()
    assert response["Location"] == f"http://testserver{BATTLES}/{response.json()['id']}"
    return response.json()


# --- odds -----------------------------------------------------------------------------------


def test_odds_one_infantry_each_under_dice(client):
    # Attacker hits on 1 (1/6), defender on 1-2 (1/3) per round; rounds with no hit repeat:
    # P(a hit, d miss) = 1/6 * 2/3 = 2/18, P(d hit, a miss) = 5/6 * 1/3 = 5/18, both = 1/18,
    # so given that something happens (8/18): attacker 2/8, defender 5/8, draw 1/8.
    response = post(client, ODDS, {"attacker": {"infantry": 1}, "defender": {"infantry": 1}})
    assert response.status_code == 200
    odds = response.json()
    assert (odds["rules"], odds["edition"], odds["method"]) == ("dice", "revised", "exact")
    assert odds["attacker_wins"] == pytest.approx(0.25)
    assert odds["defender_wins"] == pytest.approx(0.625)
    assert odds["draw"] == pytest.approx(0.125)
    assert odds["stalemate"] == 0
    assert odds["outcomes"][0] == {
        "attacker_left": {},
        "defender_left": {"infantry": 1},
        "result": "defender",
        "probability": pytest.approx(0.625),
    }


def test_odds_take_the_submerge_policy_named_in_the_schema(client):
    # G40: fighter + destroyer against a submarine (worked in test_aa_engine_rules.py): the
    # sub survives 1/13 by submerging once only the fighter is left (the default policy); told
    # never to submerge, that 1/13 is a stalemate. An unknown policy is named.
    body = {"attacker": {"fighter": 1, "destroyer": 1}, "defender": {"submarine": 1},
            "edition": "global-1940-2e"}  # fmt: skip
    default = post(client, ODDS, body).json()
    assert default["attacker_wins"] == pytest.approx(1.0)
    never = post(client, ODDS, {**body, "options": {"defender_submerge": "never"}}).json()
    assert never["attacker_wins"] == pytest.approx(12 / 13)
    assert never["stalemate"] == pytest.approx(1 / 13)
    bad = post(client, ODDS, {**body, "options": {"defender_submerge": "sometimes"}})
    assert bad.status_code == 400 and bad.json()["field"] == "options.defender_submerge"
    schema = client.get("/api/schema/?format=json").json()
    options = schema["components"]["schemas"]["AAOddsInput"]["properties"]["options"]
    assert options["properties"]["defender_submerge"]["enum"] == [
        "never", "when_cannot_hit", "always",
    ]  # fmt: skip
    assert options["properties"]["landed_from_sea"]["minimum"] == 0


def test_odds_of_the_aa_chess_text_example_one(client):
    # Orthodox chess, classic edition: 6 infantry attack at 1 = 6 -> one hit; 3 infantry defend
    # at 2 = 6 -> one hit. One round leaves 5 v 2 for certain; the attacker has not taken it.
    body = {
        "attacker": {"infantry": 6},
        "defender": {"infantry": 3},
        "rules": "chess",
        "edition": "classic",
        "rounds": 1,
    }
    response = post(client, ODDS, body)
    assert response.status_code == 200
    odds = response.json()
    assert odds["outcomes"][0]["attacker_left"] == {"infantry": 5}
    assert odds["outcomes"][0]["defender_left"] == {"infantry": 2}
    assert odds["outcomes"][0]["probability"] == pytest.approx(1)
    assert len(odds["outcomes"]) == 1


def test_odds_names_the_unknown_unit_and_lists_the_edition_units(client):
    response = post(client, ODDS, {"attacker": {"infantry": 1}, "defender": {"tank": 1}})
    assert response.status_code == 400
    error = response.json()
    assert (error["error"], error["field"]) == ("invalid_input", "defender.tank")
    assert error["message"] == "not a unit of the revised edition"
    assert "armor" in error["allowed"] and "tank" not in error["allowed"]


def test_odds_unknown_rules_are_named_by_the_resolver(client):
    body = {**THREE_V_ONE, "rules": "poker"}
    error = post(client, ODDS, body).json()
    assert (error["error"], error["field"]) == ("invalid_input", "rules")
    assert error["message"]
    assert error["allowed"] == [
        "chess",
        "chess-cof",
        "chess-cof-r",
        "chess-ryof",
        "chess-ryof6",
        "dice",
        "lowluck",
    ]


# --- the error shape for bad envelopes ------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "code", "message"),
    [
        ([1, 2], "invalid", "Invalid data. Expected a dictionary, but got list."),
        ("attack", "invalid", "Invalid data. Expected a dictionary, but got str."),
        (3, "invalid", "Invalid data. Expected a dictionary, but got int."),
        (None, "null", "No data provided"),
    ],
)
def test_a_body_that_is_not_an_object_is_a_400_about_the_body(client, body, code, message):
    response = post(client, ODDS, json.dumps(body))
    assert response.status_code == 400
    assert response.json() == {"error": code, "message": message, "field": "body", "allowed": None}


def test_malformed_json_is_a_400_about_the_body(client):
    response = post(client, BATTLES, '{"attacker": ')
    assert response.status_code == 400
    error = response.json()
    assert (error["error"], error["field"]) == ("parse_error", "body")
    assert error["message"].startswith("JSON parse error")
    assert AABattle.objects.count() == 0


def test_a_form_post_is_refused_as_unsupported_media(client):
    response = client.post(ODDS, {"attacker": "x"})
    assert response.status_code == 415
    error = response.json()
    assert (error["error"], error["field"]) == ("unsupported_media_type", "body")
    assert error["message"].startswith('Unsupported media type "multipart/form-data')


@pytest.mark.parametrize(
    ("body", "field", "code", "message"),
    [
        ({"defender": {"infantry": 1}}, "attacker", "required", "This field is required."),
        ({"attacker": {"infantry": 1}}, "defender", "required", "This field is required."),
        ({**THREE_V_ONE, "attacker": ["infantry"]}, "attacker", "not_a_dict", None),
        ({**THREE_V_ONE, "rounds": "3"}, "rounds", "invalid", "A valid integer is required."),
        ({**THREE_V_ONE, "rounds": True}, "rounds", "invalid", "A valid integer is required."),
        ({**THREE_V_ONE, "amphibious": "yes"}, "amphibious", "invalid", "Must be a valid boolean."),
        ({**THREE_V_ONE, "rules": 5}, "rules", "invalid", "Not a valid string."),
        ({**THREE_V_ONE, "attacker_order": "infantry"}, "attacker_order", "not_a_list", None),
        ({**THREE_V_ONE, "attacker_order": ["infantry", 7]}, "attacker_order.1", "invalid", None),
        (
            {**THREE_V_ONE, "techs": {"attacker": 5}},
            "techs",
            "invalid",
            'Must be a list of technology names or {"attacker": [...], "defender": [...]}.',
        ),
        ({**THREE_V_ONE, "options": [1]}, "options", "not_a_dict", None),
    ],
)
def test_wrong_types_are_a_400_naming_the_field(client, body, field, code, message):
    for url in (ODDS, BATTLES):
        response = post(client, url, body)
        assert response.status_code == 400, (url, response.json())
        error = response.json()
        assert (error["error"], error["field"]) == (code, field)
        assert error["allowed"] is None
        if message is not None:
            assert error["message"] == message
        else:
            assert isinstance(error["message"], str) and error["message"]
    assert AABattle.objects.count() == 0


def test_a_misspelt_field_is_refused_with_the_known_ones(client):
    response = post(client, BATTLES, {**THREE_V_ONE, "amphibous": True})
    assert response.status_code == 400
    error = response.json()
    assert (error["error"], error["field"]) == ("unknown_field", "amphibous")
    assert error["message"] == "unknown field"
    assert "amphibious" in error["allowed"] and "client_seed" in error["allowed"]
    assert AABattle.objects.count() == 0


def test_client_seed_longer_than_200_characters_is_refused(client):
    assert create(client, {**THREE_V_ONE, "client_seed": "x" * 200})["client_seed"] == "x" * 200
    response = post(client, BATTLES, {**THREE_V_ONE, "client_seed": "x" * 201})
    assert response.status_code == 400
    assert response.json() == {
        "error": "max_length",
        "message": "Ensure this field has no more than 200 characters.",
        "field": "client_seed",
        "allowed": None,
    }
    assert AABattle.objects.count() == 1


# --- battles with server dice ---------------------------------------------------------------


def test_a_created_battle_publishes_the_commitment_and_hides_the_seed(client, monkeypatch):
    seed = "ab" * 32
    monkeypatch.setattr("combat.services.secrets.token_hex", lambda n: seed)
    battle = create(client)
    battle_id = uuid.UUID(battle["id"])
    assert battle["seed"] is None
    assert battle["closed"] is False and battle["closed_at"] is None
    assert battle["commitment"] == hashlib.sha256(seed.encode()).hexdigest()
    assert battle["context"] == f"aa-battle:{battle_id}"
    assert battle["client_seed"] is None
    assert battle["verification"]["verified"] is None
    assert battle["request"] == {
        "attacker": {"infantry": 3},
        "defender": {"infantry": 1},
        "rules": "dice",
        "edition": "revised",
        "rounds": None,
        "attacker_order": None,
        "defender_order": None,
        "amphibious": False,
        "techs": [],
        "options": None,
    }
    rolls = all_rolls(battle["report"])
    assert len(rolls) >= 4  # round 1: three attack dice and one defence die
    assert [r["counter"] for r in rolls] == list(range(len(rolls)))  # every roll, in order
    assert battle["report"]["winner"] in ("attacker", "defender", "draw")

    stored = AABattle.objects.get(pk=battle_id)
    assert stored.seed == seed
    assert stored.close_token_hash == hashlib.sha256(battle["close_token"].encode()).hexdigest()
    assert battle["close_token"] not in json.dumps(
        [stored.request, stored.report, stored.context, stored.close_token_hash]
    )


def test_the_client_seed_is_mixed_into_the_context(client):
    battle = create(client, {**THREE_V_ONE, "client_seed": "my dog's name"})
    assert battle["client_seed"] == "my dog's name"
    assert battle["context"] == f"aa-battle:{battle['id']}:my dog's name"


def test_get_before_closing_hides_the_seed_and_the_token(client):
    battle = create(client)
    response = client.get(f"{BATTLES}/{battle['id']}")
    assert response.status_code == 200
    shown = response.json()
    assert shown["seed"] is None
    assert "close_token" not in shown
    assert shown["verification"]["verified"] is None
    assert shown["report"] == battle["report"]
    assert shown["commitment"] == battle["commitment"]


def test_closing_with_a_wrong_token_is_403_and_the_seed_stays_hidden(client):
    battle = create(client)
    close = f"{BATTLES}/{battle['id']}/close"
    for body in ({"close_token": "not-it"}, {}):
        response = post(client, close, body)
        assert response.status_code == 403
        error = response.json()
        assert (error["error"], error["field"]) == ("forbidden", "close_token")
        assert error["allowed"] is None
    assert post(client, close, {"close_token": "not-it"}).json()["message"] == (
        "does not match this battle's close token"
    )
    assert client.get(f"{BATTLES}/{battle['id']}").json()["seed"] is None
    assert AABattle.objects.get(pk=battle["id"]).closed_at is None


def test_closing_reveals_a_seed_that_reproduces_every_roll(client):
    battle = create(client, {**THREE_V_ONE, "client_seed": "c"})
    close = f"{BATTLES}/{battle['id']}/close"
    response = post(client, close, {"close_token": battle["close_token"]})
    assert response.status_code == 200
    closed = response.json()
    seed, context = closed["seed"], closed["context"]
    assert len(seed) == 64
    assert hashlib.sha256(seed.encode()).hexdigest() == battle["commitment"]
    assert closed["closed"] is True and closed["closed_at"] is not None
    assert closed["verification"]["verified"] is True
    assert "combat.dice" in closed["verification"]["procedure"]
    rolls = all_rolls(closed["report"])
    assert rolls
    for roll in rolls:
        assert derive_roll(seed, context, roll["counter"], roll["sides"]) == roll["value"]
        assert roll["hit"] == (roll["value"] <= roll["needed"])
    assert client.get(f"{BATTLES}/{battle['id']}").json() == closed


def test_closing_twice_answers_the_same(client):
    battle = create(client)
    close = f"{BATTLES}/{battle['id']}/close"
    first = post(client, close, {"close_token": battle["close_token"]})
    second = post(client, close, {"close_token": battle["close_token"]})
    assert first.status_code == second.status_code == 200
    assert first.json() == second.json()
    assert post(client, close, {"close_token": "wrong"}).status_code == 403


def test_a_tampered_report_fails_verification(client):
    battle = create(client)
    stored = AABattle.objects.get(pk=battle["id"])
    first = stored.report["rounds"][0]["fire"][0]["rolls"][0]
    first["value"] = first["value"] % 6 + 1  # any other face
    stored.save()
    closed = post(client, f"{BATTLES}/{battle['id']}/close", {"close_token": battle["close_token"]})
    assert closed.json()["verification"]["verified"] is False


def test_a_battle_the_resolver_rejects_leaves_no_row(client):
    response = post(client, BATTLES, {"attacker": {"tank": 2}, "defender": {"infantry": 1}})
    assert response.status_code == 400
    error = response.json()
    assert (error["error"], error["field"]) == ("invalid_input", "attacker.tank")
    assert error["message"]
    assert "armor" in error["allowed"]
    assert AABattle.objects.count() == 0


def test_a_diceless_battle_rolls_nothing_and_still_verifies(client):
    battle = create(client, {**THREE_V_ONE, "rules": "chess", "edition": "classic"})
    # 3 infantry attack at 1 = 3 < 5: no hit; 1 infantry defends at 2 < 4: no hit -> stalemate.
    assert battle["report"]["winner"] == "stalemate"
    assert all_rolls(battle["report"]) == []
    closed = post(client, f"{BATTLES}/{battle['id']}/close", {"close_token": battle["close_token"]})
    assert closed.json()["verification"]["verified"] is True


def test_a_signed_in_requester_closes_without_the_token(client):
    users = get_user_model().objects
    owner = users.create_user("owner", password="pw-owner-123")
    other = users.create_user("other", password="pw-other-123")
    client.force_login(owner)
    battle = create(client)
    assert AABattle.objects.get(pk=battle["id"]).requester == owner
    close = f"{BATTLES}/{battle['id']}/close"

    client.force_login(other)
    assert post(client, close, {}).status_code == 403

    client.force_login(owner)
    response = post(client, close, {})
    assert response.status_code == 200
    assert response.json()["verification"]["verified"] is True


def test_an_anonymous_battle_has_no_requester(client):
    battle = create(client)
    assert AABattle.objects.get(pk=battle["id"]).requester is None


@pytest.mark.parametrize("battle_id", [str(uuid.UUID(int=0)), "not-a-uuid"])
def test_an_unknown_battle_is_a_404_about_the_id(client, battle_id):
    for response in (
        client.get(f"{BATTLES}/{battle_id}"),
        post(client, f"{BATTLES}/{battle_id}/close", {"close_token": "x"}),
    ):
        assert response.status_code == 404
        assert response.json() == {
            "error": "not_found",
            "message": "no A&A battle has this id",
            "field": "id",
            "allowed": None,
        }


def test_a_wrong_method_uses_the_same_error_shape(client):
    response = client.get(ODDS)
    assert response.status_code == 405
    assert response.json() == {
        "error": "method_not_allowed",
        "message": 'Method "GET" not allowed.',
        "field": None,
        "allowed": None,
    }
    assert response["Allow"] == "POST, OPTIONS"


# --- OpenAPI --------------------------------------------------------------------------------


def test_the_endpoints_are_in_the_schema(client):
    response = client.get("/api/schema/?format=json")
    assert response.status_code == 200
    schema = response.json()
    paths = schema["paths"]
    odds = paths["/api/combat/aa/odds"]["post"]
    # Every operation: 401 (a bad token), 429 (anonymous use is rate-limited); with a body, 413
    # and 415 (games.web.schema). The odds may be a 503 (busy, or out of budget).
    shared = {"401", "429"}
    body = shared | {"413", "415"}
    assert set(odds["responses"]) == {"200", "400", "503"} | body
    assert "requestBody" in odds
    create_op = paths["/api/combat/aa/battles"]["post"]
    assert set(create_op["responses"]) == {"201", "400"} | body
    assert "requestBody" in create_op
    retrieve = paths["/api/combat/aa/battles/{battle_id}"]["get"]
    assert set(retrieve["responses"]) == {"200", "404"} | shared
    close = paths["/api/combat/aa/battles/{battle_id}/close"]["post"]
    assert set(close["responses"]) == {"200", "400", "403", "404"} | body

    components = schema["components"]["schemas"]
    created = components["AABattleCreatedOutput"]["properties"]
    assert {"id", "report", "commitment", "context", "seed", "close_token"} <= set(created)
    error = components["Error"]
    assert list(error["properties"]) == ["error", "message", "field", "allowed"]
    assert error["properties"]["error"]["type"] == "string"
    assert error["properties"]["field"]["nullable"] is True
    assert error["properties"]["allowed"]["nullable"] is True
    assert "ErrorDetail" not in components
    assert components["AABattleResultEnum"]["enum"] == ["attacker", "defender", "draw", "stalemate"]
    assert "attacker" in components["AABattleCreateInput"]["required"]
