"""The game's chat (games.play.chat): who may write, what a line may hold, the rate limit,
the history API (GET /api/games/{id}/chat) and the push over the game socket."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from django.core.cache import cache
from rest_framework.test import APIClient

from games.models import ChatMessage, Seat
from games.play import chat, lobby
from games.web.exceptions import ApplicationError
from tests.games.conftest import client_for, make_user
from tests.sockets import game_socket, session_cookie


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The chat throttle lives in the cache, keyed by ids that repeat from test to test."""
    cache.clear()
    yield
    cache.clear()


def two_player_game(alice, bob, *, public: bool = True, start: bool = True):
    game = lobby.game_create(creator=alice, seats=2, public=public)
    lobby.game_join(game_id=game.pk, user=bob, invite=game.invite_token)
    if start:
        lobby.game_start(game_id=game.pk, user=alice)
    return game


def refusal(call) -> ApplicationError:
    with pytest.raises(ApplicationError) as caught:
        call()
    return caught.value


# --- writing --------------------------------------------------------------------------------


def test_a_seated_player_writes_a_stripped_line_tagged_with_their_seat(alice, bob):
    game = two_player_game(alice, bob)

    line = chat.post_message(game_id=game.pk, user=bob, text="  hello\nthere  ")

    assert (line["type"], line["author"], line["seat"], line["text"]) == (
        "chat", "bob", "bob", "hello\nthere",
    )  # fmt: skip
    stored = ChatMessage.objects.get(pk=line["id"])
    assert (stored.author, stored.seat, stored.text) == (bob, "bob", "hello\nthere")


def test_before_the_start_a_line_has_no_seat_yet(alice, bob):
    game = two_player_game(alice, bob, start=False)
    line = chat.post_message(game_id=game.pk, user=alice, text="ready?")
    assert (line["author"], line["seat"]) == ("alice", "")


def test_a_signed_in_spectator_reads_only(alice, bob, carol):
    game = two_player_game(alice, bob)
    error = refusal(lambda: chat.post_message(game_id=game.pk, user=carol, text="hi"))
    assert (error.status, error.code) == (403, "spectators_read_only")
    assert "spectators read only" in error.message
    assert ChatMessage.objects.count() == 0


def test_a_player_who_left_reads_only(alice, bob):
    game = two_player_game(alice, bob)
    Seat.objects.filter(game=game, user=bob).update(state=Seat.State.LEFT)
    error = refusal(lambda: chat.post_message(game_id=game.pk, user=bob, text="hi"))
    assert (error.status, error.code) == (403, "spectators_read_only")


@pytest.mark.parametrize(
    ("text", "why"),
    [("", "empty"), ("   \n ", "empty"), ("x" * 501, "at most 500"), ("tab\there", "U+0009"),
     ("nul\x00", "U+0000"), ("bell\x07", "U+0007"), ("rtl\u202eoverride", "U+202E"),
     (42, "a string"), (None, "a string")],
)  # fmt: skip
def test_a_bad_text_is_a_400_naming_the_text_field(alice, bob, text, why):
    game = two_player_game(alice, bob)
    error = refusal(lambda: chat.post_message(game_id=game.pk, user=alice, text=text))
    assert (error.status, error.code, error.field) == (400, "invalid", "text")
    assert why in error.message


def test_five_hundred_characters_after_stripping_are_allowed(alice, bob):
    game = two_player_game(alice, bob)
    line = chat.post_message(game_id=game.pk, user=alice, text=" " + "y" * 500 + " ")
    assert len(line["text"]) == 500


# --- the rate limit ---------------------------------------------------------------------------


def test_the_sixth_line_within_ten_seconds_is_refused_for_ten_seconds():
    for _ in range(5):
        chat.check_rate(1, 7, now=1000.0)
    error = refusal(lambda: chat.check_rate(1, 7, now=1004.0))
    assert (error.status, error.code) == (429, "throttled")
    assert error.extra == {"retry_after": 6}  # the first of the five leaves the window at 1010
    # Another game, or another user, has its own count.
    chat.check_rate(2, 7, now=1004.0)
    chat.check_rate(1, 8, now=1004.0)
    # Ten seconds after the burst the window has slid past it (a refused line did not count).
    chat.check_rate(1, 7, now=1010.0)


def test_the_twenty_first_line_within_a_minute_is_refused_though_each_ten_seconds_is_fine():
    for burst in range(4):  # 5 lines at 1000, 1010, 1020, 1030: never 5 inside 10 seconds
        for _ in range(5):
            chat.check_rate(1, 7, now=1000.0 + 10 * burst)
    error = refusal(lambda: chat.check_rate(1, 7, now=1040.0))
    assert (error.status, error.code) == (429, "throttled")
    assert error.extra == {"retry_after": 20}  # the lines of 1000 leave the minute at 1060
    chat.check_rate(1, 7, now=1060.0)


