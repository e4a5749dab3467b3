"""Ships on the real game page (``browser`` test): a cruise and a sail done by clicking the board.

The position is made by playing through the services the API uses: a person and two bots; the
person's decisions (set-up, reinforcements) are taken by a random bot's choice submitted as the
person, the bots are driven by the server, until the person's campaign offers ``cruise``. In
Chromium the person then clicks their ship and the form's button, opens Sail, and the board must
highlight exactly the stations the map's lanes reach within the rolled boat lengths, each with
its distance; clicking one and confirming moves the ship there. The set-up form is filled with
the keyboard on the board (factory and ship's station) and accepted.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from risk.rules.board_map import load_map
from tests.frontend.browser import game_state, wait_for_game

pytestmark = pytest.mark.browser

TO_CRUISE = """
import random
from django.contrib.auth import get_user_model
from games.models import Game
from games.play import driver, lobby, submit, write
from risk.ai import odds
from risk.rules import legal_actions, pending_decisions
from risk.rules.bots import RandomBot, decide
odds.block(odds.CAP, odds.CAP, True)  # see FINISHED_GAME in browser.py: solved before threads
odds.block(odds.CAP, odds.CAP, False)
user = get_user_model().objects.get(username={username!r})
rng = random.Random(5)
for attempt in range(12):
    game = lobby.game_create(creator=user, seats=3)
    lobby.game_fill_with_bots(game_id=game.pk, user=user)
    lobby.game_start(game_id=game.pk, user=user)
    for _ in range(400):
        driver.advance(game.pk)
        game = Game.objects.get(pk=game.pk)
        state = write.locked_state(game)
        if state.over or not state.seat_of_actor({username!r}).alive:
            break
        specs = legal_actions(state, {username!r})
        if any(s.type == "cruise" for s in specs):
            ship = [s for s in specs if s.type == "cruise"][0].options["ships"][0]
            print("READY", game.pk, ship)
            raise SystemExit(0)
        if any(d.player == {username!r} for d in pending_decisions(state)):
            action = decide(RandomBot(rng), state, {username!r})
            body = action.to_dict()
            body.pop("player", None)
            submit.action_submit(game_id=game.pk, user=user, action=body,
                                      expected_version=game.version)
