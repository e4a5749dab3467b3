"""The game as a player meets it, in Chromium (``browser``): at the board, on a desktop and on a
phone.

Each test has its own game against two bots, where PLAYER is to place armies. A desktop page
(1280x900) and a touch phone page (375x812, ``has_touch``, ``is_mobile``) are open on it side by
side: while placing and while composing an attack both show the whole board and the commit
button inside the viewport (no scrolling between the map and the button). The phone then plays
the whole turn by taps (place, attack and its rolls, the move in, the end of the campaign, the
end of the turn), and after each step no visible text holds a version number or a snake_case
field name. A two-finger pinch (touch events through CDP) zooms the board; ships never overlap;
the tab's title and icon say when it is your turn; the turn sound is off until switched on (and
then beeps, made in the page); with the watchable pace on, the bots' moves queue and "Skip to
now" shows them all at once.
"""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import expect

from tests.frontend.browser import game_state, wait_for_game
from tests.frontend.conftest import sign_in as sign_in_page
from tests.frontend.play import HIT_POINT

pytestmark = pytest.mark.browser

LOADED = 30_000
PLAYER = "board-ann"
META = {"leave", "concede", "vote_draw", "prefer"}
#: Words a player should never read: a snake_case identifier, or the game's version counter.
#: (Lower case only: an invite token's random letters may hold an underscore.)
INTERNAL = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b|\b[Vv]ersion \d+")
#: The visible text of the page (closed <details>, hidden elements and inputs' values excluded).
VISIBLE_TEXT = "() => document.body.innerText"
#: The rectangle of an element and of the viewport.
IN_VIEW = """(sel) => {
  const e = document.querySelector(sel);
  if (!e) return null;
  const r = e.getBoundingClientRect();
  return { top: r.top, left: r.left, bottom: r.bottom, right: r.right, w: innerWidth,
    h: innerHeight, visible: r.width > 0 && r.height > 0 };
}"""


@pytest.fixture(scope="module")
def session(chromium, site):
    """PLAYER's signed-in browser session (made once for the module)."""
    site.create_user(PLAYER)
    context = chromium.new_context(base_url=site.url)
    context.set_default_timeout(LOADED)
    try:
        page = context.new_page()
        sign_in_page(page, PLAYER)
        expect(page.locator("#whoami")).to_contain_text(PLAYER)
        return context.storage_state()
    finally:
        context.close()


@pytest.fixture
def game(site, session):
    """A game of its own for each test, where PLAYER is to place (a test that plays a turn
    leaves the next one a game already moved on), and PLAYER's session."""
    game_id = site.game_to_place(PLAYER, "Board game", rounds=2)
    return {"id": game_id, "session": session}


def open_game(chromium, site, game, pace_ms: int | None = None, **options):
    context = chromium.new_context(base_url=site.url, storage_state=game["session"], **options)
    context.set_default_timeout(LOADED)
    if pace_ms is not None:  # the watchable pace (game.js reads window.__paceMs)
        context.add_init_script(f"window.__paceMs = {pace_ms}")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors  # type: ignore[attr-defined]
    page.goto(f"/games/{game['id']}")
    expect(page.locator("#board polygon").first).to_be_visible()
    return context, page


def assert_in_view(page, selector: str) -> None:
    box = page.evaluate(IN_VIEW, selector)
    assert box and box["visible"], selector
    assert box["top"] >= -0.5 and box["left"] >= -0.5, (selector, box)
    assert box["bottom"] <= box["h"] + 0.5 and box["right"] <= box["w"] + 0.5, (selector, box)


def assert_board_and_commit_in_view(page) -> None:
    expect(page.locator("#action-form button.primary")).to_be_visible()
    assert_in_view(page, "#board svg")
    assert_in_view(page, "#action-form button.primary")


def assert_words_only(page, when: str) -> None:
    text = page.evaluate(VISIBLE_TEXT)
    found = sorted(set(INTERNAL.findall(text)))
    assert found == [], f"{when}: {found}"


def legal(page) -> set[str]:
    return {a["type"] for a in (game_state(page)["view"] or {}).get("legal_actions", [])} - META


def tap_board(page, selector: str) -> None:
    point = page.locator(selector).first.evaluate(HIT_POINT)
    assert point is not None, f"{selector} cannot be tapped: covered"
    page.touchscreen.tap(point["x"], point["y"])


