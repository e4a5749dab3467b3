"""``manage.py verify_room <id>``: re-derive every roll of an ended room from its seed.

Checks the seed against the commitment published at the room's creation, the roll numbers
1..N of the room's journal, every roll against the seed, and every battle's result by resolving
its request again with the same dice (``games.rooms.verify``). Prints a short report
and exits 0, or prints the first mismatch (with its journal number) and exits 1. Like
``verify_game``, it refuses a room that is still running: its seed is secret until the end.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Room
from games.rooms.verify import room_verify
from games.web.exceptions import ApplicationError


class Command(BaseCommand):
    help = "Re-derive every roll of an ended room and check every battle result."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("room_id", type=int, help="The room's id.")

    def handle(self, *args: Any, room_id: int, **options: Any) -> None:
        room = Room.objects.filter(pk=room_id).first()
        if room is None:
            raise CommandError(f"no room {room_id}")
        try:
            report = room_verify(room)
        except ApplicationError as exc:
            raise CommandError(exc.message) from exc
        for line in report.lines()[:-1]:
            self.stdout.write(line)
        if report.mismatch is not None:
            raise CommandError(report.lines()[-1])
        self.stdout.write(self.style.SUCCESS("OK"))
