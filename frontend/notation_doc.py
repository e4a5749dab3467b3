"""The move notation's table for ``/rules``, read from ``docs/notation.md``.

That Markdown file is the notation's one written description (the README links to it, and
``tests/risk/test_notation.py`` parses and writes back every example in its table), so the rules
page shows its rows rather than a second copy that could drift from it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.utils.html import escape, format_html, format_html_join
from django.utils.safestring import SafeString

DOC = Path(__file__).resolve().parent.parent / "docs" / "notation.md"


@dataclass(frozen=True)
class NotationRow:
    """One row of the table: the action, its form (HTML: keywords in ``<code>``), an example."""

    action: str
    form: SafeString
    example: str


@cache
def notation_rows(path: Path = DOC) -> tuple[NotationRow, ...]:
    """The rows of the "Every action" table. A row whose form is blank in the Markdown (a second
    example of the form above it) says "as above"."""
    section = path.read_text(encoding="utf-8").split("## Every action")[1].split("\n## ")[0]
    rows: list[NotationRow] = []
    for line in section.splitlines():
        cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]
        if len(cells) != 3 or cells[0] in ("Action", "") or set(cells[0]) <= {"-"}:
            continue
        action, form, example = (c.replace("\\|", "|") for c in cells)
        rows.append(NotationRow(action, _code(form or "as above"), example.strip("`")))
    return tuple(rows)


def _code(markdown: str) -> SafeString:
    """Markdown with backticks as HTML: text escaped, each `...` in a <code> element."""
    parts = markdown.split("`")
    pieces = [
        format_html("<code>{}</code>", p) if i % 2 else escape(p) for i, p in enumerate(parts)
    ]
    return format_html_join("", "{}", ((piece,) for piece in pieces))
