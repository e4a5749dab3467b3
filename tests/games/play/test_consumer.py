"""The game socket /ws/games/<id>/ through the full ASGI stack (origin check, session or token
auth, routing) on the in-memory channel layer, with the bots' tasks run inline."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from django.core.cache import cache
from rest_framework.authtoken.models import Token

from games.models import GameSnapshot, Seat
from games.play import lobby, presence, push, submit
from games.play.reads import fetch
from risk.rules.bots import RandomBot, decide
from tests.sockets import (
    SocketPlayer,
    api_view,
    game_socket,
    hidden_keys,
    session_cookie,
    updated_view,
)

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The action throttle and presence live in the cache, keyed by user ids that repeat from
    test to test."""
    cache.clear()
    yield
    cache.clear()


# --- helpers ------------------------------------------------------------------------------------


def start_game(*users, options: dict[str, Any] | None = None) -> int:
    game = lobby.game_create(creator=users[0], seats=len(users), options=options or {})
    for user in users[1:]:
        lobby.game_join(game_id=game.pk, user=user)
    lobby.game_start(game_id=game.pk, user=users[0])
    return game.pk


def legal_move(game_id: int, player: str, seed: object = 0) -> tuple[dict[str, Any], int]:
    """A legal action for ``player`` now, and the version to expect."""
    game = fetch.game_get(game_id)
    state = fetch.game_state(game)
    return decide(RandomBot(random.Random(str(seed))), state, player).to_dict(), game.version


def true_state(game_id: int):
    return fetch.game_state(fetch.game_get(game_id))


def token_of(user) -> str:
    return Token.objects.get_or_create(user=user)[0].key


async def connected(socket) -> dict[str, Any]:
    """Connect ``socket``; its first message (the state)."""
    ok, _ = await socket.connect()
    assert ok
    return await socket.receive_json_from(timeout=5)


def action_message(action: dict[str, Any], version: int, **extra: Any) -> dict[str, Any]:
    return {"type": "action", "action": action, "expected_version": version, **extra}


def seat_view(view: dict[str, Any], seat_id: str) -> dict[str, Any]:
    return next(seat for seat in view["seats"] if seat["id"] == seat_id)


# --- connecting ---------------------------------------------------------------------------------


async def test_a_seated_player_gets_the_state_with_their_own_hand(alice, bob):
    game_id = await database_sync_to_async(start_game)(alice, bob)
    state = await database_sync_to_async(true_state)(game_id)
    socket = game_socket(game_id, cookie=await database_sync_to_async(session_cookie)(alice))

    message = await connected(socket)

    assert message["type"] == "state"
    game = message["game"]
    assert (game["id"], game["status"], game["version"]) == (game_id, "running", 0)
    assert game["you"] == {"position": 0, "player": "alice", "state": "active"}
    assert game["view"]["you"] == "alice"
    mine = seat_view(game["view"], "alice")
    assert mine["risk_hand"] == state.seat("alice").risk_cards
    assert mine["poker_hand"] == state.seat("alice").poker_cards
    assert hidden_keys(game) == [
        f"view.seats[{game['view']['seats'].index(mine)}].{key}"
        for key in ("risk_hand", "poker_hand")
    ]
    assert {d["player"] for d in game["pending"]} == {"alice", "bob"}
    await socket.disconnect()


async def test_a_spectator_sees_no_hand_no_deck_and_no_seed(alice, bob, carol):
    game_id = await database_sync_to_async(start_game)(alice, bob)
    state = await database_sync_to_async(true_state)(game_id)
    server_seed = (await database_sync_to_async(fetch.game_get)(game_id)).server_seed
    anonymous = game_socket(game_id)
    signed_in = game_socket(game_id, cookie=await database_sync_to_async(session_cookie)(carol))

    for socket in (anonymous, signed_in):
        message = await connected(socket)
        game = message["game"]
        assert game["you"] is None
        assert game["view"]["you"] is None
        assert hidden_keys(message) == []
        assert "seed" not in game["view"] and "server_seed" not in game
        text = json.dumps(message)
        assert server_seed not in text and state.seed not in text
        assert json.dumps(state.risk_deck.draw) not in text
        await socket.disconnect()


