"""Multiplayer ratings with OpenSkill's Plackett-Luce model (the ``openskill`` package, MIT).

A Fast Risk table of 3-6 is a game of several one-player teams ranked by finishing order; ties
share a rank. The wrapper takes and returns plain ``(mu, sigma)`` pairs so the callers store
numbers, not library objects. The model uses the library's defaults (mu 25, sigma 25/3).
"""

from __future__ import annotations

from collections.abc import Sequence

from openskill.models import PlackettLuce

Rating = tuple[float, float]

_MODEL = PlackettLuce()
#: A new player's (mu, sigma).
DEFAULT_RATING: Rating = (_MODEL.mu, _MODEL.sigma)


def openskill_update(
    teams: Sequence[Sequence[Rating]], ranks: Sequence[float]
) -> list[list[Rating]]:
    """New ``(mu, sigma)`` for every member of every team; ``ranks`` lower is better, equal
    ranks are ties. A table of individual players is a list of one-player teams. Raises
    ``ValueError`` when ``ranks`` does not give one rank per team or there are fewer than 2."""
    if len(teams) < 2:
        raise ValueError(f"a rated game needs at least 2 teams, got {len(teams)}")
    if len(ranks) != len(teams):
        raise ValueError(f"ranks gives {len(ranks)} ranks for {len(teams)} teams")
    if any(not team for team in teams):
        raise ValueError("every team needs at least one player")
    rated = [[_MODEL.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams]
    updated = _MODEL.rate(rated, ranks=list(ranks))
    return [[(r.mu, r.sigma) for r in team] for team in updated]


def openskill_table(ratings: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """One table of individual players: new ratings in the same order, from finishing places."""
    return [team[0] for team in openskill_update([[r] for r in ratings], places)]
