"""What operators do to games (the admin's actions): pause, resume, extend a deadline, hand a
seat to the AI, end a game.

Each runs in one transaction with the game row locked, like every action, so it never
interleaves with one; refusals are 409s naming why. Split from ``deadlines``: the
deadline machinery (expiry, reminders, the sweep) runs on its own; these are requests.
"""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.common.queue import enqueue
from games.hooks import GameFinished, on_game_finished
from games.models import BOT_PREFIX, Deadline, Game, Seat
from games.play import clock, driver, effects
from games.play.deadlines import on_commit_notice, reschedule
from games.play.write import game_lock, game_seats, locked_state
from games.web.exceptions import ApplicationError, ConflictError


def game_pause(game: Game) -> Game:
    """Stop the game: no actions, no bot moves, no expiry (the clocks stop)."""
    with transaction.atomic():
        game = game_lock(game.pk)
        if game.status != Game.Status.RUNNING:
            raise ConflictError(f"the game is {game.status}, not running", code="not_running")
        game.status = Game.Status.PAUSED
        game.paused_at = timezone.now()
        game.save(update_fields=["status", "paused_at"])
        on_commit_notice(game, {"type": "notice", "kind": "paused", "game": game.pk})
    return game


def game_resume(game: Game) -> Game:
    """Restart a paused game; every open deadline moves on by the time the game stood still."""
    with transaction.atomic():
        game = game_lock(game.pk)
        if game.status != Game.Status.PAUSED:
            raise ConflictError(f"the game is {game.status}, not paused", code="not_paused")
        now = timezone.now()
        paused_for = now - game.paused_at if game.paused_at is not None else timedelta(0)
        open_rows = list(Deadline.objects.filter(game=game, status=Deadline.Status.OPEN))
        Deadline.objects.filter(pk__in=[d.pk for d in open_rows]).update(
            due_at=F("due_at") + paused_for, remind_at=F("remind_at") + paused_for
        )
        game.status = Game.Status.RUNNING
        game.paused_at = None
        game.save(update_fields=["status", "paused_at"])
        pk = game.pk
        transaction.on_commit(lambda: reschedule([d.pk for d in open_rows]))
        transaction.on_commit(lambda: effects.kick_driver(pk))  # a bot may have been waiting
        on_commit_notice(game, {"type": "notice", "kind": "resumed", "game": game.pk})
    return game


def deadline_extend(deadline: Deadline, by: timedelta) -> Deadline:
    """Give the player ``by`` more time. The reminder moves with the deadline and, if it has
    already gone out, is sent again before the new due time (an extension of a day deserves
    a fresh warning)."""
    if by <= timedelta(0):
        raise ApplicationError("an extension is a positive time", code="invalid", field="by")
    with transaction.atomic():
        game = game_lock(deadline.game_id)
        deadline = Deadline.objects.select_for_update().get(pk=deadline.pk)
        if deadline.status != Deadline.Status.OPEN:
            raise ConflictError(
                f"the deadline is {deadline.status}; only an open one can be extended",
                code="deadline_closed",
            )
        if game.status not in (Game.Status.RUNNING, Game.Status.PAUSED):
            raise ConflictError(f"the game is {game.status}", code="not_running")
        deadline.due_at += by
        deadline.remind_at += by
        if deadline.reminded_at is not None and deadline.remind_at > timezone.now():
            deadline.reminded_at = None
        deadline.save(update_fields=["due_at", "remind_at", "reminded_at"])
        transaction.on_commit(lambda: reschedule([deadline.pk]))
    return deadline


def seat_replace_with_bot(game: Game, seat: Seat) -> Seat:
    """The seat is played by the AI from now on.

    In the lobby the seat simply becomes a bot seat. In a running game the rules have no "bot
    takes over a player's army"; what they have is leaving: the army becomes an allied army and
    the allied armies' AI plays it (``driver.seat_leave``). Refused (409) while the rules refuse
    the leave (the seat is in a battle or poker hand): try again in a moment.
    """
    with transaction.atomic():
        game = game_lock(game.pk)
        seat = Seat.objects.select_for_update().get(pk=seat.pk, game=game)
        if seat.is_bot or seat.state == Seat.State.LEFT:
            raise ConflictError("the seat is already played by the AI", code="already_ai")
        if game.status == Game.Status.OPEN:
            seat.user = None
            seat.player = f"{BOT_PREFIX}{seat.position + 1}"
            seat.client_seed = ""
            seat.save(update_fields=["user", "player", "client_seed"])
            return seat
        if game.status != Game.Status.RUNNING:
            raise ConflictError(
                f"the game is {game.status}; resume it first" if game.status == "paused"
                else f"the game is {game.status}",
                code="not_running",
            )  # fmt: skip
        clock.close_deadlines(game, Deadline.Status.CANCELLED, timezone.now(), seats=[seat.pk])
        seats = game_seats(game)
        seat = next(s for s in seats if s.pk == seat.pk)
        committed = driver.seat_leave(game, locked_state(game), seat, seats)
        if committed is None:
            raise ConflictError(
                f"the rules do not let {seat.player} leave right now (a battle or poker hand "
                "is under way); try again shortly",
                code="busy",
            )
        effects.after_commit(committed)
    return seat


def game_end(game: Game, reason: str) -> Game:
    """End the game now, by an administrator: no winner, the reason in the result."""
    with transaction.atomic():
        game = game_lock(game.pk)
        if game.status == Game.Status.FINISHED:
            raise ConflictError("the game is already over", code="finished")
        now = timezone.now()
        game.status = Game.Status.FINISHED
        game.finished_at = now
        game.paused_at = None
        game.result = {"ended_by": "admin", "reason": reason}
        game.save(update_fields=["status", "finished_at", "paused_at", "result"])
        clock.close_deadlines(game, Deadline.Status.CANCELLED, now)
        pk = game.pk
        transaction.on_commit(lambda: enqueue("games.notify_game_over", pk))
        # Not rated: an administrator's end has no ranking (the result names the reason only).
        finished = GameFinished(pk, rated=False)
        transaction.on_commit(lambda: on_game_finished.send(finished))
        on_commit_notice(
            game, {"type": "notice", "kind": "game_over", "game": game.pk, "reason": reason}
        )
    return game
