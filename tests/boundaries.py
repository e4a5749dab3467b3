"""Finds imports that cross the functional-core boundary (design.md section 1).

``combat``'s topic modules, everything under ``risk/rules`` and ``risk/ai`` (the AI)
and ``games/competition`` (the tournament and rating math) must import no framework,
so the rules can be replayed, tested and benchmarked without a server.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

FORBIDDEN_TOP_LEVEL = frozenset(
    {"django", "rest_framework", "channels", "celery", "channels_redis"}
)

#: Files and folders of ``combat/`` that are its Django layer, not its pure core.
COMBAT_DJANGO_LAYER = frozenset(
    {
        "apps.py",
        "views.py",
        "serializers.py",
        "urls.py",
        "models.py",
        "services.py",
        "selectors.py",
        "admin.py",
        "tasks.py",
        "api",
        "migrations",
        "management",
    }
)


#: The pure-core folders of ``risk/``: the rules engine and the AI that plays it.
PURE_RISK_FOLDERS = ("rules", "ai")

#: The pure-core folders of ``games/`` (the Django app): the tournament and rating math, the
#: rooms' core and the mail's core.
PURE_GAMES_FOLDERS = ("competition", "rooms/core", "mail/core")


@dataclass(frozen=True)
class Violation:
    path: Path
    line: int
    module: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line} imports {self.module}"


def pure_modules(root: Path) -> Iterator[Path]:
    """Every Python file that must stay free of framework imports."""
    combat = root / "combat"
    for entry in sorted(combat.iterdir()):
        if entry.name in COMBAT_DJANGO_LAYER or (
            entry.is_dir() and entry.name.startswith(("_", "."))
        ):
            continue
        if entry.is_dir():
            yield from sorted(entry.rglob("*.py"))
        elif entry.suffix == ".py":
            yield entry
    for folder in PURE_RISK_FOLDERS:
        if (root / "risk" / folder).is_dir():
            yield from sorted((root / "risk" / folder).rglob("*.py"))
    for folder in PURE_GAMES_FOLDERS:
        if (root / "games" / folder).is_dir():
            yield from sorted((root / "games" / folder).rglob("*.py"))


def imported_modules(tree: ast.AST) -> Iterator[tuple[int, str]]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module


def violations(files: Iterator[Path] | list[Path]) -> list[Violation]:
    found = []
    for path in files:
        tree = ast.parse(path.read_text(), filename=str(path))
        for line, module in imported_modules(tree):
            if module.split(".")[0] in FORBIDDEN_TOP_LEVEL:
                found.append(Violation(path, line, module))
    return found
