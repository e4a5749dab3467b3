"""Write tests/frontend/data/rule_text_runs.txt: a hash of every 12-word run of the Fast Risk rule
text (../shared/rules/), the fingerprint the rules page's "own words" test checks against."""

import hashlib
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT.parent / "shared" / "rules" / "nautical-but-nice-fast-risk.txt"
TARGET = ROOT / "tests" / "frontend" / "data" / "rule_text_runs.txt"


def main() -> int:
    source = Path(sys.argv[1]) if len(sys.argv) > 1 else SOURCE
    words = re.findall(r"[a-z0-9']+", source.read_text().lower())
    runs = sorted(
        {hashlib.sha256(" ".join(words[i : i + 12]).encode()).hexdigest()[:16]
         for i in range(len(words) - 11)}
    )  # fmt: skip
    header = (
        "# SHA-256 (first 16 hex) of every run of 12 words of "
        "../shared/rules/nautical-but-nice-fast-risk.txt\n"
        "# (lower-cased, words [a-z0-9']+): a fingerprint of the rule text, not the text itself.\n"
        "# Remake: python scripts/rule_text_runs.py\n"
    )
    TARGET.write_text(header + "\n".join(runs) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
