"""The tournaments' API under /api/tournaments: the public reads, a player's entry and
withdrawal, every staff action, and the refusals: non-staff and anonymous callers write nothing,
a bad field is named."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from games.models import (
    Rating,
    TableSeat,
    Tournament,
    TournamentAction,
    TournamentEntrant,
    TournamentRound,
    TournamentTable,
)
from games.tournaments import results, setup
from games.tournaments.settings import TournamentSettings
from tests.games.conftest import client_for, make_user

#: A&A Chess rooms, 1 v 1, everyone meets everyone (the classic box's units).
CHESS_CUP = {"name": "Chess Cup", "play": "room", "format": "round_robin",
             "room_system": "axis_allies", "room_rules": "chess", "room_edition": "classic",
             "days_per_turn": 7}  # fmt: skip
#: Fast Risk tables of 3-6, two rounds of one game round each.
TABLES_CUP = {"name": "Tables Cup", "play": "fast_risk", "format": "tables", "rounds": 2,
              "options": {"win": "round-limit", "round_limit": 1}, "time_control": "untimed",
              "days": None, "ai_level": "easy"}  # fmt: skip


@pytest.fixture
def staff(db):
    return make_user("referee", is_staff=True)


@pytest.fixture
def dave(db):
    return make_user("dave")


def chess_cup(staff, players, **extra: Any) -> Tournament:
    """A registered room round robin (created by the services: these tests are the API's)."""
    tournament = setup.tournament_create(
        actor=staff, settings=TournamentSettings(**{**CHESS_CUP, **extra})
    )
    for player in players:
        setup.register(tournament_id=tournament.pk, user=player)
    return tournament


def state() -> tuple[Any, ...]:
    """Everything a tournament write can change, to compare before and after a refusal."""
    return (
        TournamentAction.objects.count(),
        list(Tournament.objects.values_list("pk", "status", "current_round", "rounds")
             .order_by("pk")),
        list(TournamentEntrant.objects.values_list("pk", "status", "seed", "bot_stands_in")
             .order_by("pk")),
        TournamentRound.objects.count(),
        list(TournamentTable.objects.values_list("pk", "outcome").order_by("pk")),
        list(TableSeat.objects.values_list("pk", "place", "points").order_by("pk")),
    )  # fmt: skip


def detail(client: APIClient, tournament_id: int) -> dict[str, Any]:
    answer = client.get(f"/api/tournaments/{tournament_id}")
    assert answer.status_code == 200
    return answer.json()


# --- staff only: each staff endpoint, refused to a player, then done by staff -------------------


def _create(staff, players) -> tuple[str, dict[str, Any]]:
    return "/api/tournaments", CHESS_CUP


def _start(staff, players) -> tuple[str, dict[str, Any]]:
    return f"/api/tournaments/{chess_cup(staff, players).pk}/start", {}


def _pair(staff, players) -> tuple[str, dict[str, Any]]:
    """Three players, pairing by hand: round 1 (a game and a bye) is over, round 2 not paired."""
    tournament = chess_cup(staff, players[:3], auto_pair=False)
    setup.tournament_start(actor=staff, tournament_id=tournament.pk)
    (game,) = TournamentTable.objects.filter(round__tournament=tournament, outcome="")
    results.enter_result(actor=staff, tournament_id=tournament.pk, table_id=game.pk, places=[1, 2])
    return f"/api/tournaments/{tournament.pk}/pair", {}


def _finish(staff, players) -> tuple[str, dict[str, Any]]:
    """The _pair event: round 1 complete, so the staff may end it there."""
    url, body = _pair(staff, players)
    return url.replace("/pair", "/finish"), body


def _cancel(staff, players) -> tuple[str, dict[str, Any]]:
    return f"/api/tournaments/{chess_cup(staff, players).pk}/cancel", {"reason": "venue lost"}


def _remove(staff, players) -> tuple[str, dict[str, Any]]:
    tournament = chess_cup(staff, players)
    return f"/api/tournaments/{tournament.pk}/entrants/bob/remove", {"reason": "no-show"}


def _stand_in(staff, players) -> tuple[str, dict[str, Any]]:
    tournament = setup.tournament_create(actor=staff, settings=TournamentSettings(**TABLES_CUP))
    setup.register(tournament_id=tournament.pk, user=players[1])
    return f"/api/tournaments/{tournament.pk}/entrants/bob/stand-in", {"on": True}


def _result(staff, players) -> tuple[str, dict[str, Any]]:
    tournament = chess_cup(staff, players)
    setup.tournament_start(actor=staff, tournament_id=tournament.pk)
    table = TournamentTable.objects.filter(round__tournament=tournament).first()
    assert table is not None
    url = f"/api/tournaments/{tournament.pk}/tables/{table.pk}/result"
    return url, {"places": [1, 2], "reason": "adjudicated"}


STAFF_WRITES: list[Callable[..., tuple[str, dict[str, Any]]]] = [
    _create, _start, _pair, _finish, _cancel, _remove, _stand_in, _result,
]  # fmt: skip


@pytest.mark.parametrize("prepare", STAFF_WRITES, ids=lambda f: f.__name__.strip("_"))
def test_every_staff_action_is_refused_to_a_player_and_writes_nothing(
    prepare, staff, alice, bob, carol, dave
):
    """alice is entered (in every event but the tables one) and signed in, but not staff."""
    url, body = prepare(staff, [alice, bob, carol, dave])
    before = state()

    refused = client_for(alice).post(url, body, format="json")

    assert refused.status_code == 403
    assert refused.json()["error"] == "staff_only"
    assert state() == before
    done = client_for(staff).post(url, body, format="json")  # the same request, by staff
    assert done.status_code in (200, 201), done.json()
    assert state() != before


def test_a_player_with_a_bad_body_is_told_staff_only_not_what_is_wrong_with_it(staff, alice):
    """The staff check comes before the body is read: a refusal never depends on the body."""
    answer = client_for(alice).post("/api/tournaments", {"colour": "red"}, format="json")
    assert (answer.status_code, answer.json()["error"]) == (403, "staff_only")


WRITES = [
    "/api/tournaments",
    "/api/tournaments/{id}/register",
    "/api/tournaments/{id}/withdraw",
    "/api/tournaments/{id}/start",
    "/api/tournaments/{id}/pair",
    "/api/tournaments/{id}/finish",
    "/api/tournaments/{id}/cancel",
    "/api/tournaments/{id}/entrants/alice/remove",
    "/api/tournaments/{id}/entrants/alice/stand-in",
    "/api/tournaments/{id}/tables/1/result",
]


@pytest.mark.parametrize("path", WRITES)
def test_anonymous_writes_are_refused_as_unauthenticated(path, staff, alice, bob):
    tournament = chess_cup(staff, [alice, bob])
    before = state()
    answer = APIClient().post(path.format(id=tournament.pk), {"places": [1, 2]}, format="json")
    assert answer.status_code == 401
    assert answer.json()["error"] == "not_authenticated"
    assert answer["WWW-Authenticate"] == "Token"
    assert state() == before


# --- creating -----------------------------------------------------------------------------------


def test_staff_create_a_tournament_and_read_it_back(staff):
    created = client_for(staff).post("/api/tournaments", CHESS_CUP, format="json")

    assert created.status_code == 201
    body = created.json()
    assert (body["name"], body["format"], body["status"]) == (
        "Chess Cup", "round_robin", "registration")  # fmt: skip
    assert body["game"] == {"play": "room", "system": "axis_allies", "rules": "chess",
                            "edition": "classic", "sides": ["Axis", "Allies"],
                            "days_per_turn": 7}  # fmt: skip
    assert (body["entrants"], body["pairings"], body["standings"]) == ([], [], [])
    assert (body["rounds"], body["current_round"], body["created_by"]) == (
        None, 0, "referee")  # fmt: skip
    assert [line["action"] for line in body["log"]] == ["created"]
    assert detail(client_for(staff), body["id"]) == body


def test_registration_dates_are_read_as_iso_datetimes(staff):
    body = {**CHESS_CUP, "registration_opens": "2026-12-01T10:00:00Z",
            "registration_closes": "2026-12-08T10:00:00+01:00"}  # fmt: skip
    created = client_for(staff).post("/api/tournaments", body, format="json")
    assert created.status_code == 201
    tournament = Tournament.objects.get()
    assert tournament.registration_opens == datetime(2026, 12, 1, 10, tzinfo=UTC)
    assert tournament.registration_closes == datetime(2026, 12, 8, 9, tzinfo=UTC)


@pytest.mark.parametrize(
    ("extra", "field", "code"),
    [
        ({"format": "ladder"}, "format", "invalid_request"),
        ({"colour": "red"}, "colour", "unknown_field"),
        ({"rounds": "3"}, "rounds", "invalid"),
        ({"rated": "yes"}, "rated", "invalid"),
        ({"registration_opens": "next Tuesday"}, "registration_opens", "invalid"),
        ({"max_entrants": 1000}, "max_entrants", "max_value"),
        ({"room_system": "chess"}, "room_system", "invalid_request"),
        ({"room_rules": "blitz"}, "room_rules", "invalid_request"),
        ({"room_sides": ["Axis", "Axis"]}, "room_sides.1", "invalid_request"),
        ({"room_sides": ["Axis", 3]}, "room_sides.1", "invalid"),
        ({"rounds": 3}, "rounds", "invalid_request"),  # a round robin's follow from its field
        ({"format": "tables"}, "format", "invalid_request"),  # tables are Fast Risk's
        ({"name": ""}, "name", "blank"),
    ],
)
def test_a_bad_field_is_refused_and_named(extra, field, code, staff):
    answer = client_for(staff).post("/api/tournaments", {**CHESS_CUP, **extra}, format="json")

    assert answer.status_code == 400, answer.json()
    assert (answer.json()["field"], answer.json()["error"]) == (field, code)
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("points", "field"),
    [
        ([10, 20, 5, 3, 2, 1], "place_points.1"),  # 2nd place may not score more than 1st
        ([10, 6, 4, 2, 1], "place_points"),  # one short of table_max (6)
        ([10, 6, 4, 2, 1, True], "place_points.5"),
        ([10, 6, 4, 2, 1, "0"], "place_points.5"),
    ],
)
def test_place_points_are_checked_place_by_place(points, field, staff):
    body = {**TABLES_CUP, "place_points": points}
    answer = client_for(staff).post("/api/tournaments", body, format="json")
    assert answer.status_code == 400
    assert answer.json()["field"] == field
    assert not Tournament.objects.exists()


