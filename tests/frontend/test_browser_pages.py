"""The pages in a real browser: Chromium (Playwright) against a real daphne (``browser`` tests).

The lobby loads; a signed-in person creates a game, fills it with bots, starts it from the lobby
and lands on the game's page, which shows the running game; the login form is labelled and
reachable with the keyboard.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


def test_the_lobby_page_loads(page):
    page.goto("/games")
    expect(page.get_by_role("heading", name="Games", exact=True)).to_be_visible()
    expect(page.locator("#lobby-status")).to_contain_text("sign in to create or join one")
    expect(page.get_by_role("link", name="Sign in")).to_be_visible()
    assert page.js_errors == []


def test_a_signed_in_player_creates_a_game_with_bots_and_opens_it(page, site, signed_in):
    site.create_user("lobby-ann")
    signed_in(page, "lobby-ann")
    expect(page.locator("#whoami")).to_contain_text("Signed in as lobby-ann")

    page.get_by_label("Name (optional)").fill("Browser test game")
    page.get_by_label("Seats").fill("3")
    page.get_by_role("button", name="Create").click()
    expect(page.locator("#create-result")).to_contain_text("Created game #")
    game_id = re.search(r"#(\d+)", page.locator("#create-result").inner_text()).group(1)

    row = page.locator("#games-body tr", has_text=f"#{game_id} Browser test game")
    row.get_by_role("button", name="Fill with bots").click()
    expect(row).to_contain_text("3/3")
    row.get_by_role("button", name="Start").click()

    page.wait_for_url(f"**/games/{game_id}")
    expect(page.locator("#status-line")).to_contain_text(f"Game {game_id}")
    expect(page.locator("#status-line")).to_contain_text("you are lobby-ann")
    expect(page.locator("#game-body")).to_be_visible()
    expect(page.locator("#territories-body tr").first).to_be_visible()
    assert page.js_errors == []


def test_the_login_form_is_labelled_and_keyboard_reachable(page):
    page.goto("/login")
    for label in ("Username", "Password"):
        fields = page.get_by_label(label, exact=True)
        expect(fields).to_have_count(2)  # sign in and register
    expect(page.get_by_label("Username", exact=True).first).to_have_attribute(
        "id", "login-username"
    )

    # From the top of the page, Tab walks: the skip link, the site links, then the sign-in form.
    page.locator("body").focus()
    order: list[str] = []
    while "register-username" not in order and len(order) < 40:  # past the site's links
        page.keyboard.press("Tab")
        order.append(page.evaluate(
            "() => { const a = document.activeElement;"
            " return a.id || (a.textContent || '').trim() || a.tagName; }"
        ))  # fmt: skip
    assert order[0] == "Skip to content"
    at = order.index("login-username")
    assert order[at : at + 3] == ["login-username", "login-password", "Sign in"], order
    assert order[at + 3] == "register-username", order

    # The keyboard alone signs in: type, Tab, type, Enter (a wrong password: refused, in words).
    page.locator("#login-username").focus()
    page.keyboard.type("nobody-here")
    page.keyboard.press("Tab")
    page.keyboard.type("wrong password")
    page.keyboard.press("Enter")
    expect(page.locator("#login-result")).not_to_be_empty()


PHONE_PAGES = ("/", "/games", "/calculators/", "/calculators/aa", "/calculators/risk",
               "/calculators/wif", "/calculators/france-1944", "/rules", "/verify", "/settings",
               "/login", "/rooms", "/leaderboard", "/players/phone-ann")  # fmt: skip


def test_the_board_fits_a_phone_and_names_each_card_symbol_on_hover(chromium, site, signed_in):
    """375 px wide (a small phone): no page scrolls sideways, the board takes the width,
    zooming in narrows the viewBox, and a territory's hover title names its Risk card symbol
    (Alaska's card is infantry, Northwest Territory's artillery, as on the classic board)."""
    site.create_user("phone-ann")
    context = chromium.new_context(base_url=site.url, viewport={"width": 375, "height": 740})
    page = context.new_page()
    try:
        signed_in(page, "phone-ann")
        game_id = page.evaluate("""async () => {
          const { api } = await import("/static/frontend/common.js");
          const made = await api("POST", "/api/games", {seats: 3, name: "Phone"});
          await api("POST", `/api/games/${made.data.id}/bots`);
          await api("POST", `/api/games/${made.data.id}/start`);
          return made.data.id;
        }""")
        page.goto(f"/games/{game_id}")
        tip = "#board polygon[data-name='{}'] title"
        expect(page.locator(tip.format("Alaska"))).to_contain_text("card: infantry")
        expect(page.locator(tip.format("Northwest Territory"))).to_contain_text("card: artillery")
        widths = page.evaluate("""() => ({page: document.documentElement.scrollWidth,
          window: window.innerWidth,
          board: document.querySelector('#board svg').getBoundingClientRect().width})""")
        assert widths["page"] <= widths["window"] == 375, widths
        assert 300 <= widths["board"] <= 375, widths
        for path in PHONE_PAGES:  # the other pages do not scroll sideways either
            page.goto(path)
            page.wait_for_load_state("networkidle")
            width = page.evaluate("() => document.documentElement.scrollWidth")
            assert width <= 375, (path, width)
        # The lobby's lists: each game a card of labelled lines, nothing scrolled sideways
        # inside its box (the table was six columns wide: 375 px showed two of them).
        page.goto("/games")
        row = page.locator(f"#mine-section tr[data-game='{game_id}']")
        expect(row).to_be_visible()
        expect(row.locator("td[data-label=Seats]")).to_be_visible()
        label = row.locator("td[data-label=Seats]").evaluate(
            "td => getComputedStyle(td, '::before').content"
        )
        assert label == '"Seats: "', label
        box = page.locator("#mine-section .scroll").evaluate(
            "b => ({scroll: b.scrollWidth, client: b.clientWidth})"
        )
        assert box["scroll"] <= box["client"], box
        assert row.bounding_box()["width"] <= 375
        page.goto(f"/games/{game_id}")
        before = page.locator("#board svg").get_attribute("viewBox")
        page.get_by_role("button", name="Zoom in").click()
        after = page.locator("#board svg").get_attribute("viewBox")
        assert float(after.split()[2]) == pytest.approx(0.8 * float(before.split()[2]))
    finally:
        context.close()
