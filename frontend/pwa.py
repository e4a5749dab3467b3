"""The installable web app: the manifest (``/manifest.webmanifest``) and the service worker
(``/sw.js``), both at the site's root so the worker's scope is the whole site.

The worker's source is ``static/frontend/service_worker.js``; this view puts before it the
shell it caches (every CSS file, JS module and icon of the site, by the URLs the pages load them
by: the hashed names when deployed) and a version, a hash of those files' contents, so a
deploy that changes any of them installs a new worker and drops the old shell. The worker
itself is never cached by the browser for long (``no-cache``): browsers check it on each visit.
"""

from __future__ import annotations

import functools
import hashlib
import json
from pathlib import Path

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_GET

STATIC = Path(__file__).resolve().parent / "static"
WORKER = "frontend/service_worker.js"
#: The site's ink colour (site.css): the browser's title bar and the splash screen's icon.
THEME_COLOUR = "#1d2230"
#: (file, size, purpose) of the icons drawn by scripts/make_icons.py.
ICONS = [
    ("frontend/icons/icon-192.png", 192, "any"),
    ("frontend/icons/icon-512.png", 512, "any"),
    ("frontend/icons/maskable-192.png", 192, "maskable"),
    ("frontend/icons/maskable-512.png", 512, "maskable"),
]


def shell_files() -> list[str]:
    """The static paths the worker caches at install: the site's CSS, modules and icons."""
    root = STATIC / "frontend"
    files = [*root.glob("*.js"), *root.glob("*.css"), *root.glob("icons/*.png")]
    return sorted(str(path.relative_to(STATIC)) for path in files if path.name != Path(WORKER).name)


def _worker() -> tuple[str, str]:
    """The worker's source and the shell's version: read once when deployed (collected files do
    not change while serving), on every request under DEBUG, where a module edited in place
    must give a new version, or the worker would go on serving the old one from its cache."""
    return _read_worker() if settings.DEBUG else _read_worker_once()


@functools.cache
def _read_worker_once() -> tuple[str, str]:
    return _read_worker()


def _read_worker() -> tuple[str, str]:
    digest = hashlib.sha256()
    for name in [*shell_files(), WORKER]:
        digest.update(name.encode())
        digest.update((STATIC / name).read_bytes())
    return (STATIC / WORKER).read_text(), digest.hexdigest()[:16]


@require_GET
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    """``/sw.js``: the service worker, with the shell it caches."""
    source, version = _worker()
    config = {
        "version": version,
        "shell": [static(name) for name in shell_files()],
        "icon": static("frontend/icons/icon-192.png"),
    }
    body = f"self.WARBOARD = {json.dumps(config)};\n{source}"
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
@cache_control(public=True, max_age=3600)
def manifest(request: HttpRequest) -> JsonResponse:
    """``/manifest.webmanifest``: what a browser installs the site as."""
    body = {
        "id": "/",
        "name": "Warboard",
        "short_name": "Warboard",
        "description": "Turn-based war board games: Fast Risk, battles adjudicated, rooms and "
        "tournaments.",
        "start_url": "/games",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLOUR,
        "background_color": "#ffffff",
        "icons": [
            {"src": static(name), "sizes": f"{n}x{n}", "type": "image/png", "purpose": purpose}
            for name, n, purpose in ICONS
        ],
    }
    response = JsonResponse(body)
    response["Content-Type"] = "application/manifest+json"
    return response
