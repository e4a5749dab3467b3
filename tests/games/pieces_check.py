"""Watching the piece rows while games are played: after every action the write path commits,
the tables must hold exactly the rows of the state it wrote (``risk.rules.pieces.pieces_of``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.play import pieces
from risk.rules.pieces import Changes, pieces_of


@dataclass
class Watch:
    """What the checks saw: the actions written, and the statements each write took."""

    actions: int = 0
    moved: int = 0  # actions that changed a row
    statements: list[int] = field(default_factory=list)
    kinds: set[str] = field(default_factory=set)


def watch_pieces(monkeypatch: pytest.MonkeyPatch) -> Watch:
    """Check every write of the piece rows from now on (``games.play.pieces.save``)."""
    seen = Watch()
    real = pieces.save

    def checked(game: Any, before: Any, after: Any, touched: Any, seats: Any) -> Changes:
        with CaptureQueriesContext(connection) as queries:
            done = real(game, before, after, touched, seats)
        seen.actions += 1
        seen.moved += bool(done)
        seen.statements.append(len(queries.captured_queries))
        seen.kinds |= {name for name, rows in zip(done._fields, done, strict=True) if rows}
        stored = pieces.rows_of(game)
        assert stored == pieces_of(after), f"game {game.pk} after action {after.actions}"
        return done

    monkeypatch.setattr(pieces, "save", checked)
    return seen
