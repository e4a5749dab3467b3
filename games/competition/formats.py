"""Which pairings a tournament round gets, by format: the one entry point the tournament layer
calls, so every format's rule for byes, withdrawals and late entries is written down here.

Formats and their readings (where the issue is silent):

- ``round_robin``: the field is numbered by initial ranking when the event starts and plays
  ``round_robin(n)``'s rounds in order. The table is fixed at the start, so there are no late
  entries. A withdrawn player's remaining games are still listed; the tournament layer scores
  them as forfeits won by the opponent (FIDE's C.05 would annul them if under half were
  played; a forfeit keeps every other player's number of games equal, which a short
  correspondence event needs more).
- ``swiss``: Dutch system over ``total_rounds``; withdrawn players are not paired; late
  entrants join before a round is paired, start on 0 points, and their missed rounds count as
  unplayed (floated down) in the pairing.
- ``knockout``: round 1 is the seeded bracket (byes to the top seeds); each later round pairs
  the winners of neighbouring boards (``duels.knockout_next_round``, draws to the better
  seed). A withdrawn player loses their next game by forfeit. No late entries.
- ``tables``: multiplayer tables of ``min_size``-``max_size`` seated by ``seat_tables`` from the
  active players, for ``total_rounds`` rounds; late entrants are seated from the round after
  they enter, with no points for the rounds they missed.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import TypeVar

from games.competition.berger import round_robin
from games.competition.duels import knockout_next_round
from games.competition.knockout import knockout_bracket
from games.competition.seating import seat_tables
from games.competition.swiss import swiss_pairings

P = TypeVar("P", bound=Hashable)

ROUND_ROBIN = "round_robin"
SWISS = "swiss"
KNOCKOUT = "knockout"
TABLES = "tables"
FORMATS = (ROUND_ROBIN, SWISS, KNOCKOUT, TABLES)
#: Formats whose field is fixed at the start.
CLOSED_FORMATS = frozenset({ROUND_ROBIN, KNOCKOUT})
#: The largest field each format takes. A round is paired inside a request or a result task
#: while the tournament's row is locked, so the pairing must stay short: bench/pairing.py
#: measures the slowest round at ~1.7 s for a Swiss of 64 (128 took ~19 s: the Dutch engine
#: grows steeply) and ~1.3 s for 120 players at tables. A round robin of 24 is already 23
#: rounds of correspondence; a knockout bracket is instant at any size.
MAX_FIELD = {ROUND_ROBIN: 24, SWISS: 64, KNOCKOUT: 256, TABLES: 120}

Game = tuple[P, P | None, float]


def total_rounds(fmt: str, entrants: int, rounds: int | None = None) -> int:
    """How many rounds the event has: fixed by the field for round robin and knockout, chosen
    by the staff (``rounds``) for Swiss and tables; Swiss defaults to ceil(log2 n) rounds,
    the fewest that can leave one player on a perfect score."""
    if entrants < 2:
        raise ValueError(f"an event needs at least 2 entrants, got {entrants}")
    if fmt == ROUND_ROBIN:
        return entrants - 1 + entrants % 2
    if fmt == KNOCKOUT:
        return (entrants - 1).bit_length()
    if fmt == SWISS:
        return rounds or max(1, math.ceil(math.log2(entrants)))
    if fmt == TABLES:
        if not rounds:
            raise ValueError("a tables event needs its number of rounds")
        return rounds
    raise ValueError(f"unknown format {fmt!r}; one of {', '.join(FORMATS)}")


def duel_round(
    fmt: str,
    round_number: int,
    field: Sequence[P],
    active: Sequence[P],
    history: Sequence[Sequence[Game[P]]],
    rounds: int,
) -> list[tuple[P, P | None]]:
    """Pairs ``(first-named, second-named)`` for round ``round_number`` (from 1) of a
    one-to-one format; ``(player, None)`` is a bye.

    ``field``: every entrant by initial ranking (best first; the round robin numbers and the
    knockout seeds). ``active``: those still playing, in the same order. ``history``: the
    rounds played so far, each as games ``(first, second, first_score)``.
    """
    if round_number != len(history) + 1:
        raise ValueError(f"round {round_number} follows {len(history)} played rounds")
    if round_number > rounds:
        raise ValueError(f"the event has {rounds} rounds")
    if fmt == ROUND_ROBIN:
        table = round_robin(len(field))[round_number - 1]
        return [(field[a - 1], None if b is None else field[b - 1]) for a, b in table]
    if fmt == SWISS:
        return swiss_pairings(list(active), history, rounds)
    if fmt == KNOCKOUT:
        if round_number == 1:
            return knockout_bracket(list(field))
        seeds = {p: i for i, p in enumerate(field)}
        return knockout_next_round(history[-1], seeds)
    raise ValueError(f"{fmt!r} is not a one-to-one format")


def table_round(
    active: Sequence[P],
    history: Sequence[Sequence[P]],
    *,
    min_size: int = 3,
    max_size: int = 6,
    seed: int = 0,
) -> list[list[P]]:
    """Tables for the next round of a ``tables`` event (``history``: every earlier table)."""
    return seat_tables(list(active), list(history), min_size=min_size, max_size=max_size,
                       seed=seed)  # fmt: skip
