"""The clock after each action: open and close deadlines, and say whose turn has begun.

Called by ``play.commit_action`` inside its transaction, so a deadline opens or closes with the
action that caused it or not at all. Who is "waited for" comes from the engine's
``pending_decisions``: a person is waited for while any decision is theirs; bots and allied
armies' AIs never get a deadline (the server answers for them at once).

Decision (issue 7 section 4, "every pending decision of a timed game has a deadline"): a deadline
covers one stretch of being waited for, not each engine decision. A Fast Risk turn is many
decisions (place, attack, roll, move in, ...); a clock per decision would hand the player a fresh
allowance after every die roll. So a player's deadline opens when the game starts waiting for
them and closes when it stops; "minutes per turn" (live) and "days per turn" (correspondence)
mean exactly that. A reminder goes out at 80% of the allowance.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.db import transaction
from django.utils import timezone

from games.models import BOT_PREFIX, Deadline, Game, Seat
from games.services.queue import enqueue
from risk.rules import GameState, pending_decisions

if TYPE_CHECKING:
    from games.services.play import Committed

REMIND_AT = 0.8  # of the allowance


def waited_for(state: GameState | None) -> dict[str, str]:
    """People (not bots, not allied armies' AIs) the game waits for -> the first decision's kind."""
    if state is None:
        return {}
    people: dict[str, str] = {}
    for decision in pending_decisions(state):
        if not is_bot_actor(decision.player):
            people.setdefault(decision.player, decision.kind)
    return people


def is_bot_actor(actor: str) -> bool:
    """A bot seat (``bot:<n>``) or an allied army's AI (``ai:<seat>``) acts without a person."""
    from risk.rules.state import AI_PREFIX

    return actor.startswith((BOT_PREFIX, AI_PREFIX))


def after_action(committed: Committed) -> None:
    """Deadlines and "your turn" notices for the state ``committed`` left behind."""
    game = committed.game
    now = timezone.now()
    if game.status == Game.Status.FINISHED:
        close_deadlines(game, Deadline.Status.CANCELLED, now)
        transaction.on_commit(lambda: queue_game_over(game.pk))
        return
    before, after = waited_for(committed.before), waited_for(committed.after)
    started = [p for p in after if p not in before]
    seats = {s.player: s for s in committed.seats}
    sync_deadlines(game, after, seats, now)
    newly = your_turn_mail_seats(game.pk, [seats[p] for p in started if p in seats])
    if newly:
        transaction.on_commit(lambda: queue_your_turn(game.pk, newly))


def sync_deadlines(
    game: Game, waiting: dict[str, str], seats: dict[str, Seat], now: datetime
) -> None:
    """One open deadline per person waited for; close those no longer waited for."""
    if not game.timed or game.status != Game.Status.RUNNING:
        return
    assert game.time_per_decision is not None
    open_rows = {d.seat_id: d for d in Deadline.objects.filter(game=game, status="open")}
    waiting_seats = {seats[p].pk: (seats[p], kind) for p, kind in waiting.items() if p in seats}
    finished = [pk for seat_pk, d in open_rows.items() if seat_pk not in waiting_seats
                for pk in (d.pk,)]  # fmt: skip
    if finished:
        Deadline.objects.filter(pk__in=finished, status="open").update(
            status=Deadline.Status.DONE, closed_at=now
        )
    for seat_pk, (seat, kind) in waiting_seats.items():
        if seat_pk not in open_rows and seat.state != Seat.State.LEFT:
            open_deadline(game, seat, kind, now, game.time_per_decision)


def open_deadline(
    game: Game, seat: Seat, kind: str, now: datetime, allowance: timedelta
) -> Deadline:
    deadline = Deadline.objects.create(
        game=game, seat=seat, kind=kind, opened_at=now,
        remind_at=now + allowance * REMIND_AT, due_at=now + allowance,
    )  # fmt: skip
    transaction.on_commit(lambda: schedule(deadline))
    return deadline


def schedule(deadline: Deadline) -> None:
    """One task for the reminder and one for the expiry; the periodic sweep backs both up."""
    enqueue("games.deadline_remind", deadline.pk, eta=deadline.remind_at)
    enqueue("games.deadline_expire", deadline.pk, eta=deadline.due_at)


def close_deadlines(game: Game, status: str, now: datetime, seats: Iterable[int] = ()) -> int:
    rows = Deadline.objects.filter(game=game, status=Deadline.Status.OPEN)
    seats = list(seats)
    if seats:
        rows = rows.filter(seat_id__in=seats)
    return rows.update(status=status, closed_at=now)


def your_turn_mail_seats(game_id: int, seats: Iterable[Seat]) -> list[int]:
    """The seats a "your turn" mail may go to, so no task is queued for nothing (issue 14): a
    person with an address who has not turned the mail off and is not watching the game (a
    socket open on it, ``presence``). The task checks again when it runs. Seats should come
    with ``user__profile`` selected (otherwise this reads each profile)."""
    from games.services import presence

    wanted = []
    for seat in seats:
        user = seat.user if seat.user_id is not None else None
        if user is None or not user.email or not user.is_active:
            continue
        profile = getattr(user, "profile", None)  # none yet: the defaults, mail on
        if profile is not None and not profile.email_your_turn:
            continue
        if presence.presence_is_connected(game_id, user.pk):
            continue  # watching live; marked as having seen it all when the socket closes
        wanted.append(seat.pk)
    return wanted


def queue_your_turn(game_id: int, seat_ids: list[int]) -> None:
    enqueue("games.notify_your_turn", game_id, seat_ids)


def queue_game_over(game_id: int) -> None:
    enqueue("games.notify_game_over", game_id)
