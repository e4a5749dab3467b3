"""mypy holds on the pure cores and their import contract holds (configured in pyproject.toml).

``mypy`` checks ``combat`` and ``risk.rules`` (``[tool.mypy]``); ``lint-imports`` keeps the pure
cores free of Django, the web layer and the other apps (``[tool.importlinter]``), beside the
AST walk of tests/test_import_boundary.py.
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
