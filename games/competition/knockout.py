"""First-round pairs of a seeded knockout bracket.

The bracket is the next power of two; seeds are placed in the standard order (1 v 16, 8 v 9,
4 v 13, 5 v 12, 2 v 15, 7 v 10, 3 v 14, 6 v 11 for 16) so seeds 1 and 2 can meet only in the
final, 1-4 and 2-3 only in the semi-finals, and so on. The empty places are the highest seed
numbers, so the byes go to the top seeds: 13 players fill a bracket of 16 and seeds 1, 2 and 3
get byes. How a drawn game is decided is the tournament layer's rule, not this module's.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

P = TypeVar("P", bound=Hashable)


def bracket_order(size: int) -> list[int]:
    """Seed numbers 1..size in bracket order (``size`` a power of two)."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"bracket size must be a power of two, got {size}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def knockout_bracket(seeds: Sequence[P]) -> list[tuple[P, P | None]]:
    """First-round pairs, top of the bracket first; ``(player, None)`` is a bye.

    ``seeds`` lists the players best seed first (by rating). Raises ``ValueError`` for fewer
    than two players or a player listed twice.
    """
    n = len(seeds)
    if n < 2:
        raise ValueError(f"a knockout needs at least 2 players, got {n}")
    if len(set(seeds)) != n:
        raise ValueError("seeds lists someone twice")
    size = 1 << (n - 1).bit_length()
    order = bracket_order(size)
    pairs: list[tuple[P, P | None]] = []
    for i in range(0, size, 2):
        top, bottom = order[i], order[i + 1]
        pairs.append((seeds[top - 1], seeds[bottom - 1] if bottom <= n else None))
    return pairs