def commit_by_tap(page, button_type: str) -> int:
    """Tap the action's button (opening its form) unless its form is open, then the form's
    commit; the new version."""
    before = game_state(page)["version"]
    button = page.locator(f"#action-buttons button[data-type={button_type}]")
    if button.get_attribute("aria-pressed") != "true":
        button.tap()
    page.locator("#action-form button.primary").tap()
    page.wait_for_function(
        """before => { const r = document.getElementById('action-result');
           return r.className === 'bad' || Number(r.dataset.version || -1) > before; }""",
        arg=before,
    )
    result = page.locator("#action-result")
    assert result.get_attribute("class") == "ok", result.inner_text()
    assert result.inner_text().startswith("Done")
    version = int(result.get_attribute("data-version"))
    wait_for_game(page, "(s, v) => s.version >= v", version)
    return version


def attack_choice(page) -> tuple[str, str]:
    """A target with a territory source holding the most armies."""
    view = game_state(page)["view"]
    spec = next(a for a in view["legal_actions"] if a["type"] == "attack")
    pairs = [(t, s) for t, sources in spec["options"]["targets"].items() for s in sources
             if s in view["territories"]]  # fmt: skip
    return max(pairs, key=lambda p: (view["territories"][p[1]]["armies"], p))


def test_a_whole_turn_at_the_board_on_a_desktop_and_by_taps_on_a_phone(chromium, site, game):
    desk_ctx, desk = open_game(chromium, site, game, viewport={"width": 1280, "height": 900})
    # The phone watches the bots at a 5 s pace: at 0.7 s a loaded machine's bot moves, each
    # slower than that to come, never queued two deep behind the one shown.
    phone_ctx, phone = open_game(chromium, site, game, viewport={"width": 375, "height": 812},
                                 has_touch=True, is_mobile=True, pace_ms=5000)  # fmt: skip
    try:
        # the tab says it is our turn, with the "!" icon
        for page in (desk, phone):
            expect(page).to_have_title(re.compile(r"^\(Your turn\) Game \d+"))
            assert "e8590c" in page.locator("#favicon").get_attribute("href")
            expect(page.locator("#your-turn")).to_be_visible()
        # the help speaks of the device in hand
        expect(phone.locator("#board-note")).to_have_text(re.compile(r"^Pinch to zoom"))
        expect(desk.locator("#board-note")).to_contain_text("wheel")
        # one line of navigation on the phone: the links behind the Menu button
        menu = phone.locator("#menu-button")
        expect(menu).to_be_visible()
        expect(phone.get_by_role("link", name="Rules")).to_be_hidden()
        header = phone.locator("header.site").bounding_box()
        assert header["height"] < 60, header
        menu.tap()
        expect(phone.get_by_role("link", name="Rules")).to_be_visible()
        menu.tap()
        expect(desk.locator("#menu-button")).to_be_hidden()

        # placing: board and commit in view on both
        expect(phone.locator("#action-form select[data-field=territory]")).to_be_visible()
        for page in (desk, phone):
            assert_board_and_commit_in_view(page)
        assert_words_only(phone, "placing")
        assert_words_only(desk, "placing")
        # the hint in words, and the guide at its first step
        phone.locator("#hint-button").tap()
        expect(phone.locator("#hint-line")).to_have_text(re.compile(r"^Hint: (Place|Turn in) "))
        expect(phone.locator("#guide li.now")).to_have_attribute("data-step", "place")

        # place by taps: the territory on the board, then Place
        spec = next(a for a in game_state(phone)["view"]["legal_actions"] if a["type"] == "place")
        where = spec["options"]["territories"][0]
        tap_board(phone, f"#board polygon[data-name='{where}']")
        expect(phone.locator("#action-form select[data-field=territory]")).to_have_value(where)
        while "place" in legal(phone):
            commit_by_tap(phone, "place")
        assert_words_only(phone, "placed")

        # attacking: pick the target and the source on the board; both pages keep the board
        # and the commit in view while composing
        assert "attack" in legal(phone)  # armies just placed: an attack is open
        target, source = attack_choice(phone)
        for page in (desk, phone):
            expect(page.locator("#action-buttons button[data-type=attack]")).to_be_visible()
            page.locator("#action-buttons button[data-type=attack]").click()
        tap_board(phone, f"#board polygon[data-name='{target}']")
        desk.locator(f"#board polygon[data-name='{target}']").click()
        for page in (desk, phone):
            expect(page.locator("#action-form select[data-field=target]")).to_have_value(target)
            page.locator("#action-form select[data-field=source]").select_option(source)
            assert_board_and_commit_in_view(page)
        assert_words_only(phone, "composing an attack")
        phone.locator("#action-form button.primary").tap()
        expect(phone.locator("#action-result")).to_have_text(re.compile(r"^Done"))
        expect(phone.locator("#battle-section")).to_be_visible()
        expect(phone.locator("#battle-sides")).to_contain_text("left")
        assert_words_only(phone, "in battle")

        # the rest of the turn by taps: the rolls, the move in, the end of the campaign and of
        # the turn (the sound switched on first: it beeps once, made in the page)
        # (the sheet folded away to reach the page's settings below it, then back)
        sheet = phone.locator("#sheet-toggle")
        sheet.tap()
        expect(sheet).to_have_attribute("aria-expanded", "false")
        expect(phone.locator("#turn-sound")).not_to_be_checked()  # off unless switched on
        assert phone.evaluate("() => window.__turnBeeps || 0") == 0
        phone.locator("#turn-sound").tap()
        expect(phone.locator("#turn-sound")).to_be_checked()
        assert phone.evaluate("() => window.__turnBeeps") == 1
        phone.locator("#pace-watch").tap()  # the bots' moves after our turn, one by one
        expect(phone.locator("#pace-watch")).to_be_checked()
        sheet.tap()
        expect(phone.locator("#action-buttons")).to_be_visible()
        deadline = time.monotonic() + 120
        rolled = False
        while True:
            assert time.monotonic() < deadline, f"the turn did not end: {legal(phone)}"
            types = legal(phone)
            order = ("roll", "move_in", "end_campaign", "end_turn")
            step = next((t for t in order if t in types), None)
            if step is None:
                if not types:
                    break
                time.sleep(0.3)  # a defender's mobilization by a bot: wait for it
                continue
            if step == "roll" and not rolled:
                expect(phone.locator("#battle-dice")).to_be_visible()
            commit_by_tap(phone, step)
            rolled = rolled or step == "roll"
            if step == "roll" and game_state(phone)["view"]["battle"]:  # the battle goes on
                expect(phone.locator("#battle-dice .die.attacker").first).to_be_visible()
            assert_words_only(phone, f"after {step}")
            if step == "end_turn":
                break
        expect(phone).to_have_title(re.compile(r"^Game \d+"))  # no longer our turn
        assert "e8590c" not in phone.locator("#favicon").get_attribute("href")

        # the bots play on: queued at the watchable pace, then all shown at once
        try:
            phone.wait_for_function("() => window.testGame.state().queued > 1", timeout=LOADED)
        except Exception as error:  # the page's and the server's view of the game, to judge by
            shown = game_state(phone)
            served = phone.evaluate(
                "async (id) => (await (await fetch(`/api/games/${id}`)).json())", game["id"]
            )
            server = {k: served.get(k) for k in ("version", "status", "round", "turn")}
            raise AssertionError(
                f"no bot moves queued: page v{shown['version']} queued {shown.get('queued')}, "
                f"server {server}"
            ) from error
        skip = phone.locator("#fast-forward")
        expect(skip).to_be_visible()
        waiting = re.compile(r"^\d+ moves? still to show\.$")
        expect(phone.locator("#pace-note")).to_have_text(waiting)
        latest = phone.evaluate(
            "async (id) => (await (await fetch(`/api/games/${id}`)).json()).version", game["id"]
        )
        assert game_state(phone)["version"] < latest  # the page shows the past
        skip.tap()
        state = game_state(phone)
        assert state["version"] >= latest  # the present at once (later moves may queue again)
        # Hidden now, unless the bots' moves made since the tap queued again (a CI run saw the
        # button back): it is shown exactly while moves wait to be shown.
        phone.wait_for_function(
            "() => document.getElementById('fast-forward').hidden"
            " === (window.testGame.state().queued === 0)",
            timeout=LOADED,
        )
        # the newest entry's lines are in the log (an entry has a line per event)
        expect(phone.locator(f"#events-list li[value='{state['version']}']").first).to_be_visible()
        assert_words_only(phone, "after the skip")
        # the pace off again: the bots' moves show as they come, until our next turn, which
        # the title says and the sound (still on) beeps for
        sheet.tap()
        phone.locator("#pace-watch").tap()
        expect(phone.locator("#pace-watch")).not_to_be_checked()
        sheet.tap()
        expect(phone).to_have_title(re.compile(r"^\(Your turn\) "), timeout=90_000)
        assert phone.evaluate("() => window.__turnBeeps") == 2
        assert phone.js_errors == [] and desk.js_errors == []
    finally:
        desk_ctx.close()
        phone_ctx.close()


