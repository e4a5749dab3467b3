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
}


def test_schema_validates_without_warnings(tmp_path):
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    schema = yaml.safe_load(target.read_text())
    operations = {op["operationId"] for path in schema["paths"].values() for op in path.values()}
    assert operations == OPERATIONS
