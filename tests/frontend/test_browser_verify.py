"""/verify in a real browser: a finished game's every roll recomputed by the page (WebCrypto),
in agreement with ``manage.py verify_game``; a tampered roll in pasted JSON is flagged."""

from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def finished(site) -> int:
    return site.finished_game("verify-vera", client_seed="vera's lucky socks")


def replay(site, game_id: int) -> dict:
    with urllib.request.urlopen(f"{site.url}/api/games/{game_id}/replay", timeout=10) as response:
        return json.loads(response.read())


def test_every_entry_of_a_finished_game_matches_as_verify_game_says(page, site, finished):
    out = site.manage("verify_game", str(finished))
    assert out.strip().endswith("OK"), out
    body = replay(site, finished)
    rolls = sum(len(e["rolls"]) for e in body["entries"])
    assert rolls > 0 and any(body["client_seeds"])
    assert f"{len(body['entries'])} entries replayed, {rolls} rolls checked" in out

    page.goto(f"/verify?game={finished}")
    status = page.locator("#verify-status")
    expect(status).to_contain_text("Every entry matches", timeout=60_000)
    expect(status).to_contain_text(f"all {rolls} rolls of {len(body['entries'])} entries")
    rows = page.locator("#verify-body tr")
    expect(rows).to_have_count(len(body["entries"]))
    expect(page.locator("#verify-body tr[data-ok=false]")).to_have_count(0)
    expect(page.locator("#verify-summary")).to_contain_text("equals the published commitment")
    assert page.js_errors == []


@pytest.mark.parametrize("width", [1280, 375])
def test_the_tables_columns_keep_their_words_whole(chromium, site, finished, width):
    """The columns once shrank to one letter a line (the page's overflow-wrap: anywhere let a
    cell be one character wide): each header's words stay whole, on a desktop and on a phone
    (where the table scrolls in its box rather than squeezing)."""
    context = chromium.new_context(base_url=site.url, viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        page.goto(f"/verify?game={finished}")
        expect(page.locator("#verify-status")).to_contain_text("Every entry matches",
                                                               timeout=60_000)  # fmt: skip
        sizes = page.evaluate("""() => [...document.querySelectorAll('#verify-table thead th')]
          .map((th) => {
            const words = th.textContent.trim().split(/\\s+/);
            const probe = document.createElement('span');
            probe.style.whiteSpace = 'nowrap';
            th.append(probe);
            const widest = Math.max(...words.map((w) => { probe.textContent = w;
              return probe.getBoundingClientRect().width; }));
            probe.remove();
            return {text: th.textContent.trim(), width: th.clientWidth, widest};
          })""")
        assert [s["text"] for s in sizes][:2] == ["Entry", "Dice context"]
        for size in sizes:  # the longest word fits the column (its padding aside)
            assert size["width"] >= size["widest"], size
        button = page.get_by_role("button", name="Load and check").bounding_box()
        assert button is not None and button["height"] < 50, button  # one line, not one a letter
        page.screenshot(path=f"/tmp/verify-{width}.png", full_page=True)
    finally:
        context.close()


def test_a_tampered_roll_in_pasted_json_is_flagged(page, site, finished):
    body = replay(site, finished)
    entry = next(e for e in body["entries"] if e["rolls"])
    roll = entry["rolls"][0]
    roll["value"] = roll["value"] % roll["sides"] + 1

    page.goto("/verify")
    page.get_by_label("paste a replay").fill(json.dumps(body))
    page.get_by_role("button", name="Check the pasted replay").click()
    expect(page.locator("#verify-status")).to_contain_text(
        f"1 of {len(body['entries'])} entries do not match", timeout=60_000
    )
    bad = page.locator("#verify-body tr[data-ok=false]")
    expect(bad).to_have_count(1)
    expect(bad).to_have_attribute("data-sequence", str(entry["sequence"]))
    expect(bad).to_contain_text(f"logged {roll['value']}, recomputed")
    expect(bad).to_contain_text("MISMATCH")


def test_an_unknown_game_is_refused_in_words(page):
    page.goto("/verify?game=999999")
    expect(page.locator("#verify-status")).to_contain_text("Could not load game 999999")


def test_a_running_game_is_refused_while_its_seed_is_secret(page, site):
    out = site.shell(
        "from django.contrib.auth import get_user_model\n"
        "from games.play import lobby\n"
        "u = get_user_model().objects.create_user('verify-rita', password='x' * 20)\n"
        "g = lobby.game_create(creator=u, seats=2)\n"
        "lobby.game_fill_with_bots(game_id=g.pk, user=u)\n"
        "print('GAME', lobby.game_start(game_id=g.pk, user=u).pk)"
    )
    game_id = int(out.split("GAME ")[1].split()[0])
    page.goto(f"/verify?game={game_id}")
    status = page.locator("#verify-status")
    expect(status).to_contain_text(f"Could not load game {game_id}'s replay")
    expect(status).to_contain_text("not_over")
    expect(page.locator("#verify-table")).to_be_hidden()


def test_the_replay_page_steps_through_the_log(page, site, finished):
    body = replay(site, finished)
    entries = body["entries"]
    page.goto(f"/games/{finished}/replay")
    expect(page.locator("#replay-status")).to_contain_text(f"{len(entries)} entries")
    expect(page.locator("#entry-title")).to_have_text(f"Entry 1 of {len(entries)}")
    expect(page.locator("#entry-actor")).to_contain_text(entries[0]["actor"])
    expect(page.get_by_role("button", name="Previous")).to_be_disabled()

    page.get_by_role("button", name="Next").click()
    expect(page.locator("#entry-title")).to_have_text(f"Entry 2 of {len(entries)}")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#entry-title")).to_have_text(f"Entry 3 of {len(entries)}")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#entry-title")).to_have_text(f"Entry 2 of {len(entries)}")

    # An entry with dice shows them as text, and its events in words.
    index = next(i for i, e in enumerate(entries) if e["rolls"])
    page.keyboard.press("Home")
    for _ in range(index):
        page.keyboard.press("ArrowRight")
    entry = entries[index]
    expect(page.locator("#entry-title")).to_have_text(
        f"Entry {entry['sequence']} of {len(entries)}"
    )
    first = entry["rolls"][0]
    expect(page.locator("#entry-rolls")).to_contain_text(f"d{first['sides']}: {first['value']}")
    action_type = entry["action"]["type"].replace("_", " ")
    expect(page.locator("#entry-action")).to_contain_text(action_type)
    expect(page.locator("#entry-events li")).to_have_count(max(1, len(entry["events"])))

    page.keyboard.press("End")
    expect(page.locator("#entry-title")).to_have_text(f"Entry {len(entries)} of {len(entries)}")
    expect(page.get_by_role("button", name="Next")).to_be_disabled()
    expect(page.get_by_role("link", name="Check this game's dice")).to_have_attribute(
        "href", f"/verify?game={finished}"
    )
    assert page.js_errors == []
