"""Private games: visible and joinable only with the invite, to their players, their
creator and staff; to anyone else exactly what a missing id is (``games.play.access``).

The table: alice (the creator) and bob at a private two-seat game past the set-up (four allied
armies to take over); carol is a stranger, dave is staff, and a visitor is not signed in.
"""

from __future__ import annotations

from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.models import Game, Seat
from games.play import access, lobby, submit
from games.play.reads import fetch
from games.web.exceptions import NotFoundError
from tests.games.conftest import client_for, make_user
from tests.games.helpers import past_setup, play_out
from tests.sockets import game_socket, session_cookie

pytestmark = pytest.mark.django_db

MISSING = 999_999
#: The body of every 404 a private game gives a caller who may not see it: a missing id's.
NOT_FOUND = {"error": "not_found", "message": "no such game", "field": "id", "allowed": None}


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The action throttle lives in the cache, keyed by user ids that repeat between tests."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def dave(db):
    return make_user("dave", is_staff=True)


def private_game(creator, *others, seats: int = 2, start: bool = True) -> Game:
    """A private game of ``creator`` and ``others`` (seated with the invite), started and played
    past the set-up unless ``start`` is false."""
    game = lobby.game_create(creator=creator, seats=seats, public=False)
    for user in others:
        lobby.game_join(game_id=game.pk, user=user, invite=game.invite_token)
    if not start:
        return game
    lobby.game_start(game_id=game.pk, user=creator)
    return play_out(game, [creator, *others], until=past_setup)


@pytest.fixture
def secret(alice, bob) -> Game:
    return private_game(alice, bob)


def an_ally(game: Game) -> str:
    state = fetch.game_state(game)
    return next(s.id for s in state.seats if s.kind == "allied" and s.alive)


def join_action(user, game_id: int, version: int, **extra: Any):
    body = {"action": {"type": "join", "ally": extra.pop("ally")}, "expected_version": version}
    return client_for(user).post(f"/api/games/{game_id}/actions", {**body, **extra}, format="json")


def get(user, path: str, **params: str):
    client = APIClient() if user is None else client_for(user)
    return client.get(path, params)


# --- taking over an allied army ----------------------------------------------------------------


def test_a_strangers_join_action_without_the_invite_is_the_missing_games_404(secret, carol):
    ally = an_ally(secret)
    version = secret.version

    without = join_action(carol, secret.pk, version, ally=ally)
    wrong = join_action(carol, secret.pk, version, ally=ally, invite="guessed")
    missing = join_action(carol, MISSING, 0, ally=ally)

    assert (without.status_code, wrong.status_code, missing.status_code) == (404, 404, 404)
    assert without.json() == wrong.json() == missing.json() == NOT_FOUND
    assert not Seat.objects.filter(game=secret, user=carol).exists()
    assert fetch.game_get(secret.pk).version == version  # nothing applied
    assert "invite_token" not in str(without.json()) and secret.invite_token not in without.text


def test_a_stranger_with_the_invite_takes_over_an_allied_army(secret, carol):
    ally = an_ally(secret)
    version = secret.version

    response = join_action(carol, secret.pk, version, ally=ally, invite=secret.invite_token)

    assert response.status_code == 200, response.json()
    assert response.json()["version"] == version + 1
    seat = Seat.objects.get(game=secret, user=carol)
    assert (seat.player, seat.state) == ("carol", "active")
    detail = get(carol, f"/api/games/{secret.pk}").json()  # seated now: no invite needed
    assert detail["you"]["player"] == "carol"
    assert detail["invite_token"] == secret.invite_token


def test_staff_see_a_private_game_but_take_an_army_only_with_the_invite(secret, dave):
    body = join_action(dave, secret.pk, secret.version, ally=an_ally(secret)).json()

    assert (body["error"], body["field"]) == ("invite_required", "invite")
    assert not Seat.objects.filter(game=secret, user=dave).exists()


def test_a_join_action_in_a_public_game_needs_no_invite(alice, bob, carol):
    game = lobby.game_create(creator=alice, seats=2)
    lobby.game_join(game_id=game.pk, user=bob)
    lobby.game_start(game_id=game.pk, user=alice)
    game = play_out(game, [alice, bob], until=past_setup)

    response = join_action(carol, game.pk, game.version, ally=an_ally(game))

    assert response.status_code == 200, response.json()
    assert Seat.objects.filter(game=game, user=carol, state="active").exists()