async def test_an_unknown_game_is_an_error_then_close_4404():
    socket = game_socket(999_999)
    ok, _ = await socket.connect()
    assert ok
    message = await socket.receive_json_from()
    assert message["type"] == "error"
    assert (message["status"], message["error"], message["field"]) == (404, "not_found", "id")
    assert (await socket.receive_output(timeout=1)) == {"type": "websocket.close", "code": 4404}


async def test_an_api_token_in_the_query_string_signs_the_socket_in(alice, bob):
    game_id = await database_sync_to_async(start_game)(alice, bob)
    key = await database_sync_to_async(token_of)(bob)

    message = await connected(game_socket(game_id, token=key))

    assert message["game"]["you"]["player"] == "bob"
    assert "risk_hand" in seat_view(message["game"]["view"], "bob")


async def test_an_unknown_token_is_refused_with_a_reason(alice, bob):
    game_id = await database_sync_to_async(start_game)(alice, bob)
    socket = game_socket(game_id, token="not-a-key")
    ok, _ = await socket.connect()
    assert ok
    message = await socket.receive_json_from()
    assert (message["type"], message["status"]) == ("error", 401)
    assert message["error"] == "authentication_failed"
    assert (await socket.receive_output(timeout=1)) == {"type": "websocket.close", "code": 4401}


async def test_a_signed_in_socket_is_present_until_it_closes(alice, bob):
    game_id = await database_sync_to_async(start_game)(alice, bob)
    alice_socket = game_socket(game_id, token=await database_sync_to_async(token_of)(alice))
    spectator = game_socket(game_id)
    await connected(alice_socket)
    await connected(spectator)

    assert await sync_to_async(presence.presence_is_connected)(game_id, alice.pk)
    assert not await sync_to_async(presence.presence_is_connected)(game_id, bob.pk)
    await database_sync_to_async(
        lambda: GameSnapshot.objects.filter(pk=game_id).update(version=5)  # as if 5 actions
    )()
    await alice_socket.disconnect()
    assert not await sync_to_async(presence.presence_is_connected)(game_id, alice.pk)
    await spectator.disconnect()
    # She watched them all live: her next "your turn" summary starts after them.
    seen = await database_sync_to_async(
        lambda: Seat.objects.get(game_id=game_id, user=alice).last_seen_sequence
    )()
    assert seen == 5


# --- actions ------------------------------------------------------------------------------------


async def test_an_action_is_acked_and_each_player_gets_their_own_update(alice, bob):
    game_id = await database_sync_to_async(start_game)(alice, bob)
    alice_socket = game_socket(game_id, token=await database_sync_to_async(token_of)(alice))
    bob_socket = game_socket(game_id, token=await database_sync_to_async(token_of)(bob))
    alice_state = await connected(alice_socket)
    bob_state = await connected(bob_socket)
    action, version = await database_sync_to_async(legal_move)(game_id, "alice")

    await alice_socket.send_json_to(
        action_message(action, version, idempotency_key="k1", request_id="r1")
    )

    ack = await alice_socket.receive_json_from(timeout=5)
    assert ack["type"] == "ack"
    assert (ack["request_id"], ack["version"], ack["sequence"]) == ("r1", 1, 1)
    assert ack["events"][0]["type"] == "arranged"
    own = await alice_socket.receive_json_from(timeout=5)  # the update comes after the ack
    assert (own["type"], own["version"], own["base_version"]) == ("update", 1, 0)
    assert "view" not in own
    alice_view = updated_view(alice_state["game"]["view"], 0, own)
    assert alice_view == await database_sync_to_async(api_view)(alice, game_id)
    update = await bob_socket.receive_json_from(timeout=5)
    assert (update["type"], update["version"], update["status"]) == ("update", 1, "running")
    assert update["base_version"] == 0 and "view" not in update
    view = updated_view(bob_state["game"]["view"], 0, update)
    assert view == await database_sync_to_async(api_view)(bob, game_id)
    assert view["you"] == "bob"
    assert seat_view(view, "bob")["risk_hand"]
    assert "risk_hand" not in seat_view(view, "alice")
    assert seat_view(alice_view, "alice")["risk_hand"] and alice_view != view
    assert [e["type"] for e in update["events"]] == ["arranged"]
    assert isinstance(update["committed_at"], float)

    # The same idempotency key again: the first response, nothing applied, nothing pushed.
    await alice_socket.send_json_to(
        action_message(action, version, idempotency_key="k1", request_id="r2")
    )
    again = await alice_socket.receive_json_from(timeout=5)
    assert again == {**ack, "request_id": "r2"}
    assert await bob_socket.receive_nothing(timeout=0.2)
    for socket in (alice_socket, bob_socket):
        await socket.disconnect()