def test_a_tables_event_with_its_own_points_table(staff):
    body = {**TABLES_CUP, "table_max": 4, "place_points": [5, 3, 1.5, 0]}
    created = client_for(staff).post("/api/tournaments", body, format="json")
    assert created.status_code == 201
    assert created.json()["place_points"] == [5.0, 3.0, 1.5, 0.0]
    assert created.json()["table_sizes"] == [3, 4]
    assert created.json()["game"]["options"]["round_limit"] == 1


def test_a_second_tournament_of_the_same_name_is_a_conflict(staff):
    client_for(staff).post("/api/tournaments", CHESS_CUP, format="json")
    again = client_for(staff).post("/api/tournaments", CHESS_CUP, format="json")
    assert (again.status_code, again.json()["error"]) == (409, "name_taken")


# --- entering and leaving -----------------------------------------------------------------------


def test_register_and_withdraw(staff, alice, bob):
    tournament = chess_cup(staff, [])
    url = f"/api/tournaments/{tournament.pk}"

    entered = client_for(bob).post(f"{url}/register")
    assert entered.status_code == 201
    assert [e["player"] for e in entered.json()["entrants"]] == ["bob"]
    assert "log" not in entered.json()
    assert client_for(alice).post(f"{url}/register").status_code == 201
    twice = client_for(bob).post(f"{url}/register")
    assert (twice.status_code, twice.json()["error"]) == (409, "already_entered")

    left = client_for(bob).post(f"{url}/withdraw")
    assert left.status_code == 200
    assert [e["player"] for e in left.json()["entrants"]] == ["alice"]
    assert left.json()["entrants"][0]["status"] == "active"
    gone = client_for(bob).post(f"{url}/withdraw")
    assert (gone.status_code, gone.json()["error"]) == (409, "not_entered")
    assert client_for(bob).post(f"{url}/register").status_code == 201  # may enter again
    seen = detail(APIClient(), tournament.pk)
    assert [e["player"] for e in seen["entrants"]] == ["alice", "bob"]  # by entry, until seeded
    listed = APIClient().get("/api/tournaments").json()["tournaments"]
    assert listed[0]["entrant_count"] == 2