print("NO POSITION")
"""


def cruise_position(site, username: str) -> tuple[int, str]:
    out = site.shell(TO_CRUISE.format(username=username), timeout=600)
    ready = [line.split() for line in out.splitlines() if line.startswith("READY ")]
    assert ready, f"no game reached the person's cruise:\n{out}"
    return int(ready[-1][1]), ready[-1][2]


def test_a_ship_cruises_and_sails_by_clicks_on_the_board(page, site, signed_in):
    site.create_user("sailor-sam")
    game_id, ship = cruise_position(site, "sailor-sam")
    signed_in(page, "sailor-sam")
    # the login page's own URL matches too: wait for the sign-in to land before leaving it
    expect(page.locator("#whoami")).to_contain_text("Signed in as sailor-sam")
    page.goto(f"/games/{game_id}")
    expect(page.locator("#status-line")).to_contain_text("you are sailor-sam")
    expect(page.locator("#status-line")).to_contain_text("live")

    page.locator("#action-buttons button[data-type=cruise]").click()
    hull = page.locator(f"#board g.ship[data-ship={ship}]")
    expect(hull).to_have_class(re.compile(r"\bchoice\b"))  # a ready ship, outlined
    hull.click()
    expect(hull).to_have_class(re.compile(r"\bpicked\b"))
    expect(page.locator("#action-form select[data-field=ship]")).to_have_value(ship)
    page.locator("#action-form button.primary").click()

    sail = page.locator("#action-buttons button[data-type=sail]")
    expect(sail).to_be_visible()
    sail.click()
    view = game_state(page)["view"]
    at, moves = view["ships"][ship]["station"], view["ships"][ship]["moves"]
    assert view["ships"][ship]["cruising"] and 2 <= moves <= 12  # two dice of boat lengths
    # what the map's lanes reach within the roll, worked out here from the map, not the page
    reach = {k: d for k, d in load_map().reachable(at, moves).items() if d > 0}
    assert reach
    marked = page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('#board circle.station.choice')]"
        ".map((c) => [c.dataset.station, c.getAttribute('aria-label')]))"
    )
    assert sorted(marked) == sorted(reach)
    for key, label in marked.items():
        assert label.endswith(f": {reach[key]} bl"), (key, label)
    # a station no ship sits on (a ship's hull is drawn over its station's dot)
    taken = {s["station"] for s in view["ships"].values()}
    goal = sorted(k for k in reach if k not in taken)[0]
    dot = page.locator(f'#board circle[data-station="{goal}"]')
    dot.click()
    expect(dot).to_have_class(re.compile(r"\bpicked\b"))
    expect(page.locator("#action-form select[data-field=station]")).to_have_value(goal)
    page.locator("#action-form button.primary").click()
    expect(page.locator("#action-result")).to_contain_text("Done")
    wait_for_game(page, "(s, [ship, goal]) => s.view.ships[ship].station === goal", [ship, goal])
    moved = game_state(page)["view"]["ships"][ship]
    assert moved["moves"] == moves - reach[goal]
    assert page.js_errors == []


SET_UP = """
from django.contrib.auth import get_user_model
from games.play import lobby
user = get_user_model().objects.get(username={username!r})
game = lobby.game_create(creator=user, seats=3)
lobby.game_fill_with_bots(game_id=game.pk, user=user)
lobby.game_start(game_id=game.pk, user=user)
print("GAME", game.pk)
"""


def test_the_set_up_is_arranged_with_the_keyboard_on_the_board(page, site, signed_in):
    """The arrange form: one number per own territory (the dealt armies, spread), the factory and
    the ship's station picked on the board with Tab-reachable shapes and Enter."""
    site.create_user("arranger-amy")
    out = site.shell(SET_UP.format(username="arranger-amy"))
    game_id = int(next(x for x in out.splitlines() if x.startswith("GAME ")).split()[1])
    signed_in(page, "arranger-amy")
    expect(page.locator("#whoami")).to_contain_text("Signed in as arranger-amy")
    page.goto(f"/games/{game_id}")
    expect(page.locator("#status-line")).to_contain_text("you are arranger-amy")
    expect(page.locator("#action-form button.primary")).to_be_visible()

    view = game_state(page)["view"]
    spec = next(s for s in view["legal_actions"] if s["type"] == "arrange")
    o = spec["options"]
    fields = page.locator("#action-form input[data-field=arrangement]")
    expect(fields).to_have_count(len(o["territories"]))
    values = [int(v) for v in fields.evaluate_all("(xs) => xs.map((x) => x.value)")]
    assert sum(values) == o["armies"] and min(values) >= o["min_each"]

    page.locator("#action-form button.primary").click()  # no factory yet: told what is missing
    expect(page.locator("#action-result")).to_have_text(
        "Pick the territory for your factory on the board."
    )
    factory = o["territories"][-1]
    page.locator(f'#board polygon[data-name="{factory}"]').focus()
    page.keyboard.press("Enter")
    expect(page.locator("#action-form select[data-field=factory]")).to_have_value(factory)
    expect(page.locator(f'#board polygon[data-name="{factory}"]')).to_have_class(
        re.compile(r"\bpicked\b")
    )
    station = None
    if o["ship_stations"]:
        station = o["ship_stations"][-1]
        dot = page.locator(f'#board circle[data-station="{station}"]')
        expect(dot).to_have_class(re.compile(r"\bchoice\b"))
        dot.focus()
        page.keyboard.press("Enter")
        expect(page.locator("#action-form select[data-field=ship_station]")).to_have_value(station)
    page.locator("#action-form button.primary").click()
    expect(page.locator("#action-result")).to_contain_text("Done")
    wait_for_game(page, "(s, t) => s.view.territories[t].factory === true", factory)
    if station is not None:
        ships = list(game_state(page)["view"]["ships"].values())
        assert station in [s["station"] for s in ships if s["owner"] == "arranger-amy"]
    assert page.js_errors == []
