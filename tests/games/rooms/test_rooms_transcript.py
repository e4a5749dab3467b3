"""The plain-text transcript's blocks (games.rooms.core.transcript)."""

from __future__ import annotations

from datetime import UTC, datetime

from games.rooms.core.transcript import EntryText, entry_block, transcript


def test_a_note_is_one_line_and_further_lines_are_indented():
    entry = EntryText(
        3,
        datetime(2026, 11, 24, 10, 31, 59, tzinfo=UTC),
        "Germany",
        "note",
        "Moves 3 inf to Karelia\nbuys 2 arm",
        {},
    )
    assert entry_block(entry) == [
        "#3  2026-11-24 10:31 UTC  Germany  note: Moves 3 inf to Karelia",
        "    buys 2 arm",
    ]


def test_a_battle_result_lists_its_numbered_rolls():
    rolls = [{"number": 5, "sides": 6, "value": 3}, {"number": 6, "sides": 6, "value": 6}]
    entry = EntryText(
        12,
        datetime(2026, 11, 24, 10, 31, tzinfo=UTC),
        "server",
        "battle_result",
        "attacker wins",
        {"rolls": rolls},
    )
    assert entry_block(entry) == [
        "#12  2026-11-24 10:31 UTC  server  result: attacker wins",
        "    rolls 5-6: 3 6",
    ]


def test_the_transcript_is_the_header_then_blocks_separated_by_blank_lines():
    at = datetime(2026, 11, 24, 9, 0, tzinfo=UTC)
    text = transcript(
        ["Room 1: Test"],
        [
            EntryText(1, at, "server", "system", "created", {}),
            EntryText(2, at, "USSR", "challenge", "#1: no", {}),
        ],
    )
    assert text == (
        "Room 1: Test\n\n"
        "#1  2026-11-24 09:00 UTC  server  system: created\n\n"
        "#2  2026-11-24 09:00 UTC  USSR  challenge: #1: no\n"
    )
