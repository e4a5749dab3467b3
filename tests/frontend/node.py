"""Running the browser's ES modules under Node.js in the tests.

A test imports what it checks straight from the module file (``import { applyPatch } from
".../patch.js"``) and runs a small script on a JSON payload given on stdin; the script writes its
answer as JSON on stdout. Needs Node.js (``scripts/test.sh`` installs Debian's ``nodejs`` when it
is missing); the repository's package.json (``"type": "module"``) makes the ``.js`` files modules.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ROOT

STATIC = ROOT / "frontend" / "static" / "frontend"


def node() -> str:
    found = shutil.which("node")
    if found is None:
        pytest.fail("Node.js is needed to run the browser's modules: install Debian's nodejs")
    return found


def module_url(name: str) -> str:
    """The file URL of a browser module (``"patch.js"``), for an ``import`` in a script."""
    return (STATIC / name).as_uri()


def import_line(module: str, *names: str) -> str:
    return f"import {{ {', '.join(names)} }} from {json.dumps(module_url(module))};"


def run_script(script: str, payload: Any, timeout: int = 120) -> Any:
    """Run ``script`` (an ES module; ``input`` holds the parsed payload); parse what it prints."""
    prelude = (
        'import { readFileSync } from "node:fs";\n'
        'const input = JSON.parse(readFileSync(0, "utf8"));\n'
    )
    result = subprocess.run(
        [node(), "--input-type=module", "-e", prelude + script],
        input=json.dumps(payload), capture_output=True, text=True, timeout=timeout,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def call_each(module: str, names: list[str], cases: list[tuple[str, list[Any]]]) -> list[dict]:
    """Each ``(function, args)`` called on the module's exports: ``{"ok": result}`` or
    ``{"error": message}`` per case."""
    script = "\n".join([
        import_line(module, *names),
        f"const fns = {{ {', '.join(names)} }};",
        "const out = input.map(([fn, args]) => {",
        "  try { return { ok: fns[fn](...args) }; }",
        "  catch (e) { return { error: String(e.message) }; }",
        "});",
        "process.stdout.write(JSON.stringify(out));",
    ])  # fmt: skip
    return run_script(script, cases)


def path_of(module: str) -> Path:
    return STATIC / module
