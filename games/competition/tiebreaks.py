"""Buchholz and Sonneborn-Berger tie-breaks for one-to-one events (round robin, Swiss).

A game is ``(first, second, first_score)`` with the score 1, 0.5 or 0 for the first-named
player (the second gets ``1 - first_score``); a bye is ``(player, None, points)``. Decided
reading (written down because FIDE's 2023 regulations offer variants): a bye or other unplayed
round counts in the player's own score but adds nothing to either tie-break, since there is no
opponent to weigh; Buchholz is the plain sum of every opponent's final score, with no cut.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

P = TypeVar("P", bound=Hashable)

Game = tuple[P, P | None, float]


def scores(games: Sequence[Game[P]]) -> dict[P, float]:
    """Each player's total points (byes included)."""
    total: dict[P, float] = {}
    for first, second, first_score in games:
        if not 0.0 <= first_score <= 1.0:
            raise ValueError(f"a game's score must be between 0 and 1, got {first_score}")
        total[first] = total.get(first, 0.0) + first_score
        if second is not None:
            total[second] = total.get(second, 0.0) + 1.0 - first_score
    return total


def _played(games: Sequence[Game[P]]) -> list[tuple[P, P, float]]:
    """Each played game seen from both sides: (player, opponent, player's score)."""
    sides: list[tuple[P, P, float]] = []
    for first, second, first_score in games:
        if second is not None:
            sides.append((first, second, first_score))
            sides.append((second, first, 1.0 - first_score))
    return sides


def buchholz(games: Sequence[Game[P]]) -> dict[P, float]:
    """The sum of the final scores of each player's opponents."""
    total = scores(games)
    result = dict.fromkeys(total, 0.0)
    for player, opponent, _ in _played(games):
        result[player] += total[opponent]
    return result


def sonneborn_berger(games: Sequence[Game[P]]) -> dict[P, float]:
    """The sum of the final scores of the opponents beaten plus half those drawn with."""
    total = scores(games)
    result = dict.fromkeys(total, 0.0)
    for player, opponent, score in _played(games):
        result[player] += score * total[opponent]
    return result
