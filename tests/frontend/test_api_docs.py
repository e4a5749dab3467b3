"""``/api/docs/`` works offline: Swagger UI comes from this server's static files (the sidecar)."""

from __future__ import annotations

import re

from django.test import Client


def test_the_api_docs_load_no_asset_from_another_host(client: Client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assets = re.findall(r'(?:src|href)\s*=\s*"([^"]+)"', html)
    assets += re.findall(r"""(?:src|href)\s*=\s*'([^']+)'""", html)
    assert assets
    assert not [a for a in assets if re.match(r"(?i)(https?:)?//", a)]
    assert not re.search(r"(?i)https?://[^\s\"']*(cdn|jsdelivr|unpkg)", html)
    statics = [a for a in assets if a.startswith("/static/")]
    assert any(a.endswith("swagger-ui-bundle.js") for a in statics)
    assert any(a.endswith("swagger-ui.css") for a in statics)
    for asset in statics:
        served = client.get(asset)
        assert served.status_code == 200, asset
        b"".join(served.streaming_content) if served.streaming else served.content
