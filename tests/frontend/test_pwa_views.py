"""The installable app's two root files, as the server serves them: the manifest and the
service worker with the shell it caches (the browser side is test_browser_pwa.py)."""

from __future__ import annotations

import json
import struct

from frontend import pwa
from tests.conftest import ROOT

ICONS = ROOT / "frontend" / "static" / "frontend" / "icons"


def test_the_worker_is_served_from_the_root_with_its_shell(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/javascript; charset=utf-8"
    assert "no-cache" in response["Cache-Control"]
    head, _, source = response.content.decode().partition("\n")
    assert head.startswith("self.WARBOARD = ") and head.endswith(";")
    config = json.loads(head.removeprefix("self.WARBOARD = ").removesuffix(";"))
    assert "/static/frontend/site.css" in config["shell"]
    assert "/static/frontend/game.js" in config["shell"]
    assert "/static/frontend/icons/maskable-512.png" in config["shell"]
    assert not any("service_worker" in url for url in config["shell"])
    assert len(config["version"]) == 16
    assert source == (ROOT / "frontend" / "static" / pwa.WORKER).read_text()


def test_the_manifest_names_the_app_and_its_icons(client):
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    body = response.json()
    assert (body["display"], body["start_url"], body["scope"]) == ("standalone", "/games", "/")
    assert [(i["src"], i["sizes"], i["purpose"]) for i in body["icons"]] == [
        ("/static/frontend/icons/icon-192.png", "192x192", "any"),
        ("/static/frontend/icons/icon-512.png", "512x512", "any"),
        ("/static/frontend/icons/maskable-192.png", "192x192", "maskable"),
        ("/static/frontend/icons/maskable-512.png", "512x512", "maskable"),
    ]


def test_each_icon_is_a_png_of_its_size():
    for name, size in [("icon-32.png", 32), ("icon-180.png", 180), ("icon-192.png", 192),
                       ("icon-512.png", 512), ("maskable-192.png", 192),
                       ("maskable-512.png", 512)]:  # fmt: skip
        data = (ICONS / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", name
        assert struct.unpack(">II", data[16:24]) == (size, size), name


def test_every_page_links_the_manifest_and_loads_the_worker_registration(client):
    html = client.get("/games").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert '<script type="module" src="/static/frontend/pwa.js"></script>' in html
