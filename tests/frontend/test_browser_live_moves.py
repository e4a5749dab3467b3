"""Two people in two browser contexts see each other's moves live (``browser``).

Set-up by the API (the game, the join, the start, both arrangements: the lobby and the set-up
form have tests of their own); then whoever plays first places armies and attacks through the
board (``play.perform``: clicking polygons, filling the form, committing), and the other
person's page, never reloaded, shows each move in its events list and on its board.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.frontend.browser import COMMON_MODULE
from tests.frontend.people import sees, sign_in, watch
from tests.frontend.play import perform

pytestmark = pytest.mark.browser


def _api(page, method: str, url: str, body: dict | None = None) -> dict:
    """A call through the page's own API helper (its session and CSRF token)."""
    call = f"async ([m, u, b]) => (await import({COMMON_MODULE!r})).api(m, u, b ?? undefined)"
    res = page.evaluate(call, [method, url, body])
    assert res["ok"], res
    return res["data"]


def _view(page, game_id: int) -> dict:
    return _api(page, "GET", f"/api/games/{game_id}")["view"]


def _answer(page, game_id: int) -> None:
    """The page's person takes the hinted action for what the game asks of them, by the API."""
    action = _api(page, "GET", f"/api/games/{game_id}/hint")["action"]
    version = _api(page, "GET", f"/api/games/{game_id}")["version"]
    _api(page, "POST", f"/api/games/{game_id}/actions",
         {"action": action, "expected_version": version})  # fmt: skip


def test_each_person_sees_the_others_place_and_attack_live(chromium, site):
    site.create_user("live-ann")
    site.create_user("live-ben")
    contexts = [chromium.new_context(base_url=site.url) for _ in range(2)]
    try:
        ann, ben = (c.new_page() for c in contexts)
        for page, name in ((ann, "live-ann"), (ben, "live-ben")):
            page.set_default_timeout(20_000)
            sign_in(page, name)
        # Unrated: the test plays each person's moves by the AI's hint, which a rated game of
        # two people refuses (403 hints_rated).
        game_id = _api(ann, "POST", "/api/games", {"seats": 2, "rated": False})["id"]
        _api(ben, "POST", f"/api/games/{game_id}/join", {})
        _api(ann, "POST", f"/api/games/{game_id}/start")
        people = {"live-ann": ann, "live-ben": ben}
        for page in people.values():
            page.goto(f"/games/{game_id}")
            expect(page.locator("#status-line")).to_contain_text("live")
            watch(page)
        for page in people.values():  # the set-up: each arranges as the AI would
            _answer(page, game_id)

        view = _view(ann, game_id)
        mover = view["turn"]["seat"]
        page, watcher = people[mover], people[next(p for p in people if p != mover)]
        expect(page.locator("#action-buttons button[data-type=place]")).to_be_visible()

        # Placing: everything on the mover's territory with the most armies.
        mine = _view(page, game_id)
        spec = next(s for s in mine["legal_actions"] if s["type"] == "place")
        before = mine["territories"]
        where = max(spec["options"]["territories"], key=lambda t: (before[t]["armies"], t))
        armies = spec["options"]["max"]
        version = perform(page, {"type": "place", "territory": where, "armies": armies})
        sees(watcher, version)
        expect(watcher.locator("#events-list")).to_contain_text(
            f"{mover} places {armies} on {where}"
        )
        total = before[where]["armies"] + armies
        expect(watcher.locator(f"#board polygon[data-name='{where}']")).to_have_attribute(
            "aria-label", re.compile(rf"^{re.escape(f'{where}, {mover}, {total} armies')}(,|$)")
        )

        # Attacking: from there, a normal attack with every army the spec allows.
        attack = next(s for s in _view(page, game_id)["legal_actions"] if s["type"] == "attack")
        o = attack["options"]
        target = sorted(t for t, sources in o["targets"].items() if where in sources)[0]
        most = o["room"][where]["normal"][1]
        defender = before[target]["owner"]
        version = perform(
            page, {"type": "attack", "target": target, "mode": "normal", "flanks": [[where, most]]}
        )
        sees(watcher, version)
        expect(watcher.locator("#events-list")).to_contain_text(
            f"{mover} attacks {target} ({defender}) from {where} ({most})"
        )
        expect(watcher.locator("#battle-line")).to_contain_text(f"{mover} attacks {target}")

        # The defender's mobilization, when asked (its own form is tested elsewhere): by the API.
        while not any(s["type"] == "roll" for s in _view(page, game_id)["legal_actions"]):
            _answer(watcher, game_id)

        # A roll: the watcher sees the dice of that very entry (among its lines: a roll that
        # wins the battle adds "The battle for ... is won" after them).
        version = perform(page, {"type": "roll", "add": 0, "until_decided": False})
        sees(watcher, version)
        entry = watcher.locator(f"#events-list li[value='{version}']")
        expect(entry.filter(has_text="Dice: attacker")).to_have_count(1)
        assert watcher.evaluate("() => window.__noReload") is True
    finally:
        for context in contexts:
            context.close()
