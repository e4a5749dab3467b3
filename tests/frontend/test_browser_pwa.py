"""The installable app in a real browser: the manifest and its icons, the service worker
registered at the root with the shell cached, a game seen before shown read-only offline, and
the settings page's channel per kind of notice (a real push subscription needs a push service,
so the subscribe API is tested in tests/games/notifications instead)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.frontend.browser import PASSWORD

pytestmark = pytest.mark.browser

STARTED_GAME = """
from django.contrib.auth import get_user_model
from games.play import lobby
user = get_user_model().objects.create_user({username!r}, password={password!r})
game = lobby.game_create(creator=user, seats=3, options={{"win": "round-limit", "round_limit": 1}})
lobby.game_fill_with_bots(game_id=game.pk, user=user)
lobby.game_start(game_id=game.pk, user=user)
print("GAME", game.pk)
"""

WORKER_READY = """async () => {
  const registration = await navigator.serviceWorker.ready;
  return { scope: registration.scope, controlled: navigator.serviceWorker.controller !== null,
           caches: await caches.keys() };
}"""


def test_the_manifest_the_worker_and_a_game_offline(page, site, signed_in):
    out = site.shell(STARTED_GAME.format(username="pwa-ann", password=PASSWORD))
    game_id = int(next(x for x in out.splitlines() if x.startswith("GAME ")).split()[1])
    signed_in(page, "pwa-ann")

    manifest = page.evaluate(
        "async () => (await fetch(document.querySelector('link[rel=manifest]').href)).json()"
    )
    assert (manifest["name"], manifest["display"], manifest["start_url"]) == (
        "Warboard", "standalone", "/games",
    )  # fmt: skip
    assert manifest["theme_color"] == "#1d2230"
    purposes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert purposes == {("192x192", "any"), ("512x512", "any"), ("192x192", "maskable"),
                        ("512x512", "maskable")}  # fmt: skip
    for icon in manifest["icons"]:
        response = page.request.get(icon["src"])
        assert response.ok and response.headers["content-type"] == "image/png", icon

    ready = page.evaluate(WORKER_READY)
    assert ready["scope"] == f"{site.url}/"
    shell = next(name for name in ready["caches"] if name.startswith("warboard-shell-"))
    cached = page.evaluate(
        f"async () => (await (await caches.open({shell!r})).keys()).map(r => r.url)"
    )
    assert any("/frontend/site." in url for url in cached)
    assert any("/frontend/game." in url for url in cached)

    # The game page twice: the second load is the worker's, which keeps the page and the view.
    page.goto(f"/games/{game_id}")
    page.reload()
    expect(page.locator("#action-buttons button").first).to_be_enabled()
    page.wait_for_function(
        "async (id) => Boolean(await (await caches.open('warboard-games'))"
        ".match(`/api/games/${id}`))",
        arg=game_id,
    )

    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#offline-banner")).to_contain_text("Offline")
    expect(page.locator("#seats-body")).to_contain_text("pwa-ann")  # the kept view, drawn
    expect(page.locator("#action-buttons button").first).to_be_disabled()
    page.context.set_offline(False)
    # Back online the page reloads itself (pwa.js): a navigation started before that ends
    # is cut by it ("interrupted by another navigation" in a CI run). The reload is a whole
    # page load against the server: on CI's loaded cores it outlasted expect's 5 s.
    expect(page.locator("#offline-banner")).to_be_hidden(timeout=30_000)
    expect(page.locator("#action-buttons button").first).to_be_enabled()

    # Signing out deletes the kept games (the next person of this browser sees none of them).
    page.goto("/games")
    page.get_by_role("button", name="Sign out").click()
    expect(page.get_by_role("link", name="Sign in")).to_be_visible()
    assert "warboard-games" not in page.evaluate("async () => await caches.keys()")


def test_the_settings_page_switches_each_kind_between_channels(page, site, signed_in):
    site.create_user("pwa-bea")
    signed_in(page, "pwa-bea")
    page.goto("/settings")
    rows = page.locator("#notify-rows tr")
    expect(rows).to_have_count(5)
    assert page.evaluate("Notification.permission") == "default"  # never asked on load
    expect(page.get_by_role("button", name="Turn on push in this browser")).to_be_visible()
    expect(page.locator("#push-status")).to_contain_text("Push is off in this browser")
    # Attacks: none by default (never mailed before); chosen by email here.
    attacked = page.get_by_label("someone attacks one of my territories or ships while I am away")
    expect(attacked).to_have_value("")
    expect(attacked.locator("option:checked")).to_have_text("Default (none)")
    attacked.select_option("email")
    page.get_by_role("button", name="Save notifications").click()
    expect(page.locator("#notify-result")).to_have_text("Saved.")
    assert page.request.get("/api/notifications/settings").json()["kinds"][2] == {
        "kind": "attacked",
        "label": "someone attacks one of my territories or ships while I am away",
        "choice": "email",
        "channel": "email",
    }
    page.screenshot(path="/tmp/push-settings.png", full_page=True)
    assert page.js_errors == []