def test_the_guide_a_pinch_zoom_and_ships_never_overlapping(chromium, site, game):
    context, phone = open_game(chromium, site, game, viewport={"width": 375, "height": 812},
                               has_touch=True, is_mobile=True)  # fmt: skip
    try:
        expect(phone).to_have_title(re.compile(r"^\(Your turn\) "))
        # the first-game guide, at the step the turn is at (placing), hidden for good when asked
        guide = phone.locator("#guide")
        expect(guide).to_be_visible()
        expect(phone.locator("#guide li.now")).to_have_attribute("data-step", "place")
        phone.get_by_role("button", name="Hide the guide").tap()
        expect(guide).to_be_hidden()
        phone.reload()
        expect(phone.locator("#board polygon").first).to_be_visible()
        expect(phone.locator("#your-turn")).to_be_visible()
        expect(guide).to_be_hidden()  # remembered on this device
        phone.locator("#sheet-toggle").tap()  # the sheet folded to reach the page below
        phone.get_by_role("button", name="Show the first-game guide").tap()
        phone.locator("#sheet-toggle").tap()
        expect(guide).to_be_visible()
        phone.evaluate("() => scrollTo(0, 0)")

        svg = phone.locator("#board svg")
        expect(svg).to_have_attribute("viewBox", "0 0 1000 600")
        k = float(svg.evaluate("s => getComputedStyle(s).getPropertyValue('--k')"))
        assert k > 2.5  # the whole board on a phone: 2.5+ board units a pixel
        expect(svg).to_have_class(re.compile(r"\bfar\b"))  # the names do not fit: hidden
        # the army numbers are drawn at a readable size on the screen
        size = phone.locator("#board text.armies").first.evaluate(
            "t => t.getBoundingClientRect().height"
        )
        assert size >= 9, size
        # no two ships cover each other, on the phone's whole board
        boxes = phone.locator("#board g.ship .hull").evaluate_all(
            "hs => hs.map(h => { const r = h.getBoundingClientRect();"
            " return [r.left, r.top, r.right, r.bottom]; })"
        )
        assert boxes, "the game has ships"
        for i, a in enumerate(boxes):
            for b in boxes[:i]:
                apart = a[2] <= b[0] + 0.5 or b[2] <= a[0] + 0.5
                assert apart or a[3] <= b[1] + 0.5 or b[3] <= a[1] + 0.5, (a, b)

        # two fingers spread apart over the board (CDP touch events): the board zooms in
        box = svg.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        cdp = context.new_cdp_session(phone)

        def touch(kind: str, points: list[tuple[float, float]]) -> None:
            cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": [
                {"x": px, "y": py, "id": i} for i, (px, py) in enumerate(points)]})  # fmt: skip

        touch("touchStart", [(x - 20, y), (x + 20, y)])
        for d in (40, 60, 80, 100, 120):
            touch("touchMove", [(x - d, y), (x + d, y)])
        touch("touchEnd", [])
        view_box = [float(v) for v in svg.get_attribute("viewBox").split()]
        assert view_box[2] == pytest.approx(1000 / 6, rel=0.05)  # spread 6 times: 6 times closer
        k_after = float(svg.evaluate("s => getComputedStyle(s).getPropertyValue('--k')"))
        assert k_after == pytest.approx(k / 6, rel=0.05)
        expect(svg).not_to_have_class(re.compile(r"\bfar\b"))  # the names are back
        name = phone.locator("#board text.land-name").first
        assert name.evaluate("t => t.getBoundingClientRect().height") >= 8
        # the whole board again
        phone.locator("#zoom-reset").tap()
        expect(svg).to_have_attribute("viewBox", "0 0 1000 600")
        assert phone.js_errors == []
    finally:
        context.close()


def test_the_bots_pace_is_chosen_when_the_game_is_made(chromium, site, session):
    """The lobby's form sends the pace (the server's pause between bot moves, for everyone);
    the game page says it in words."""
    context = chromium.new_context(base_url=site.url, storage_state=session)
    context.set_default_timeout(LOADED)
    try:
        page = context.new_page()
        page.goto("/games")
        form = page.locator("#create-form")
        form.get_by_label("Bots' pace").select_option("0")
        form.get_by_role("button", name="Create").click()
        expect(page.locator("#create-result")).to_contain_text("Created game")
        made = page.locator("#create-result a").get_attribute("href")
        data = page.request.get(f"/api{made}").json()
        assert data["ai_delay_ms"] == 0
        page.goto(made)
        expect(page.locator("#game-facts")).to_contain_text("as fast as they think")
    finally:
        context.close()
