"""The OpenAPI schema validates with no warnings and documents every API operation."""

from __future__ import annotations

import yaml
from django.core.management import call_command

OPERATIONS = {
    "aa_odds",
    "aa_battle_create",
    "aa_battle_retrieve",
    "aa_battle_close",
    "risk_odds",
    "poker_evaluate",
    "wif_land",
    "france_1944",
    "auth_register",
    "auth_login",
    "auth_logout",
    "auth_csrf",
    "auth_token_create",
    "auth_token_destroy",
    "auth_me_retrieve",
    "auth_me_update",
    "games_list",
    "games_create",
    "games_retrieve",
    "games_join",
    "games_leave",
    "games_bots",
    "games_start",
    "games_events",
    "games_actions",
    "games_replay",
}


def test_schema_validates_without_warnings(tmp_path):
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    schema = yaml.safe_load(target.read_text())
    operations = {op["operationId"] for path in schema["paths"].values() for op in path.values()}
    assert operations == OPERATIONS


def test_every_4xx_answer_documents_the_one_flat_error_shape(tmp_path):
    """Issue 7: {"error": code, "message", "field", "allowed"} (config.exceptions)."""
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--file", str(target))
    schema = yaml.safe_load(target.read_text())
    error = schema["components"]["schemas"]["Error"]
    assert list(error["properties"]) == ["error", "message", "field", "allowed"]
    assert error["properties"]["error"]["type"] == "string"
    assert error["properties"]["field"]["nullable"] is True
    assert error["properties"]["allowed"]["nullable"] is True
    assert set(error["required"]) == {"error", "message", "field", "allowed"}
    refused = {
        (op["operationId"], code): answer["content"]["application/json"]["schema"]
        for path in schema["paths"].values()
        for op in path.values()
        for code, answer in op["responses"].items()
        if code.startswith("4")
    }
    assert refused
    assert {
        key for key, body in refused.items() if body != {"$ref": "#/components/schemas/Error"}
    } == set()
