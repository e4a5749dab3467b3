"""A whole play-by-email Axis & Allies game in a room, through the HTTP API, from creation to
the agreed result, every battle adjudicated by the server and then verified by
``manage.py verify_room``.

The cast: carol (staff) referees; alice plays Germany, bob the Soviet Union, dave the United
Kingdom. Revised edition, dice rules, 3 days a turn.
"""

from __future__ import annotations

from io import StringIO
from itertools import pairwise

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.models import Room, RoomEntry
from tests.games.conftest import client_for, make_user
from tests.games.rooms.test_rooms import tamper


def post(client, room_id: int, **body):
    answer = client.post(f"/api/rooms/{room_id}/entries", body, format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()["entries"]


def test_a_pbem_axis_and_allies_game_from_creation_to_a_verified_result(alice, bob):
    carol = make_user("carol", is_staff=True)
    dave = make_user("dave")
    created = client_for(alice).post(
        "/api/rooms",
        {
            "name": "Spring 1942",
            "system": "axis_allies",
            "edition": "revised",
            "rules": "dice",
            "sides": ["Germany", "Soviet Union", "United Kingdom"],
            "side": "Germany",
            "referee": "carol",
            "days_per_turn": 3,
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    room_id = created.json()["id"]
    commitment = created.json()["seed_commitment"]
    for user, side in ((bob, "Soviet Union"), (dave, "United Kingdom")):
        joined = client_for(user).post(f"/api/rooms/{room_id}/join", {"side": side}, format="json")
        assert joined.status_code == 200
    germany, russia, britain, referee = (client_for(u) for u in (alice, bob, dave, carol))

    # Round 1: Germany attacks Karelia and Egypt, the Soviets counter, Britain lands.
    post(germany, room_id, kind="note", text="Buys 2 arm 1 inf. Moves 6 inf 2 arm to Karelia")
    _, karelia = post(germany, room_id, kind="battle", notation="6 inf 2 arm 1 ftr vs 5 inf 1 ftr")
    _, egypt = post(germany, room_id, kind="battle", notation="2 inf 1 arm 1 bmb vs 1 inf 1 arm")
    post(germany, room_id, kind="end_turn", text="Non-combat: ftr to Berlin")
    _, ukraine = post(russia, room_id, kind="battle", notation="3 inf 1 art 1 arm vs 2 inf 1 ftr")
    challenge = post(
        russia,
        room_id,
        kind="challenge",
        entry=karelia["number"],
        text="Karelia had 2 Soviet fighters, not 1",
    )[0]
    ruling, reroll = post(
        referee,
        room_id,
        kind="ruling",
        entry=challenge["number"],
        decision="voided",
        text="two fighters defend",
    )
    post(russia, room_id, kind="end_turn")
    _, landing = post(
        britain, room_id, kind="battle", notation="2 inf 1 arm 1 bb vs 2 inf amphibious"
    )
    post(britain, room_id, kind="end_turn")

    # The voided battle's rolls keep their numbers; the re-roll takes the next free ones.
    battles = [karelia, egypt, ukraine, reroll, landing]
    ranges = [(b["data"]["first_roll"], b["data"]["last_roll"]) for b in battles]
    assert ranges[0][0] == 1
    for (_, last), (first, _) in pairwise(ranges):
        assert first == last + 1
    assert reroll["data"]["replaces"] == karelia["number"]
    assert ruling["data"]["voids"] == karelia["number"]
    for result in battles:
        assert {"request", "odds", "result", "summary", "rolls"} <= set(result["data"])
        assert 0 <= result["data"]["odds"]["attacker_wins"] <= 1

    detail = germany.get(f"/api/rooms/{room_id}").json()
    assert (detail["turn"], detail["to_move"], detail["server_seed"]) == (2, "Germany", None)
    assert detail["rolls"] == ranges[-1][1]

    # A running room's dice cannot be verified yet: its seed is secret.
    with pytest.raises(CommandError, match="seed stays secret until the room has ended"):
        call_command("verify_room", str(room_id))

    # The result: Germany and the UK agree first, the Soviets last; the room ends.
    for client in (germany, britain):
        post(
            client,
            room_id,
            kind="agree_result",
            winners=["Soviet Union", "United Kingdom"],
            text="Allied victory: Berlin falls",
        )
    assert Room.objects.get(pk=room_id).status == Room.Status.RUNNING
    ended = post(
        russia,
        room_id,
        kind="agree_result",
        winners=["United Kingdom", "Soviet Union"],
        text="Allied victory: Berlin falls",
    )
    assert ended[-1]["data"]["event"] == "ended"
    room = Room.objects.get(pk=room_id)
    assert room.status == Room.Status.FINISHED
    assert room.result == {
        "winners": ["Soviet Union", "United Kingdom"],
        "text": "Allied victory: Berlin falls",
        "decided_by": "sides",
    }
    final = germany.get(f"/api/rooms/{room_id}").json()
    assert final["server_seed"] == room.server_seed and final["seed_commitment"] == commitment

    out = StringIO()
    call_command("verify_room", str(room_id), stdout=out)
    lines = out.getvalue().splitlines()
    assert lines == [f"room {room_id}: 5 battles replayed, {ranges[-1][1]} rolls checked", "OK"]
    numbers = list(RoomEntry.objects.filter(room=room).values_list("number", flat=True))
    assert numbers == list(range(1, len(numbers) + 1))


def test_verify_room_reports_a_forged_result(alice, bob):
    room_id = (
        client_for(alice)
        .post(
            "/api/rooms",
            {
                "name": "x",
                "system": "axis_allies",
                "sides": ["Axis", "Allies"],
                "side": "Axis",
                "rated": False,
            },
            format="json",
        )
        .json()["id"]
    )
    client_for(bob).post(f"/api/rooms/{room_id}/join", {"side": "Allies"}, format="json")
    _, result = post(client_for(alice), room_id, kind="battle", notation="3 inf vs 3 inf")
    for player in (alice, bob):  # the referee plays: the sides agree the result
        post(client_for(player), room_id, kind="agree_result", winners=["Axis"])
    entry = RoomEntry.objects.get(room_id=room_id, number=result["number"])
    forged = dict(
        entry.data["result"],
        winner="attacker" if entry.data["result"]["winner"] != "attacker" else "defender",
    )
    tamper(entry.pk, {**entry.data, "result": forged})
    with pytest.raises(CommandError, match=rf"FAILED: entry #{result['number']}: result logged"):
        call_command("verify_room", str(room_id), stdout=StringIO())
