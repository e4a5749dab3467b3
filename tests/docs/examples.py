"""Running a page's Python examples as doctests, in order, sharing one namespace per page.

Every ```` ```python ```` block of a page is an example that runs: its ``>>>`` lines are executed
and their output compared with what the page shows (ellipsis and whitespace-insensitive, as
doctest's ``ELLIPSIS`` and ``NORMALIZE_WHITESPACE``). A Python block without ``>>>`` is refused:
it would look like an example and be checked by nothing. Text that is not meant to run goes in a
``text`` (or ``sh``, ``json``) block.
"""

from __future__ import annotations

import doctest
import threading
from pathlib import Path

from tests.docs.markdown import ROOT, blocks

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def run_examples(page: Path) -> tuple[int, list[str]]:
    """Run the page's Python blocks; return how many examples ran and one message per failure
    (empty when every example gave the output the page shows)."""
    _wait_for_the_kernels()
    namespace: dict[str, object] = {"__name__": f"docs.{page.stem}"}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    ran = 0
    failures: list[str] = []
    name = page.relative_to(ROOT).as_posix() if page.is_relative_to(ROOT) else page.name
    for block in blocks(page):
        if block.language not in ("python", "py", "pycon"):
            continue
        where = f"{name}, the block at line {block.line}"
        if ">>>" not in block.text:
            failures.append(f"{where} has no >>> example: show its output, or make it a text block")
            continue
        test = parser.get_doctest(block.text, namespace, where, str(page), block.line)
        report: list[str] = []
        result = runner.run(test, out=report.append, clear_globs=False)
        namespace.update(test.globs)  # get_doctest copied the names: keep what this block made
        ran += result.attempted
        if result.failed:
            failures.append("".join(report))
    return ran, failures


def _wait_for_the_kernels() -> None:
    """Let the combat app's start-up thread finish compiling the numba kernels first. With
    colorama installed, numba's compile restores the ``sys.stdout`` it saw when it began, which
    would undo doctest's redirection mid-example on a fresh checkout ("Got nothing"); the
    Makefile also turns that highlighting off for the whole suite."""
    for thread in threading.enumerate():
        if thread.name == "combat-warm-up":
            thread.join()
