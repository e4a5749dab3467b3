"""The server answering for those who cannot: bot seats, allied armies, players out of time.

Each bot action is its own transaction through ``play.commit_action``, exactly as a person's is,
so a player acting at the same moment meets a locked row and a new version, never a half-write.
The bot sees only what its seat may see (``risk.rules.bots``).

``bots_play`` runs in a Celery task (``games.run_bots``), queued after any commit that leaves a
bot's decision pending. It takes at most ``limit`` steps and then re-queues itself, so a game of
six bots cannot hold one worker for its whole length.
"""

from __future__ import annotations

import logging
import random

from django.db import transaction

from config.exceptions import ApplicationError
from games.models import ActionLog, Game, Seat
from games.services.clock import is_bot_actor
from games.services.play import commit_action, game_lock, game_state, locked_state
from risk.rules import GameState, pending_decisions
from risk.rules.actions import Leave
from risk.rules.bots import RandomBot, decide

logger = logging.getLogger(__name__)

#: Fresh draws of the bot's own randomness before giving up on a decision (the random player
#: works on the redacted state, where a rare pick may name a card it cannot see).
ATTEMPTS = 20


def bot_step(game_id: int, *, only: str | None = None, source: str = ActionLog.Source.BOT) -> bool:
    """Take one pending decision of a bot (or of ``only``); False when there is none to take."""
    with transaction.atomic():
        game = game_lock(game_id)
        if game.status != Game.Status.RUNNING:
            return False
        state = locked_state(game)
        actors = [d.player for d in pending_decisions(state)]
        actor = next(
            (a for a in actors if (a == only if only is not None else is_bot_actor(a))), None
        )
        if actor is None:
            return False
        seat = Seat.objects.filter(game=game, player=actor).first()
        for attempt in range(ATTEMPTS):
            rng = random.Random(f"{game.pk}:{game.version}:{actor}:{attempt}")
            action = decide(RandomBot(rng), state, actor)
            try:
                with transaction.atomic():  # a savepoint: a refused pick leaves no trace
                    commit_action(
                        game, state, actor=actor, action=action, seat=seat, source=source,
                        kick_bots=False,
                    )  # fmt: skip
                return True
            except ApplicationError as exc:
                game.refresh_from_db(fields=["version", "status"])
                logger.info("bot %s pick %r refused (%s); drawing again", actor, action, exc)
        raise RuntimeError(f"game {game_id}: the bot found no legal action for {actor}")


def bots_play(game_id: int, *, limit: int = 200) -> int:
    """Bot steps until no bot is waited for (or ``limit``); the number taken."""
    taken = 0
    while taken < limit and bot_step(game_id):
        taken += 1
    return taken


def bots_waited_for(game_id: int, state: GameState | None = None) -> bool:
    """Whether a bot's decision is pending (``state``: the one just committed; else read
    without a lock). Only a hint to queue a task: the task locks and looks again."""
    if state is None:
        game = Game.objects.get(pk=game_id)
        if game.status != Game.Status.RUNNING:
            return False
        state = game_state(game)
    return any(is_bot_actor(d.player) for d in pending_decisions(state))


def play_for(game_id: int, player: str, *, limit: int = 200) -> int:
    """The bot decides for ``player`` (out of time) until the game no longer waits for them."""
    taken = 0
    while taken < limit and bot_step(game_id, only=player, source=ActionLog.Source.TIMEOUT):
        taken += 1
    return taken


def seat_retire(game_id: int, seat_id: int) -> bool:
    """The seat leaves the game: its army becomes an allied army (the rules' "leaving").

    False when the rules do not let it leave at this moment (the caller tries again at the
    seat's next timeout); the seat is then left ``away``.
    """
    with transaction.atomic():
        game = game_lock(game_id)
        seat = Seat.objects.select_for_update().get(pk=seat_id, game=game)
        if game.status != Game.Status.RUNNING or seat.state == Seat.State.LEFT:
            return False
        state = game_state(game)
        try:
            with transaction.atomic():
                commit_action(
                    game, state, actor=seat.player, action=Leave(seat.player), seat=seat,
                    source=ActionLog.Source.SERVER,
                )  # fmt: skip
        except ApplicationError as exc:
            logger.info("seat %s cannot leave game %s yet: %s", seat.player, game_id, exc)
            return False
        seat.state = Seat.State.LEFT
        seat.save(update_fields=["state"])
        return True
