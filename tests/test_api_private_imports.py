"""No HTTP module borrows another module's private helper: a helper two API modules share is
moved where it is public, so a change to one module's internals cannot break another's."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _http_modules() -> list[Path]:
    found = [*ROOT.glob("games/**/api.py"), *ROOT.glob("games/**/api/*.py")]
    found += [*ROOT.glob("frontend/*views.py"), *ROOT.glob("combat/**/views.py")]
    return sorted(found)


def private_imports(source: str) -> list[str]:
    """``module.name`` for each ``_name`` imported from another module."""
    return [
        f"{node.module}.{alias.name}"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.ImportFrom) and node.module
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    ]


def test_the_check_sees_a_private_import():
    assert private_imports("from games.rooms.api import _invite, public\n") == [
        "games.rooms.api._invite"
    ]


def test_no_http_module_imports_a_private_name():
    modules = _http_modules()
    assert len(modules) >= 10
    borrowed = {str(p.relative_to(ROOT)): private_imports(p.read_text()) for p in modules}
    assert {path: names for path, names in borrowed.items() if names} == {}
