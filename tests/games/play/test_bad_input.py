"""Bad input is a clear 4xx, never a 500 (JSON depth, NUL in a username path, a socket message
of the wrong shape, error bodies that name no field).

Each test failed before: a deep JSON body to the calculators (their own DRF parser) was a 500,
JSON nested 33 levels was accepted anywhere, ``{"type": []}`` on the game socket was
``server_error`` (``TypeError: unhashable type``), ``{"": 1}`` was answered with
``"field": ""``, and ``%00`` in a username path was a 500 on PostgreSQL (the ``services`` test).
"""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache
from django.test import Client

from games.tournaments.settings import TournamentSettings
from games.web.parsers import MAX_JSON_DEPTH, TooDeep, check_depth, loads
from tests.games.conftest import client_for, make_user
from tests.games.play.test_consumer import connected, start_game, token_of
from tests.games.play.test_lobby_live import lobby_socket
from tests.sockets import game_socket

TOO_DEEP = f"nested too deeply: more than {MAX_JSON_DEPTH} levels of arrays and objects"


def nested(levels: int) -> str:
    """Valid JSON: ``levels`` arrays one in another, around a 1."""
    return "[" * levels + "1" + "]" * levels


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()  # the calculators' throttle counts per address
    yield
    cache.clear()


# --- JSON depth ---------------------------------------------------------------------------------


def test_the_depth_limit_is_exact_and_iterative():
    assert loads(nested(MAX_JSON_DEPTH)) is not None
    with pytest.raises(TooDeep):
        loads(nested(MAX_JSON_DEPTH + 1))
    with pytest.raises(TooDeep):
        loads("[" * 100_000)  # Python's parser gives up first: the same refusal
    check_depth({"a": [{"b": 1}]}, limit=3)
    with pytest.raises(TooDeep):
        check_depth({"a": [{"b": []}]}, limit=3)


@pytest.mark.django_db
@pytest.mark.parametrize("body", ["[" * 100_000, nested(MAX_JSON_DEPTH + 1)])
def test_a_deep_body_to_the_calculator_is_a_400_naming_the_body(body):
    answer = Client().post("/api/combat/aa/odds", data=body, content_type="application/json")
    assert answer.status_code == 400
    assert answer.json() == {
        "error": "parse_error",
        "message": f"JSON parse error - {TOO_DEEP}",
        "field": "body",
        "allowed": None,
    }


@pytest.mark.django_db
def test_a_deep_body_anywhere_is_refused_the_same_way(alice):
    web = Client()
    web.force_login(alice)
    for method, path in (("post", "/api/games"), ("patch", "/api/auth/me")):
        answer = getattr(web, method)(
            path, data=nested(MAX_JSON_DEPTH + 1), content_type="application/json"
        )
        assert (answer.status_code, answer.json()["error"]) == (400, "parse_error"), path
        assert TOO_DEEP in answer.json()["message"]


@pytest.mark.django_db(transaction=True)
async def test_the_sockets_refuse_deep_messages_and_a_type_that_is_no_string(alice, bob):
    game_id = await database_sync_to_async(start_game)(alice, bob)
    socket = game_socket(game_id, token=await database_sync_to_async(token_of)(alice))
    await connected(socket)
    await socket.send_to(text_data=json.dumps({"type": "ping", "x": json.loads(nested(40))}))
    error = await socket.receive_json_from(timeout=5)
    assert (error["status"], error["error"], error["field"]) == (400, "parse_error", "body")
    assert error["message"] == f"not valid JSON: {TOO_DEEP}"
    for kind in ([], {}, 1):
        await socket.send_json_to({"type": kind, "request_id": "r"})
        error = await socket.receive_json_from(timeout=5)
        assert (error["status"], error["error"], error["field"]) == (400, "invalid", "type")
        assert error["message"] == "a message's 'type' is a string"
        assert error["allowed"] == ["action", "chat", "ping", "state"]
    await socket.send_json_to({"type": "ping", "request_id": "p"})
    assert (await socket.receive_json_from(timeout=5))["type"] == "pong"  # the socket lives
    await socket.disconnect()

    lobby = await lobby_socket()
    await lobby.send_to(text_data=nested(MAX_JSON_DEPTH + 1))
    error = await lobby.receive_json_from(timeout=5)
    assert (error["status"], error["field"]) == (400, "body")
    await lobby.disconnect()


# --- error bodies name a field, or the body ---------------------------------------------------


@pytest.mark.django_db
def test_an_empty_key_is_blamed_on_the_body_not_on_an_empty_field(alice):
    answer = client_for(alice).patch("/api/auth/me", {"": 1}, format="json")
    assert answer.status_code == 400
    assert (answer.json()["error"], answer.json()["field"]) == ("unknown_field", "body")
    answer = client_for(alice).post("/api/rooms", {"": 1}, format="json")
    assert answer.status_code == 400
    body = answer.json()
    assert (body["error"], body["field"], body["message"]) == (
        "unknown_field", "body", "unknown field: an empty key")  # fmt: skip


# --- NUL in a username path -------------------------------------------------------------------


@pytest.mark.services
@pytest.mark.django_db
def test_a_nul_byte_in_a_username_path_is_a_404_on_postgresql():
    from games.tournaments import setup
    from tests.games.tournaments.test_tournaments_api import CHESS_CUP

    staff = make_user("ref", is_staff=True)
    tournament = setup.tournament_create(actor=staff, settings=TournamentSettings(**CHESS_CUP))
    web = Client(raise_request_exception=False)
    web.force_login(staff)
    api = web.get("/api/players/%00/ratings")
    assert (api.status_code, api.json()["error"]) == (404, "not_found")
    assert web.get("/players/%00").status_code == 404
    assert web.get("/players/a%00b").status_code == 404
    for action, body in (("remove", {"reason": "x"}), ("stand-in", {"on": True})):
        path = f"/api/tournaments/{tournament.pk}/entrants/%00/{action}"
        answer = web.post(path, body, content_type="application/json")
        assert (answer.status_code, answer.json()["error"]) == (404, "not_found"), action
    assert web.get("/api/players/ref/ratings").status_code == 200  # a name still works
