"""The import contracts are live: breaking one makes ``lint-imports`` fail, naming it.

``lint-imports`` (``[tool.importlinter]`` in pyproject.toml) and ``mypy`` run as steps of their
own in ``make test`` (scripts/test.sh); this checks that live play's layers contract can fail.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

LINT_IMPORTS = str(Path(sys.executable).parent / "lint-imports")


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