def test_register_for_a_missing_or_started_tournament(staff, alice, bob, carol):
    missing = client_for(alice).post("/api/tournaments/999999/register")
    assert (missing.status_code, missing.json()["field"]) == (404, "id")
    tournament = chess_cup(staff, [alice, bob])
    setup.tournament_start(actor=staff, tournament_id=tournament.pk)
    late = client_for(carol).post(f"/api/tournaments/{tournament.pk}/register")
    assert (late.status_code, late.json()["error"]) == (409, "registration_closed")


# --- a whole round robin through the API --------------------------------------------------------


def test_staff_run_a_four_player_chess_round_robin(staff, alice, bob, carol, dave):
    """Seeds by A&A rating (unrated: 1500), equal ratings by registration order; FIDE's Berger
    table for 4: round 1 pairs seed 1 v seed 4 and seed 2 v seed 3, round 2 seed 4 v seed 3 and
    seed 1 v seed 2 (the first-named plays Axis, the first side)."""
    now = datetime(2026, 11, 1, tzinfo=UTC)
    for player, rating in ((alice, 1600.0), (dave, 1700.0)):
        Rating.objects.create(user=player, kind="axis_allies", rating=rating, deviation=80.0,
                              last_played=now)  # fmt: skip
    referee = client_for(staff)
    tournament_id = referee.post("/api/tournaments", CHESS_CUP, format="json").json()["id"]
    for player in (bob, alice, carol, dave):  # bob enters before carol: both 1500
        assert (
            client_for(player).post(f"/api/tournaments/{tournament_id}/register").status_code == 201
        )

    started = referee.post(f"/api/tournaments/{tournament_id}/start")

    assert started.status_code == 200
    body = started.json()
    assert (body["status"], body["rounds"], body["current_round"]) == ("running", 3, 1)
    seeds = [(e["player"], e["seed"], e["rating"]) for e in body["entrants"]]
    assert seeds == [("dave", 1, 1700.0), ("alice", 2, 1600.0), ("bob", 3, 1500.0),
                     ("carol", 4, 1500.0)]  # fmt: skip
    seen = detail(APIClient(), tournament_id)
    (round_1,) = seen["pairings"]
    pairs = [[p["player"] for p in t["players"]] for t in round_1["tables"]]
    assert pairs == [["dave", "carol"], ["alice", "bob"]]
    assert all(t["room"] is not None and t["outcome"] == "playing" for t in round_1["tables"])
    assert "log" not in seen
    assert "log" not in detail(client_for(alice), tournament_id)

    for table, places in zip(round_1["tables"], ([1, 2], [1, 1]), strict=True):
        url = f"/api/tournaments/{tournament_id}/tables/{table['id']}/result"
        entered = referee.post(url, {"places": places, "reason": "adjudicated"}, format="json")
        assert entered.status_code == 200, entered.json()

    body = detail(referee, tournament_id)
    assert [t["outcome"] for t in body["pairings"][0]["tables"]] == ["entered", "entered"]
    assert [[p["points"] for p in t["players"]] for t in body["pairings"][0]["tables"]] == [
        [1.0, 0.0], [0.5, 0.5]]  # fmt: skip
    assert body["current_round"] == 2  # paired itself when round 1 was complete
    pairs = [[p["player"] for p in t["players"]] for t in body["pairings"][1]["tables"]]
    assert pairs == [["carol", "bob"], ["dave", "alice"]]
    assert [(line["player"], line["score"]) for line in body["standings"]] == [
        ("dave", 1.0), ("alice", 0.5), ("bob", 0.5), ("carol", 0.0)]  # fmt: skip
    dave_row = next(row for row in body["crosstable"] if row["player"] == "dave")
    assert dave_row["rounds"] == [{"round": 1, "opponent": "carol", "opponent_rank": 4,
                                   "score": 1.0, "first": True}]  # fmt: skip
    actions = [(line["actor"], line["action"]) for line in body["log"]]
    assert actions == [
        ("referee", "created"), ("referee", "started"), ("referee", "paired"),
        ("referee", "result_entered"), ("referee", "result_entered"), (None, "paired"),
    ]  # fmt: skip
    assert body["log"][3]["detail"]["reason"] == "adjudicated"


