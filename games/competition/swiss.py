"""Swiss pairings (FIDE Dutch system) through ``caissify-pairings``, a thin pure wrapper.

The pairing itself is the library's: caissify-pairings (Apache-2.0) states 0 discrepancies
against bbpPairings (FIDE-endorsed) over 70,000 rounds of FIDE's A.7 test. This module only
turns the event's history into the library's per-player state (score, colour history, float
history, byes, earlier opponents) as its README asks the caller to, and checks the answer
against the absolute criteria: no pairing repeats a game already played and nobody gets a
second pairing-allocated bye. If the library ever breaks one, ``SwissPairingError`` says so
rather than the round being paired wrongly.

History is a list of rounds; a round lists games ``(white, black, white_score)`` with score 1,
0.5 or 0, and a bye as ``(player, None, points)``. A player who received a bye has no colour
that round and, as FIDE's Dutch rules say of anyone who does not play a round, floated down
(a late entrant's missed rounds count the same way). Players no longer in ``players``
(withdrawn) are not paired; their games still count in their opponents' scores and colours.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from caissify_pairings import generate_pairings

P = TypeVar("P", bound=Hashable)

Game = tuple[P, P | None, float]


class SwissPairingError(ValueError):
    """The pairing engine's answer breaks an absolute criterion, or the input is unusable."""


@dataclass
class _Entrant(Generic[P]):
    """One player's state as the pairing engine wants it, replayed from the history."""

    number: int
    score: float = 0.0
    colours: list[str] = field(default_factory=list)
    floats: list[str] = field(default_factory=list)
    byes: int = 0


def _replay(
    players: Sequence[P], history: Sequence[Sequence[Game[P]]]
) -> tuple[dict[P, _Entrant[P]], set[tuple[int, int]]]:
    """Every player's score, colours, floats and byes, and the games already played (as pairs
    of pairing numbers), from the rounds so far."""
    entrants = {p: _Entrant[P](number=i + 1) for i, p in enumerate(players)}
    met: set[tuple[int, int]] = set()
    scores: dict[P, float] = {}
    for games in history:
        before = dict(scores)
        played: set[P] = set()
        for white, black, white_score in games:
            scores[white] = scores.get(white, 0.0) + white_score
            if black is None:
                if white in entrants:
                    entrants[white].byes += 1
                continue
            scores[black] = scores.get(black, 0.0) + 1.0 - white_score
            played.update((white, black))
            mine, theirs = before.get(white, 0.0), before.get(black, 0.0)
            for me, colour, float_ in (
                (white, "white", _float(mine, theirs)),
                (black, "black", _float(theirs, mine)),
            ):
                if me in entrants:
                    entrants[me].colours.append(colour)
                    entrants[me].floats.append(float_)
            if white in entrants and black in entrants:
                met.add((entrants[white].number, entrants[black].number))
        for p, entrant in entrants.items():
            if p not in played:
                entrant.colours.append("none")
                entrant.floats.append("down")
    for p, entrant in entrants.items():
        entrant.score = scores.get(p, 0.0)
    return entrants, met


def _float(mine: float, theirs: float) -> str:
    return "down" if mine > theirs else "up" if mine < theirs else "none"


def swiss_pairings(
    players: Sequence[P], history: Sequence[Sequence[Game[P]]], total_rounds: int
) -> list[tuple[P, P | None]]:
    """The next round's pairs ``(white, black)``, a bye as ``(player, None)``.

    ``players`` is the field in initial ranking order (best rating first): it fixes the
    pairing numbers. ``history`` holds the rounds played so far.
    """
    if len(set(players)) != len(players):
        raise SwissPairingError("players lists someone twice")
    if len(players) < 2:
        raise SwissPairingError(f"a Swiss round needs at least 2 players, got {len(players)}")
    round_number = len(history) + 1
    if round_number > total_rounds:
        raise SwissPairingError(f"round {round_number} is past total_rounds={total_rounds}")
    entrants, met = _replay(players, history)
    engine_players: list[dict[str, Any]] = [
        {
            "id": e.number,
            "name": "",
            "score": e.score,
            # The engine orders by rating: a falling number keeps the given order.
            "rating": len(players) - e.number + 1,
            "starting_number": e.number,
            "pairing_number": e.number,
            "color_hist": e.colours,
            "float_history": e.floats,
            "bye_count": e.byes,
        }
        for e in entrants.values()
    ]
    # The library's signature: (system, players, previous_pairings, round_number, total_rounds).
    answer = generate_pairings("dutch", engine_players, met, round_number, total_rounds)
    return _checked(answer, players, entrants, met)


def _checked(
    answer: list[dict[str, Any]],
    players: Sequence[P],
    entrants: dict[P, _Entrant[P]],
    met: set[tuple[int, int]],
) -> list[tuple[P, P | None]]:
    """The engine's boards as player pairs, refused if they break an absolute criterion."""
    by_number = {entrants[p].number: p for p in players}
    pairs: list[tuple[P, P | None]] = []
    for board in sorted(answer, key=lambda b: b["table"]):
        white = by_number[board["white_id"]]
        black_id = board.get("black_id")
        if black_id is None:
            if entrants[white].byes:
                raise SwissPairingError(f"the engine gave {white!r} a second bye")
            pairs.append((white, None))
            continue
        if (board["white_id"], black_id) in met or (black_id, board["white_id"]) in met:
            raise SwissPairingError(
                f"the engine repeated the game {white!r} v {by_number[black_id]!r}"
            )
        pairs.append((white, by_number[black_id]))
    placed = sorted(entrants[p].number for pair in pairs for p in pair if p is not None)
    if placed != list(range(1, len(players) + 1)):
        raise SwissPairingError("the engine's round does not place every player exactly once")
    return pairs