def test_the_socket_action_path_parses_the_invite_too(secret, carol):
    ally = an_ally(secret)
    version = secret.version
    with pytest.raises(NotFoundError) as refused:
        submit.action_submit(
            game_id=secret.pk, user=carol, action={"type": "join", "ally": ally},
            expected_version=version,
        )  # fmt: skip
    assert refused.value.body() == NOT_FOUND

    submission = submit.parse_submission(
        {"action": {"type": "join", "ally": ally}, "expected_version": version,
         "invite": secret.invite_token}
    )  # fmt: skip
    body = submit.action_submit(game_id=secret.pk, user=carol, **submission.as_kwargs())
    assert body["version"] == version + 1


# --- reading ------------------------------------------------------------------------------------


@pytest.mark.parametrize("step", ["", "/events", "/replay"])
@pytest.mark.parametrize("who", ["visitor", "stranger"])
def test_a_private_game_reads_as_a_missing_one_to_others(secret, carol, who, step):
    Game.objects.filter(pk=secret.pk).update(status=Game.Status.FINISHED)  # the replay opens
    user = carol if who == "stranger" else None

    hidden = get(user, f"/api/games/{secret.pk}{step}")
    guessed = get(user, f"/api/games/{secret.pk}{step}", invite="guessed")
    missing = get(user, f"/api/games/{MISSING}{step}")

    assert (hidden.status_code, guessed.status_code, missing.status_code) == (404, 404, 404)
    assert hidden.json() == guessed.json() == missing.json() == NOT_FOUND


@pytest.mark.parametrize("step", ["", "/events", "/replay"])
def test_players_creator_staff_and_invite_holders_read_a_private_game(
    secret, alice, bob, dave, step
):
    Game.objects.filter(pk=secret.pk).update(status=Game.Status.FINISHED)

    for user in (alice, bob, dave):
        assert get(user, f"/api/games/{secret.pk}{step}").status_code == 200, user
    invited = get(None, f"/api/games/{secret.pk}{step}", invite=secret.invite_token)
    assert invited.status_code == 200
    assert invited.json().get("id", secret.pk) == secret.pk


def test_the_invite_token_is_shown_to_players_creator_and_staff_only(secret, alice, bob, dave):
    path = f"/api/games/{secret.pk}"
    shown = {u.get_username(): get(u, path).json().get("invite_token") for u in (alice, bob, dave)}
    onlooker = get(None, path, invite=secret.invite_token).json()

    assert shown == {"alice": secret.invite_token, "bob": secret.invite_token,
                     "dave": secret.invite_token}  # fmt: skip
    assert onlooker["id"] == secret.pk and onlooker["you"] is None
    assert "invite_token" not in onlooker


def test_a_hidden_game_costs_one_statement_as_a_missing_id_does(secret, carol):
    """The rule is checked on the row read with the caller's seat, before anything else."""
    counts = []
    for game_id in (secret.pk, MISSING):
        with CaptureQueriesContext(connection) as queries, pytest.raises(NotFoundError):
            fetch.game_for(game_id, carol)
        counts.append(len(queries.captured_queries))
    assert counts == [1, 1]


def test_an_action_on_a_hidden_game_costs_the_statements_of_a_missing_id(secret, carol):
    """The write path: the game locked with its state, then the seats (hidden), or the state
    row and then the game row (missing): two statements either way before the same 404, so
    the answer's timing does not tell one from the other."""
    counts = []
    for game_id in (secret.pk, MISSING):
        with CaptureQueriesContext(connection) as queries, pytest.raises(NotFoundError):
            submit.action_submit(game_id=game_id, user=carol,
                                      action={"type": "end_turn"}, expected_version=0)  # fmt: skip
        counts.append([q["sql"].split()[0] for q in queries.captured_queries])
    assert counts[0] == counts[1], counts
    assert [verb for verb in counts[0] if verb == "SELECT"] == ["SELECT", "SELECT"]


