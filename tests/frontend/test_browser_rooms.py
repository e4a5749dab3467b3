"""The rooms' pages in Chromium: a room made with the form, joined by a second person with the
page's button, a battle posted in notation and its result shown with its numbered rolls; both
pages' labels, Tab order and focus rings, and their width on a phone (``browser`` tests)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.frontend.a11y import audit, tab_walk

pytestmark = pytest.mark.browser

#: How long an expectation waits (ms): the browser tests share the machine with the suite.
LOADED = 30_000

JOURNAL = """async (id) => (await (await import("/static/frontend/common.js"))
  .api("GET", `/api/rooms/${id}/journal`)).data.entries"""


def test_a_room_is_made_joined_and_a_battle_rolled_through_its_pages(chromium, site, signed_in):
    for name in ("room-alice", "room-bob"):
        site.create_user(name)
    contexts = [chromium.new_context(base_url=site.url) for _ in range(2)]
    try:
        alice, bob = (c.new_page() for c in contexts)
        for page, name in ((alice, "room-alice"), (bob, "room-bob")):
            page.set_default_timeout(LOADED)
            signed_in(page, name)

        alice.goto("/rooms")
        expect(alice.locator("#rooms-status")).not_to_have_text("Loading rooms…")
        alice.get_by_label("Name", exact=True).fill("Spring 1942")
        alice.get_by_label("System").select_option("axis_allies")
        alice.get_by_label("A&A rules").select_option("dice")
        alice.get_by_label("A&A edition").select_option("1942-2e")
        alice.get_by_label("The side you play").fill("Germany")  # the sides: Germany, Soviet Union
        alice.get_by_label("Rated").uncheck()  # alice referees: a rated room's referee plays none
        alice.get_by_role("button", name="Create the room").click()
        alice.wait_for_url(re.compile(r"/rooms/\d+$"))
        room_id = int(alice.url.rsplit("/", 1)[1])
        expect(alice.locator("#room-status")).to_have_text("open")
        expect(alice.locator("#room-facts")).to_contain_text(
            "Germany: room-alice; Soviet Union: free"
        )
        # The edition by its name in the edition data, not its key, on the room and the list.
        edition = "Axis & Allies 1942 Second Edition (2012)"
        expect(alice.locator("#room-facts")).to_contain_text(f"{edition}, dice rules")
        expect(alice.locator("#room-facts")).not_to_contain_text("1942-2e")
        alice.goto("/rooms")
        row = alice.locator("#rooms-body tr", has_text="Spring 1942")
        expect(row.locator("td").nth(1)).to_have_text(f"{edition}, Dice")
        alice.goto(f"/rooms/{room_id}")

        bob.goto(f"/rooms/{room_id}")
        bob.get_by_role("button", name="Join as Soviet Union").click()
        expect(bob.locator("#join-status")).to_have_text("You play Soviet Union.")
        expect(bob.locator("#room-status")).to_have_text("Turn 1: Germany to move")
        expect(bob.locator("#join-sides button")).to_have_count(0)  # no side is free now

        alice.reload()
        alice.get_by_label("Kind").select_option("battle")
        alice.get_by_label("Text, or the battle's notation").fill("3 inf 1 art vs 2 inf")
        alice.get_by_role("button", name="Post").click()
        expect(alice.locator("#post-status")).to_have_text(re.compile(r"^Posted #\d+, #\d+$"))

        entries = alice.evaluate(JOURNAL, room_id)
        request, result = entries[-2], entries[-1]
        assert (request["kind"], result["kind"]) == ("battle_request", "battle_result")
        assert request["data"]["notation"] == "a&a 1942-2e 3 inf 1 art vs 2 inf dice"
        rolls = result["data"]["rolls"]
        assert [r["number"] for r in rolls] == list(range(1, len(rolls) + 1))  # the room's first
        shown = " ".join(f"#{r['number']}: {r['value']}" for r in rolls)
        last = alice.locator("#journal li").last
        expect(last).to_contain_text(result["text"])
        expect(last.locator(".rolls")).to_have_text(f"rolls {shown}")
        expect(bob.locator("#journal li")).to_have_count(len(entries) - 2)  # bob has not reloaded

        for path in ("/rooms", f"/rooms/{room_id}"):
            alice.goto(path)
            alice.wait_for_load_state("networkidle")
            found = audit(alice)
            assert found["controls"] >= 6 and found["unnamed"] == [], (path, found)
            walk = tab_walk(alice)
            assert walk["missed"] == [] and walk["no_indicator"] == [], (path, walk)
            assert walk["order"] == sorted(walk["order"]), path
    finally:
        for context in contexts:
            context.close()

    phone = chromium.new_context(base_url=site.url, viewport={"width": 375, "height": 740})
    try:
        page = phone.new_page()
        signed_in(page, "room-bob")
        for path in ("/rooms", f"/rooms/{room_id}"):
            page.goto(path)
            page.wait_for_load_state("networkidle")
            assert page.evaluate("() => document.documentElement.scrollWidth") <= 375, path
    finally:
        phone.close()
