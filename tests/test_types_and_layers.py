"""mypy holds on the pure cores and their import contract holds (configured in pyproject.toml).

``mypy`` checks ``combat``, ``risk.rules`` and ``risk.ai`` (``[tool.mypy]``); ``lint-imports``
keeps the pure cores free of Django, the web layer and the other apps (``[tool.importlinter]``),
beside the AST walk of tests/test_import_boundary.py.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

BIN = Path(sys.executable).parent
MYPY = str(BIN / "mypy")
LINT_IMPORTS = str(BIN / "lint-imports")


def test_mypy_passes_on_the_cores():
    result = subprocess.run([MYPY], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_import_contracts_are_kept():
    result = subprocess.run([LINT_IMPORTS, "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_live_play_layers_contract_refuses_an_upward_import(tmp_path):
    """The write path importing the after-commit effects (a layer above it) breaks live play's
    layers contract: the contract is live, not vacuous."""
    import shutil

    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "data", "static", "templates")
    for package in ("combat", "risk", "games", "config", "frontend"):
        shutil.copytree(ROOT / package, tmp_path / package, ignore=skip)
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    write = tmp_path / "games" / "play" / "write.py"
    write.write_text(write.read_text() + "\nfrom games.play import effects  # noqa\n")

    result = subprocess.run(
        [LINT_IMPORTS, "--no-cache"], cwd=tmp_path, capture_output=True, text=True
    )

    assert result.returncode == 1, result.stdout + result.stderr
    assert "Live play is layered one way" in result.stdout and "BROKEN" in result.stdout
    assert "games.play.write -> games.play.effects" in result.stdout
