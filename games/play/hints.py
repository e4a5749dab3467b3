"""A hint for a player's pending decision: the hard AI's suggestion with its reasons.

Computed from the caller's own view only (``risk.rules.bots.bot_view``: the state with every
card they may not see blanked), so a hint tells nothing the player could not work out. Refused
in games that turn hints off (``Game.hints``), in rated games (only people sit at one, and
their rating should measure their play, not the AI's: ``hints_rated``), to anyone without a
seat, and when nothing is asked of the caller. Its randomness is seeded by the game, version
and player, so asking again gives the same hint.
"""

from __future__ import annotations

import random
from typing import Any

from games.models import Game, Seat
from games.play import snapshots
from games.play.reads.fetch import seat_of
from games.web.exceptions import ConflictError, ForbiddenError
from risk.ai.hints import hint
from risk.rules.bots import bot_view
from risk.rules.engine import legal_actions, pending_decisions


def game_hint(game: Game, user: Any) -> dict[str, Any]:
    """``{"version", "player", "action", "reasons"}`` for ``user``'s pending decision."""
    if not game.hints:
        raise ForbiddenError("hints are turned off in this game", code="hints_off")
    if game.rated:
        # A rated game is the players' own play: the AI's advice would be playing for them.
        raise ForbiddenError("a rated game is played without the AI's hints", code="hints_rated")
    seat = seat_of(game, user)
    if seat is None or seat.state == Seat.State.LEFT:
        raise ForbiddenError("you hold no seat in this game", code="not_seated")
    if game.status != Game.Status.RUNNING:
        raise ConflictError("the game is not running", code="not_running")
    state = snapshots.load_if_started(game)
    player = seat.player
    if state is None or player not in {d.player for d in pending_decisions(state)}:
        raise ConflictError("nothing is asked of you now", code="not_your_decision")
    view = bot_view(state, player)
    version = game.version
    advice = hint(view, legal_actions(view.state, player),
                  random.Random(f"hint:{game.pk}:{version}:{player}"))  # fmt: skip
    return {"version": version, "player": player, **advice.to_dict()}
