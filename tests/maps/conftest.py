"""Maps on the server: the cast, and a clean map cache around every test (a test may publish a
version a later test makes again under the same name, in its own rolled-back database)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from risk.rules.board_map import board_shapes_path, clear_map_cache, map_path
from tests.games.conftest import make_user

__all__ = ["make_user"]


@pytest.fixture(autouse=True)
def _fresh_map_cache() -> Iterator[None]:
    clear_map_cache()
    yield
    clear_map_cache()


def packaged_file(name: str) -> dict[str, Any]:
    """The packaged map ``name`` as one map file: its document with the board under "board"."""
    doc = json.loads(map_path(name).read_text(encoding="utf-8"))
    board = json.loads(board_shapes_path(name).read_text(encoding="utf-8"))
    return {**doc, "board": board}


@pytest.fixture
def packaged_maps(db) -> None:
    """The rows migrations 0006 and 0007 load, put back if a transactional test flushed them
    (inside this test's transaction, so they go with it)."""
    from django.apps import apps

    from risk.maps.documents import load_packaged

    for name in ("classic", "small"):
        load_packaged(apps, name)


@pytest.fixture
def staff(db):
    return make_user("sam", is_staff=True, is_superuser=True)
