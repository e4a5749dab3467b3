"""Round-robin pairings: the Berger tables of the FIDE Handbook (C.05, Annex 1).

For ``n`` players (``n`` even; an odd field uses the table of ``n + 1``, the player drawn against
the extra number has a bye) there are ``n - 1`` rounds of ``n / 2`` boards. In round ``r`` the
first board pairs player ``n`` with ``p = (r - 1) * n / 2 mod (n - 1) + 1``, player ``n`` taking
white in even rounds; board ``k`` pairs ``p + k - 1`` (white) with ``p - k + 1`` (black), both
counted round 1..n-1. That reproduces FIDE's published tables board for board (4 players:
1-4, 2-3 / 4-3, 1-2 / 2-4, 3-1), which tests/games/test_competition_berger.py checks.
"""

from __future__ import annotations


def round_robin(n: int) -> list[list[tuple[int, int | None]]]:
    """The rounds of a single round robin for players numbered 1..n.

    Each pair is ``(first-named = white, second-named = black)``; for odd ``n`` the player
    without an opponent appears as ``(player, None)`` on the board where the table has ``n + 1``.
    Raises ``ValueError`` for fewer than two players.
    """
    if n < 2:
        raise ValueError(f"a round robin needs at least 2 players, got n={n}")
    size = n + (n % 2)
    others = size - 1
    half = size // 2

    def wrap(number: int) -> int:
        return (number - 1) % others + 1

    rounds: list[list[tuple[int, int | None]]] = []
    for r in range(1, size):
        p = (r - 1) * half % others + 1
        first: tuple[int, int] = (size, p) if r % 2 == 0 else (p, size)
        boards = [first] + [(wrap(p + k), wrap(p - k)) for k in range(1, half)]
        rounds.append([_with_bye(pair, n) for pair in boards])
    return rounds


def _with_bye(pair: tuple[int, int], n: int) -> tuple[int, int | None]:
    white, black = pair
    if white > n:
        return black, None
    if black > n:
        return white, None
    return white, black
