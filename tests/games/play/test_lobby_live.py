"""The live lobby: GET /api/games's filters (mine, waiting=me, joinable) and the /ws/lobby/
socket's pushes (games.play.lobby_feed)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import transaction
from rest_framework.test import APIClient

from config.asgi import application
from games.models import Seat
from games.play import lobby, lobby_feed
from games.play.reads import fetch
from tests.conftest import LOCAL_ORIGIN
from tests.games.conftest import client_for, make_user
from tests.games.helpers import past_setup, person_step, play_out

GAMES = "/api/games"
ALLIES = ["ally-1", "ally-2", "ally-3", "ally-4"]  # a two-seat game's allied armies


def ids(response) -> set[int]:
    assert response.status_code == 200, response.content
    return {g["id"] for g in response.json()["games"]}


def human_game(creator, *others, public: bool = True):
    game = lobby.game_create(creator=creator, seats=1 + len(others), public=public)
    for user in others:
        lobby.game_join(game_id=game.pk, user=user, invite=game.invite_token)
    return lobby.game_start(game_id=game.pk, user=creator)


def bot_game_past_setup(creator, *, public: bool = True):
    """``creator`` and a bot, played until the first turn has begun (allies may be joined)."""
    game = lobby.game_create(creator=creator, seats=2, public=public)
    lobby.game_fill_with_bots(game_id=game.pk, user=creator)
    game = lobby.game_start(game_id=game.pk, user=creator)
    return play_out(game, [creator], until=past_setup)


@pytest.fixture
def lobby_world(alice, bob, carol):
    """open: alice's open game; ab: alice and bob in set-up (both must arrange); cb: carol and
    a bot past the set-up; hidden: carol's private game past the set-up."""
    return {
        "open": lobby.game_create(creator=alice, seats=3),
        "ab": human_game(alice, bob),
        "cb": bot_game_past_setup(carol),
        "hidden": bot_game_past_setup(carol, public=False),
    }


def test_mine_lists_the_games_where_the_caller_holds_a_seat(lobby_world, alice, bob, carol):
    w = lobby_world
    assert ids(client_for(alice).get(GAMES, {"mine": "true"})) == {w["open"].pk, w["ab"].pk}
    assert ids(client_for(bob).get(GAMES, {"mine": "true"})) == {w["ab"].pk}
    assert ids(client_for(carol).get(GAMES, {"mine": "true"})) == {w["cb"].pk, w["hidden"].pk}
    assert ids(client_for(carol).get(GAMES, {"mine": "true", "status": "open"})) == set()
    assert ids(APIClient().get(GAMES, {"mine": "true"})) == set()  # a visitor holds no seat
    everything = {w["open"].pk, w["ab"].pk, w["cb"].pk}
    assert ids(client_for(bob).get(GAMES, {"mine": "false"})) == everything


def test_a_seat_given_up_is_not_mine_any_more(lobby_world, alice, bob):
    Seat.objects.filter(game=lobby_world["ab"], user=bob).update(state=Seat.State.LEFT)
    assert ids(client_for(bob).get(GAMES, {"mine": "true"})) == set()


def test_waiting_on_me_follows_the_pending_decisions(lobby_world, alice, bob, carol):
    ab = lobby_world["ab"]
    # Set-up: every seat arranges at once, so the game waits on both of its players.
    assert ids(client_for(alice).get(GAMES, {"waiting": "me"})) == {ab.pk}
    assert ids(client_for(bob).get(GAMES, {"waiting": "me"})) == {ab.pk}
    person_step(ab, alice, fetch.game_state(fetch.game_get(ab.pk)))
    # Alice has arranged: only bob is waited for now.
    assert ids(client_for(alice).get(GAMES, {"waiting": "me"})) == set()
    assert ids(client_for(bob).get(GAMES, {"waiting": "me"})) == {ab.pk}
    assert ids(APIClient().get(GAMES, {"waiting": "me"})) == set()


def test_joinable_lists_running_public_games_with_a_free_allied_army(lobby_world, alice, carol):
    cb = lobby_world["cb"]
    state = fetch.game_state(fetch.game_get(cb.pk))
    # RULES.md J1: every live allied army may be taken over, except one in play right now.
    free = [a for a in ALLIES if a != state.turn.seat]

    for caller in (client_for(alice), APIClient()):
        games = caller.get(GAMES, {"joinable": "true"}).json()["games"]
        # Not the open game, not ab (still in set-up), not the private one.
        assert [(g["id"], g["allies"]) for g in games] == [(cb.pk, free)]
    # Carol plays in cb herself: nothing there is offered to her.
    assert ids(client_for(carol).get(GAMES, {"joinable": "true"})) == set()
    # Without the filter no game carries "allies".
    assert all("allies" not in g for g in client_for(alice).get(GAMES).json()["games"])


def test_taking_over_an_offered_ally_makes_the_game_mine(lobby_world, alice):
    cb = lobby_world["cb"]
    game = client_for(alice).get(GAMES, {"joinable": "true"}).json()["games"][0]
    response = client_for(alice).post(
        f"{GAMES}/{cb.pk}/actions",
        {"action": {"type": "join", "ally": game["allies"][0]},
         "expected_version": fetch.game_get(cb.pk).version},
        format="json",
    )  # fmt: skip
    assert response.status_code == 200, response.content
    assert cb.pk in ids(client_for(alice).get(GAMES, {"mine": "true"}))


