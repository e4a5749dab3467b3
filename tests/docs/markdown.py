"""Reading the documentation's Markdown: its fenced code blocks and the paths and links it names.

Kept apart from the tests so the collector itself can be tested on a page made up for the
purpose: a collector that silently finds nothing would let every example rot.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: The pages whose examples run: the README and every page of the documentation site.
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

_FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+)(?P<info>[^`]*)$")


@dataclass(frozen=True)
class Block:
    """One fenced code block: its language word, its text and the line it starts on."""

    page: Path
    line: int
    language: str
    text: str


def blocks(page: Path) -> Iterator[Block]:
    """Every fenced block of ``page``, in order. An indented fence (inside a list item) counts,
    with its indentation removed from each line."""
    lines = page.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        opening = _FENCE.match(lines[index])
        if opening is None:
            index += 1
            continue
        indent, fence = len(opening["indent"]), opening["fence"]
        language = opening["info"].strip().split(" ")[0] if opening["info"].strip() else ""
        body: list[str] = []
        start = index + 1
        index += 1
        while index < len(lines) and lines[index].strip() != fence:
            body.append(lines[index][indent:])
            index += 1
        index += 1  # the closing fence
        yield Block(page, start, language, "\n".join(body) + "\n")


_LINK = re.compile(r"\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")
_CODE_SPAN = re.compile(r"`([^`\n]+)`")

#: Top-level folders and files a path in backticks may start with to be checked.
_CHECKED_ROOTS = (
    "bench/",
    "combat/",
    "config/",
    "docs/",
    "frontend/",
    "games/",
    "requirements/",
    "risk/",
    "scripts/",
    "tests/",
)
_CHECKED_FILES = ("pyproject.toml", "Makefile", "docker-compose.yml", "Dockerfile", "mkdocs.yml")


def prose(page: Path) -> str:
    """The page without its fenced blocks (paths in examples are examples, not references)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    kept: list[str] = []
    inside: str | None = None
    for line in lines:
        opening = _FENCE.match(line)
        if inside is None and opening is not None:
            inside = opening["fence"]
        elif inside is not None and line.strip() == inside:
            inside = None
        elif inside is None:
            kept.append(line)
    return "\n".join(kept)


def relative_links(page: Path) -> list[str]:
    """The targets of Markdown links that point into the repository (not a web address, not a
    mail address, not an anchor on the same page)."""
    targets = [match["target"] for match in _LINK.finditer(prose(page))]
    return [
        target
        for target in targets
        if not re.match(r"^[a-z][a-z0-9+.-]*:", target) and not target.startswith("#")
    ]


def repo_paths(page: Path) -> list[str]:
    """Paths in backticks that name a file or folder of the repository: they start with one of
    its top-level folders (``combat/dice.py``, ``risk/rules/``) or are one of its root files.
    A ``*`` is a glob (``tests/risk/test_rules_*.py``)."""
    found: list[str] = []
    for span in _CODE_SPAN.findall(prose(page)):
        word = span.strip()
        if " " in word or "<" in word or "{" in word:
            continue  # a command, a URL template or a placeholder, not a path
        if word.startswith(_CHECKED_ROOTS) or word in _CHECKED_FILES:
            found.append(word)
    return found
