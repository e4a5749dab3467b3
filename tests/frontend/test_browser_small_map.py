"""The small map in Chromium: a person plays it against a bot to the end through the board, and a
game of bots alone on it runs to its end and replays on its own board.

A person picks the small map in the lobby's create form (its seat count follows the map: 2-4),
creates a 2-seat game with a round limit of 3, fills the other seat with a bot and starts it.
The game page draws the small map (24 territories, the Western and Eastern oceans), not the
classic one. They then play every decision by the server's hint through the board and the forms
(``play.perform``), steered (``steer``) to place, attack and sail when the specs open them, to
the end. Screenshots of the board are written to ``WARBOARD_SCREENSHOTS`` (a folder) when set,
else to the test's own temporary folder.

Clicks are counted per decision (``play.Clicks``): no decision the page asks for may be one with
nothing to choose (the server takes those, with a ``forced`` note in the log), and rolling a
battle on to its end (the player's remembered choice) is one click, the Roll button.

The site is a daphne of its own whose hint and action rate limits are raised (the test asks for a
hint per decision at machine speed).
"""

from __future__ import annotations

import os
import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.frontend.browser import Site, game_state, shared_dir, wait_for_game
from tests.frontend.people import lobby_loaded, sign_in
from tests.frontend.play import Clicks, PerformError, nothing_to_choose, perform
from tests.frontend.steer import kind_of, steer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

ROUND_LIMIT = 3
#: The engine seed (no client seeds: the server seed is the engine's): the person moves first,
#: and in an engine simulation of hint-following play (both seats by the hard AI) the game
#: went two rounds with the person placing, attacking, cruising and landing.
SERVER_SEED = "small-map-4"
GAME_SECONDS = 300
#: Actions anyone may take at any time: not decisions the game waits for.
ANYTIME = {"leave", "concede", "vote_draw", "prefer", "join"}