async def test_a_stale_version_is_an_error_with_the_current_version(alice, bob):
    game_id = await database_sync_to_async(start_game)(alice, bob)
    socket = game_socket(game_id, token=await database_sync_to_async(token_of)(alice))
    await connected(socket)
    action, version = await database_sync_to_async(legal_move)(game_id, "alice")

    await socket.send_json_to(action_message(action, version + 3, request_id=7))

    error = await socket.receive_json_from(timeout=5)
    assert error["type"] == "error"
    assert (error["request_id"], error["status"], error["error"]) == (7, 409, "stale_version")
    assert (error["field"], error["version"]) == ("expected_version", 0)
    assert error["message"]
    await socket.disconnect()


async def test_an_illegal_action_is_an_error_and_the_socket_stays_open(alice, bob):
    game_id = await database_sync_to_async(start_game)(alice, bob)
    socket = game_socket(game_id, token=await database_sync_to_async(token_of)(alice))
    await connected(socket)
    action, version = await database_sync_to_async(legal_move)(game_id, "alice")
    (territory, armies), *rest = action["arrangement"]
    action["arrangement"] = [[territory, armies + 1], *rest]  # one army too many

    await socket.send_json_to(action_message(action, version))

    error = await socket.receive_json_from(timeout=5)
    assert (error["type"], error["status"], error["error"]) == ("error", 400, "illegal_action")
    assert error["field"].startswith("action") and error["rule"]
    assert "request_id" not in error
    await socket.send_json_to({"type": "ping"})
    assert await socket.receive_json_from() == {"type": "pong"}
    await socket.disconnect()


async def test_a_spectator_may_not_act(alice, bob):
    game_id = await database_sync_to_async(start_game)(alice, bob)
    socket = game_socket(game_id)
    await connected(socket)

    await socket.send_json_to(action_message({"type": "end_turn"}, 0, request_id="x"))

    error = await socket.receive_json_from()
    assert (error["status"], error["error"], error["request_id"]) == (401, "not_authenticated", "x")
    await socket.disconnect()


