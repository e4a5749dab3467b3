"""The journal as plain text: one block per entry, readable in a mail or a terminal.

A block starts with the entry's line::

    #12  2026-11-24 10:31 UTC  Germany  battle: 3 inf 1 art vs 2 inf

then, indented four spaces, the further lines of the text and, for a battle result, its rolls
with their numbers in the room's sequence (``rolls 5-9: 3 5 1 6 2``). Blocks are separated by a
blank line; the header names the room, its system, the seed commitment and (once the room has
ended) the server seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

#: The word each kind of entry is shown with.
LABELS = {
    "note": "note",
    "battle_request": "battle",
    "battle_result": "result",
    "ruling": "ruling",
    "challenge": "challenge",
    "system": "system",
}
INDENT = "    "


@dataclass(frozen=True)
class EntryText:
    """What the transcript shows of one entry."""

    number: int
    at: datetime
    side: str
    kind: str
    text: str
    data: Mapping[str, Any]


def entry_block(entry: EntryText) -> list[str]:
    """The lines of one entry's block (without the blank line that follows it)."""
    when = entry.at.astimezone(UTC).strftime("%Y-%m-%d %H:%M")
    first, *rest = entry.text.splitlines() or [""]
    lines = [f"#{entry.number}  {when} UTC  {entry.side}  {LABELS[entry.kind]}: {first}"]
    lines += [INDENT + line for line in rest]
    rolls = entry.data.get("rolls") if entry.kind == "battle_result" else None
    if rolls:
        values = " ".join(str(r["value"]) for r in rolls)
        lines.append(f"{INDENT}rolls {rolls[0]['number']}-{rolls[-1]['number']}: {values}")
    elif entry.kind == "battle_result":
        lines.append(f"{INDENT}no dice rolled")
    return lines


def transcript(header: Sequence[str], entries: Iterable[EntryText]) -> str:
    """The whole text: the header lines, a blank line, then the blocks."""
    blocks = ["\n".join(header)] + ["\n".join(entry_block(e)) for e in entries]
    return "\n\n".join(blocks) + "\n"
