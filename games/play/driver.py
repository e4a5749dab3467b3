"""The per-game driver: the server answers every decision the game waits on it for.

``advance(game_id)`` takes, one transaction each, the decisions of whoever the game waits on
that the server answers for (``clock.answered_by_server``): bot seats, allied armies' AIs,
players whose deadline is overdue, and seats at their timeout limit, which first try to leave
(the rules' leave: their army becomes an allied army). Each step locks the game row with its
state, decides, commits through ``write.commit_action`` exactly as a person's action does, and
hands the result to ``effects`` (pushes, deadlines, mail; never a second driver). So a person
acting at the same moment meets a locked row and a new version, never a half-write, and two
drivers of one game (a task and the sweep's) simply alternate steps.

Everything that wants the server to move kicks this one function, queued by name as the
``games.advance`` task: a committed action whose state waits on a bot, a deadline's expiry
("claim, mark the seat, kick the driver": ``deadlines.deadline_expire``), the start, a resume,
an operator handing a seat to the AI, and the periodic sweep.

The bot sees only what its seat may see (``risk.rules.bots``).

A person's forced step (``risk.rules.forced``: exactly one legal action, with no free
parameter) is answered here too, never in the request: the driver commits that one action for
them (source ``server``), with a ``forced`` note first in the entry's events, which the page
shows as a log line. It is the action the person could only have sent themselves, so the replay
is the same whoever sent it.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from games.common.queue import enqueue
from games.models import ActionLog, Game, Seat
from games.play import clock, effects, snapshots
from games.play.reads import fetch
from games.play.write import Committed, commit_action, game_lock, game_seats, locked_state
from games.web.exceptions import ApplicationError
from risk.ai import StrategicBot
from risk.rules import GameState, forced
from risk.rules.actions import Action, Leave
from risk.rules.bots import RandomBot, decide
from risk.rules.forced import forced_action

logger = logging.getLogger(__name__)

#: Steps one ``advance`` takes before handing the rest to a fresh task (fairness between games).
STEPS_PER_RUN = 200
#: Fresh draws of the bot's own randomness before giving up on a decision (the random player
#: works on the redacted state, where a rare pick may name a card it cannot see).
ATTEMPTS = 20


def advance(game_id: int, *, limit: int | None = None) -> int:
    """Answer what the game waits on the server for, until it waits on a person (or ``limit``
    steps, ``STEPS_PER_RUN`` by default: then the rest is queued as a fresh task). The number
    of steps taken.

    A game with an AI delay (``Game.ai_delay_ms``, so people can follow the AI's moves) takes
    one step a run and queues the next run that much later: no worker sleeps meanwhile."""
    delay_ms = Game.objects.filter(pk=game_id).values_list("ai_delay_ms", flat=True).first()
    if delay_ms:
        limit = 1
    limit = STEPS_PER_RUN if limit is None else limit
    taken = 0
    while taken < limit and step(game_id):
        taken += 1
    if taken == limit and wanted(game_id):
        later = timezone.now() + timedelta(milliseconds=delay_ms) if delay_ms else None
        enqueue("games.advance", game_id, eta=later)
    return taken


@dataclass(frozen=True)
class Decision:
    """What the AI chose for ``actor`` at ``version``, thought out before taking the lock;
    ``forced``: not the AI's choice but the one action the rules leave (``risk.rules.forced``)."""

    version: int
    actor: str
    action: Action
    forced: bool = False


def step(game_id: int) -> bool:
    """One decision (or one seat leaving) for the server; False when the game waits on no one
    the server answers for.

    The AI thinks with no lock held (a hard decision may take a good part of a second, and a
    person's action must not wait on it), on the state as it was at some version; the decision
    is committed only if the game is still at that version once locked. If it has moved on (a
    person acted, another run of the driver stepped), the step is thought out again: so a
    decision is applied at most once, and, the log entry's sequence being that version plus
    one, never twice even if two runs of the driver race (a re-delivered task)."""
    decision = _think(game_id)
    with transaction.atomic():
        game = game_lock(game_id)
        if game.status != Game.Status.RUNNING:
            return False
        state = locked_state(game)
        seats = game_seats(game)
        committed = _leave_at_limit(game, state, seats)
        if committed is None:
            if decision is None or decision.version != game.version:
                if decision is None and not _server_answers(game, state, seats):
                    _clear_server_turn(game)
                    return False
                return True  # the game moved while the AI thought: think again
            committed = _commit(game, state, seats, decision)
        effects.after_commit(committed, kick=False)
        return True


def _server_answers(game: Game, state: GameState, seats: list[Seat]) -> list[str]:
    return clock.answered_by_server(game, state, seats, clock.overdue_players(game))


def _think(game_id: int) -> Decision | None:
    """The AI's decision for the first player the server answers for, read without a lock;
    None when the server answers for nobody."""
    game = fetch.game_get(game_id)
    if game.status != Game.Status.RUNNING:
        return None
    state = fetch.game_state(game)
    actors = _server_answers(game, state, list(game.seats.all()))
    if not actors:
        return None
    actor = actors[0]
    only = forced_action(state, actor)
    if only is not None:  # nothing to think about, whoever the seat is
        return Decision(game.version, actor, only, forced=True)
    rng = random.Random(f"{game.pk}:{game.version}:{actor}")
    action = decide(StrategicBot(rng, level=game.ai_level), state, actor)
    return Decision(game.version, actor, action)


def _commit(game: Game, state: GameState, seats: list[Seat], decision: Decision) -> Committed:
    """Commit the AI's decision; should the rules refuse it (a bug of the AI's, logged), the
    random legal player answers instead so the game never stalls on it."""
    actor = decision.actor
    seat = next((s for s in seats if s.player == actor), None)
    source = ActionLog.Source.BOT if clock.is_bot_actor(actor) else ActionLog.Source.TIMEOUT
    notes: list[dict[str, Any]] = []
    if decision.forced and not clock.is_bot_actor(actor):
        # A person's forced step: the server's, with the note the page shows.
        source, notes = ActionLog.Source.SERVER, [forced.note(actor, decision.action)]
    key = f"ai:{decision.version}:{actor}"  # the version it was thought out at
    action = decision.action
    for attempt in range(ATTEMPTS):
        try:
            with transaction.atomic():  # a savepoint: a refused pick leaves no trace
                return commit_action(
                    game, state, actor=actor, action=action, seat=seat, source=source,
                    seats=seats, key=key, notes=notes,
                )  # fmt: skip
        except ApplicationError as exc:
            logger.warning("game %s: %s's pick %r refused (%s); the random player answers",
                           game.pk, actor, action, exc)  # fmt: skip
            rng = random.Random(f"{game.pk}:{game.version}:{actor}:{attempt}")
            action, notes = decide(RandomBot(rng), state, actor), []
    raise RuntimeError(f"game {game.pk}: no legal action found for {actor}")


def _clear_server_turn(game: Game) -> None:
    """The row said the game waits on the server but nothing does (a row written before the
    flag existed, data migration 0005, or an overdue player who acted first): clear it, or the
    sweep would take the game for stalled and queue this run again every minute."""
    snapshot = getattr(game, "snapshot", None)
    if snapshot is not None and snapshot.server_turn:
        snapshots.clear_server_turn(game)


def wanted(game_id: int) -> bool:
    """Whether the server must answer a decision of the game now (read without a lock: only a
    hint to queue a run, which locks and looks again)."""
    game = fetch.game_get(game_id)
    if game.status != Game.Status.RUNNING:
        return False
    seats = list(game.seats.all())
    overdue = clock.overdue_players(game)
    return bool(clock.answered_by_server(game, fetch.game_state(game), seats, overdue))


def _leave_at_limit(game: Game, state: GameState, seats: list[Seat]) -> Committed | None:
    """A seat at its timeout limit leaves as soon as the rules let it; until then the bot
    answers for it (``_decide``)."""
    for seat in seats:
        if clock.at_limit(game, seat):
            committed = seat_leave(game, state, seat, seats)
            if committed is not None:
                return committed
    return None


def seat_leave(
    game: Game, state: GameState, seat: Seat, seats: list[Seat] | None = None
) -> Committed | None:
    """The seat leaves the game (the rules' leave; its army becomes an allied army), inside the
    caller's transaction with the game locked. None, with nothing written, while the rules
    refuse (a battle or poker hand under way): the seat stays as it is."""
    try:
        with transaction.atomic():
            seat.state = Seat.State.LEFT
            seat.save(update_fields=["state"])
            return commit_action(
                game, state, actor=seat.player, action=Leave(seat.player), seat=seat,
                source=ActionLog.Source.SERVER, seats=seats,
            )  # fmt: skip
    except ApplicationError as exc:
        seat.refresh_from_db(fields=["state"])
        logger.info("seat %s cannot leave game %s yet: %s", seat.player, game.pk, exc)
        return None