async def test_bad_messages_get_errors_naming_the_field_and_never_close_the_socket(alice, bob):
    game_id = await database_sync_to_async(start_game)(alice, bob)
    socket = game_socket(game_id, token=await database_sync_to_async(token_of)(alice))
    await connected(socket)

    async def answer_to(text: str) -> dict[str, Any]:
        await socket.send_to(text_data=text)
        return await socket.receive_json_from(timeout=5)

    error = await answer_to("{not json")
    assert (error["status"], error["error"], error["field"]) == (400, "parse_error", "body")
    error = await answer_to("[1, 2]")
    assert (error["error"], error["field"]) == ("parse_error", "body")
    error = await answer_to("[" * 100_000)  # nested too deeply to decode
    assert (error["status"], error["error"], error["field"]) == (400, "parse_error", "body")
    assert error["message"] == (
        "not valid JSON: nested too deeply: more than 32 levels of arrays and objects"
    )
    error = await answer_to("{}")
    assert (error["error"], error["field"]) == ("required", "type")
    error = await answer_to('{"type": "dance", "request_id": "d"}')
    assert (error["error"], error["field"], error["request_id"]) == ("invalid", "type", "d")
    assert error["allowed"] == ["action", "chat", "ping", "state"]
    error = await answer_to('{"type": "action", "action": {"type": "end_turn"}}')
    assert (error["error"], error["field"]) == ("required", "expected_version")
    error = await answer_to('{"type": "action", "expected_version": 0}')
    assert (error["error"], error["field"]) == ("required", "action")
    error = await answer_to('{"type": "action", "action": [], "expected_version": 0}')
    assert error["field"] == "action"
    error = await answer_to('{"type": "action", "action": {"type": "fly"}, "expected_version": 0}')
    assert (error["error"], error["field"]) == ("invalid_action", "action.type")
    error = await answer_to('{"type": "ping", "request_id": {"a": 1}}')
    assert (error["error"], error["field"]) == ("invalid", "request_id")
    await socket.send_to(bytes_data=b"\x00\x01")
    error = await socket.receive_json_from(timeout=5)
    assert (error["error"], error["field"]) == ("parse_error", "body")

    assert await answer_to('{"type": "ping", "request_id": 5}') == {"type": "pong", "request_id": 5}
    state = await answer_to('{"type": "state", "request_id": "s"}')
    assert (state["type"], state["request_id"], state["game"]["version"]) == ("state", "s", 0)
    await socket.disconnect()


async def test_a_server_fault_is_a_500_error_message_and_the_socket_stays_open(
    alice, bob, monkeypatch
):
    def broken(**kwargs):
        raise RuntimeError("a bug")

    monkeypatch.setattr(submit, "action_submit", broken)
    game_id = await database_sync_to_async(start_game)(alice, bob)
    socket = game_socket(game_id, token=await database_sync_to_async(token_of)(alice))
    await connected(socket)

    await socket.send_json_to(action_message({"type": "end_turn"}, 0, request_id="b"))

    error = await socket.receive_json_from(timeout=5)
    assert (error["status"], error["error"], error["request_id"]) == (500, "server_error", "b")
    assert "a bug" not in error["message"]
    await socket.send_json_to({"type": "ping"})
    assert await socket.receive_json_from() == {"type": "pong"}
    await socket.disconnect()


async def test_the_action_throttle_applies_to_the_socket(alice, bob, settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {
            **settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "actions": "2/min",
        },
    }  # fmt: skip
    game_id = await database_sync_to_async(start_game)(alice, bob)
    socket = game_socket(game_id, token=await database_sync_to_async(token_of)(alice))
    await connected(socket)

    codes = []
    for _ in range(3):
        await socket.send_json_to(action_message({"type": "end_turn"}, 99))
        codes.append((await socket.receive_json_from(timeout=5))["error"])

    assert codes == ["stale_version", "stale_version", "throttled"]
    await socket.disconnect()


# --- gaining a seat while connected ---------------------------------------------------------------


async def test_a_late_comer_who_joins_over_the_socket_hears_their_seat_from_then_on(
    alice, bob, carol
):
    game_id = await database_sync_to_async(start_game)(alice, bob)
    for player, user in (("alice", alice), ("bob", bob)):  # the set-up: both arrange
        action, version = await database_sync_to_async(legal_move)(game_id, player)
        await database_sync_to_async(submit.action_submit)(
            game_id=game_id, user=user, action=action, expected_version=version
        )
    socket = game_socket(game_id, token=await database_sync_to_async(token_of)(carol))
    first = await connected(socket)
    assert first["game"]["you"] is None
    state = await database_sync_to_async(true_state)(game_id)
    ally = next(s.id for s in state.seats if s.kind == "allied" and s.alive)

    await socket.send_json_to(
        action_message({"type": "join", "ally": ally}, first["game"]["version"])
    )

    ack = await socket.receive_json_from(timeout=5)
    assert ack["type"] == "ack", ack
    fresh = await socket.receive_json_from(timeout=5)
    assert fresh["type"] == "state"
    assert fresh["game"]["you"]["player"] == "carol"
    assert fresh["game"]["view"]["you"] == ally
    assert len(seat_view(fresh["game"]["view"], ally)["risk_hand"]) >= 2
    # The public update of the join is already in that state: it is not relayed after it.
    assert await socket.receive_nothing(timeout=0.2)

    # The next action anyone takes reaches carol with her own cards in it.
    pending = (await database_sync_to_async(true_state)(game_id)).turn.controller
    user = {"alice": alice, "bob": bob, "carol": carol}[pending]
    action, version = await database_sync_to_async(legal_move)(game_id, pending)
    await database_sync_to_async(submit.action_submit)(
        game_id=game_id, user=user, action=action, expected_version=version
    )
    update = await socket.receive_json_from(timeout=5)
    assert update["type"] == "update" and update["version"] == fresh["game"]["version"] + 1
    view = updated_view(fresh["game"]["view"], fresh["game"]["version"], update)
    assert view == await database_sync_to_async(api_view)(carol, game_id)
    assert view["you"] == ally and "risk_hand" in seat_view(view, ally)
    await socket.disconnect()


