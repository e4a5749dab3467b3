"""The browser pages: shells that render no game data; their scripts read the API and socket.

An unknown game id still answers 200: the page cannot know (it reads no database) and its script
shows "no such game" from the API's 404.
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games.play.reads import fetch
from tests.games.helpers import start_game

SCRIPT = '<script type="module" src="/static/frontend/{}"></script>'


def page(client: Client, path: str) -> str:
    response = client.get(path)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    return response.content.decode()


def title(html: str) -> str:
    match = re.search(r"<title>(.*?)</title>", html, re.S)
    assert match is not None
    return match.group(1).strip()


def test_the_routes_have_their_names():
    assert reverse("lobby-page") == "/games"
    assert reverse("game-page", kwargs={"game_id": 7}) == "/games/7"
    assert reverse("login-page") == "/login"


def test_the_lobby_page(client):
    html = page(client, "/games")  # no db fixture: a database read would fail the test
    assert title(html) == "Games - Warboard"
    assert SCRIPT.format("whoami.js") in html
    assert SCRIPT.format("lobby.js") in html
    assert 'id="create-form"' in html
    for field in ("seats", "win", "time_control", "minutes", "days", "public"):
        assert f'name="{field}"' in html
    assert "<h1>Games</h1>" in html


def test_the_game_page_carries_the_game_id_for_its_script(client):
    html = page(client, "/games/42")  # no db fixture: a database read would fail the test
    assert title(html) == "Game 42 - Warboard"
    assert SCRIPT.format("game.js") in html
    assert 'data-game-id="42"' in html
    assert 'aria-live="polite"' in html  # the status line is announced
    assert 'for="action-json"' in html


def test_an_unknown_game_id_still_answers_200_and_the_script_says_so(client):
    html = page(client, "/games/999999")  # no such game: the page does not look
    assert 'data-game-id="999999"' in html
    assert SCRIPT.format("game.js") in html


def test_a_game_id_that_is_not_a_number_is_no_page(client):
    assert client.get("/games/abc").status_code == 404


def test_the_login_page(client):
    html = page(client, "/login?next=/games/3")
    assert title(html) == "Sign in - Warboard"
    assert SCRIPT.format("login.js") in html
    assert 'id="login-form"' in html and 'id="register-form"' in html
    assert 'for="login-username"' in html and 'for="register-password"' in html


def test_the_home_page_says_what_warboard_is_and_links_everything_a_visitor_needs(client):
    html = page(client, "/")
    assert title(html) == "Warboard"
    assert "War board games where skill, not wild dice, decides." in html
    for href in ("/games", "/login", "/calculators/", "/rules", "/status", "/verify"):
        assert f'href="{href}"' in html, href
    assert 'id="watch-list"' in html and SCRIPT.format("home.js") in html


@pytest.mark.django_db
def test_the_home_page_names_who_is_signed_in(client):
    alice = get_user_model().objects.create_user(username="alice", password="x" * 20)
    client.force_login(alice)
    html = page(client, "/")
    assert re.search(r'Signed in as\s+<a href="/players/alice">alice</a>', html)
    assert 'href="/login"' not in html.split('id="home-you"')[1].split("</p>")[0]


def test_the_status_page_keeps_the_health_and_socket_checks(client):
    html = page(client, "/status")
    assert title(html) == "Server status - Warboard"
    assert 'id="health"' in html and 'id="socket"' in html
    assert SCRIPT.format("status.js") in html


@pytest.mark.django_db
def test_a_players_page_lists_their_games_with_replays_as_the_viewer_may_see_them(client):
    from games.models import Game
    from games.play import lobby

    people = get_user_model().objects
    alice = people.create_user(username="alice", password="x" * 20)
    bob = people.create_user(username="bob", password="x" * 20)
    done = lobby.game_create(creator=alice, seats=2, name="Done")
    Game.objects.filter(pk=done.pk).update(status=Game.Status.FINISHED, result={"winner": "alice"})
    hidden = lobby.game_create(creator=alice, seats=2, name="Hidden", public=False)
    lobby.game_create(creator=bob, seats=2, name="Not hers")

    visitor = page(client, "/players/alice")
    rows = re.findall(r'<tr data-game="(\d+)">(.*?)</tr>', visitor, re.S)
    assert [int(game) for game, _ in rows] == [done.pk]  # the private one is not listed
    assert "won by alice" in rows[0][1]
    assert f'<a href="/games/{done.pk}/replay">Replay</a>' in rows[0][1]
    client.force_login(alice)
    own = page(client, "/players/alice")
    assert [int(g) for g in re.findall(r'<tr data-game="(\d+)">', own)] == [hidden.pk, done.pk]


@pytest.mark.django_db(transaction=True)
def test_a_running_game_page_renders_no_game_data(client, settings):
    """No seed, no hand, no board: everything comes later through the API's filters."""
    settings.WARBOARD_TASKS_INLINE = True
    alice = get_user_model().objects.create_user(username="alice", password="x" * 20)
    game = start_game(alice, 3)
    game.refresh_from_db()
    state = fetch.game_state(game)
    client.force_login(alice)
    html = page(client, f"/games/{game.pk}")
    assert f'data-game-id="{game.pk}"' in html
    assert game.server_seed and game.server_seed not in html
    assert game.seed_commitment not in html
    cards = {c for seat in state.seats for c in (*seat.risk_cards, *seat.poker_cards)}
    assert cards
    for card in cards:
        assert f'"{card}"' not in html and f">{card}<" not in html
    for name in state.territories:
        assert name not in html
    for word in ("risk_hand", "poker_hand", "legal_actions", "alice"):
        assert word not in html


def test_the_game_page_fetches_the_drawn_board_of_its_games_map(client):
    """The page names no map: game.js asks for /board/<map>/<version>.json once the game's
    options say which (boardUrl in board.js)."""
    html = page(client, "/games/42")
    assert '<div id="board" class="board"></div>' in html and "classic" not in html
    response = client.get("/board/classic.json")  # no db fixture: the packaged file answers
    assert response.status_code == 200
    shapes = response.json()
    assert len(shapes["territories"]) == 42
    assert {o["name"] for o in shapes["oceans"]} == {"Pacific", "Atlantic", "Indian", "Arctic"}
    assert client.get("/board/classic/1.json").json() == shapes
    small = client.get("/board/small/1.json").json()
    assert len(small["territories"]) == 24 and len(small["cards"]) == 24
    assert {o["name"] for o in small["oceans"]} == {"Western", "Eastern"}
    assert client.get("/board/nope.json").status_code == 404
    assert client.get("/board/small/2.json").status_code == 404
