"""HTTP views of the game server's own plumbing."""

from __future__ import annotations

import asyncio

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from games.web.health import probe_channel_layer, probe_database, server_version


@require_GET
async def healthz(request: HttpRequest) -> JsonResponse:
    """``GET /healthz``: 200 when the database and the channel layer both answer, else 503.

    Load balancers and ``docker compose`` poll this; the body names what failed so an operator
    reading a 503 knows which service to look at.
    """
    database, layer = await asyncio.gather(probe_database(), probe_channel_layer())
    failing = [
        name for name, probe in (("database", database), ("channel_layer", layer)) if not probe.ok
    ]
    body: dict[str, object] = {
        "status": "ok" if not failing else "error",
        "database": database.summary,
        "channel_layer": layer.summary,
        "version": server_version(),
        "backends": {"database": database.backend, "channel_layer": layer.backend},
    }
    if failing:
        body["failing"] = failing
    return JsonResponse(body, status=503 if failing else 200)
