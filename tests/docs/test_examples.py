"""The documentation's examples run and show what they print (README.md and docs/*.md).

Each page's Python blocks run in order as doctests, with database access, so an API example
talks to Django's test client on a test database; see ``tests/docs/examples.py`` for the rules.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docs.examples import run_examples
from tests.docs.markdown import PAGES, blocks

PAGES_WITH_EXAMPLES = [
    page for page in PAGES if any(block.language == "python" for block in blocks(page))
]


@pytest.mark.django_db
@pytest.mark.parametrize("page", PAGES_WITH_EXAMPLES, ids=lambda page: page.name)
def test_a_pages_examples_print_what_the_page_shows(page: Path) -> None:
    ran, failures = run_examples(page)
    assert failures == [], "\n".join(failures)
    assert ran > 0


def test_the_examples_cover_the_pages_that_promise_them() -> None:
    """The runnable examples are where the docs promise them; a page that lost its examples
    (a fence renamed, a block turned into text) fails here rather than passing on nothing."""
    names = {page.name for page in PAGES_WITH_EXAMPLES}
    assert {
        "combat.md",
        "rules.md",
        "notation.md",
        "battle_notation.md",
        "dice.md",
        "api.md",
        "rooms.md",
    } <= names


def test_a_wrong_output_fails(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "Some prose.\n\n- In a list:\n\n  ```python\n  >>> 6 * 7\n  41\n  ```\n",
        encoding="utf-8",
    )
    ran, failures = run_examples(page)
    assert ran == 1
    assert len(failures) == 1
    assert "Expected:\n    41\nGot:\n    42" in failures[0]


def test_a_python_block_that_shows_no_example_is_refused(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```python\nx = 1\n```\n\n```text\nnot run\n```\n", encoding="utf-8")
    ran, failures = run_examples(page)
    assert ran == 0
    assert failures == [
        "page.md, the block at line 1 has no >>> example: show its output, or make it a text block"
    ]


def test_blocks_of_one_page_share_their_names(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "```python\n>>> answer = 6 * 7\n```\n\nthen\n\n```python\n>>> answer\n42\n```\n",
        encoding="utf-8",
    )
    assert run_examples(page) == (2, [])