async def test_a_lobby_seat_taken_while_watching_turns_the_socket_into_that_seat(alice, bob):
    game = await database_sync_to_async(lobby.game_create)(creator=alice, seats=2)
    socket = game_socket(game.pk, token=await database_sync_to_async(token_of)(bob))
    first = await connected(socket)
    assert (first["game"]["status"], first["game"]["you"]) == ("open", None)

    await database_sync_to_async(lobby.game_join)(game_id=game.pk, user=bob)
    await database_sync_to_async(lobby.game_start)(game_id=game.pk, user=alice)

    message = await socket.receive_json_from(timeout=5)
    assert message["type"] == "state"  # the start, as bob's own view rather than the public one
    assert message["game"]["status"] == "running"
    assert message["game"]["view"]["you"] == "bob"
    assert "risk_hand" in seat_view(message["game"]["view"], "bob")
    await socket.disconnect()


# --- hidden information -------------------------------------------------------------------------


async def test_nothing_bob_receives_shows_alices_cards_the_deck_order_or_the_seed(
    alice, bob, carol
):
    game_id = await database_sync_to_async(start_game)(alice, bob, carol)
    server_seed = (await database_sync_to_async(fetch.game_get)(game_id)).server_seed
    players = [
        SocketPlayer(user, game_id, token=await database_sync_to_async(token_of)(user), seed=n)
        for n, user in enumerate((alice, bob, carol))
    ]
    snapshots: dict[int, Any] = {}
    original_decide = SocketPlayer.decide

    def decide_and_remember(self):  # the true state at every version a player acted on
        action, version = original_decide(self)
        snapshots.setdefault(version, true_state(game_id))
        return action, version

    for player in players:
        player.decide = decide_and_remember.__get__(player)
        await player.connect()
    await asyncio.wait_for(
        asyncio.gather(*(p.play(until_version=60) for p in players)), timeout=120
    )
    snapshots[-1] = await database_sync_to_async(true_state)(game_id)
    for player in players:
        await player.socket.disconnect()

    bob = players[1]
    assert sum(m["type"] == "update" for m in bob.messages) >= 60
    assert not any("view" in m for m in bob.messages if m["type"] == "update")
    # Every view bob's client rebuilt from his patches: his own hands only.
    assert len(bob.views) >= 60
    for version, view in bob.views.items():
        assert "seed" not in view
        assert view["you"] == "bob"
        mine = [
            f"seats[{i}].{key}"
            for i, seat in enumerate(view["seats"])
            if seat["id"] == "bob"
            for key in ("risk_hand", "poker_hand")
        ]
        # While bob plays an allied army's turn he holds its Risk cards (its sets are his to
        # play, risk/RULES.md): that hand may be shown to him too, never a player's.
        allied = {
            f"seats[{i}].risk_hand" for i, seat in enumerate(view["seats"])
            if seat["kind"] == "allied"
        }  # fmt: skip
        found = hidden_keys(view)
        assert set(mine) <= set(found) and set(found) - set(mine) <= allied, (version, found)
    # And nothing in the messages themselves (patches included) names a hidden card.
    for message in bob.messages:
        text = json.dumps(message)
        assert server_seed not in text
        lists = list(_lists_in(message))
        strings = set(_strings_in(message))
        for state in snapshots.values():
            assert state.seed not in text
            for pile in (state.risk_deck.draw, state.poker_deck.draw):
                assert len(pile) < 2 or pile not in lists
            hand = state.seat("alice").risk_cards
            assert len(hand) < 2 or hand not in lists
        at_this_version = snapshots.get(message.get("version", -2))
        if at_this_version is not None:  # alice's poker cards then: never named to bob
            assert not strings & set(at_this_version.seat("alice").poker_cards)


