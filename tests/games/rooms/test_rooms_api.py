"""The rooms' API under /api/rooms: creating, joining, posting, reading the journal as JSON and
as text, and every refusal with its status and code."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.urls import reverse
from rest_framework.test import APIClient

from combat.battle_notation import parse_battle, resolve_battle
from games.models import Room, RoomEntry
from games.rooms.core.rolls import RoomDice
from tests.games.conftest import client_for, make_user

START = datetime(2026, 11, 24, 10, 31, tzinfo=UTC)
SEED = "00" * 31 + "2a"
#: SHA-256 of SEED (printf 00...2a | sha256sum).
COMMITMENT = "9cf49eeaaa45bd96bd47cf2cfeaeb0df96b82897144c8db521cc1330cc495761"


@pytest.fixture(autouse=True)
def _known_seed(monkeypatch) -> None:
    monkeypatch.setattr("games.rooms.setup.new_seed", lambda: SEED)


def create(client, **extra):
    """An unrated room (a rated one's referee plays no side) that its creator referees and
    plays Germany in."""
    body = {"name": "Barbarossa", "system": "axis_allies", "rules": "lowluck", "rated": False,
            "sides": ["Germany", "Soviet Union"], "side": "Germany", **extra}  # fmt: skip
    return client.post("/api/rooms", body, format="json")


def post(client, room_id, **body):
    return client.post(f"/api/rooms/{room_id}/entries", body, format="json")


@pytest.fixture
def running(alice, bob, carol) -> int:
    """alice (Germany, referee as creator) and bob (Soviet Union); carol watches."""
    with time_machine.travel(START, tick=False):
        room_id = create(client_for(alice)).json()["id"]
        client_for(bob).post(f"/api/rooms/{room_id}/join", {"side": "Soviet Union"}, format="json")
    return room_id


def test_create_join_and_read_a_room(alice, bob):
    created = create(client_for(alice))
    assert created.status_code == 201
    body = created.json()
    assert (body["status"], body["rules"], body["edition"], body["referee"]) == (
        "open", "lowluck", "revised", "alice")  # fmt: skip
    assert body["edition_name"] == "Axis & Allies Revised (2004)"
    assert body["you"] == "Germany" and body["server_seed"] is None
    joined = client_for(bob).post(f"/api/rooms/{body['id']}/join", {"side": "Soviet Union"},
                                  format="json")  # fmt: skip
    assert joined.status_code == 200
    assert (joined.json()["status"], joined.json()["to_move"]) == ("running", "Germany")
    listed = client_for(bob).get("/api/rooms").json()["rooms"]
    assert [r["id"] for r in listed] == [body["id"]]
    assert listed[0]["edition_name"] == "Axis & Allies Revised (2004)"


def test_a_room_shows_its_editions_name_from_the_data_file(alice):
    """The list and the room give the edition's name as combat/axis_allies/data/*.toml has it;
    a World in Flames room has no edition."""
    client = client_for(alice)
    aa = create(client, edition="global-1940-2e").json()
    assert (aa["edition"], aa["edition_name"]) == (
        "global-1940-2e", "Axis & Allies Global 1940 Second Edition")  # fmt: skip
    wif = create(client, system="wif", rules="", name="Europe").json()
    assert (wif["edition"], wif["edition_name"]) == ("", "")
    listed = {r["id"]: r["edition_name"] for r in client.get("/api/rooms").json()["rooms"]}
    assert listed == {aa["id"]: "Axis & Allies Global 1940 Second Edition", wif["id"]: ""}


def test_bad_input_is_refused_naming_the_field(alice):
    client = client_for(alice)
    cases = [
        ({"sides": ["Germany"]}, "sides", "min_length"),
        ({"system": "chess"}, "system", "invalid_request"),
        ({"colour": "red"}, "colour", "unknown_field"),
        ({"days_per_turn": "3"}, "days_per_turn", "invalid"),
        ({"referee": "bob"}, "referee", "not_staff"),
    ]
    make_user("bob")
    for extra, field, code in cases:
        answer = create(client, **extra)
        assert answer.status_code == 400, extra
        assert (answer.json()["field"], answer.json()["error"]) == (field, code), extra


def test_a_battle_posts_its_request_and_result_and_the_journal_pages(running, alice):
    client = client_for(alice)
    answer = post(client, running, kind="battle", notation="3 inf 1 art vs 2 inf")
    assert answer.status_code == 201
    request, result = answer.json()["entries"]
    assert (request["number"], request["kind"]) == (5, "battle_request")
    assert request["data"]["notation"] == "a&a revised 3 inf 1 art vs 2 inf lowluck"
    assert (result["number"], result["kind"], result["refers_to"]) == (6, "battle_result", 5)
    rolls = [r["number"] for r in result["data"]["rolls"]]
    assert rolls == list(range(1, len(rolls) + 1)) and result["data"]["first_roll"] == 1
    assert 0 < result["data"]["odds"]["attacker_wins"] < 1
    page = client.get(f"/api/rooms/{running}/journal?after=4").json()
    assert (page["after"], page["last"], page["more"]) == (4, 6, False)
    assert [e["number"] for e in page["entries"]] == [5, 6]
    assert client.get(f"/api/rooms/{running}/journal?after=x").json()["field"] == "after"


def test_each_kind_needs_its_fields(running, alice):
    answer = post(client_for(alice), running, kind="challenge", text="no")
    assert answer.status_code == 400
    assert (answer.json()["error"], answer.json()["field"]) == ("required", "entry")
    answer = post(client_for(alice), running, kind="battle")
    assert (answer.status_code, answer.json()["field"]) == (400, "notation")
    answer = post(client_for(alice), running, kind="battle", notation="3 inf vs 2 inf dice")
    assert (answer.status_code, answer.json()["error"]) == (400, "invalid_notation")
    assert "'dice'" in answer.json()["message"] and "lowluck" in answer.json()["message"]


def test_refusals_say_who_may_do_what(running, alice, bob, carol):
    outsider = client_for(carol)
    note = post(outsider, running, kind="note", text="hello")
    assert (note.status_code, note.json()["error"]) == (403, "not_a_side")
    ruling = post(client_for(bob), running, kind="ruling", entry=1, decision="upheld")
    assert (ruling.status_code, ruling.json()["error"]) == (403, "not_referee")
    assert "alice" in ruling.json()["message"]
    turn = post(client_for(bob), running, kind="end_turn")
    assert (turn.status_code, turn.json()["error"]) == (409, "not_your_turn")
    anonymous = APIClient().get(f"/api/rooms/{running}")
    assert anonymous.status_code == 401
    assert outsider.get(f"/api/rooms/{running}").status_code == 200  # public: readable


def test_a_private_room_is_the_404_of_a_missing_id_to_others(alice, bob, carol):
    room_id = create(client_for(alice), public=False).json()["id"]
    for path in ("", "/journal", "/journal.txt"):
        answer = client_for(carol).get(f"/api/rooms/{room_id}{path}")
        assert answer.status_code == 404, path
        assert answer.json() == {"error": "not_found", "message": "no such room", "field": "id",
                                 "allowed": None}  # fmt: skip
    assert client_for(carol).get("/api/rooms").json()["rooms"] == []
    token = Room.objects.get(pk=room_id).invite_token
    join = client_for(bob).post(f"/api/rooms/{room_id}/join", {"side": "Soviet Union",
                                "invite": token}, format="json")  # fmt: skip
    assert join.status_code == 200
    assert client_for(bob).get(f"/api/rooms/{room_id}").status_code == 200


def test_the_transcript_of_a_small_room(running, alice, bob):
    with time_machine.travel(START + timedelta(minutes=5), tick=False):
        post(client_for(alice), running, kind="note", text="Germany buys 2 armor\nmoves to Karelia")
        post(client_for(bob), running, kind="battle", notation="2 inf vs 1 inf")
    answer = client_for(bob).get(f"/api/rooms/{running}/journal.txt")
    assert answer.status_code == 200
    assert answer["Content-Type"] == "text/plain; charset=utf-8"
    # The battle's result as the resolver gives it with the room's dice from roll 1 (its values
    # depend on the room's id): the transcript shows its summary and every numbered roll.
    dice = RoomDice(SEED, f"room:{running}", 1)
    expected = resolve_battle(parse_battle("a&a revised 2 inf vs 1 inf lowluck"), dice)
    rolls = " ".join(str(r.value) for r in dice.log)
    assert answer.content.decode() == TRANSCRIPT.format(
        room=running, commitment=COMMITMENT, summary=expected["summary"],
        last=dice.last, rolls=rolls,
    )  # fmt: skip


TRANSCRIPT = """\
Room {room}: Barbarossa (axis_allies, lowluck, revised)
Referee: alice
Seed commitment: {commitment}
Server seed: secret until the end

#1  2026-11-24 10:31 UTC  server  system: Room created: axis_allies (lowluck, revised); \
sides Germany, Soviet Union; referee alice; dice seed commitment SHA-256 {commitment}

#2  2026-11-24 10:31 UTC  Germany  system: alice plays Germany

#3  2026-11-24 10:31 UTC  Soviet Union  system: bob plays Soviet Union and accepts alice as referee

#4  2026-11-24 10:31 UTC  server  system: The room starts: turn 1, Germany to move

#5  2026-11-24 10:36 UTC  Germany  note: Germany buys 2 armor
    moves to Karelia

#6  2026-11-24 10:36 UTC  Soviet Union  battle: 2 inf vs 1 inf

#7  2026-11-24 10:36 UTC  server  result: {summary}
    rolls 1-{last}: {rolls}
"""


def test_the_admin_never_changes_a_journal_entry(running, client):
    admin = get_user_model().objects.create_superuser("root", "root@example.org", "x" * 12)
    client.force_login(admin)
    entry = RoomEntry.objects.get(room_id=running, number=1)
    url = reverse("admin:games_roomentry_change", args=[entry.pk])
    page = client.get(url)
    assert page.status_code == 200
    assert b'name="_save"' not in page.content
    changed = client.post(url, {"text": "rewritten", "kind": "note"})
    assert changed.status_code == 403
    assert client.post(reverse("admin:games_roomentry_delete", args=[entry.pk]),
                       {"post": "yes"}).status_code == 403  # fmt: skip
    entry.refresh_from_db()
    assert entry.text.startswith("Room created")


def test_room_posts_are_rate_limited_per_user(running, alice, bob, settings):
    rest = settings.REST_FRAMEWORK
    settings.REST_FRAMEWORK = {
        **rest, "DEFAULT_THROTTLE_RATES": {**rest["DEFAULT_THROTTLE_RATES"], "rooms": "2/min"}
    }  # fmt: skip
    cache.clear()  # the fixture's own writes (create, join) were counted at another time
    answers = [post(client_for(alice), running, kind="note", text=f"n{i}") for i in range(3)]
    assert [a.status_code for a in answers] == [201, 201, 429]
    assert answers[2].json()["error"] == "throttled" and int(answers[2]["Retry-After"]) > 0
    assert post(client_for(bob), running, kind="note", text="mine").status_code == 201
