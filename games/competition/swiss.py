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
that round and, as FIDE's Dutch rules say, floated down. Players no longer in ``players``
(withdrawn) are ignored when pairing; their games still count for their opponents.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

from caissify_pairings import generate_pairings

P = TypeVar("P", bound=Hashable)

Game = tuple[P, P | None, float]


class SwissPairingError(ValueError):
    """The pairing engine's answer breaks an absolute criterion, or the input is unusable."""


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
    number = {p: i + 1 for i, p in enumerate(players)}
    score: dict[P, float] = {p: 0.0 for p in players}
    colours: dict[P, list[str]] = {p: [] for p in players}
    floats: dict[P, list[str]] = {p: [] for p in players}
    byes: dict[P, int] = {p: 0 for p in players}
    met: set[tuple[int, int]] = set()
    all_scores: dict[P, float] = {}
    for games in history:
        before = dict(all_scores)
        seen: set[P] = set()
        for white, black, white_score in games:
            seen.add(white)
            if black is None:
                all_scores[white] = all_scores.get(white, 0.0) + white_score
                if white in number:
                    byes[white] += 1
                    colours[white].append("none")
                    floats[white].append("down")
                continue
            seen.add(black)
            all_scores[white] = all_scores.get(white, 0.0) + white_score
            all_scores[black] = all_scores.get(black, 0.0) + 1.0 - white_score
            w_before, b_before = before.get(white, 0.0), before.get(black, 0.0)
            for me, colour, mine, theirs in (
                (white, "white", w_before, b_before),
                (black, "black", b_before, w_before),
            ):
                if me in number:
                    colours[me].append(colour)
                    floats[me].append(
                        "down" if mine > theirs else "up" if mine < theirs else "none"
                    )
            if white in number and black in number:
                met.add((number[white], number[black]))
        for p in players:
            if p not in seen:
                colours[p].append("none")
                floats[p].append("none")
    for p in players:
        score[p] = all_scores.get(p, 0.0)
    entrants = [
        {
            "id": number[p],
            "name": "",
            "score": score[p],
            "rating": len(players) - number[p] + 1,
            "starting_number": number[p],
            "pairing_number": number[p],
            "color_hist": colours[p],
            "float_history": floats[p],
            "bye_count": byes[p],
        }
        for p in players
    ]
    # The library's signature: (system, players, previous_pairings, round_number, total_rounds).
    answer = generate_pairings("dutch", entrants, met, round_number, total_rounds)
    by_number = {number[p]: p for p in players}
    pairs: list[tuple[P, P | None]] = []
    for board in sorted(answer, key=lambda b: b["table"]):
        white = by_number[board["white_id"]]
        black_id = board.get("black_id")
        if black_id is None:
            if byes[white]:
                raise SwissPairingError(f"the engine gave {white!r} a second bye")
            pairs.append((white, None))
            continue
        if (board["white_id"], black_id) in met or (black_id, board["white_id"]) in met:
            raise SwissPairingError(
                f"the engine repeated the game {white!r} v {by_number[black_id]!r}"
            )
        pairs.append((white, by_number[black_id]))
    placed = [p for pair in pairs for p in pair if p is not None]
    if sorted(number[p] for p in placed) != sorted(number.values()):
        raise SwissPairingError("the engine's round does not place every player exactly once")
    return pairs
