"""``manage.py load_map [name] [--file PATH]``: (re)load a map file into the map tables.

Loading is idempotent (``risk.maps``): running it again on the same file writes nothing. A file
the validator refuses fails the command with the validator's message and leaves the rows alone.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db.models import ProtectedError

from risk.maps import map_counts, sync_map
from risk.rules.board_map import BoardMap, MapError, load_map, parse_map


class Command(BaseCommand):
    help = "Load risk/data/<name>-risk-map.json (or --file) into the map tables; safe to re-run."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "name", nargs="?", default="classic", help="Map name (default classic)."
        )
        parser.add_argument(
            "--file", type=Path, help="Read this map document instead of risk/data/<name>-..."
        )

    def handle(self, *args: Any, name: str, file: Path | None, **options: Any) -> None:
        try:
            board_map = _read(file) if file is not None else load_map(name)
        except MapError as exc:
            raise CommandError(exc.message) from exc
        try:
            result = sync_map(board_map, name)
        except ProtectedError as exc:
            used = ", ".join(sorted({str(row) for row in exc.protected_objects})[:5])
            raise CommandError(
                f"map {name!r}: the file drops rows that games still use ({used})"
            ) from exc
        counts = ", ".join(f"{n} {table}" for table, n in map_counts(result.map).items())
        self.stdout.write(f"Map {name!r}: {counts}; {result.written} rows written.")


def _read(path: Path) -> BoardMap:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise MapError("unreadable", f"{path}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise MapError("bad-json", f"{path}: not JSON ({exc})") from None
    return parse_map(raw, source=str(path))
