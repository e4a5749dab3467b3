"""Reading games without writing: the bottom layer of live play (``games.play``).

Everything here is a plain read (no lock, no transaction of its own): the transports, the
notifications and the write path all use it, and it imports none of them.
"""

from __future__ import annotations

from typing import Any

from games.models import Game, Seat
from games.play import access, snapshots
from risk.rules import GameState


def game_get(game_id: int, *, with_state: bool = False) -> Game:
    """The game, or 404 ``not_found``, whoever asks: for the server's own work (the driver,
    commands). A caller's read goes through ``game_for``, which applies ``access``. Its state
    row comes joined in, so that ``game.version`` costs no query; the state itself only
    ``with_state`` (else ``game_state`` reads it with one SELECT)."""
    game = _rows(with_state).filter(pk=game_id).first()
    if game is None:
        raise access.not_found()
    return game


def game_for(
    game_id: int, user: Any, *, invite: str | None = None, with_state: bool = False
) -> Game:
    """The game if ``user`` may see it (``access``), else the very 404 of a missing id.

    One statement either way: the row with the caller's seat as an ``EXISTS``, and the rule
    checked on it before anything else is read, so a private game the caller may not see costs
    what a missing id costs."""
    rows = _rows(with_state).annotate(caller_seated=access.seated_expression(user))
    game = rows.filter(pk=game_id).first()
    if game is None:
        raise access.not_found()
    access.check(game, user, seated=bool(game.caller_seated), invite=invite)
    return game


def _rows(with_state: bool):
    rows = Game.objects.select_related("snapshot")
    if not with_state:
        rows = rows.defer("snapshot__state")
    return rows


def game_state(game: Game) -> GameState:
    """The rules state as stored (always read from the database)."""
    return snapshots.load(game)


def seat_of(game: Game, user: Any) -> Seat | None:
    """The seat ``user`` holds in ``game`` (also one they left), or None."""
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(game=game, user=user).first()
