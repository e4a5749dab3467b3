"""The lobby over HTTP: create, list, join (invites), leave, fill with bots, start.

Every refusal is checked in the one error shape, with the field it names where there is one.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import Game, Seat
from risk.rules.state import DOMINATION, LAST_STANDING, ROUND_LIMIT
from tests.games.conftest import client_for

pytestmark = pytest.mark.django_db

GAMES = "/api/games"


def url(game_id: int, step: str = "") -> str:
    return f"{GAMES}/{game_id}/{step}" if step else f"{GAMES}/{game_id}"


def create(user, **data: Any) -> dict[str, Any]:
    response = client_for(user).post(GAMES, {"seats": 3, **data}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def post(user, path: str, data: dict[str, Any] | None = None):
    return client_for(user).post(path, data or {}, format="json")


def seated(body: dict[str, Any]) -> list[tuple[int, str]]:
    return [(seat["position"], seat["player"]) for seat in body["seats"]]


def refusal(response, status: int) -> dict[str, Any]:
    assert response.status_code == status, response.json()
    body = response.json()
    assert list(body)[:4] == ["error", "message", "field", "allowed"]
    return body


# --- Creating a game ---------------------------------------------------------------------------


def test_creating_a_game_seats_the_creator_first_and_commits_to_a_secret_seed(alice):
    response = client_for(alice).post(GAMES, {"seats": 4, "name": "Azores"}, format="json")

    assert response.status_code == 201
    body = response.json()
    assert (body["status"], body["name"], body["seat_count"], body["version"]) == (
        "open", "Azores", 4, 0,
    )  # fmt: skip
    assert seated(body) == [(0, "alice")]
    assert body["you"] == {"position": 0, "player": "alice", "state": "active"}
    assert re.fullmatch(r"[0-9a-f]{64}", body["seed_commitment"])
    game = Game.objects.get(pk=body["id"])
    assert "server_seed" not in body
    assert game.server_seed not in response.content.decode()
    assert (body["view"], body["turn"], body["pending"]) == (None, None, [])


def test_a_new_game_takes_the_default_options_and_no_clock(alice):
    body = create(alice)

    assert body["options"]["win"] == LAST_STANDING
    assert body["options"]["map"] == "classic"
    assert (body["time_control"], body["seconds_per_turn"]) == ("untimed", None)
    assert body["public"] is True


def test_a_live_game_keeps_its_minutes_per_turn(alice):
    body = create(alice, time_control="live", minutes=5)

    assert (body["time_control"], body["seconds_per_turn"]) == ("live", 300)


def test_seven_seats_are_refused_naming_the_seats_field(alice):
    body = refusal(client_for(alice).post(GAMES, {"seats": 7}, format="json"), 400)

    assert (body["error"], body["field"]) == ("max_value", "seats")
    assert not Game.objects.exists()


@pytest.mark.parametrize("value", [3_000_000_000, 10**20, 101, 0])
def test_max_timeouts_out_of_range_is_a_400_naming_it(alice, value):
    """3,000,000,000 overflowed the column on PostgreSQL and 10**20 on SQLite (500s)."""
    response = client_for(alice).post(GAMES, {"seats": 3, "max_timeouts": value}, format="json")
    body = refusal(response, 400)

    assert body["field"] == "max_timeouts"
    assert body["error"] == ("min_value" if value < 1 else "max_value")
    assert not Game.objects.exists()


def test_max_timeouts_of_100_is_the_most_allowed(alice):
    assert create(alice, max_timeouts=100)["max_timeouts"] == 100


def test_an_unknown_win_condition_is_refused_with_the_allowed_ones(alice):
    response = client_for(alice).post(
        GAMES, {"seats": 3, "options": {"win": "bogus"}}, format="json"
    )

    body = refusal(response, 400)
    assert (body["error"], body["field"]) == ("invalid", "options.win")
    assert body["allowed"] == [LAST_STANDING, DOMINATION, ROUND_LIMIT]


def test_a_round_limit_game_without_its_limit_is_refused(alice):
    response = client_for(alice).post(
        GAMES, {"seats": 3, "options": {"win": ROUND_LIMIT}}, format="json"
    )

    assert refusal(response, 400)["field"] == "options.round_limit"


@pytest.mark.parametrize(
    "options",
    [
        {"win": ROUND_LIMIT, "round_limit": 0},
        {"win": ROUND_LIMIT, "round_limit": True},
        {"win": ROUND_LIMIT, "round_limit": "5"},
        {"win": LAST_STANDING, "round_limit": -4},
    ],
    ids=["zero", "true", "text", "negative-with-another-win"],
)
def test_a_round_limit_that_is_no_number_of_rounds_is_refused(alice, options):
    response = client_for(alice).post(GAMES, {"seats": 3, "options": options}, format="json")

    assert refusal(response, 400)["field"] == "options.round_limit"
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "turns", [0, 101, True, "10", 2.5], ids=["zero", "over-100", "true", "text", "fraction"]
)
def test_pirate_turns_that_are_no_number_of_turns_are_refused(alice, turns):
    """RULES.md J10: ``pirate_turns`` is 1 to 100 turns, or null (never)."""
    response = client_for(alice).post(
        GAMES, {"seats": 3, "options": {"pirate_turns": turns}}, format="json"
    )

    assert refusal(response, 400)["field"] == "options.pirate_turns"
    assert not Game.objects.exists()


@pytest.mark.parametrize(("given", "stored"), [({}, 10), ({"pirate_turns": None}, None),
                                               ({"pirate_turns": 25}, 25)])  # fmt: skip
def test_pirate_turns_default_to_ten_and_may_be_switched_off(alice, given, stored):
    """RULES.md J10: a new game puts a landless player out after 10 turns unless its host
    chooses another number or null."""
    body = create(alice, options=given)

    assert Game.objects.get(pk=body["id"]).options["pirate_turns"] == stored


def test_an_unknown_option_is_refused_with_the_known_ones(alice):
    response = client_for(alice).post(
        GAMES, {"seats": 3, "options": {"fog_of_war": True}}, format="json"
    )

    body = refusal(response, 400)
    assert (body["error"], body["field"]) == ("invalid", "options.fog_of_war")
    assert "win" in body["allowed"]
    assert "fog_of_war" not in body["allowed"]


def test_an_older_rule_revision_is_refused_and_the_newest_accepted(alice):
    """A stored game keeps the readings it was played by (``revision`` 1), but a new game
    always plays by the newest: a host cannot pick an old one."""
    response = client_for(alice).post(
        GAMES, {"seats": 3, "options": {"revision": 1}}, format="json"
    )
    body = refusal(response, 400)
    assert (body["error"], body["field"], body["allowed"]) == ("invalid", "options.revision", ["2"])
    response = client_for(alice).post(
        GAMES, {"seats": 3, "options": {"revision": 2}}, format="json"
    )
    assert response.status_code == 201
    assert Game.objects.get(pk=response.json()["id"]).options["revision"] == 2


def test_the_flanking_loophole_options_are_the_hosts_choice(alice):
    """risk/RULES.md C10, C11: ``min_commitment`` and ``defender_dice`` are stored as chosen,
    and a game that leaves them out plays by the rule text (2, "commitment")."""
    body = create(alice, options={"min_commitment": 3, "defender_dice": "normal"})
    game = Game.objects.get(pk=body["id"])
    assert (game.options["min_commitment"], game.options["defender_dice"]) == (3, "normal")
    plain = Game.objects.get(pk=create(alice)["id"])
    assert (plain.options["min_commitment"], plain.options["defender_dice"]) == (2, "commitment")


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"min_commitment": 1}, "options.min_commitment"),
        ({"min_commitment": 11}, "options.min_commitment"),
        ({"min_commitment": True}, "options.min_commitment"),
        ({"min_commitment": "3"}, "options.min_commitment"),
        ({"defender_dice": "three"}, "options.defender_dice"),
    ],
    ids=["one", "eleven", "true", "text", "unknown-dice"],
)
def test_a_flanking_option_out_of_range_is_refused_naming_it(alice, options, field):
    response = client_for(alice).post(GAMES, {"seats": 3, "options": options}, format="json")

    body = refusal(response, 400)
    assert (body["error"], body["field"]) == ("invalid", field)
    if field == "options.defender_dice":
        assert body["allowed"] == ["commitment", "normal"]
    assert not Game.objects.exists()


def test_a_live_game_without_minutes_is_refused_naming_the_minutes_field(alice):
    response = client_for(alice).post(GAMES, {"seats": 3, "time_control": "live"}, format="json")

    body = refusal(response, 400)
    assert (body["error"], body["field"]) == ("invalid", "minutes")
    assert not Game.objects.exists()


def test_a_correspondence_game_without_days_is_refused_naming_the_days_field(alice):
    response = client_for(alice).post(
        GAMES, {"seats": 3, "time_control": "correspondence"}, format="json"
    )

    assert refusal(response, 400)["field"] == "days"


def test_a_game_is_created_by_signed_in_users_only(db):
    response = APIClient().post(GAMES, {"seats": 3}, format="json")

    assert response.status_code in (401, 403)  # 403: session auth sends no WWW-Authenticate
    assert response.json()["error"] == "not_authenticated"
    assert not Game.objects.exists()


# --- The lobby list ----------------------------------------------------------------------------


def test_the_list_shows_public_games_and_your_private_ones_but_not_others_private_ones(
    alice, bob, carol
):
    open_to_all = create(alice)
    bobs_secret = create(bob, public=False)
    carols_secret = create(carol, public=False)

    listed = client_for(bob).get(GAMES).json()["games"]

    ids = {game["id"] for game in listed}
    assert ids == {open_to_all["id"], bobs_secret["id"]}
    assert carols_secret["id"] not in ids
    assert all("invite_token" not in game for game in listed)


def test_a_private_game_you_were_invited_into_is_listed_for_you(alice, bob):
    secret = create(alice, public=False)
    post(bob, url(secret["id"], "join"), {"invite": secret["invite_token"]})

    listed = client_for(bob).get(GAMES).json()["games"]

    assert [game["id"] for game in listed] == [secret["id"]]


def test_a_visitor_sees_the_public_games_only(alice, bob):
    open_to_all = create(alice)
    create(bob, public=False)

    response = APIClient().get(GAMES)

    assert response.status_code == 200
    assert [game["id"] for game in response.json()["games"]] == [open_to_all["id"]]


def test_the_list_can_be_narrowed_by_status(alice, bob, carol):
    waiting = create(alice, seats=2)
    started = create(bob, seats=2)
    post(alice, url(started["id"], "join"))
    post(bob, url(started["id"], "start"))

    running = client_for(carol).get(GAMES, {"status": "running"})
    lobby = client_for(carol).get(GAMES, {"status": "open"})

    assert [g["id"] for g in running.json()["games"]] == [started["id"]]
    assert [g["id"] for g in lobby.json()["games"]] == [waiting["id"]]


@pytest.mark.parametrize("status", ["finished ", "closed", ""])
def test_an_unknown_status_to_narrow_by_is_a_400_listing_the_known_ones(alice, status):
    """An unknown status answered an empty list, as if there were no such games."""
    create(alice)
    body = refusal(client_for(alice).get(GAMES, {"status": status}), 400)

    assert (body["error"], body["field"]) == ("invalid_choice", "status")
    assert body["allowed"] == Game.Status.values


@pytest.mark.parametrize(
    ("field", "value"),
    [("seats", "3"), ("seats", 3.0), ("public", "yes"), ("public", 1), ("max_timeouts", "3"),
     ("name", 7), ("client_seed", 12345)],
)  # fmt: skip
def test_a_value_of_another_json_type_is_refused_not_converted(alice, field, value):
    """The schema says integer, boolean, string: "3" for 3 or 1 for true was taken before."""
    response = client_for(alice).post(GAMES, {"seats": 3, field: value}, format="json")
    body = refusal(response, 400)

    assert (body["error"], body["field"]) == ("invalid", field)
    assert not Game.objects.exists()


@pytest.mark.parametrize(("field", "value"), [("minutes", 0), ("minutes", 241), ("days", 31)])
def test_an_allowance_out_of_range_is_refused_whatever_the_time_control(alice, field, value):
    """The schema states minutes 1-240 and days 1-30; an untimed game took any number (unused)."""
    response = client_for(alice).post(GAMES, {"seats": 3, field: value}, format="json")
    body = refusal(response, 400)

    assert (body["error"], body["field"]) == (("min_value" if value < 2 else "max_value"), field)


# --- Joining and leaving ----------------------------------------------------------------------


def test_joining_takes_the_next_free_seat(alice, bob):
    game = create(alice)

    response = post(bob, url(game["id"], "join"))

    assert response.status_code == 200
    assert seated(response.json()) == [(0, "alice"), (1, "bob")]
    assert response.json()["you"]["position"] == 1


def test_a_private_game_needs_its_invite_token(alice, bob):
    """Without it the game is not there: the 404 of a missing id, not a 403 that confirms it."""
    secret = create(alice, public=False)
    missing = refusal(post(bob, url(secret["id"] + 1000, "join")), 404)

    without = refusal(post(bob, url(secret["id"], "join")), 404)
    wrong = refusal(post(bob, url(secret["id"], "join"), {"invite": "guessed"}), 404)
    right = post(bob, url(secret["id"], "join"), {"invite": secret["invite_token"]})

    assert without == wrong == missing == {
        "error": "not_found", "message": "no such game", "field": "id", "allowed": None,
    }  # fmt: skip
    assert right.status_code == 200
    assert seated(right.json()) == [(0, "alice"), (1, "bob")]


def test_the_invite_token_is_shown_to_the_seated_and_not_to_onlookers(alice, bob):
    secret = create(alice, public=False)

    onlooker = client_for(bob).get(url(secret["id"]), {"invite": secret["invite_token"]}).json()

    assert onlooker["id"] == secret["id"] and onlooker["you"] is None
    assert "invite_token" not in onlooker
    assert secret["invite_token"] not in str(onlooker)


def test_joining_twice_is_refused(alice, bob):
    game = create(alice)
    post(bob, url(game["id"], "join"))

    again = refusal(post(bob, url(game["id"], "join")), 409)
    creator = refusal(post(alice, url(game["id"], "join")), 409)

    assert again["error"] == creator["error"] == "already_seated"
    assert Seat.objects.filter(game_id=game["id"]).count() == 2


def test_a_full_game_refuses_another_player(alice, bob, carol):
    game = create(alice, seats=2)
    post(bob, url(game["id"], "join"))

    body = refusal(post(carol, url(game["id"], "join")), 409)

    assert body["error"] == "game_full"
    assert not Seat.objects.filter(game_id=game["id"], user=carol).exists()


def test_leaving_before_the_start_frees_the_seat(alice, bob, carol):
    game = create(alice, seats=2)
    post(bob, url(game["id"], "join"))

    left = post(bob, url(game["id"], "leave"))
    carol_joins = post(carol, url(game["id"], "join"))

    assert left.status_code == 204
    assert carol_joins.status_code == 200
    assert seated(carol_joins.json()) == [(0, "alice"), (1, "carol")]


def test_leaving_a_game_you_are_not_in_is_refused(alice, bob):
    game = create(alice)

    assert refusal(post(bob, url(game["id"], "leave")), 409)["error"] == "not_seated"


def test_the_creator_leaving_cancels_the_game(alice, bob):
    game = create(alice)
    post(bob, url(game["id"], "join"))

    response = post(alice, url(game["id"], "leave"))

    assert response.status_code == 204
    gone = refusal(client_for(bob).get(url(game["id"])), 404)
    assert gone["error"] == "not_found"
    assert not Game.objects.filter(pk=game["id"]).exists()


def test_the_creator_cancels_an_open_game_and_nobody_else_may(alice, bob):
    game = create(alice)
    post(bob, url(game["id"], "join"))

    refused = refusal(post(bob, url(game["id"], "cancel")), 403)
    assert (refused["error"], refused["field"]) == ("not_creator", None)
    assert refused["message"] == (
        "only the game's creator (alice) may cancel it; leave it instead to give up your seat"
    )
    assert Game.objects.filter(pk=game["id"]).exists()

    assert post(alice, url(game["id"], "cancel")).status_code == 204
    assert not Game.objects.filter(pk=game["id"]).exists()
    assert refusal(client_for(bob).get(url(game["id"])), 404)["error"] == "not_found"


def test_a_started_game_cannot_be_cancelled(alice):
    game = create(alice, seats=2)
    post(alice, url(game["id"], "bots"))
    post(alice, url(game["id"], "start"))

    assert refusal(post(alice, url(game["id"], "cancel")), 409)["error"] == "not_open"
    assert Game.objects.get(pk=game["id"]).status == Game.Status.RUNNING


def test_an_unknown_game_is_not_found(alice):
    assert refusal(post(alice, url(999, "join")), 404)["error"] == "not_found"
    assert refusal(client_for(alice).get(url(999)), 404)["field"] == "id"


def test_lobby_steps_need_a_signed_in_user(alice):
    game = create(alice)

    for step in ("join", "leave", "bots", "start", "cancel"):
        response = APIClient().post(url(game["id"], step), {}, format="json")
        assert response.status_code in (401, 403), step
        assert response.json()["error"] == "not_authenticated", step


# --- Bots and the start ------------------------------------------------------------------------


def test_only_the_creator_fills_empty_seats_with_bots(alice, bob):
    game = create(alice, seats=4)
    post(bob, url(game["id"], "join"))

    refused = refusal(post(bob, url(game["id"], "bots")), 403)
    filled = post(alice, url(game["id"], "bots"))

    assert refused["error"] == "not_creator"
    assert filled.status_code == 200
    seats = filled.json()["seats"]
    assert [(s["player"], s["bot"]) for s in seats] == [
        ("alice", False), ("bob", False), ("bot:3", True), ("bot:4", True),
    ]  # fmt: skip


def test_the_bots_are_added_at_the_ai_level_picked(alice):
    game = create(alice, seats=3, ai_level="hard")

    filled = post(alice, url(game["id"], "bots"), {"ai_level": "easy"})

    assert filled.status_code == 200
    assert filled.json()["ai_level"] == "easy"
    assert Game.objects.get(pk=game["id"]).ai_level == "easy"


def test_an_unknown_ai_level_for_the_bots_is_refused_naming_it(alice):
    game = create(alice, seats=3)

    body = refusal(post(alice, url(game["id"], "bots"), {"ai_level": "godlike"}), 400)
    unknown = refusal(post(alice, url(game["id"], "bots"), {"level": "easy"}), 400)

    assert (body["field"], body["message"]) == ("ai_level", '"godlike" is not a valid choice.')
    assert (unknown["error"], unknown["field"]) == ("unknown_field", "level")
    assert Game.objects.get(pk=game["id"]).seats.count() == 1  # no bot was added


def test_a_game_with_empty_seats_cannot_start(alice, bob):
    game = create(alice, seats=3)
    post(bob, url(game["id"], "join"))

    body = refusal(post(alice, url(game["id"], "start")), 409)

    assert body["error"] == "seats_empty"
    assert Game.objects.get(pk=game["id"]).status == Game.Status.OPEN


def test_only_the_creator_starts_the_game(alice, bob):
    game = create(alice, seats=2)
    post(bob, url(game["id"], "join"))

    assert refusal(post(bob, url(game["id"], "start")), 403)["error"] == "not_creator"


def test_starting_deals_the_board_colours_the_seats_and_waits_for_every_arrangement(alice, bob):
    game = create(alice, seats=2)
    post(bob, url(game["id"], "join"))

    response = post(alice, url(game["id"], "start"))

    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["version"]) == ("running", 0)
    colours = [seat["colour"] for seat in body["seats"]]
    assert all(colours) and len(set(colours)) == 2
    assert [(p["player"], p["kind"]) for p in body["pending"]] == [
        ("alice", "arrange"), ("bob", "arrange"),
    ]  # fmt: skip
    assert body["view"]["you"] == "alice"
    assert body["started_at"] is not None
    assert body["seed_commitment"] == game["seed_commitment"]  # committed before anyone joined


def test_bots_arrange_as_soon_as_the_game_starts(alice, bob, django_capture_on_commit_callbacks):
    game = create(alice, seats=3)
    post(bob, url(game["id"], "join"))
    post(alice, url(game["id"], "bots"))

    with django_capture_on_commit_callbacks(execute=True):
        post(alice, url(game["id"], "start"))
    body = client_for(alice).get(url(game["id"])).json()

    assert body["version"] == 1  # the bot's arrangement, the only action so far
    assert [(p["player"], p["kind"]) for p in body["pending"]] == [
        ("alice", "arrange"), ("bob", "arrange"),
    ]  # fmt: skip


def test_seats_are_not_taken_or_given_up_once_the_game_runs(alice, bob, carol):
    game = create(alice, seats=2)
    post(bob, url(game["id"], "join"))
    post(alice, url(game["id"], "start"))

    join = refusal(post(carol, url(game["id"], "join")), 409)
    leave = refusal(post(bob, url(game["id"], "leave")), 409)
    start = refusal(post(alice, url(game["id"], "start")), 409)
    bots = refusal(post(alice, url(game["id"], "bots")), 409)

    assert {join["error"], leave["error"], start["error"], bots["error"]} == {"not_open"}
