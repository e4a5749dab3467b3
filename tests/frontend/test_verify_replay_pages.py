"""/verify and /games/<id>/replay as served: shells with their scripts, reading no database."""

from __future__ import annotations

from django.urls import reverse

from tests.frontend.test_pages import SCRIPT, page, title


def test_the_routes_have_their_names():
    assert reverse("verify-page") == "/verify"
    assert reverse("replay-page", kwargs={"game_id": 7}) == "/games/7/replay"


def test_the_verify_page(client):
    html = page(client, "/verify?game=3")  # no db fixture: a database read would fail the test
    assert title(html) == "Verify the dice - Warboard"
    assert SCRIPT.format("verify.js") in html  # which imports dice.js itself
    assert 'for="verify-game"' in html and 'for="verify-json"' in html
    assert 'id="verify-status" role="status"' in html


def test_the_replay_page_carries_the_game_id(client):
    html = page(client, "/games/42/replay")
    assert title(html) == "Replay of game 42 - Warboard"
    assert SCRIPT.format("replay.js") in html
    assert 'data-game-id="42"' in html


def test_the_site_nav_links_to_the_verify_page(client):
    assert '<a href="/verify">Verify dice</a>' in page(client, "/games")
