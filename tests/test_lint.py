"""ruff's lint rules and formatter hold for the whole tree (configured in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT

RUFF = str(Path(sys.executable).parent / "ruff")


def test_ruff_check_passes():
    result = subprocess.run([RUFF, "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_ruff_format_is_clean():
    result = subprocess.run(
        [RUFF, "format", "--check", "."], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stdout
