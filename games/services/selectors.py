"""Reading games without writing: the bottom layer of ``games.services`` (issue 14).

Everything here is a plain read (no lock, no transaction of its own): the transports, the
notifications and the write path all use it, and it imports none of them.
"""

from __future__ import annotations

from typing import Any

from config.exceptions import NotFoundError
from games.models import Game, Seat
from games.services import snapshots
from risk.rules import GameState


def game_get(game_id: int, *, with_state: bool = False) -> Game:
    """The game, or 404 ``not_found`` naming the id. Its state row comes joined in, so that
    ``game.version`` costs no query; the state itself only ``with_state`` (else ``game_state``
    reads it with one SELECT)."""
    rows = Game.objects.select_related("snapshot")
    if not with_state:
        rows = rows.defer("snapshot__state")
    game = rows.filter(pk=game_id).first()
    if game is None:
        raise NotFoundError(f"no game {game_id}", field="id")
    return game


def game_state(game: Game) -> GameState:
    """The rules state as stored (always read from the database)."""
    return snapshots.load(game)


def seat_of(game: Game, user: Any) -> Seat | None:
    """The seat ``user`` holds in ``game`` (also one they left), or None."""
    if user is None or not user.is_authenticated:
        return None
    return Seat.objects.filter(game=game, user=user).first()
