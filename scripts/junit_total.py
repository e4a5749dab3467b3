"""Print one closing line totalling the JUnit reports of both test passes."""

from __future__ import annotations

import sys
import xml.etree.ElementTree as ET


def totals(paths: list[str]) -> dict[str, int]:
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for path in paths:
        for suite in ET.parse(path).getroot().iter("testsuite"):
            for key in counts:
                counts[key] += int(suite.get(key, 0))
    return counts


def main(paths: list[str]) -> None:
    c = totals(paths)
    failed = c["failures"] + c["errors"]
    passed = c["tests"] - failed - c["skipped"]
    line = f"{passed} passed, {failed} failed"
    if c["skipped"]:
        line += f", {c['skipped']} skipped"
    print(f"total: {line}")


if __name__ == "__main__":
    main(sys.argv[1:])
