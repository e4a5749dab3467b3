"""The notice of a paired round: each player's table, opponents and where to play.

One notice per player (a bot stand-in's player is told too: it is their result), by the
channel each chose (``games.notifications``): the mail, by default to a player with an address
who has not turned off "your turn" mail, or a push. Sent after the pairing's commit by a task;
a refused address does not stop the others.
"""

from __future__ import annotations

from functools import partial

from django.conf import settings
from django.core.mail import EmailMessage

from games.models import TableSeat, Tournament
from games.notifications.dispatch import Notice, deliver
from games.notifications.kinds import Kind


def tournament_url(tournament: Tournament) -> str:
    return f"{settings.SITE_URL.rstrip('/')}/tournaments/{tournament.pk}"


def round_paired(tournament_id: int, number: int) -> int:
    """Mail round ``number``'s pairings; the count sent."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        return 0
    seats = list(
        TableSeat.objects.filter(table__round__tournament=tournament, table__round__number=number)
        .select_related("entrant__user", "table__game", "table__room")
        .order_by("table__number", "position")
    )
    at_table: dict[int, list[TableSeat]] = {}
    for seat in seats:
        at_table.setdefault(seat.table_id, []).append(seat)
    base = settings.SITE_URL.rstrip("/")
    notices = []
    for seat in seats:
        user = seat.entrant.user
        table = seat.table
        others = [s.entrant.user.get_username() for s in at_table[table.pk] if s.pk != seat.pk]
        if table.game_id:
            path = f"/games/{table.game_id}"
            where = f"Your game: {base}{path}"
        elif table.room_id:
            side = tournament.room_sides[seat.position]
            path = f"/rooms/{table.room_id}"
            where = f"You play {side}. Your room: {base}{path}"
        else:
            path = f"/tournaments/{tournament.pk}"
            where = "Nothing to play: " + (
                "a bye." if not others else "your opponent has left; the game is yours."
            )
        against = ", ".join(others) if others else "no one"
        body = (
            f"Round {number} of {tournament.name} is paired.\n\n"
            f"Table {table.number}: you against {against}.\n{where}\n\n"
            f"Pairings and standings: {tournament_url(tournament)}\n"
        )
        subject = f"[{tournament.name}] Round {number}: table {table.number}"
        notices.append(
            Notice(
                user=user,
                kind=Kind.ROUND_PAIRED,
                title=f"{tournament.name}: round {number} is paired",
                text=f"Table {table.number}: you against {against}.",
                url=path,
                tag=f"tournament-{tournament.pk}",
                mail=partial(
                    EmailMessage, subject, body, settings.DEFAULT_FROM_EMAIL, [user.email]
                ),
            )
        )
    return sum(done.ok for done in deliver(notices))
