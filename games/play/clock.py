"""The clock after each action: open and close deadlines, and say whose turn has begun.

Called by ``write.commit_action`` inside its transaction, so a deadline opens or closes with the
action that caused it or not at all. It returns what it did (``ClockChange``); the tasks of the
deadlines it opened and the "your turn" mail are queued by ``effects`` after the commit.
Who is "waited for" comes from the engine's ``pending_decisions``: a person is waited for while
any decision is theirs; bots and allied armies' AIs never get a deadline (the server answers for
them at once).

Decision ("every pending decision of a timed game has a deadline"): a deadline
covers one stretch of being waited for, not each engine decision. A Fast Risk turn is many
decisions (place, attack, roll, move in, ...); a clock per decision would hand the player a fresh
allowance after every die roll. So a player's deadline opens when the game starts waiting for
them and closes when it stops; "minutes per turn" (live) and "days per turn" (correspondence)
mean exactly that. A reminder goes out at 80% of the allowance.

An expired deadline stays ``overdue`` while the game still waits on the player: the driver's bot
answers every decision of that stretch for them (``answered_by_server``), and no new deadline
opens until the stretch ends (the row then becomes ``expired``) or the player acts for
themselves (``back``: the row expires and, if the game still waits on them, a fresh one opens).
A seat at its timeout limit, away and not yet gone, is answered at once: it counts as having
left until the rules let it leave.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.db.models import F
from django.utils import timezone

from games.models import BOT_PREFIX, Deadline, Game, Seat
from risk.rules import GameState, pending_decisions
from risk.rules.forced import forced_action
from risk.rules.state import AI_PREFIX

#: The reminder goes out this long before the deadline at the latest...
REMIND_BEFORE = timedelta(hours=1)
#: ...or at this share of the allowance, if that is later (a 5-minute move: at 4 minutes).
REMIND_AT = 0.8


@dataclass
class ClockChange:
    """What the clock did in an action's transaction, for ``effects`` after the commit."""

    #: Deadlines opened: their reminder and expiry tasks are queued once committed.
    opened: list[Deadline] = field(default_factory=list)
    #: Seats of the people the game has just started waiting for ("your turn").
    started: list[Seat] = field(default_factory=list)
    #: Players whose deadline is overdue: the bot answers for them.
    overdue: set[str] = field(default_factory=set)


def waited_for(state: GameState | None) -> dict[str, str]:
    """People (not bots, not allied armies' AIs) the game waits for -> the first decision's kind.

    A person whose step is forced (``risk.rules.forced``) is not waited for: the server takes
    the step at once, so it opens no deadline and sends no "your turn"."""
    if state is None:
        return {}
    people: dict[str, str] = {}
    for decision in pending_decisions(state):
        if not is_bot_actor(decision.player):
            people.setdefault(decision.player, decision.kind)
    return {p: kind for p, kind in people.items() if forced_action(state, p) is None}


def is_bot_actor(actor: str) -> bool:
    """A bot seat (``bot:<n>``) or an allied army's AI (``ai:<seat>``) acts without a person."""
    return actor.startswith((BOT_PREFIX, AI_PREFIX))


def at_limit(game: Game, seat: Seat) -> bool:
    """A seat that timed out ``max_timeouts`` times in a row and has not come back: it counts
    as having left, and leaves as soon as the rules let it (``driver``)."""
    return seat.state == Seat.State.AWAY and seat.timeouts >= game.max_timeouts


def answered_by_server(
    game: Game, state: GameState, seats: Iterable[Seat], overdue: Iterable[str] = ()
) -> list[str]:
    """The players whose pending decisions the server takes now, in the engine's order: bots,
    allied armies' AIs, players with an overdue deadline, seats at their timeout limit, and
    people whose step is forced (``risk.rules.forced``: one legal action with nothing to
    choose, taken by the driver in the same after-commit path as a bot's)."""
    stand_ins = set(overdue) | {s.player for s in seats if at_limit(game, s)}
    return [
        d.player
        for d in pending_decisions(state)
        if is_bot_actor(d.player) or d.player in stand_ins or forced_action(state, d.player)
    ]