def test_the_rule(secret, alice, bob, carol, dave):
    from django.contrib.auth.models import AnonymousUser

    def sees(user, invite=None):
        seated = access.seated_in(secret.seats.all(), user)
        return access.may_see(secret, user, seated=seated, invite=invite)

    assert [sees(u) for u in (alice, bob, carol, dave, AnonymousUser())] == [
        True, True, False, True, False,
    ]  # fmt: skip
    assert sees(carol, secret.invite_token) and sees(AnonymousUser(), secret.invite_token)
    assert not sees(carol, secret.invite_token[:-1]) and not sees(carol, "")
    Seat.objects.filter(game=secret, user=bob).update(state=Seat.State.LEFT)
    assert sees(bob)  # a seat in any state


# --- the lobby ----------------------------------------------------------------------------------


def test_the_lobby_lists_a_private_game_to_its_players_only(secret, alice, bob, carol, dave):
    public = lobby.game_create(creator=carol, seats=2)

    def listed(user) -> set[int]:
        return {g["id"] for g in get(user, "/api/games").json()["games"]}

    assert listed(alice) == listed(bob) == {secret.pk, public.pk}
    assert listed(carol) == listed(dave) == listed(None) == {public.pk}


@pytest.mark.parametrize(("step", "status"), [("leave", 409), ("bots", 403), ("start", 403)])
def test_lobby_steps_on_a_private_game_are_the_missing_games_404(alice, carol, step, status):
    hidden = private_game(alice, start=False)
    shown = lobby.game_create(creator=alice, seats=2)

    refused = client_for(carol).post(f"/api/games/{hidden.pk}/{step}")
    missing = client_for(carol).post(f"/api/games/{MISSING}/{step}")
    public = client_for(carol).post(f"/api/games/{shown.pk}/{step}")

    assert (refused.status_code, missing.status_code) == (404, 404)
    assert refused.json() == missing.json() == NOT_FOUND
    assert public.status_code == status  # not_seated / not_creator: the public game is seen
    assert Game.objects.filter(pk=hidden.pk, status="open").exists()


def test_staff_without_the_invite_cannot_take_a_lobby_seat(alice, dave):
    hidden = private_game(alice, start=False)

    refused = client_for(dave).post(f"/api/games/{hidden.pk}/join", {}, format="json")
    invited = client_for(dave).post(
        f"/api/games/{hidden.pk}/join", {"invite": hidden.invite_token}, format="json"
    )

    assert (refused.status_code, refused.json()["error"]) == (403, "invite_required")
    assert invited.status_code == 200 and invited.json()["you"]["player"] == "dave"


# --- the socket ---------------------------------------------------------------------------------


async def _first_two(socket) -> tuple[dict[str, Any], dict[str, Any] | None]:
    ok, _ = await socket.connect()
    assert ok
    message = await socket.receive_json_from(timeout=5)
    if message["type"] != "error":
        await socket.disconnect()
        return message, None
    return message, await socket.receive_output(timeout=1)


@pytest.mark.django_db(transaction=True)
async def test_the_socket_of_a_private_game_closes_4404_as_a_missing_games(alice, carol):
    game = await database_sync_to_async(private_game)(alice, start=False)
    cookie = await database_sync_to_async(session_cookie)(carol)

    for socket in (game_socket(game.pk), game_socket(game.pk, cookie=cookie)):
        hidden, closed = await _first_two(socket)
        missing, closed_too = await _first_two(game_socket(MISSING, cookie=cookie))
        assert hidden == missing == {"type": "error", "status": 404, **NOT_FOUND}
        assert closed == closed_too == {"type": "websocket.close", "code": 4404}


@pytest.mark.django_db(transaction=True)
async def test_the_socket_of_a_private_game_opens_with_the_invite_or_a_seat(alice, carol):
    game = await database_sync_to_async(private_game)(alice, start=False)
    cookie = await database_sync_to_async(session_cookie)(carol)
    invited = game_socket(game.pk, cookie=cookie, invite=game.invite_token)
    player = game_socket(game.pk, cookie=await database_sync_to_async(session_cookie)(alice))

    state, _ = await _first_two(invited)
    own, _ = await _first_two(player)

    assert (state["type"], state["game"]["id"], state["game"]["you"]) == ("state", game.pk, None)
    assert "invite_token" not in state["game"]
    assert (own["type"], own["game"]["you"]["player"]) == ("state", "alice")
    assert own["game"]["invite_token"] == game.invite_token
