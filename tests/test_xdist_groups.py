"""pytest-xdist keeps the tests of one ``xdist_group`` on one worker (``--dist loadgroup``, as
scripts/test.sh runs both passes): each browser module relies on it (tests/frontend/conftest.py).

pytest 9.2 keeps a node's id where pytest-xdist 3.8 does not rename it, and every group was
then silently ignored: the tests of a group ran on both workers. Checked here on a throwaway
test file in a pytest of its own, so an upgrade that breaks it again fails the suite.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

GROUPED = """
import pytest

@pytest.mark.xdist_group("together")
@pytest.mark.parametrize("n", range(6))
def test_grouped(n):
    pass

@pytest.mark.parametrize("n", range(6))
def test_free(n):
    pass
"""


def test_the_tests_of_one_xdist_group_run_on_one_worker(tmp_path: Path):
    (tmp_path / "test_grouped.py").write_text(GROUPED)
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:django", "-p", "no:cacheprovider",
         "-n", "2", "--dist", "loadgroup", "-v", "-o", "addopts=", "test_grouped.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    ran = re.findall(
        r"\[(gw\d)\] .*PASSED test_grouped.py::(test_\w+)\[\d\](@together)?", result.stdout
    )
    assert len(ran) == 12, result.stdout
    grouped = {(worker, suffix) for worker, name, suffix in ran if name == "test_grouped"}
    assert len(grouped) == 1, ran  # one worker, and the group named in the id
    assert grouped.pop()[1] == "@together"