def test_the_service_refuses_the_sixth_line_in_a_row(alice, bob):
    game = two_player_game(alice, bob)
    for n in range(5):
        chat.post_message(game_id=game.pk, user=alice, text=f"line {n}")
    error = refusal(lambda: chat.post_message(game_id=game.pk, user=alice, text="one more"))
    assert (error.status, error.code) == (429, "throttled")
    assert error.extra["retry_after"] in range(1, 11)
    assert ChatMessage.objects.filter(game=game).count() == 5
    chat.post_message(game_id=game.pk, user=bob, text="bob is counted apart")


# --- the history API --------------------------------------------------------------------------


def chat_url(game_id: int) -> str:
    return f"/api/games/{game_id}/chat"


def test_the_history_lists_lines_after_an_id_oldest_first(alice, bob):
    game = two_player_game(alice, bob)
    ids = [
        chat.post_message(game_id=game.pk, user=user, text=text)["id"]
        for user, text in ((alice, "one"), (bob, "two"), (alice, "three"))
    ]

    everything = APIClient().get(chat_url(game.pk))  # a visitor reads a public game's chat
    after_first = client_for(bob).get(chat_url(game.pk), {"after": ids[0]})

    assert everything.status_code == 200
    body = everything.json()
    assert [(m["id"], m["author"], m["text"]) for m in body["messages"]] == [
        (ids[0], "alice", "one"), (ids[1], "bob", "two"), (ids[2], "alice", "three"),
    ]  # fmt: skip
    assert (body["after"], body["last"]) == (0, ids[2])
    assert [m["text"] for m in after_first.json()["messages"]] == ["two", "three"]
    assert client_for(bob).get(chat_url(game.pk), {"after": ids[2]}).json() == {
        "after": ids[2], "last": ids[2], "messages": [],
    }  # fmt: skip


def test_the_history_gives_the_newest_hundred_after_the_id(alice, bob):
    game = two_player_game(alice, bob)
    rows = ChatMessage.objects.bulk_create(
        [ChatMessage(game=game, author=alice, seat="alice", text=f"n{n}") for n in range(105)]
    )
    ids = sorted(r.pk for r in ChatMessage.objects.filter(game=game))
    assert len(rows) == len(ids) == 105

    body = client_for(alice).get(chat_url(game.pk)).json()

    assert [m["id"] for m in body["messages"]] == ids[5:]
    assert [m["text"] for m in body["messages"]][:2] == ["n5", "n6"]
    assert body["last"] == ids[-1]


@pytest.mark.parametrize("after", ["-1", "1.5", "x"])
def test_a_bad_after_is_a_400_naming_it(alice, bob, after):
    game = two_player_game(alice, bob)
    response = client_for(alice).get(chat_url(game.pk), {"after": after})
    assert response.status_code == 400
    assert response.json()["field"] == "after"


def test_a_private_games_chat_is_hidden_from_a_stranger_and_open_to_the_invite(alice, bob, carol):
    game = two_player_game(alice, bob, public=False)
    chat.post_message(game_id=game.pk, user=alice, text="between us")

    stranger = client_for(carol).get(chat_url(game.pk))
    visitor = APIClient().get(chat_url(game.pk))
    invited = client_for(carol).get(chat_url(game.pk), {"invite": game.invite_token})
    missing = client_for(carol).get(chat_url(game.pk + 1000))

    assert stranger.status_code == visitor.status_code == 404
    assert stranger.json() == missing.json()  # the very answer of a missing id
    assert "between us" not in stranger.content.decode()
    assert [m["text"] for m in invited.json()["messages"]] == ["between us"]


def test_the_chat_endpoint_is_in_the_schema(db):
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    operation = schema["paths"]["/api/games/{game_id}/chat"]["get"]
    assert operation["operationId"] == "games_chat"
    assert {p["name"] for p in operation["parameters"]} == {"game_id", "after", "invite"}
    assert set(operation["responses"]) == {"200", "400", "401", "404"}  # 401: a bad token


# --- over the game socket ---------------------------------------------------------------------


async def connected(socket):
    ok, _ = await socket.connect()
    assert ok
    state = await socket.receive_json_from(timeout=10)
    assert state["type"] == "state", state
    return socket


