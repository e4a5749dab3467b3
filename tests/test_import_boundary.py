"""combat's pure modules, risk.rules, risk.ai and games.competition import no framework
(design.md section 1)."""

from __future__ import annotations

import subprocess

from tests.boundaries import COMBAT_DJANGO_LAYER, FORBIDDEN_TOP_LEVEL, pure_modules, violations
from tests.conftest import ROOT


def test_pure_modules_import_no_framework():
    files = list(pure_modules(ROOT))
    assert ROOT / "combat" / "__init__.py" in files
    assert ROOT / "risk" / "rules" / "__init__.py" in files
    assert ROOT / "risk" / "ai" / "__init__.py" in files
    assert ROOT / "games" / "competition" / "__init__.py" in files
    assert ROOT / "games" / "rooms" / "core" / "rolls.py" in files
    assert ROOT / "games" / "mail" / "core" / "address.py" in files
    assert ROOT / "games" / "models" / "play.py" not in files
    assert ROOT / "games" / "rooms" / "journal.py" not in files
    assert ROOT / "combat" / "apps.py" not in files
    assert [str(v) for v in violations(files)] == []


def test_the_checker_catches_every_import_form(tmp_path):
    (tmp_path / "combat").mkdir()
    (tmp_path / "risk" / "rules").mkdir(parents=True)
    (tmp_path / "combat" / "apps.py").write_text("from django.apps import AppConfig\n")
    (tmp_path / "combat" / "dice.py").write_text("import hmac\nimport django.db\n")
    (tmp_path / "combat" / "crt").mkdir()
    (tmp_path / "combat" / "crt" / "wif.py").write_text("from rest_framework import views\n")
    (tmp_path / "risk" / "rules" / "engine.py").write_text(
        "def f():\n    from celery import shared_task\n    import channels.layers\n"
    )
    found = sorted(str(v).replace(str(tmp_path), "") for v in violations(pure_modules(tmp_path)))
    assert found == [
        "/combat/crt/wif.py:1 imports rest_framework",
        "/combat/dice.py:2 imports django.db",
        "/risk/rules/engine.py:2 imports celery",
        "/risk/rules/engine.py:3 imports channels.layers",
    ]


def test_importing_the_pure_packages_loads_no_framework(python):
    """The AST check covers what is written; this covers what importing really pulls in."""
    layer = sorted(name.removesuffix(".py") for name in COMBAT_DJANGO_LAYER)
    code = f"""
import importlib, pkgutil, sys
import combat, risk.rules, risk.ai, games.competition
for module in pkgutil.walk_packages(combat.__path__, "combat."):
    if module.name.split(".")[1] not in {layer!r}:
        importlib.import_module(module.name)
for module in pkgutil.walk_packages(risk.rules.__path__, "risk.rules."):
    importlib.import_module(module.name)
for module in pkgutil.walk_packages(risk.ai.__path__, "risk.ai."):
    importlib.import_module(module.name)
for module in pkgutil.walk_packages(games.competition.__path__, "games.competition."):
    importlib.import_module(module.name)
print(sorted(n for n in sys.modules if n.split(".")[0] in {sorted(FORBIDDEN_TOP_LEVEL)!r}))
"""
    out = subprocess.run([python, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
