"""Deadlines of timed games: the 80% reminder, expiry, the periodic sweep.

``games.play.clock`` opens a ``Deadline`` when a timed game starts waiting for a person, and
``effects`` queues two tasks for it after the commit (reminder at ``remind_at``, expiry at
``due_at``). This module is what
those tasks do, and what the periodic sweep (Celery beat, or the embedded sweeper thread) does
for any deadline whose task was lost: a worker restart, a broker outage, an embedded server
restarted (its timers live in memory).

**Claims.** Both triggers act only through a claim: one UPDATE whose WHERE clause restates every
reason to act (open, due, game running, not yet reminded) and that must change exactly one row
(the healthchecks ``sendalerts`` pattern). Whoever changes the row acts; anyone else, be it the
sweep racing the task, a task retried by the broker or one that ran early because the deadline
was extended or the game paused, changes nothing and returns False. The database decides; no
lock is held across the bot's moves.

**Expiry** is "claim, mark the seat, kick the driver": one transaction claims the deadline
(``open`` -> ``overdue``), counts the seat's consecutive timeout and marks it away; after the
commit the driver (``driver.advance``) takes every decision the game waits on the player for,
each in its own transaction like any action (logged with source ``timeout``), and the row
becomes ``expired`` when the game stops waiting on them. At ``game.max_timeouts`` the seat counts
as having left: the driver answers for it at once and makes it leave as soon as the rules let
it (mid-battle they refuse; the sweep kicks the driver again each run). A player who acts for
themselves starts the count again (``write._after_own_action``) and ends the overdue stretch.

The operators' services (pause, resume, extend, replace with AI, end) are in
``games.play.operations``; ``reschedule`` and ``on_commit_notice`` here serve both.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from games.models import Deadline, Game, Seat
from games.play import effects, notify, push

logger = logging.getLogger(__name__)


def stalled_seconds() -> int:
    """Seconds a game may wait on the server (a bot's decision) without a step before the sweep
    takes its driver's task for lost (a broker outage, a killed worker) and queues it again
    (setting ``GAME_STALLED_SECONDS``; the fault tests shorten it)."""
    return int(settings.GAME_STALLED_SECONDS)


# --- expiry and reminder ----------------------------------------------------------------------


def deadline_expire(deadline_id: int) -> bool:
    """Claim an overdue deadline, count the seat's timeout and kick the driver, which decides
    for the player; False if the claim is not ours (already claimed, extended, paused...)."""
    now = timezone.now()
    with transaction.atomic():
        claimed = Deadline.objects.filter(
            pk=deadline_id,
            status=Deadline.Status.OPEN,
            due_at__lte=now,  # a task that fires early (extended, resumed after a pause): no-op
            game__status=Game.Status.RUNNING,  # a paused game's clock is stopped
        ).update(status=Deadline.Status.OVERDUE)
        if claimed != 1:
            return False
        game_id, seat_id = Deadline.objects.values_list("game_id", "seat_id").get(pk=deadline_id)
        Seat.objects.filter(pk=seat_id).exclude(state=Seat.State.LEFT).update(
            timeouts=F("timeouts") + 1, state=Seat.State.AWAY
        )
        transaction.on_commit(lambda: effects.kick_driver(game_id))
    logger.info("game %s: deadline %s expired, the driver answers for seat %s",
                game_id, deadline_id, seat_id)  # fmt: skip
    return True


def deadline_remind(deadline_id: int) -> bool:
    """Claim the 80% reminder of a deadline and send it (email, socket notice); at most once."""
    now = timezone.now()
    claimed = Deadline.objects.filter(
        pk=deadline_id,
        status=Deadline.Status.OPEN,
        reminded_at__isnull=True,
        remind_at__lte=now,
        due_at__gt=now,  # a reminder for a deadline already past is noise: expiry comes next
        game__status=Game.Status.RUNNING,
    ).update(reminded_at=now)
    if claimed != 1:
        return False
    deadline = Deadline.objects.select_related("game", "seat__user__profile").get(pk=deadline_id)
    # Claimed before sending: a mail server failing now loses this reminder rather than
    # sending it twice on a retry. The socket notice below still goes out.
    try:
        notify.reminder(deadline)
    except Exception:
        logger.exception("reminder mail for deadline %s failed", deadline_id)
    _notice(deadline.game_id, [deadline.seat], reminder_notice(deadline))
    return True


def reminder_notice(deadline: Deadline) -> dict[str, Any]:
    """The socket message of a reminder."""
    return {
        "type": "notice",
        "kind": "reminder",
        "due_at": deadline.due_at.isoformat(),
        "game": deadline.game_id,
    }


def deadlines_sweep(*, limit: int = 200) -> dict[str, int]:
    """The periodic backstop: remind and expire whatever is due and unclaimed, and kick the
    driver of every game with an overdue deadline, a seat at its timeout limit (its run may
    have been lost, or the rules refused the leave last time), or a decision of the server's
    that has waited ``stalled_seconds()`` (its task was lost: nothing else would ever run it).

    Each candidate goes through the same claim as its task, so the sweep and a task never both
    act. ``limit`` bounds one run (oldest first); the next run takes the rest.
    """
    now = timezone.now()
    running = Deadline.objects.filter(status=Deadline.Status.OPEN, game__status=Game.Status.RUNNING)
    to_remind = list(
        running.filter(reminded_at__isnull=True, remind_at__lte=now, due_at__gt=now)
        .order_by("remind_at")
        .values_list("pk", flat=True)[:limit]
    )
    to_expire = list(running.filter(due_at__lte=now).values_list("pk", flat=True)[:limit])
    counts = {"reminded": 0, "expired": 0, "kicked": 0, "failed": 0}
    expired_games = set(Deadline.objects.filter(pk__in=to_expire).values_list("game_id", flat=True))
    for ids, action, key in ((to_remind, deadline_remind, "reminded"),
                             (to_expire, deadline_expire, "expired")):  # fmt: skip
        for deadline_id in ids:
            try:
                counts[key] += bool(action(deadline_id))
            except Exception:  # one broken game must not stop the sweep for the others
                counts["failed"] += 1
                logger.exception("sweep: %s of deadline %s failed", key, deadline_id)
    stalled_before = now - timedelta(seconds=stalled_seconds())
    stuck = Game.objects.filter(status=Game.Status.RUNNING).filter(
        Q(deadlines__status=Deadline.Status.OVERDUE)
        | Q(seats__state=Seat.State.AWAY, seats__timeouts__gte=F("max_timeouts"))
        | Q(snapshot__server_turn=True, snapshot__updated_at__lt=stalled_before)
    )
    for game_id in stuck.order_by("pk").values_list("pk", flat=True).distinct()[:limit]:
        if game_id in expired_games:
            continue  # its expiry has kicked the driver already
        try:
            effects.kick_driver(game_id)
            counts["kicked"] += 1
        except Exception:
            counts["failed"] += 1
            logger.exception("sweep: the driver of game %s could not be queued", game_id)
    return counts


def reschedule(deadline_ids: Sequence[int]) -> None:
    """New tasks at the new times; the old ones fire, fail their claim and do nothing."""
    for deadline in Deadline.objects.filter(pk__in=deadline_ids, status=Deadline.Status.OPEN):
        effects.schedule(deadline)


def on_commit_notice(game: Game, message: dict[str, Any]) -> None:
    seats = [s for s in game.seats.all() if s.user_id is not None]
    transaction.on_commit(lambda: _notice(game.pk, seats, message))


def _notice(game_id: int, seats: Sequence[Seat], message: dict[str, Any]) -> None:
    for seat in seats:
        try:
            push.notice(game_id, seat.position, message)
        except Exception:  # the state change is committed; a lost socket message is not an error
            logger.exception("notice to seat %s of game %s failed", seat.position, game_id)
