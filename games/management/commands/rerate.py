"""``manage.py rerate``: recompute every rating from the results (issue 19).

Wipes ``Rating`` and ``RatingChange`` and replays every finished rated game and room in the
order they ended, in one transaction; the numbers equal those the after-game tasks gave.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from games.services import ratings


class Command(BaseCommand):
    help = "Wipe all ratings and replay every finished rated game and room in finish order."

    def handle(self, *args: Any, **options: Any) -> None:
        count = ratings.rerate()
        self.stdout.write(f"rerated {count} result(s)")
