"""The drawn board carries the map's sea lanes (``lanes``), checked by ``validate_board_shapes``.

board.js draws each lane as a line between its stations with its boat lengths, so a player reads
distances off the board; the validator keeps that drawing equal to the lanes the engine sails by.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable

import pytest

from risk.rules.board_map import MapError, board_shapes_path, load_map, validate_board_shapes

RAW = json.loads(board_shapes_path("classic").read_text(encoding="utf-8"))


def refused(change: Callable[[dict], None]) -> MapError:
    raw = copy.deepcopy(RAW)
    change(raw)
    with pytest.raises(MapError) as caught:
        validate_board_shapes(raw, load_map(), source="board.json")
    return caught.value


def test_every_map_lane_is_drawn_once_with_its_length():
    lanes = load_map().lanes
    drawn = {frozenset((a, b)): n for a, b, n in RAW["lanes"]}
    assert len(RAW["lanes"]) == len(lanes) == 83
    assert drawn == {frozenset((a, b)): n for a, b, n in lanes}
    assert drawn[frozenset(("Pacific:Central America", "Pacific:Peru"))] == 2


def _drop(raw: dict) -> None:
    raw["lanes"].pop()


def _twice(raw: dict) -> None:
    a, b, n = raw["lanes"][0]
    raw["lanes"].append([b, a, n])  # the same lane the other way round


def _unknown(raw: dict) -> None:
    raw["lanes"].append(["Pacific:Alaska", "Pacific:Peru", 3])


def _wrong_length(raw: dict) -> None:
    raw["lanes"][0][2] += 1


def _missing_key(raw: dict) -> None:
    del raw["lanes"]


def _not_a_lane(raw: dict) -> None:
    raw["lanes"][0] = {"a": "Pacific:Alaska"}


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (_drop, "lane-missing"),
        (_twice, "lane-duplicate"),
        (_unknown, "lane-unknown"),
        (_wrong_length, "bad-lane"),
        (_missing_key, "missing-key"),
        (_not_a_lane, "bad-lane"),
    ],
)
def test_a_drawn_board_with_wrong_lanes_is_refused(change: Callable[[dict], None], code: str):
    error = refused(change)
    assert error.code == code, error
    assert error.message.startswith("board.json: ")
