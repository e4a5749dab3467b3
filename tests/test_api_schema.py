"""The OpenAPI schema validates with no warnings, documents every API operation, and states the
constraints the server enforces (tests/test_api_fuzz.py checks the server
against it)."""

from __future__ import annotations

from typing import Any

import pytest
import yaml
from django.core.management import call_command

from combat.axis_allies.editions import available_editions, load_edition
from combat.crt.france_1944 import COMBAT_TYPES
from combat.poker.cards import DECK
from games.models import Game
from games.play.lobby import MAX_TIMEOUTS
from games.web.web_errors import ID_MAX
from risk.rules import Options

OPERATIONS = {
    "aa_odds",
    "aa_battle_create",
    "aa_battle_retrieve",
    "aa_battle_close",
    "aa_editions",
    "aa_take",
    "aa_retreat",
    "aa_swing",
    "aa_waves",
    "aa_cheapest",
    "aa_order_check",
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
    "notifications_settings_retrieve",
    "notifications_settings_update",
    "notifications_devices_create",
    "notifications_devices_unsubscribe",
    "games_list",
    "games_create",
    "maps_list",
    "maps_retrieve",
    "maps_upload",
    "maps_publish",
    "games_retrieve",
    "protocol_retrieve",
    "games_join",
    "games_leave",
    "games_bots",
    "games_cancel",
    "games_start",
    "games_events",
    "games_chat",
    "games_actions",
    "games_replay",
    "games_replay_board",
    "games_hint",
    "games_pieces",
    "me_pieces",
    "rooms_list",
    "rooms_create",
    "rooms_retrieve",
    "rooms_join",
    "rooms_journal",
    "rooms_transcript",
    "rooms_post",
    "ratings_list",
    "player_ratings",
    "tournaments_list",
    "tournaments_create",
    "tournaments_retrieve",
    "tournaments_register",
    "tournaments_withdraw",
    "tournaments_start",
    "tournaments_pair",
    "tournaments_finish",
    "tournaments_cancel",
    "tournaments_entrant_remove",
    "tournaments_stand_in",
    "tournaments_result",
}


def test_schema_validates_without_warnings(tmp_path):
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(target))
    schema = yaml.safe_load(target.read_text())
    operations = {op["operationId"] for path in schema["paths"].values() for op in path.values()}
    assert operations == OPERATIONS


def test_every_4xx_answer_documents_the_one_flat_error_shape(tmp_path):
    """The one error shape {"error": code, "message", "field", "allowed"} (web.exceptions)."""
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


@pytest.fixture(scope="module")
def schema(tmp_path_factory) -> dict[str, Any]:
    target = tmp_path_factory.mktemp("schema") / "schema.yaml"
    call_command("spectacular", "--file", str(target))
    return yaml.safe_load(target.read_text())