def test_a_result_is_checked_against_the_table(staff, alice, bob):
    tournament = chess_cup(staff, [alice, bob])
    setup.tournament_start(actor=staff, tournament_id=tournament.pk)
    table = TournamentTable.objects.get(round__tournament=tournament)
    url = f"/api/tournaments/{tournament.pk}/tables/{table.pk}/result"
    referee = client_for(staff)
    cases = [
        ({"places": [1, 2, 3]}, 400, "places"),
        ({"places": [1, 3]}, 400, "places.1"),
        ({"places": ["1", 2]}, 400, "places.0"),
        ({"places": [1, 2], "winner": "alice"}, 400, "winner"),
        ({}, 400, "places"),
    ]
    for body, code, field in cases:
        answer = referee.post(url, body, format="json")
        assert (answer.status_code, answer.json()["field"]) == (code, field), body
    other = referee.post(f"/api/tournaments/{tournament.pk}/tables/999999/result",
                         {"places": [1, 2]}, format="json")  # fmt: skip
    assert (other.status_code, other.json()["field"]) == (404, "table")
    assert referee.post(url, {"places": [2, 1]}, format="json").status_code == 200
    again = referee.post(url, {"places": [1, 2]}, format="json")
    assert (again.status_code, again.json()["error"]) == (409, "table_done")
    finished = detail(APIClient(), tournament.pk)
    assert (finished["status"], finished["champion"]) == ("finished", "bob")