async def test_a_line_reaches_both_players_and_a_spectator_after_the_ack(transactional_db):
    alice, bob, carol = [
        await database_sync_to_async(make_user)(n) for n in ("alice", "bob", "carol")
    ]
    game = await database_sync_to_async(two_player_game)(alice, bob)
    cookies = [await database_sync_to_async(session_cookie)(u) for u in (alice, bob, carol)]
    a, b, c = [await connected(game_socket(game.pk, cookie=k)) for k in cookies]
    anonymous = await connected(game_socket(game.pk))

    await b.send_json_to({"type": "chat", "text": " ahoy ", "request_id": "c1"})
    ack = await b.receive_json_from(timeout=10)
    line = await b.receive_json_from(timeout=10)
    others = [await s.receive_json_from(timeout=10) for s in (a, c, anonymous)]

    stored = await database_sync_to_async(lambda: ChatMessage.objects.get())()
    assert ack == {"type": "ack", "request_id": "c1", "id": stored.pk}
    expected = {"type": "chat", "id": stored.pk, "author": "bob", "seat": "bob", "text": "ahoy",
                "at": stored.created_at.isoformat()}  # fmt: skip
    assert line == expected
    assert others == [expected, expected, expected]
    for socket in (a, b, c, anonymous):
        await socket.disconnect()


async def test_spectators_and_visitors_get_a_403_over_the_socket(transactional_db):
    alice, bob, carol = [
        await database_sync_to_async(make_user)(n) for n in ("alice", "bob", "carol")
    ]
    game = await database_sync_to_async(two_player_game)(alice, bob)
    carols = await connected(
        game_socket(game.pk, cookie=await database_sync_to_async(session_cookie)(carol))
    )
    anonymous = await connected(game_socket(game.pk))

    for socket, request_id in ((carols, "s1"), (anonymous, "s2")):
        await socket.send_json_to({"type": "chat", "text": "let me in", "request_id": request_id})
        error = await socket.receive_json_from(timeout=10)
        assert (error["type"], error["status"], error["error"], error["request_id"]) == (
            "error", 403, "spectators_read_only", request_id,
        )  # fmt: skip
        assert "spectators read only" in error["message"]
        assert await socket.receive_nothing(timeout=0.2)
    assert await database_sync_to_async(ChatMessage.objects.count)() == 0
    for socket in (carols, anonymous):
        await socket.disconnect()


async def test_a_bad_line_and_the_rate_limit_answer_over_the_socket(transactional_db):
    alice, bob = [await database_sync_to_async(make_user)(n) for n in ("alice", "bob")]
    game = await database_sync_to_async(two_player_game)(alice, bob)
    a = await connected(
        game_socket(game.pk, cookie=await database_sync_to_async(session_cookie)(alice))
    )

    await a.send_json_to({"type": "chat", "request_id": "r0"})
    missing = await a.receive_json_from(timeout=10)
    await a.send_json_to({"type": "chat", "text": "bad\x1b[31m", "request_id": "r1"})
    bad = await a.receive_json_from(timeout=10)
    assert (missing["status"], missing["error"], missing["field"]) == (400, "required", "text")
    assert (bad["status"], bad["error"], bad["field"]) == (400, "invalid", "text")

    answers = []
    for n in range(6):
        await a.send_json_to({"type": "chat", "text": f"n{n}", "request_id": f"n{n}"})
        answer = await a.receive_json_from(timeout=10)
        if answer["type"] == "ack":
            pushed = await a.receive_json_from(timeout=10)
            assert (pushed["type"], pushed["text"]) == ("chat", f"n{n}")
        answers.append((answer["type"], answer.get("status")))
    assert answers == [("ack", None)] * 5 + [("error", 429)]
    assert answer["retry_after"] in range(1, 11)
    await a.disconnect()


async def test_a_private_games_chat_never_reaches_a_strangers_socket(transactional_db):
    alice, bob, carol = [
        await database_sync_to_async(make_user)(n) for n in ("alice", "bob", "carol")
    ]
    game = await database_sync_to_async(two_player_game)(alice, bob, public=False)
    cookie = await database_sync_to_async(session_cookie)(carol)
    stranger = game_socket(game.pk, cookie=cookie)
    ok, _ = await stranger.connect()
    assert ok
    refused = await stranger.receive_json_from(timeout=10)
    assert (refused["type"], refused["status"], refused["error"]) == ("error", 404, "not_found")
    assert (await stranger.receive_output(timeout=5))["code"] == 4404
    # Nor can she write in it: the game is as missing to her as to anyone without the invite.
    error = await database_sync_to_async(
        lambda: refusal(lambda: chat.post_message(game_id=game.pk, user=carol, text="hi"))
    )()
    assert error.status == 404

    invited = await connected(game_socket(game.pk, cookie=cookie, invite=game.invite_token))
    a = await connected(
        game_socket(game.pk, cookie=await database_sync_to_async(session_cookie)(alice))
    )
    await a.send_json_to({"type": "chat", "text": "secret", "request_id": "p"})
    assert (await a.receive_json_from(timeout=10))["type"] == "ack"
    assert (await invited.receive_json_from(timeout=10))["text"] == "secret"
    for socket in (invited, a):
        await socket.disconnect()
