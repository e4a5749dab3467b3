"""The lobby's own controls in a real browser: a game created at an AI level, bots added at
another, the creator's "Cancel game", and the filter buttons."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def game_json(site, game_id: int) -> dict:
    with urllib.request.urlopen(f"{site.url}/api/games/{game_id}", timeout=10) as response:
        return json.loads(response.read())


def test_the_creator_picks_the_ai_level_then_cancels_and_the_filters_pick_a_list(
    page, site, signed_in
):
    site.create_user("lobby-lou")
    signed_in(page, "lobby-lou")
    page.get_by_label("Name (optional)").fill("Called off")
    page.get_by_label("AI level (bots, allied armies, timed-out players)").select_option("easy")
    page.locator("#create-form").get_by_role("button", name="Create").click()
    expect(page.locator("#create-result")).to_contain_text("Created game #")
    game_id = int(re.search(r"#(\d+)", page.locator("#create-result").text_content())[1])
    assert game_json(site, game_id)["ai_level"] == "easy"

    row = page.locator(f'#mine-body tr[data-game="{game_id}"]')
    row.get_by_label(f"AI level of game {game_id}'s bots").select_option("normal")
    row.get_by_role("button", name="Fill with bots").click()
    # The lists are read again: the row now has its bots and the creator's Start.
    expect(row.get_by_role("button", name="Start")).to_be_visible()
    expect(row.locator("td").nth(2)).to_contain_text("3/3")
    body = game_json(site, game_id)
    assert body["ai_level"] == "normal" and sum(s["bot"] for s in body["seats"]) == 2

    row = page.locator(f'#mine-body tr[data-game="{game_id}"]')
    row.get_by_role("button", name="Cancel game").click()
    expect(page.locator(f'tr[data-game="{game_id}"]')).to_have_count(0)
    with pytest.raises(urllib.error.HTTPError) as gone:
        game_json(site, game_id)
    assert gone.value.code == 404

    page.get_by_role("button", name="Finished").click()
    expect(page.locator("#finished-section")).to_be_visible()
    for hidden in ("#open-section", "#running-section", "#mine-section", "#waiting-section"):
        expect(page.locator(hidden)).to_be_hidden()
    assert page.url.endswith("/games?show=finished")
    page.reload()  # the filter is in the address
    expect(page.locator("#finished-section")).to_be_visible()
    expect(page.locator("#open-section")).to_be_hidden()
    expect(page.get_by_role("button", name="Finished")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="All").click()
    expect(page.locator("#open-section")).to_be_visible()
    expect(page.locator("#mine-section")).to_be_visible()
    assert page.js_errors == []


def test_the_home_page_lists_running_games_to_watch(page, site, signed_in):
    site.create_user("home-hal")
    signed_in(page, "home-hal")
    game_id = page.evaluate("""async () => {
      const { api } = await import("/static/frontend/common.js");
      const made = await api("POST", "/api/games", {seats: 3, name: "Watch me"});
      await api("POST", `/api/games/${made.data.id}/bots`);
      await api("POST", `/api/games/${made.data.id}/start`);
      return made.data.id;
    }""")
    page.goto("/")
    link = page.locator("#watch-list a", has_text="Watch me")
    expect(link).to_have_attribute("href", f"/games/{game_id}")
    expect(page.locator("#watch-list li", has_text="Watch me")).to_contain_text(
        "home-hal, bot:2 (bot), bot:3 (bot)"
    )
    expect(page.locator("#watch-status")).to_contain_text("running game")
    expect(page.locator("#home-you")).to_contain_text("Signed in as home-hal")
    page.screenshot(path="/tmp/shot-home-running.png")
    assert page.js_errors == []