def operations(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {op["operationId"]: op for path in schema["paths"].values() for op in path.values()}


def body(schema: dict[str, Any], operation_id: str) -> dict[str, Any]:
    """The JSON request body schema of an operation, its $ref resolved."""
    content = operations(schema)[operation_id]["requestBody"]["content"]
    assert list(content) == ["application/json"]
    ref = content["application/json"]["schema"]["$ref"]
    return schema["components"]["schemas"][ref.rsplit("/", 1)[1]]


def resolved(schema: dict[str, Any], prop: dict[str, Any]) -> dict[str, Any]:
    """A property with a named enum's ``$ref`` (alone or in ``allOf``) read from its component."""
    ref = prop.get("$ref") or (prop.get("allOf") or [{}])[0].get("$ref")
    return schema["components"]["schemas"][ref.rsplit("/", 1)[1]] if ref else prop


def test_every_operation_documents_the_401_of_a_bad_token_with_its_challenge(schema):
    """Token authentication comes first everywhere, so a bad token is refused even where
    anonymous use is allowed (the calculators, the lobby list)."""
    for operation_id, op in operations(schema).items():
        answer = op["responses"].get("401")
        assert answer is not None, operation_id
        assert answer["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/Error"
        }
        assert answer["headers"]["WWW-Authenticate"]["required"] is True, operation_id


def test_request_bodies_are_json_only_and_may_be_too_large(schema):
    """Form bodies cannot carry the nested objects (options, an action): not documented."""
    for operation_id, op in operations(schema).items():
        if "requestBody" not in op:
            continue
        assert list(op["requestBody"]["content"]) == ["application/json"], operation_id
        assert {"413", "415"} <= set(op["responses"]), operation_id


def test_throttled_and_busy_answers_say_when_to_try_again(schema):
    ops = operations(schema)
    for operation_id, code in [("auth_login", "429"), ("auth_token_create", "429"),
                               ("risk_odds", "429"), ("games_actions", "429"),
                               ("risk_odds", "503"), ("aa_odds", "503")]:  # fmt: skip
        assert ops[operation_id]["responses"][code]["headers"]["Retry-After"]["required"] is True


def test_path_ids_are_bounded_as_the_url_converter_is(schema):
    checked = set()
    for path, item in schema["paths"].items():
        for name in ("game_id", "room_id", "tournament_id", "table_id"):
            if "{" + name + "}" not in path:
                continue
            for op in item.values():
                (param,) = [p for p in op["parameters"] if p["name"] == name]
                assert param["schema"] == {"type": "integer", "minimum": 0, "maximum": ID_MAX}
                checked.add(name)
    assert checked == {"game_id", "room_id", "tournament_id", "table_id"}


def test_tournament_writes_document_their_429_and_the_public_reads_do_not(schema):
    """The tournaments' throttle counts writes only (games.common.throttles)."""
    ops = operations(schema)
    for operation_id, op in ops.items():
        if operation_id.startswith("tournaments_"):
            throttled = "429" in op["responses"]
            assert throttled == (operation_id not in ("tournaments_list", "tournaments_retrieve"))


def test_a_new_tournament_states_its_fields_and_refuses_unknown_ones(schema):
    create = body(schema, "tournaments_create")
    assert create["additionalProperties"] is False
    assert set(create["required"]) == {"name", "play", "format"}
    props = create["properties"]
    assert set(resolved(schema, props["format"])["enum"]) == {
        "round_robin", "swiss", "knockout", "tables"}  # fmt: skip
    assert props["place_points"]["items"] == {"type": "number", "minimum": 0, "maximum": 1000}
    assert props["options"]["additionalProperties"] is False
    assert (props["max_entrants"]["minimum"], props["max_entrants"]["maximum"]) == (2, 256)
    detail = schema["components"]["schemas"]["TournamentDetailOut"]
    assert "log" not in detail["required"]  # staff only
    assert {"entrants", "pairings", "standings", "crosstable"} <= set(detail["required"])


def test_a_new_game_states_its_ranges_and_every_rules_option(schema):
    create = body(schema, "games_create")["properties"]
    assert (create["seats"]["minimum"], create["seats"]["maximum"]) == (2, 6)
    assert (create["max_timeouts"]["minimum"], create["max_timeouts"]["maximum"]) == (
        1,
        MAX_TIMEOUTS,
    )
    assert (create["minutes"]["minimum"], create["minutes"]["maximum"]) == (1, 240)
    assert (create["days"]["minimum"], create["days"]["maximum"]) == (1, 30)
    assert set(resolved(schema, create["time_control"])["enum"]) == set(Game.TimeControl.values)
    options = create["options"]
    assert options["additionalProperties"] is False
    # Every rules option a host may set: all but the rule revision, which is never chosen.
    assert set(options["properties"]) == set(Options.__dataclass_fields__) - {"revision"}
    # The published maps change while the server runs: a name, listed by GET /api/maps.
    assert options["properties"]["map"]["type"] == "string"
    assert "GET /api/maps" in options["properties"]["map"]["description"]
    version = options["properties"]["map_version"]
    assert (version["type"], version["minimum"], version["nullable"]) == ("integer", 1, True)
    assert options["properties"]["win"]["enum"] == ["last-standing", "domination", "round-limit"]
    assert options["properties"]["round_limit"]["minimum"] == 1
    assert options["properties"]["reveal_once"]["type"] == "boolean"
    least = options["properties"]["min_commitment"]
    assert (least["type"], least["minimum"], least["maximum"], least["default"]) == (
        "integer", 2, 10, 2,
    )  # fmt: skip
    assert options["properties"]["defender_dice"]["enum"] == ["commitment", "normal"]
    assert options["properties"]["defender_dice"]["default"] == "commitment"


def test_a_game_list_filter_is_one_of_the_statuses(schema):
    params = {p["name"]: p for p in operations(schema)["games_list"]["parameters"]}
    assert set(params) == {"status", "mine", "waiting", "joinable"}
    assert set(params["status"]["schema"]["enum"]) == set(Game.Status.values)
    assert params["waiting"]["schema"]["enum"] == ["me"]
    assert "400" in operations(schema)["games_list"]["responses"]


def test_format_email_only_where_an_empty_address_is_refused(schema):
    """A profile may have no address: the answer's email is a plain string, and the inputs
    that take one accept "" as a second choice beside an address (at most 254 characters)."""
    components = schema["components"]["schemas"]
    assert components["AccountProfile"]["properties"]["email"] == {
        "type": "string",
        "description": "The address, or empty.",
    }
    for name in ("AccountRegisterInput", "PatchedAccountProfileUpdate"):
        address, empty = components[name]["properties"]["email"]["oneOf"]
        assert address["format"] == "email" and address["maxLength"] == 254
        assert empty == {"type": "string", "maxLength": 0}


def test_strings_that_may_not_be_blank_say_so(schema):
    credentials = schema["components"]["schemas"]["AccountCredentials"]["properties"]
    assert credentials["username"]["minLength"] == 1
    assert credentials["username"]["pattern"] == "^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$"
    assert credentials["password"]["pattern"] == "^[^\\u0000]*$"  # not trimmed: " " is one


def test_calculator_bodies_refuse_unknown_keys_and_state_their_ranges(schema):
    closed = ("aa_odds", "aa_battle_create", "aa_battle_close", "aa_take", "aa_retreat",
              "aa_swing", "aa_waves", "aa_cheapest", "aa_order_check", "risk_odds",
              "poker_evaluate", "wif_land", "france_1944", "auth_me_update")  # fmt: skip
    for operation_id in closed:
        assert body(schema, operation_id)["additionalProperties"] is False, operation_id
    risk = body(schema, "risk_odds")["properties"]
    assert (risk["defenders"]["minimum"], risk["defenders"]["maximum"]) == (1, 1000)
    assert risk["flanks"]["minItems"] == 2
    assert (risk["flanks"]["items"]["minimum"], risk["flanks"]["items"]["maximum"]) == (2, 60)
    assert resolved(schema, risk["defender_dice"])["enum"] == ["commitment", "normal"]
    france = body(schema, "france_1944")["properties"]
    assert (france["attacker_morale"]["minimum"], france["attacker_morale"]["maximum"]) == (1, 6)
    assert (france["other_morale"]["minimum"], france["other_morale"]["maximum"]) == (-6, 6)
    assert france["defense"]["exclusiveMinimum"] is True
    assert resolved(schema, france["combat"])["enum"] == list(COMBAT_TYPES)
    poker = body(schema, "poker_evaluate")
    assert poker["oneOf"] == [{"required": ["cards"]}, {"required": ["hands"]}]
    assert resolved(schema, poker["properties"]["cards"]["items"])["enum"] == list(DECK)
    assert poker["properties"]["cards"]["uniqueItems"] is True
    assert operations(schema)["poker_evaluate"]["requestBody"]["required"] is True
    aa = body(schema, "aa_odds")["properties"]
    units = {name for key in available_editions() for name in load_edition(key).units}
    assert set(aa["attacker"]["properties"]) == units
    assert aa["attacker"]["additionalProperties"] is False
    assert aa["options"]["additionalProperties"] is False


def test_each_action_type_is_a_component_the_body_names_by_its_type(tmp_path):
    """The action body is typed, one component per action type, with the fields,
    types and required keys ``action_from_dict`` reads (an attack's flanks are pairs)."""
    from risk.rules.actions import ACTION_TYPES

    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--file", str(target))
    schema = yaml.safe_load(target.read_text())
    components = schema["components"]["schemas"]
    body = components["ActionInput"]["properties"]["action"]
    assert body == {"$ref": "#/components/schemas/Action"}
    mapping = components["Action"]["discriminator"]["mapping"]
    assert sorted(mapping) == sorted(ACTION_TYPES)
    attack = components["AttackAction"]
    assert sorted(attack["required"]) == ["flanks", "mode", "target", "type"]
    assert attack["additionalProperties"] is False
    flank = attack["properties"]["flanks"]["items"]
    assert (flank["minItems"], flank["maxItems"]) == (2, 2)
    assert components["RollAction"]["required"] == ["type"]  # add, dice, until_decided default
    assert components["EndTurnAction"]["properties"]["ally"]["nullable"] is True


def test_the_game_answers_are_typed(tmp_path):
    """A game's detail and the lobby's list are components, not free-form objects
    (the fuzz test checks every answer against them)."""
    target = tmp_path / "schema.yaml"
    call_command("spectacular", "--file", str(target))
    schema = yaml.safe_load(target.read_text())
    ok = {
        op["operationId"]: op["responses"].get("200", op["responses"].get("201"))
        for path in schema["paths"].values()
        for op in path.values()
    }
    detail = {"$ref": "#/components/schemas/GameDetailOut"}
    for operation in ("games_retrieve", "games_create", "games_join", "games_bots", "games_start"):
        assert ok[operation]["content"]["application/json"]["schema"] == detail, operation
    listed = ok["games_list"]["content"]["application/json"]["schema"]
    assert listed == {"$ref": "#/components/schemas/GameListOut"}
    props = schema["components"]["schemas"]["GameDetailOut"]["properties"]
    assert {"you", "view", "turn", "pending", "ai_level", "hints"} <= set(props)


def test_the_view_and_the_protocol_are_components_from_its_definitions(schema):
    """The game view is the GameView component (games.protocol.view), not an object described
    in words; the events and the socket's messages are components too, each event by its type,
    and the legal actions, each type with its options."""
    from games.protocol.events import EVENTS

    components = schema["components"]["schemas"]
    view = components["GameDetailOut"]["properties"]["view"]
    assert view["allOf"] == [{"$ref": "#/components/schemas/GameView"}] and view["nullable"]
    assert components["GameView"]["properties"]["seats"]["items"] == {
        "$ref": "#/components/schemas/SeatView"
    }
    mapping = components["Event"]["discriminator"]["mapping"]
    assert sorted(mapping) == sorted(EVENTS)
    assert mapping["placed"] == "#/components/schemas/PlacedEvent"
    assert components["PlacedEvent"]["required"] == ["type", "seat", "territory", "armies"]
    update = components["UpdateMessage"]["properties"]
    assert update["pending"]["items"] == {"$ref": "#/components/schemas/PendingView"}
    assert {"SocketClientMessage", "SocketServerMessage"} <= set(components)
    from games.protocol.legal import LEGAL

    legal = components["GameView"]["properties"]["legal_actions"]["items"]
    assert legal == {"$ref": "#/components/schemas/LegalAction"}
    mapping = components["LegalAction"]["discriminator"]["mapping"]
    assert sorted(mapping) == sorted(LEGAL) and len(mapping) == 30
    assert mapping["place"] == "#/components/schemas/LegalPlace"
    assert components["LegalPlace"]["properties"]["options"] == {
        "$ref": "#/components/schemas/PlaceOptions"
    }
    assert components["PlaceOptions"]["required"] == ["territories", "min", "max"]
    assert components["AttackRoom"]["properties"]["normal"] == {
        "type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "integer"}
    }  # fmt: skip
