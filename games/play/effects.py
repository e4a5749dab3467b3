"""After a commit, once: pushes, deadline tasks, "your turn" and attack notices, the driver.

The write path (``write``, ``lobby``'s start) returns what it committed; whoever owns the
transaction hands that to ``after_commit``, which runs ``dispatch`` from
``transaction.on_commit``, so nobody is told of, and no task is queued for, an action that
rolled back. Each effect is tried on its own: the action is committed, so a push lost to a
Redis fault must not also lose the deadline's tasks or the bot's move (the periodic sweep
backs the tasks up; a client that misses a push sees a version gap and asks for the state).

Tasks are queued by name (``queue.enqueue``), never imported: the tasks sit above the services.
A game that has just ended is announced on ``games.hooks.on_game_finished``: ratings and
tournaments react there (their tasks), so live play imports neither.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from functools import partial

from django.db import transaction

from games.common.queue import enqueue
from games.hooks import GameFinished, on_game_finished
from games.models import Deadline, Game, PushSubscription, Seat
from games.play import lobby_feed, presence, push
from games.play.write import Committed
from risk.rules import GameState

logger = logging.getLogger(__name__)


def after_commit(committed: Committed, *, kick: bool = True) -> None:
    """Run ``dispatch(committed)`` once the caller's transaction commits. ``kick``: start the
    driver if the server must answer a decision (False from the driver itself, which loops).
    A change the lobby shows (``lobby_changed``) is noted for its feed in the same commit."""
    transaction.on_commit(lambda: dispatch(committed, kick=kick))
    if lobby_changed(committed):
        lobby_feed.changed(committed.game.pk, public=committed.game.public)


#: Actions that free or take an allied army: the lobby's "Take over" offers change.
SEATING_ACTIONS = frozenset({"join", "leave", "concede"})


def lobby_changed(committed: Committed) -> bool:
    """Whether the lobby's lists change with this commit: the start (sequence 0), the end (or
    any status but running), someone joining or leaving, or the turn passing to another seat or
    controller. Not every action: most leave the turn where it was, and the lobby's feed stays
    off their push budget (tests/integration/test_push_commands.py)."""
    game = committed.game
    if not game.public:
        return False
    if committed.log.sequence == 0 or game.status != Game.Status.RUNNING:
        return True
    if committed.log.action.get("type") in SEATING_ACTIONS:
        return True
    return _turn_key(committed.before) != _turn_key(committed.after)


def _turn_key(state: GameState) -> tuple[str, str] | str | None:
    """Who holds the turn (a seat and who plays it), "contest" during an ally contest."""
    if state.turn is not None:
        return (state.turn.seat, state.turn.controller)
    return "contest" if state.contest is not None else None


def dispatch(committed: Committed, *, kick: bool = True) -> None:
    game = committed.game
    _try("push", game.pk, lambda: push.action_committed(committed))
    change = committed.clock_change
    for deadline in change.opened:
        _try("deadline tasks", game.pk, partial(schedule, deadline))
    _try("your-turn notice", game.pk, lambda: queue_your_turn(game.pk, change.started))
    _try("attack notice", game.pk, lambda: queue_attacked(committed))
    if game.status == Game.Status.FINISHED and committed.log.sequence:
        _try("game-over mail", game.pk, lambda: enqueue("games.notify_game_over", game.pk))
        finished = GameFinished(game.pk, rated=game.rated)
        _try("finished-game hook", game.pk, lambda: on_game_finished.send(finished))
    if kick and committed.server_answers and game.status == Game.Status.RUNNING:
        _try("driver", game.pk, lambda: kick_driver(game.pk))


def kick_driver(game_id: int) -> None:
    """Queue ``driver.advance`` for the game (a no-op there if nothing waits on the server)."""
    enqueue("games.advance", game_id)


def schedule(deadline: Deadline) -> None:
    """One task for a deadline's reminder and one for its expiry; the sweep backs both up."""
    enqueue("games.deadline_remind", deadline.pk, eta=deadline.remind_at)
    enqueue("games.deadline_expire", deadline.pk, eta=deadline.due_at)


def queue_your_turn(game_id: int, seats: Iterable[Seat]) -> None:
    wanted = your_turn_seats(game_id, seats)
    if wanted:
        enqueue("games.notify_your_turn", game_id, wanted)


def your_turn_seats(game_id: int, seats: Iterable[Seat]) -> list[int]:
    """The seats a "your turn" notice may go to, so no task is queued for nothing: a person
    who is not watching the game (a socket open on it, ``presence``) and who either gets the
    mail (an address, the mail not turned off) or has a browser subscribed to push. The task
    picks the channel each chose (``games.notifications``). Seats should come with
    ``user__profile`` selected (otherwise this reads each profile); the devices are one query,
    only when someone's turn begins and a person has no mail."""
    wanted, unmailed = [], []
    for seat in seats:
        user = seat.user if seat.user_id is not None else None
        if user is None or not user.is_active:
            continue
        if presence.presence_is_connected(game_id, user.pk):
            continue  # watching live; marked as having seen it all when the socket closes
        profile = getattr(user, "profile", None)  # none yet: the defaults, mail on
        if user.email and (profile is None or profile.email_your_turn):
            wanted.append(seat.pk)
        else:
            unmailed.append(seat)
    if unmailed:
        pushed = set(
            PushSubscription.objects.filter(user_id__in=[s.user_id for s in unmailed]).values_list(
                "user_id", flat=True
            )
        )
        wanted.extend(s.pk for s in unmailed if s.user_id in pushed)
    return wanted


#: The events that attack a player's territory or ship.
ATTACKS = frozenset({"attack", "naval_attack"})


def queue_attacked(committed: Committed) -> None:
    """Queue the "you were attacked" notices of this action's attacks on people (not on
    allied armies or bots); a look at this action's events, nothing more, on every action."""
    attacks = [e for e in committed.events if e.get("type") in ATTACKS]
    if not attacks:
        return
    people = {s.player for s in committed.seats if s.user_id is not None}
    on_people = [
        {k: e.get(k) for k in ("type", "attacker", "defender", "target")}
        for e in attacks
        if e.get("defender") in people and e.get("defender") != e.get("attacker")
    ]
    if on_people:
        enqueue("games.notify_attacked", committed.game.pk, on_people)


def _try(what: str, game_id: int, effect: Callable[[], object]) -> None:
    try:
        effect()
    except Exception:  # committed already: log it, carry on with the other effects
        logger.exception("game %s: %s after the commit failed", game_id, what)
