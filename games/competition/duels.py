"""Standings, crosstable and knockout progress of one-to-one events (round robin, Swiss, knockout).

A game is ``(first, second, first_score)`` as in ``games.competition.tiebreaks``: the score 1,
0.5 or 0 for the first-named player, a bye ``(player, None, points)``. Standings rank by score,
then Buchholz, then Sonneborn-Berger, then the number of wins, then the initial ranking (the
seed order the caller gives): FIDE's C.07 tie-breaks in the order the IA&ACF-style events use,
and the last step makes the order total, so a champion is always named.

Knockout draw rule (the issue asks for a stated one): a drawn knockout game is won by the better
seed, as a "draw odds" armageddon game gives the draw to one side chosen beforehand. It keeps a
correspondence round to one game (a replay could run for months) and rewards the rating that
seeded the player.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from games.competition.tiebreaks import buchholz, scores, sonneborn_berger

P = TypeVar("P", bound=Hashable)

Game = tuple[P, P | None, float]


@dataclass(frozen=True)
class DuelStanding(Generic[P]):
    """One player's line in the standings of a one-to-one event."""

    player: P
    score: float
    buchholz: float
    sonneborn_berger: float
    wins: int
    played: int


def duel_standings(players: Sequence[P], games: Sequence[Game[P]]) -> list[DuelStanding[P]]:
    """Every player in ``players`` (the initial ranking, best first), best standing first."""
    total, bh, sb = scores(games), buchholz(games), sonneborn_berger(games)
    wins: dict[P, int] = {}
    played: dict[P, int] = {}
    for first, second, first_score in games:
        if second is None:
            continue
        for me, my_score in ((first, first_score), (second, 1.0 - first_score)):
            played[me] = played.get(me, 0) + 1
            wins[me] = wins.get(me, 0) + (1 if my_score == 1.0 else 0)
    rows = [
        DuelStanding(
            p, total.get(p, 0.0), bh.get(p, 0.0), sb.get(p, 0.0), wins.get(p, 0), played.get(p, 0)
        )
        for p in players
    ]
    seed = {p: i for i, p in enumerate(players)}
    return sorted(
        rows, key=lambda r: (-r.score, -r.buchholz, -r.sonneborn_berger, -r.wins, seed[r.player])
    )


@dataclass(frozen=True)
class CrossCell(Generic[P]):
    """One round of one player: the opponent (None: a bye), their score, first-named or not."""

    round: int
    opponent: P | None
    score: float
    first: bool


def crosstable(rounds: Sequence[Sequence[Game[P]]]) -> dict[P, list[CrossCell[P]]]:
    """Each player's games round by round (rounds numbered from 1), as a crosstable shows."""
    table: dict[P, list[CrossCell[P]]] = {}
    for number, games in enumerate(rounds, start=1):
        for first, second, first_score in games:
            table.setdefault(first, []).append(CrossCell(number, second, first_score, True))
            if second is not None:
                table.setdefault(second, []).append(
                    CrossCell(number, first, 1.0 - first_score, False)
                )
    return table


def knockout_winner(game: Game[P], seeds: Mapping[P, int]) -> P:
    """Who goes through: the winner, on a draw the better (lower-numbered) seed; a bye's player."""
    first, second, first_score = game
    if second is None or first_score > 0.5:
        return first
    if first_score < 0.5:
        return second
    return first if seeds[first] < seeds[second] else second


def knockout_next_round(
    previous: Sequence[Game[P]], seeds: Mapping[P, int]
) -> list[tuple[P, P | None]]:
    """The next round's pairs: the winners of boards 1 and 2 meet, then 3 and 4, and so on.

    ``previous`` is the last round in bracket order (as ``knockout_bracket`` and this function
    return them). The better seed is named first. One board left means the event is over:
    raises ``ValueError`` (the champion is ``knockout_winner`` of that board).
    """
    if len(previous) < 2:
        raise ValueError("the previous round was the final: there is no next round")
    if len(previous) % 2:
        raise ValueError(f"a bracket round has an even number of boards, got {len(previous)}")
    winners = [knockout_winner(game, seeds) for game in previous]
    pairs: list[tuple[P, P | None]] = []
    for a, b in zip(winners[::2], winners[1::2], strict=True):
        pairs.append((a, b) if seeds[a] < seeds[b] else (b, a))
    return pairs