@pytest.mark.parametrize(
    ("name", "value"),
    [("mine", "yes"), ("mine", "1"), ("mine", ""), ("waiting", "you"), ("waiting", "true"),
     ("joinable", "True"), ("joinable", "0")],
)  # fmt: skip
def test_an_unknown_filter_value_is_a_400_naming_it(alice, name, value):
    response = client_for(alice).get(GAMES, {name: value})
    assert response.status_code == 400
    assert (response.json()["error"], response.json()["field"]) == ("invalid_choice", name)


def test_a_filter_given_twice_is_a_400(alice):
    response = client_for(alice).get(f"{GAMES}?mine=true&mine=false")
    assert (response.status_code, response.json()["field"]) == (400, "mine")


def test_the_filters_are_in_the_schema(db):
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    params = {p["name"]: p["schema"] for p in schema["paths"]["/api/games"]["get"]["parameters"]}
    assert params["mine"]["type"] == params["joinable"]["type"] == "boolean"
    assert params["waiting"]["enum"] == ["me"]


# --- the lobby socket ---------------------------------------------------------------------------


async def lobby_socket() -> WebsocketCommunicator:
    socket = WebsocketCommunicator(application, "/ws/lobby/", headers=[LOCAL_ORIGIN])
    connected, _ = await socket.connect()
    assert connected
    return socket


async def users(*names: str) -> list:
    return [await database_sync_to_async(make_user)(n) for n in names]


async def test_a_public_game_created_is_announced_and_a_private_one_is_not(transactional_db):
    (alice,) = await users("alice")
    socket = await lobby_socket()

    private = await database_sync_to_async(
        lambda: lobby.game_create(creator=alice, seats=2, public=False)
    )()
    assert await socket.receive_nothing(timeout=0.3)
    public = await database_sync_to_async(lambda: lobby.game_create(creator=alice, seats=2))()

    assert await socket.receive_json_from(timeout=5) == {"type": "lobby", "games": [public.pk]}
    assert await socket.receive_nothing(timeout=0.3)
    assert private.pk != public.pk
    await socket.disconnect()


async def test_joining_and_starting_are_announced_once_each(transactional_db):
    alice, bob = await users("alice", "bob")
    socket = await lobby_socket()
    game = await database_sync_to_async(lambda: lobby.game_create(creator=alice, seats=2))()
    assert (await socket.receive_json_from(timeout=5))["games"] == [game.pk]

    await database_sync_to_async(lambda: lobby.game_join(game_id=game.pk, user=bob))()
    assert await socket.receive_json_from(timeout=5) == {"type": "lobby", "games": [game.pk]}
    assert await socket.receive_nothing(timeout=0.3)
    await database_sync_to_async(lambda: lobby.game_start(game_id=game.pk, user=alice))()
    assert await socket.receive_json_from(timeout=5) == {"type": "lobby", "games": [game.pk]}
    assert await socket.receive_nothing(timeout=0.3)

    # In set-up: alice's arrange leaves the turn where it was (none yet): nothing is pushed.
    def arrange(user):
        fresh = fetch.game_get(game.pk)
        person_step(fresh, user, fetch.game_state(fresh))

    await database_sync_to_async(arrange)(alice)
    assert await socket.receive_nothing(timeout=0.3)
    # Bob's arrange ends the set-up: the first turn begins, which the lobby shows.
    await database_sync_to_async(arrange)(bob)
    assert await socket.receive_json_from(timeout=5) == {"type": "lobby", "games": [game.pk]}
    await socket.disconnect()


async def test_one_commit_pushes_once_naming_each_game_once(transactional_db):
    socket = await lobby_socket()

    def changes() -> None:
        with transaction.atomic():
            lobby_feed.changed(7, public=True)
            lobby_feed.changed(7, public=True)
            lobby_feed.changed(9, public=True)
            lobby_feed.changed(8, public=False)

    def rolled_back() -> None:
        with pytest.raises(RuntimeError), transaction.atomic():
            lobby_feed.changed(11, public=True)
            raise RuntimeError("the transaction fails")

    await database_sync_to_async(changes)()
    assert await socket.receive_json_from(timeout=5) == {"type": "lobby", "games": [7, 9]}
    await database_sync_to_async(rolled_back)()
    assert await socket.receive_nothing(timeout=0.3)
    await database_sync_to_async(changes)()  # a new transaction, a new push
    assert await socket.receive_json_from(timeout=5) == {"type": "lobby", "games": [7, 9]}
    await socket.disconnect()


async def test_the_lobby_socket_answers_pings_and_refuses_other_messages(transactional_db):
    socket = await lobby_socket()
    await socket.send_json_to({"type": "ping"})
    assert await socket.receive_json_from(timeout=5) == {"type": "pong"}
    await socket.send_to(text_data="{not json")
    bad = await socket.receive_json_from(timeout=5)
    assert (bad["type"], bad["status"], bad["field"]) == ("error", 400, "body")
    await socket.send_json_to({"type": "chat", "text": "hi"})
    other = await socket.receive_json_from(timeout=5)
    assert (other["type"], other["status"], other["field"]) == ("error", 400, "type")
    await socket.disconnect()
