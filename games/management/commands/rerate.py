"""``manage.py rerate``: recompute every rating from the results.

Wipes ``Rating`` and ``RatingChange`` and replays every finished rated game and room in the
order they ended, in one transaction; the numbers equal those the after-game tasks gave.

``--rerank`` first ranks every finished game again with the engine's current ranking
(``games.ratings.rerank``: the eliminated by when they went out, RULES.md J12) and records
that order on the board of every game still running, then rates. Migration 0013 does the same
ranking on deploy; after it, ``rerate`` puts the ratings on the corrected order.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from games.ratings import rate, rerank


class Command(BaseCommand):
    help = "Wipe all ratings and replay every finished rated game and room in finish order."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--rerank",
            action="store_true",
            help="first rank every finished game again from its log (RULES.md J12)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["rerank"]:
            changed = rerank.rerank_all()
            for done in changed:
                self.stdout.write(done.line())
            self.stdout.write(f"reranked {len(changed)} game(s)")
        count = rate.rerate()
        self.stdout.write(f"rerated {count} result(s)")
