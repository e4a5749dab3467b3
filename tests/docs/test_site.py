"""The documentation site builds with no warning, and every path and link the docs name exists.

``mkdocs build --strict`` fails on a link to a page or anchor that does not exist and on a page
left out of the navigation; the tests below also check what MkDocs does not see: the README's
links, and the repository paths written in backticks (a renamed module leaves the docs naming a
file that is gone).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs.markdown import PAGES, ROOT, relative_links, repo_paths


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess, Path]:
    """One strict build of the site for the tests of this module (a few seconds)."""
    site = tmp_path_factory.mktemp("site")
    result = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return result, site


def test_the_site_builds_strictly(built: tuple[subprocess.CompletedProcess, Path]) -> None:
    result, site = built
    assert result.returncode == 0, result.stderr
    assert (site / "index.html").is_file()
    assert (site / "search" / "search_index.js").is_file()  # the offline plugin's index


def test_the_site_loads_nothing_from_another_host(
    built: tuple[subprocess.CompletedProcess, Path],
) -> None:
    """Offline: no Google Fonts, no script or stylesheet from another host in any built page."""
    result, site = built
    assert result.returncode == 0, result.stderr
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 10
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "fonts.googleapis.com" not in text and "fonts.gstatic.com" not in text, page
        for attribute in ('src="http', "src='http", '<link rel="stylesheet" href="http'):
            assert attribute not in text, page


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_relative_link_leads_to_a_file(page: Path) -> None:
    missing = [
        target
        for target in relative_links(page)
        if not (page.parent / target.split("#")[0]).exists()
    ]
    assert missing == []


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_repository_path_in_backticks_exists(page: Path) -> None:
    missing = [path for path in repo_paths(page) if not any(ROOT.glob(path.rstrip("/")))]
    assert missing == []


def test_the_checkers_see_paths_and_links_and_skip_examples(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "See `combat/dice.py`, `risk/rules/`, `make run`, `/api/games/{id}` and `Makefile`;\n"
        "[the rules](rules.md#dice), [a site](https://example.org), [here](#top).\n\n"
        "```text\nnot/a/path.py [not a link](nowhere.md)\n```\n",
        encoding="utf-8",
    )
    assert repo_paths(page) == ["combat/dice.py", "risk/rules/", "Makefile"]
    assert relative_links(page) == ["rules.md#dice"]
