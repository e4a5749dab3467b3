"""A started game's rules state, read from and written to its one ``GameSnapshot`` row.

Every write goes through here, inside the caller's transaction with the game row locked
(``write.commit_action``, ``lobby`` at the start): ``create`` when the game starts, ``save`` after
each action. ``load`` upcasts states of older schema versions (``risk.rules.upcast``).
"""

from __future__ import annotations

from django.utils import timezone

from games.models import Game, GameSnapshot
from games.web.exceptions import ConflictError
from risk.rules import GameState, to_dict
from risk.rules.state import SCHEMA_VERSION
from risk.rules.upcast import load_state


def load(game: Game) -> GameState:
    """The game's state as last committed (one SELECT, none when ``game`` was read with its
    snapshot joined in); 409 ``not_started`` before the start."""
    cached = _joined(game)
    if cached is not None:
        return load_state(cached.state)
    row = GameSnapshot.objects.filter(pk=game.pk).values_list("state", flat=True).first()
    if row is None:
        raise ConflictError("the game has not started", code="not_started")
    return load_state(row)


def create(game: Game, state: GameState, *, server_turn: bool = False) -> None:
    """The state row of a game starting now (version 0: no action logged yet)."""
    game.snapshot = GameSnapshot.objects.create(
        game=game, version=0, schema_version=SCHEMA_VERSION, state=to_dict(state),
        server_turn=server_turn,
    )  # fmt: skip


def save(game: Game, state: GameState, version: int, *, server_turn: bool = False) -> None:
    """Replace the state and the version (one UPDATE: the action path's only one);
    ``version`` is the log entry it follows. A snapshot read in with ``game`` is brought up to
    date too, so ``load`` and ``game.version`` never see the old one."""
    data = to_dict(state)
    GameSnapshot.objects.filter(pk=game.pk).update(
        version=version,
        schema_version=SCHEMA_VERSION,
        state=data,
        server_turn=server_turn,
        updated_at=timezone.now(),  # (``auto_now`` applies to ``save()`` only, not to an UPDATE)
    )
    cached = _joined(game)
    if cached is not None:
        cached.state, cached.version, cached.schema_version = data, version, SCHEMA_VERSION


def clear_server_turn(game: Game) -> None:
    """The game waits on no decision of the server's (the state and version are unchanged)."""
    GameSnapshot.objects.filter(pk=game.pk).update(server_turn=False)
    cached = _joined(game)
    if cached is not None:
        cached.server_turn = False


def load_if_started(game: Game) -> GameState | None:
    """The state, or None for a game still in the lobby."""
    row = GameSnapshot.objects.filter(pk=game.pk).values_list("state", flat=True).first()
    return None if row is None else load_state(row)


def _joined(game: Game) -> GameSnapshot | None:
    """The snapshot read in with ``game`` (``select_related("snapshot")``), else None."""
    if not Game.snapshot.is_cached(game):
        return None
    try:
        return game.snapshot
    except GameSnapshot.DoesNotExist:  # joined, and there is none: a lobby game
        return None
