"""Accessibility basics of every page, in Chromium (``browser`` tests; checks in ``a11y.py``).

On each page: every input, select, textarea and button has an accessible name; images, the SVG
board and chart, and the board's buttons (territories, ships) have names; Tab reaches every
focusable element, and each shows a focus indicator (an outline or a box shadow while
``:focus-visible``). On the game page each territory is reached with Tab and Enter picks it:
the place form's territory becomes that one. The army colour is never the only cue: the seats
table names each colour and seat, and each territory's name says its owner.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.frontend.a11y import audit, tab_walk
from tests.frontend.browser import game_state
from tests.frontend.conftest import sign_in as sign_in_page

pytestmark = pytest.mark.browser

#: How long an expectation waits (ms): the browser tests share the machine with the suite.
LOADED = 30_000

PLAYER = "a11y-ann"
CALCULATORS = [
    "/calculators/aa",
    "/calculators/risk",
    "/calculators/wif",
    "/calculators/france-1944",
]


@pytest.fixture(scope="module")
def games(chromium, site):
    """A running game where PLAYER is to place armies (set up, the bots waiting on them), and a
    finished game (for its replay page): their ids."""
    site.create_user(PLAYER)
    finished = site.finished_game("a11y-bob")
    running = site.game_to_place(PLAYER)
    context = chromium.new_context(base_url=site.url)
    try:
        sign_in(context.new_page(), PLAYER)
    finally:
        state = context.storage_state()  # PLAYER's session, for every test of the module
        context.close()
    return {"running": running, "finished": finished, "session": state}


@pytest.fixture
def page(chromium, site, games):
    """A fresh context signed in as PLAYER (the session cookie of the ``games`` fixture: one
    sign-in for the module, not one a test, which a loaded machine made time out)."""
    context = chromium.new_context(base_url=site.url, storage_state=games["session"])
    context.set_default_timeout(LOADED)
    try:
        yield context.new_page()
    finally:
        context.close()


def sign_in(page, username: str) -> None:
    """Sign in, and wait until the lobby says so (the session cookie is then set)."""
    sign_in_page(page, username)
    expect(page.locator("#whoami")).to_contain_text(f"Signed in as {username}", timeout=LOADED)


#: Offered all game long: not a decision the game waits for.
META = {"leave", "concede", "vote_draw", "prefer"}


def wait_for_action(page, action_type: str, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while action_type not in [
        a["type"] for a in (game_state(page)["view"] or {}).get("legal_actions", [])
    ]:
        assert time.monotonic() < deadline, f"no {action_type} decision came"
        time.sleep(0.3)


def open_page(page, path: str) -> None:
    page.goto(path)
    page.wait_for_load_state("networkidle")
    if path.startswith("/games/") and not path.endswith("/replay"):
        expect(page.locator("#board polygon").first).to_be_visible(timeout=LOADED)
        wait_for_action(page, "place")
        expect(page.locator('#action-form select[data-field="territory"]')).to_be_visible(
            timeout=LOADED
        )
    if path in CALCULATORS:  # with a result and its chart on the page
        page.get_by_role("button", name="Calculate").click()
        expect(page.locator("#calc-status")).to_have_text("Done.", timeout=LOADED)
        expect(page.locator("#calc-result svg.chart").first).to_be_visible(timeout=LOADED)


def paths(games) -> list[str]:
    running, finished = games["running"], games["finished"]
    return ["/", "/games", f"/games/{running}", "/calculators/", *CALCULATORS,
            "/rules", "/verify", f"/games/{finished}/replay", "/settings", "/login",
            "/rooms", "/leaderboard", f"/players/{PLAYER}"]  # fmt: skip


PAGES = ["home", "lobby", "game", "calculators", "aa", "risk", "wif", "france", "rules",
         "verify", "replay", "settings", "login", "rooms", "leaderboard", "player"]  # fmt: skip
#: Pages of text and links only: no form control to find.
TEXT_PAGES = ("home", "rules", "leaderboard", "player")


@pytest.mark.parametrize("which", PAGES)
def test_every_control_and_picture_has_a_name(page, games, which):
    path = paths(games)[PAGES.index(which)]
    open_page(page, path)
    found = audit(page)
    assert found["controls"] > 0 or which in TEXT_PAGES, path  # the check saw the form
    assert found["unnamed"] == [], path
    assert found["unnamedPictures"] == [], path
    if which == "game":  # the board, its 42 territories, the ships
        assert found["pictures"] >= 43


@pytest.mark.parametrize("which", PAGES)
def test_tab_reaches_everything_with_a_visible_focus(page, games, which):
    path = paths(games)[PAGES.index(which)]
    open_page(page, path)
    walk = tab_walk(page)
    assert walk["count"] >= 5, path  # at least the skip link and the site's links
    assert walk["missed"] == [], path
    assert walk["no_indicator"] == [], path
    assert walk["order"] == sorted(walk["order"]), path  # in document order: no tabindex jumps


def test_every_territory_is_reached_by_keyboard_and_enter_picks_it(page, games):
    open_page(page, f"/games/{games['running']}")
    territory = page.locator('#action-form select[data-field="territory"]')
    options = [
        v for v in territory.locator("option").evaluate_all("os => os.map(o => o.value)") if v
    ]
    assert len(options) >= 2  # the player's own territories
    target = next(name for name in options if name != territory.input_value())

    # From the last zoom button, Tab walks the board's territories in order; Enter on one.
    page.locator("#zoom-reset").focus()
    reached = []
    for _ in range(300):  # the ocean stations come first on the board
        page.keyboard.press("Tab")
        name = page.evaluate("() => document.activeElement.getAttribute('data-name')")
        if name is None and reached:
            break
        if name is not None:
            reached.append(name)
        if name == target:
            page.keyboard.press("Enter")
            expect(territory).to_have_value(target, timeout=LOADED)
    assert target in reached
    shapes = page.locator("#board polygon[data-name]").evaluate_all(
        "ps => ps.map(p => p.dataset.name)"
    )
    assert reached == shapes and len(shapes) == 42  # every territory, in the board's order


def test_the_colour_is_never_the_only_cue(page, games):
    open_page(page, f"/games/{games['running']}")
    view = game_state(page)["view"]
    rows = page.locator("#seats-body tr")
    expect(rows).to_have_count(len(view["seats"]), timeout=LOADED)
    for i, seat in enumerate(view["seats"]):
        expect(rows.nth(i)).to_contain_text(
            seat["colour"], timeout=LOADED
        )  # the colour in words by its swatch
        expect(rows.nth(i).locator("th")).to_have_text(seat["id"], timeout=LOADED)
    for name, holding in view["territories"].items():
        label = page.locator(f'#board polygon[data-name="{name}"]').get_attribute("aria-label")
        assert label.startswith(f"{name}, {holding['owner']}, {holding['armies']} arm"), label
