"""The browser code is native ES modules, served as they are (no bundler, nothing from a CDN).

Every page loads its scripts as ``<script type="module">`` (no inline script, so a CSP of
``script-src 'self'`` would hold); every relative import names a module that exists, with no
cycle (the hashed-name rewrite cannot resolve one); and ``collectstatic`` with the deployed
storage rewrites each import to the hashed name, so a page's modules load once each.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from django.core.management import call_command
from django.test import override_settings

from tests.conftest import ROOT
from tests.frontend.node import STATIC

TEMPLATES = ROOT / "frontend" / "templates"
IMPORT = re.compile(r'^import [^;]*? from "(\.[^"]+)";$', re.M)


def imports_of(path: Path) -> list[str]:
    return IMPORT.findall(path.read_text())


def test_every_page_script_is_a_module_from_our_own_static_files():
    tags = []
    for template in TEMPLATES.rglob("*.html"):
        tags += [(template.name, tag) for tag in re.findall(r"<script[^>]*>", template.read_text())]
    assert tags
    for name, tag in tags:
        assert re.fullmatch(
            r"""<script type="module" src="\{% static 'frontend/\w+\.js' %\}">""", tag
        ), (
            name,
            tag,
        )


def test_every_import_names_a_module_there_and_none_goes_round_in_a_circle():
    graph = {path.name: imports_of(path) for path in STATIC.glob("*.js")}
    for module, targets in graph.items():
        for target in targets:
            assert target.startswith("./") and (STATIC / target[2:]).is_file(), (module, target)

    def visit(module: str, trail: tuple[str, ...]) -> None:
        assert module not in trail, " -> ".join([*trail, module])
        for target in graph[module]:
            visit(target[2:], (*trail, module))

    for module in graph:
        visit(module, ())
    assert graph["game.js"] and "./game.js" in graph["chat.js"]


def test_collectstatic_rewrites_the_imports_to_the_hashed_names(tmp_path):
    storages = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "config.storage.ModuleManifestStaticFilesStorage"},
    }
    with override_settings(STATIC_ROOT=tmp_path, STORAGES=storages):
        call_command("collectstatic", "--noinput", verbosity=0)
    manifest = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    hashed = manifest["frontend/game.js"]
    assert hashed != "frontend/game.js"
    targets = imports_of(tmp_path / hashed)
    assert len(targets) == len(imports_of(STATIC / "game.js")) > 5
    for target in targets:
        name = target[2:]
        assert f"frontend/{name}" in manifest.values(), target  # a hashed name, not the plain one
        assert (tmp_path / "frontend" / name).is_file()
