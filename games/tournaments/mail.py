"""Mail when a round is paired: each player's table, opponents and where to play.

One message per player with an address who has not turned off game mail (a bot stand-in's
player is told too: it is their result). Sent after the pairing's commit by a task; a refused
address does not stop the others.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.mail import EmailMessage, get_connection

from games.models import Profile, TableSeat, Tournament

logger = logging.getLogger(__name__)


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
    messages = []
    for seat in seats:
        user = seat.entrant.user
        if not user.email or not user.is_active or not _wants_mail(user):
            continue
        table = seat.table
        others = [s.entrant.user.get_username() for s in at_table[table.pk] if s.pk != seat.pk]
        if table.game_id:
            where = f"Your game: {base}/games/{table.game_id}"
        elif table.room_id:
            side = tournament.room_sides[seat.position]
            where = f"You play {side}. Your room: {base}/rooms/{table.room_id}"
        else:
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
        messages.append(EmailMessage(subject, body, settings.DEFAULT_FROM_EMAIL, [user.email]))
    return _send(messages)


def _wants_mail(user: Any) -> bool:
    profile = Profile.objects.filter(user=user).first()
    return profile is None or bool(profile.email_your_turn)


def _send(messages: list[EmailMessage]) -> int:
    if not messages:
        return 0
    sent = 0
    with get_connection() as connection:
        for message in messages:
            message.connection = connection
            try:
                sent += message.send()
            except Exception:  # SMTP refusals come in many classes; log, and mail the rest
                logger.exception("tournament mail to %s failed", message.to)
    return sent