def _lists_in(value: Any):
    if isinstance(value, list):
        yield value
        for item in value:
            yield from _lists_in(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _lists_in(item)


def _strings_in(value: Any):
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _strings_in(item)
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings_in(item)


async def test_updates_swapped_on_the_way_are_relayed_in_version_order(alice, bob, monkeypatch):
    """Two commits in a row push from different threads, so their updates can arrive swapped:
    the socket holds the one that skips a version until the missing one comes, and relays both
    in order; when the missing one never comes, after ``HOLD_SECONDS`` the client gets a fresh
    ``state`` instead (it could not apply the held patch)."""
    from channels.layers import get_channel_layer

    from games.play.sockets import consumers

    monkeypatch.setattr(consumers, "HOLD_SECONDS", 0.2)
    game_id = await database_sync_to_async(start_game)(alice, bob)
    socket = game_socket(game_id, token=await database_sync_to_async(token_of)(alice))
    state = await connected(socket)
    start = state["game"]["version"]
    group = push.seat_group(game_id, state["game"]["you"]["position"])

    async def relay(version: int, *, to: str = group) -> None:
        update = {
            "type": "update", "version": version, "base_version": version - 1,
            "status": "running", "events": [], "patch": [],
        }  # fmt: skip
        message = {"type": "game.message", "group": to, "payload": update}
        await get_channel_layer().group_send(group, message)

    await relay(start + 2)
    await relay(start + 1)
    got = [(await socket.receive_json_from(timeout=5))["version"] for _ in range(2)]
    assert got == [start + 1, start + 2]
    await relay(start + 2)  # a duplicate: already applied
    await relay(start + 1, to=push.public_group(game_id))  # another group's: not this view
    assert await socket.receive_nothing(timeout=0.1)
    await relay(start + 4)  # start + 3 never comes
    assert await socket.receive_nothing(timeout=0.1)
    fresh = await socket.receive_json_from(timeout=5)
    assert (fresh["type"], fresh["game"]["version"]) == ("state", start)  # the real version
    await relay(start + 1)  # the client is at start again: this one applies
    assert (await socket.receive_json_from(timeout=5))["version"] == start + 1
    await socket.disconnect()


async def test_a_push_is_relayed_without_a_hop_to_the_shared_sync_thread(alice, bob, monkeypatch):
    """channels' own dispatch closes stale database connections before every message, on the
    one sync thread all sockets share; the game socket relays a push without that hop (its
    database calls close stale connections themselves). Counted: no call for five pushes."""
    import channels.consumer
    from channels.layers import get_channel_layer

    hops: list[str] = []
    real = channels.consumer.aclose_old_connections

    async def counted() -> None:
        hops.append("hop")
        await real()

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", counted)
    game_id = await database_sync_to_async(start_game)(alice, bob)
    socket = game_socket(game_id, token=await database_sync_to_async(token_of)(alice))
    state = await connected(socket)
    start = state["game"]["version"]
    group = push.seat_group(game_id, state["game"]["you"]["position"])
    for version in range(start + 1, start + 6):
        update = {
            "type": "update", "version": version, "base_version": version - 1,
            "status": "running", "events": [], "patch": [],
        }  # fmt: skip
        await get_channel_layer().group_send(
            group, {"type": "game.message", "group": group, "payload": update}
        )
        assert (await socket.receive_json_from(timeout=5))["version"] == version
    await socket.disconnect()
    assert hops == []