BOTS_GAME = """
import time
from django.contrib.auth import get_user_model
from games.models import Game, Seat
from games.play import driver, lobby, operations
from risk.ai import odds
odds.block(odds.CAP, odds.CAP, True)
odds.block(odds.CAP, odds.CAP, False)
user = get_user_model().objects.get(username="mapwatcher")
game = lobby.game_create(creator=user, seats=3, options={"map": "small"}, name="Bots on small")
lobby.game_fill_with_bots(game_id=game.pk, user=user)
lobby.game_start(game_id=game.pk, user=user)
operations.seat_replace_with_bot(game, Seat.objects.get(game=game, player="mapwatcher"))
for _ in range(6000):
    game.refresh_from_db()
    if game.status == Game.Status.FINISHED:
        print("FINISHED", game.pk)
        break
    driver.advance(game.pk)
    time.sleep(0.02)
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A daphne of its own, with the hint and action limits raised for machine-speed play."""
    server = Site(tmp_path_factory.mktemp("small-map-site") / "var", shared_dir(tmp_path_factory))
    server.env.update({"THROTTLE_HINT": "100000/min", "THROTTLE_ACTIONS": "100000/min"})
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def shots(tmp_path_factory) -> Path:
    folder = os.environ.get("WARBOARD_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("small-map-shots")
    path.mkdir(parents=True, exist_ok=True)
    return path


def _api(page, path: str) -> dict:
    res = page.request.get(path)
    assert res.ok, res.text()
    return res.json()


def _hint(page, game_id: int) -> dict:
    action = dict(_api(page, f"/api/games/{game_id}/hint")["action"])
    action.pop("player", None)
    return action


def _moves_on_by_itself(page, game_id: int, version: int, seconds: float = 15) -> bool:
    """Whether the game leaves ``version`` with nobody clicking (the server's forced step)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if _api(page, f"/api/games/{game_id}")["version"] > version:
            return True
        time.sleep(0.1)
    return False


def _board_is_the_small_map(page) -> None:
    expect(page.locator("#board polygon[data-name]")).to_have_count(24)
    expect(page.locator("#board polygon[data-name='Frost Cape']")).to_have_count(1)
    expect(page.locator("#board polygon[data-name='Alaska']")).to_have_count(0)
    labels = page.locator("#board .ocean-label").all_text_contents()
    assert sorted(labels) == ["Eastern Ocean", "Western Ocean"]
    expect(page.locator("#board circle[data-station]")).to_have_count(21)


def _create_on_the_small_map(page, site: Site) -> int:
    expect(page.locator("#create-map option[value=small]")).to_have_count(1)
    page.locator("#create-map").select_option("small")
    seats = page.locator("#create-seats")
    expect(seats).to_have_attribute("max", "4")
    page.get_by_label("Name (optional)").fill("Small world")
    seats.fill("2")
    page.locator("#create-form [name=win]").select_option("round-limit")
    page.locator("#create-form [name=round_limit]").fill(str(ROUND_LIMIT))
    page.get_by_role("button", name="Create").click()
    expect(page.locator("#create-result")).to_contain_text("Created game #")
    game_id = int(re.search(r"#(\d+)", page.locator("#create-result").inner_text()).group(1))
    site.shell(
        "from combat.dice import commitment_of\n"
        "from games.models import Game\n"
        f"Game.objects.filter(pk={game_id}).update(server_seed={SERVER_SEED!r}, "
        f"seed_commitment=commitment_of({SERVER_SEED!r}))"
    )
    page.reload()
    lobby_loaded(page)
    row = page.locator("#games-body tr", has_text=f"#{game_id} Small world")
    row.get_by_role("button", name="Fill with bots").click()
    expect(row).to_contain_text("2/2")
    row.get_by_role("button", name="Start").click()
    page.wait_for_url(f"**/games/{game_id}")
    return game_id


def test_a_person_plays_the_small_map_against_a_bot_to_the_end(page, site, shots):
    site.create_user("mapper")
    sign_in(page, "mapper")
    game_id = _create_on_the_small_map(page, site)
    detail = _api(page, f"/api/games/{game_id}")
    assert (detail["options"]["map"], detail["options"]["map_version"]) == ("small", 1)
    _board_is_the_small_map(page)
    page.locator("#board").screenshot(path=str(shots / "small-map-start.png"))

    territories = set(_api(page, f"/api/games/{game_id}")["view"]["territories"])
    assert len(territories) == 24
    covered: set[str] = set()
    clicks: dict[str, list[int]] = {}  # action type -> the clicks of each decision taken so
    offered_forced: list[list[dict]] = []  # steps with nothing to choose the server left waiting
    started = time.monotonic()
    while True:
        assert time.monotonic() - started < GAME_SECONDS, f"covered only {sorted(covered)}"
        state = _api(page, f"/api/games/{game_id}")
        if state["view"]["over"]:
            break
        specs = [s for s in state["view"]["legal_actions"] if s["type"] not in ANYTIME]
        if not specs:
            time.sleep(0.1)  # the bot is thinking
            continue
        wait_for_game(page, "(s, v) => s.version >= v", state["version"])
        if game_state(page)["version"] != state["version"]:
            continue
        # steered to a first attack and a voyage; the hint decides the rest
        wanted = covered | {"committed", "flanking", "turn_in", "ally", "poker", "naval"}
        if covered & {"normal", "committed", "flanking"}:
            wanted |= {"normal"}
        if nothing_to_choose(specs, state["view"]):
            # The server takes it after the commit that led here: the person does nothing.
            if not _moves_on_by_itself(page, game_id, state["version"]):
                offered_forced.append(specs)
            continue
        action = steer(specs, wanted, territories) or _hint(page, game_id)
        if action["type"] == "roll" and not action.get("add"):
            action["until_decided"] = True  # the remembered choice: rolling on is one click
            action.pop("until_armies", None)
        if action["type"] == "naval_attack" and not action.get("targets"):
            # no targets: every ship attacks target (NavalAttack); the form names them
            action.pop("targets", None)
        panel = shots / f"small-map-{action['type']}-form.png"
        if action["type"] in ("place", "roll") and not panel.exists():
            page.locator(".actions-panel").screenshot(path=str(panel))
        counted = Clicks()
        try:
            perform(page, action, counted)
        except PerformError as exc:
            if "moved on" in str(exc):
                continue
            raise
        adding = action["type"] == "roll" and action.get("add")  # a choice, not rolling on
        clicks.setdefault("roll, adding" if adding else action["type"], []).append(counted.count)
        kind = kind_of(action, territories)
        if kind:
            covered.add(kind)
        attacked = kind in ("normal", "committed", "flanking")
        if attacked and not (shots / "small-map-attack.png").exists():
            page.locator("#board").screenshot(path=str(shots / "small-map-attack.png"))

    assert "place" in covered and covered & {"normal", "committed", "flanking"}, sorted(covered)
    # Fewer clicks: a step with nothing to choose is the server's (never asked of the person:
    # the log notes it), and rolling on to the end of a battle is one click, the Roll button.
    assert offered_forced == []
    entries = _api(page, f"/api/games/{game_id}/events")["entries"]
    notes = [e for entry in entries for e in entry["events"]
             if e["type"] == "forced" and e["player"] == "mapper"]  # fmt: skip
    assert notes, "the server took no forced step of the person's"
    assert clicks.get("roll") and max(clicks["roll"]) == 1, clicks
    assert min(clicks["place"]) == 2, clicks  # a click on the board, then Place
    print(f"clicks per decision: {clicks}; forced steps taken by the server: {len(notes)}")
    final = _api(page, f"/api/games/{game_id}")["view"]
    expect(page.locator("#result-line")).to_contain_text(
        f"Game over: {final['winner']} wins" if final["winner"] else "no winner"
    )
    assert final["over"]
    page.locator("#board").screenshot(path=str(shots / "small-map-end.png"))
    assert page.js_errors == []


def test_bots_play_a_game_on_the_small_map_to_its_end_and_it_replays(page, site, shots):
    site.create_user("mapwatcher")
    out = site.shell(BOTS_GAME, timeout=300)
    line = [x for x in out.splitlines() if x.startswith("FINISHED ")]
    assert line, f"the bots' game did not finish:\n{out}"
    game_id = int(line[-1].split()[1])
    sign_in(page, "mapwatcher")
    page.goto(f"/games/{game_id}")
    _board_is_the_small_map(page)
    final = _api(page, f"/api/games/{game_id}")["view"]
    assert final["over"] and final["winner"] and final["winner"].startswith("bot:")
    expect(page.locator("#result-line")).to_contain_text(f"Game over: {final['winner']} wins")
    page.locator("#board").screenshot(path=str(shots / "small-map-bots-end.png"))

    page.goto(f"/games/{game_id}/replay")
    expect(page.locator("#replay-status")).to_contain_text("entries", timeout=60_000)
    _board_is_the_small_map(page)
    page.keyboard.press("End")
    for name, held in sorted(final["territories"].items()):
        word = "army" if held["armies"] == 1 else "armies"
        label = f"{name}, {held['owner']}, {held['armies']} {word}"
        expect(page.locator(f"#board polygon[data-name='{name}']")).to_have_attribute(
            "aria-label", re.compile(rf"^{re.escape(label)}(,|$)")
        )
    assert page.js_errors == []