def test_staff_remove_an_entrant_stand_a_bot_in_and_cancel(staff, alice, bob):
    tables = setup.tournament_create(actor=staff, settings=TournamentSettings(**TABLES_CUP))
    for player in (alice, bob):
        setup.register(tournament_id=tables.pk, user=player)
    referee = client_for(staff)
    url = f"/api/tournaments/{tables.pk}"

    stood_in = referee.post(f"{url}/entrants/alice/stand-in", {}, format="json")
    assert stood_in.status_code == 200
    assert [(e["player"], e["bot_stands_in"]) for e in stood_in.json()["entrants"]] == [
        ("alice", True), ("bob", False)]  # fmt: skip
    off = referee.post(f"{url}/entrants/alice/stand-in", {"on": False}, format="json")
    assert off.json()["entrants"][0]["bot_stands_in"] is False
    nobody = referee.post(f"{url}/entrants/mallory/remove", {}, format="json")
    assert (nobody.status_code, nobody.json()["field"]) == (404, "username")
    removed = referee.post(f"{url}/entrants/bob/remove", {"reason": "no-show"}, format="json")
    assert removed.json()["entrants"][1]["status"] == "removed"
    assert removed.json()["log"][-1]["detail"] == {"user": "bob", "reason": "no-show"}
    cancelled = referee.post(f"{url}/cancel", {"reason": "too few"}, format="json")
    assert cancelled.json()["status"] == "cancelled"
    over = referee.post(f"{url}/cancel", {}, format="json")
    assert (over.status_code, over.json()["error"]) == (409, "tournament_over")


def test_a_room_tournament_has_no_bot_stand_ins(staff, alice):
    tournament = chess_cup(staff, [alice])
    answer = client_for(staff).post(
        f"/api/tournaments/{tournament.pk}/entrants/alice/stand-in", {}, format="json"
    )
    assert (answer.status_code, answer.json()["field"]) == (400, "username")


# --- reading ------------------------------------------------------------------------------------


def test_the_list_is_public_newest_first_and_filters_by_status(staff, alice, bob):
    first = chess_cup(staff, [], name="First")
    second = chess_cup(staff, [alice, bob], name="Second")
    chess_cup(staff, [], name="Third")
    setup.tournament_cancel(actor=staff, tournament_id=first.pk, reason="")
    setup.tournament_start(actor=staff, tournament_id=second.pk)
    anyone = APIClient()

    listed = anyone.get("/api/tournaments").json()["tournaments"]
    assert [t["name"] for t in listed] == ["Third", "Second", "First"]
    assert [t["entrant_count"] for t in listed] == [0, 2, 0]
    assert listed[1]["rounds"] == 1 and listed[1]["current_round"] == 1
    for status, names in [("registration", ["Third"]), ("running", ["Second"]),
                          ("cancelled", ["First"]), ("finished", [])]:  # fmt: skip
        found = anyone.get("/api/tournaments", {"status": status}).json()["tournaments"]
        assert [t["name"] for t in found] == names, status


def test_a_bad_status_filter_is_named(db):
    answer = APIClient().get("/api/tournaments", {"status": "open"})
    assert answer.status_code == 400
    assert (answer.json()["error"], answer.json()["field"]) == ("invalid_choice", "status")
    assert answer.json()["allowed"] == ["registration", "running", "finished", "cancelled"]


def test_a_missing_tournament_is_404(db):
    answer = APIClient().get("/api/tournaments/424242")
    assert (answer.status_code, answer.json()["error"], answer.json()["field"]) == (
        404, "not_found", "id")  # fmt: skip


def test_tournament_writes_are_rate_limited_per_user_and_reads_are_not(staff, alice, bob, settings):
    tournament = chess_cup(staff, [])
    rest = settings.REST_FRAMEWORK
    settings.REST_FRAMEWORK = {
        **rest, "DEFAULT_THROTTLE_RATES": {**rest["DEFAULT_THROTTLE_RATES"], "tournaments": "2/min"}
    }  # fmt: skip
    cache.clear()
    url = f"/api/tournaments/{tournament.pk}"
    alices = client_for(alice)
    answers = [alices.post(f"{url}/register"), alices.post(f"{url}/withdraw"),
               alices.post(f"{url}/register")]  # fmt: skip
    assert [a.status_code for a in answers] == [201, 200, 429]
    assert answers[2].json()["error"] == "throttled" and int(answers[2]["Retry-After"]) > 0
    assert [alices.get(url).status_code for _ in range(3)] == [200, 200, 200]
    assert alices.get("/api/tournaments").status_code == 200
    assert client_for(bob).post(f"{url}/register").status_code == 201
