"""No import cycle anywhere in the server's packages: a module never reaches itself.

Import-linter's contracts hold the layers each feature and the cores declare; a cycle between
two modules that no contract lists (tournaments' pairing and results once imported each other
from inside functions) slips past them. This walks the whole import graph (grimp's, the one
import-linter builds; imports inside functions and under ``TYPE_CHECKING`` count too).
"""

from __future__ import annotations

import grimp

PACKAGES = ("combat", "risk", "games", "config", "frontend")


def import_cycles(packages: tuple[str, ...] = PACKAGES) -> list[tuple[str, ...]]:
    """Each cycle once, as the chain of modules from its first module back to it."""
    graph = grimp.build_graph(*packages, cache_dir=None)
    found: dict[frozenset[str], tuple[str, ...]] = {}
    for module in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            back = graph.find_shortest_chain(importer=imported, imported=module)
            if back is not None:
                cycle = (module, *back)
                found.setdefault(frozenset(cycle), cycle)
    return sorted(found.values())


def test_no_module_imports_itself_through_others():
    cycles = import_cycles()
    assert cycles == [], "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_the_walk_finds_a_cycle(tmp_path, monkeypatch):
    """Two modules that import each other are reported as one cycle, named in order."""
    package = tmp_path / "loop"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("def f():\n    from loop import b\n")
    (package / "b.py").write_text("from loop import a\n")
    monkeypatch.syspath_prepend(str(tmp_path))

    assert import_cycles(("loop",)) == [("loop.a", "loop.b", "loop.a")]
