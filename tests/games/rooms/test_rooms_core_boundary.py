"""The rooms' core (games.rooms.core) is pure: importing all of it loads no framework
(the import-linter contract in pyproject.toml checks what is written; this what is loaded)."""

from __future__ import annotations

import subprocess

from tests.boundaries import FORBIDDEN_TOP_LEVEL
from tests.conftest import ROOT


def test_importing_the_rooms_core_loads_no_framework(python):
    code = f"""
import importlib, pkgutil, sys
import games.rooms.core as core
for module in pkgutil.walk_packages(core.__path__, "games.rooms.core."):
    importlib.import_module(module.name)
print(sorted(n for n in sys.modules if n.split(".")[0] in {sorted(FORBIDDEN_TOP_LEVEL)!r}))
"""
    out = subprocess.run([python, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
