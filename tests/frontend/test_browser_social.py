"""The chat and the live lobby in a real browser (``browser`` tests): two players in two browser
contexts see each other's lines live, a spectator reads them without an input, a reload reads
the history back; the lobby shows a game created in another context without being reloaded."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.frontend.conftest import sign_in

pytestmark = pytest.mark.browser

TWO_PLAYER_GAME = """
from django.contrib.auth import get_user_model
from games.play import lobby
User = get_user_model()
game = lobby.game_create(creator=User.objects.get(username={ann!r}), seats=2, name="Chat test")
lobby.game_join(game_id=game.pk, user=User.objects.get(username={ben!r}))
lobby.game_start(game_id=game.pk, user=User.objects.get(username={ann!r}))
print("GAME", game.pk)
"""


def new_page(chromium, site):
    context = chromium.new_context(base_url=site.url)
    context.set_default_timeout(20_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors  # type: ignore[attr-defined]
    return page


def say(page, text: str) -> None:
    page.get_by_label("Message", exact=True).fill(text)
    page.locator("#chat-form").get_by_role("button", name="Send").click()


def test_two_players_chat_live_and_a_spectator_reads_without_an_input(page, chromium, site):
    for name in ("chat-ann", "chat-ben", "chat-cy"):
        site.create_user(name)
    out = site.shell(TWO_PLAYER_GAME.format(ann="chat-ann", ben="chat-ben"))
    game_id = int(re.search(r"GAME (\d+)", out).group(1))
    ann, ben, cy = page, new_page(chromium, site), new_page(chromium, site)
    for who, name in ((ann, "chat-ann"), (ben, "chat-ben"), (cy, "chat-cy")):
        sign_in(who, name)
        # sign_in's wait also matches /login?next=/games: wait for the session itself
        expect(who.locator("#whoami")).to_contain_text(f"Signed in as {name}")
        who.goto(f"/games/{game_id}")
        seat = "watching" if name == "chat-cy" else f"you are {name}"
        expect(who.locator("#status-line")).to_contain_text(seat)
    try:
        expect(ann.get_by_label("Message", exact=True)).to_be_visible()
        expect(ben.get_by_label("Message", exact=True)).to_be_visible()
        expect(cy.locator("#chat-note")).to_have_text(
            "Spectators read only: players at the table write here."
        )
        expect(cy.get_by_label("Message", exact=True)).to_be_hidden()
        expect(ann.locator("#chat-note")).to_be_hidden()

        say(ann, "ahoy from ann <b>not bold</b>")
        for reader in (ann, ben, cy):
            line = reader.locator("#chat-log li").last
            expect(line).to_contain_text("chat-ann: ahoy from ann <b>not bold</b>")
            expect(line.locator("b")).to_have_count(0)  # text, never markup
        expect(ann.get_by_label("Message", exact=True)).to_have_value("")  # cleared on the ack

        say(ben, "ben answers")
        for reader in (ann, ben, cy):
            expect(reader.locator("#chat-log li")).to_have_count(2)
            expect(reader.locator("#chat-log li").nth(1)).to_contain_text("chat-ben: ben answers")

        # A reload reads the history back from the API, in order.
        cy.reload()
        expect(cy.locator("#chat-log li .chat-text")).to_have_text(
            ["ahoy from ann <b>not bold</b>", "ben answers"]
        )
        for reader in (ann, ben, cy):
            assert reader.js_errors == []
    finally:
        ben.context.close()
        cy.context.close()


def test_the_lobby_shows_a_game_created_elsewhere_without_a_reload(page, chromium, site):
    site.create_user("lobby-dora")
    page.goto("/games")
    expect(page.locator("#lobby-live")).to_have_text("Live updates: on.")
    expect(page.locator("#lobby-status")).to_contain_text("sign in to create or join one")
    creator = new_page(chromium, site)
    try:
        sign_in(creator, "lobby-dora")
        expect(creator.locator("#whoami")).to_contain_text("Signed in as lobby-dora")
        creator.get_by_label("Name (optional)").fill("Made elsewhere")
        creator.get_by_label("Seats").fill("2")
        creator.get_by_role("button", name="Create").click()
        expect(creator.locator("#create-result")).to_contain_text("Created game #")
        game_id = re.search(r"#(\d+)", creator.locator("#create-result").inner_text()).group(1)

        row = page.locator("#games-body tr", has_text=f"#{game_id} Made elsewhere")
        expect(row).to_be_visible()  # pushed over /ws/lobby/, the page never reloaded
        expect(row).to_contain_text("1/2: lobby-dora")
        expect(row.get_by_role("link", name="Open")).to_have_attribute("href", f"/games/{game_id}")
        assert page.js_errors == [] and creator.js_errors == []
    finally:
        creator.context.close()