def after_action(
    game: Game, before: GameState, after: GameState, seats: list[Seat], *, back: str | None = None
) -> ClockChange:
    """Deadlines and "your turn" for the state an action left behind. ``back``: the player who
    acted for themselves."""
    if game.status == Game.Status.FINISHED:
        close_deadlines(game, Deadline.Status.CANCELLED, timezone.now())
        return ClockChange()
    now = timezone.now()
    previously, waiting = waited_for(before), waited_for(after)
    by_player = {s.player: s for s in seats}
    change = sync_deadlines(game, waiting, by_player, now, back=back)
    change.started = [by_player[p] for p in waiting if p not in previously and p in by_player]
    count_turns(change.started)
    return change


def count_turns(started: list[Seat]) -> None:
    """One more turn for each seat the game has just started waiting for (``Seat.turns``).

    A "your turn" mail's reply address carries this count, so a reply is known to answer the
    turn that is still going on and not one that has passed (``games.mail.core.address``). One
    UPDATE, only when someone's turn begins (most actions begin none)."""
    if not started:
        return
    Seat.objects.filter(pk__in=[s.pk for s in started]).update(turns=F("turns") + 1)
    for seat in started:
        seat.turns += 1


def sync_deadlines(
    game: Game, waiting: dict[str, str], seats: dict[str, Seat], now: datetime,
    *, back: str | None = None,
) -> ClockChange:  # fmt: skip
    """One current deadline per person waited for; close those no longer waited for. Untimed
    games have none (and cost no query)."""
    change = ClockChange()
    if not game.timed or game.status != Game.Status.RUNNING:
        return change
    assert game.time_per_decision is not None
    rows = Deadline.objects.filter(game=game, status__in=Deadline.CURRENT)
    current = {d.seat_id: d for d in rows}
    waiting_seats = {seats[p].pk: (seats[p], kind) for p, kind in waiting.items() if p in seats}
    returned = seats[back].pk if back is not None and back in seats else None
    done, expired = [], []
    for seat_pk, row in current.items():
        if row.status == Deadline.Status.OPEN and seat_pk not in waiting_seats:
            done.append(row.pk)
        elif row.status == Deadline.Status.OVERDUE and (
            seat_pk not in waiting_seats or seat_pk == returned
        ):
            expired.append(row.pk)
    for rows, status in ((done, Deadline.Status.DONE), (expired, Deadline.Status.EXPIRED)):
        if rows:
            Deadline.objects.filter(pk__in=rows).update(status=status, closed_at=now)
    closed = set(done) | set(expired)
    for seat_pk, (seat, kind) in waiting_seats.items():
        row = current.get(seat_pk)
        if row is not None and row.pk not in closed:
            if row.status == Deadline.Status.OVERDUE:
                change.overdue.add(seat.player)
            continue
        if seat.state != Seat.State.LEFT:
            change.opened.append(open_deadline(game, seat, kind, now, game.time_per_decision))
    return change


def open_deadline(
    game: Game, seat: Seat, kind: str, now: datetime, allowance: timedelta
) -> Deadline:
    """A deadline row; its tasks are queued after the commit (``effects``)."""
    return Deadline.objects.create(
        game=game, seat=seat, kind=kind, opened_at=now,
        remind_at=now + remind_after(allowance), due_at=now + allowance,
    )  # fmt: skip


def remind_after(allowance: timedelta) -> timedelta:
    """When a deadline's reminder goes out, after it opens: an hour before it falls due, or at
    80% of the allowance when that is later (a fast game's hour would be the whole move)."""
    return max(allowance * REMIND_AT, allowance - REMIND_BEFORE)


def close_deadlines(game: Game, status: str, now: datetime, seats: Iterable[int] = ()) -> int:
    """Close the game's current deadlines (of ``seats`` only, if given)."""
    rows = Deadline.objects.filter(game=game, status__in=Deadline.CURRENT)
    seats = list(seats)
    if seats:
        rows = rows.filter(seat_id__in=seats)
    return rows.update(status=status, closed_at=now)


def overdue_players(game: Game) -> set[str]:
    """Players whose deadline is overdue in ``game`` (the bot answers for them); no query for
    an untimed game."""
    if not game.timed:
        return set()
    return set(
        Deadline.objects.filter(game=game, status=Deadline.Status.OVERDUE).values_list(
            "seat__player", flat=True
        )
    )
