"""``manage.py piece_stats [--tournament ID | --game ID ...]``: who holds what, from the piece rows.

For staff: per person (a user, or a bot seat), over a tournament's games, some games, or every
running game, the territories, factories and armies they hold now, the ships they sail, and in
how many of the games (``games.play.reads.pieces.holdings_per_player``, which reads the piece
rows, never a state). Armies nobody plays (allied armies) are summed on one line, "(allied)".
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Game, Tournament
from games.play.reads import pieces


class Command(BaseCommand):
    help = "Territories, factories, armies and ships held per player, from the piece rows."

    def add_arguments(self, parser: CommandParser) -> None:
        which = parser.add_mutually_exclusive_group()
        which.add_argument("--tournament", type=int, help="A tournament's games.")
        which.add_argument("--game", type=int, action="append", help="A game (repeatable).")

    def handle(
        self, *args: Any, tournament: int | None, game: list[int] | None, **options: Any
    ) -> None:
        if tournament is not None:
            if not Tournament.objects.filter(pk=tournament).exists():
                raise CommandError(f"no tournament {tournament}")
            games, scope = pieces.tournament_games(tournament), f"tournament {tournament}"
        elif game:
            games = Game.objects.filter(pk__in=game)
            scope = "game " + ", ".join(map(str, game))
        else:
            games, scope = Game.objects.filter(status=Game.Status.RUNNING), "running games"
        rows = pieces.holdings_per_player(games)
        self.stdout.write(f"{scope}: {games.count()} game(s)")
        self.stdout.write(
            f"{'player':<24} {'games':>5} {'territories':>11} {'factories':>9} {'armies':>7} "
            f"{'ships':>5}"
        )
        for row in rows:
            name = row["player"] or "(allied)"
            self.stdout.write(
                f"{name:<24} {row['games']:>5} {row['territories']:>11} {row['factories']:>9} "
                f"{row['armies']:>7} {row['ships']:>5}"
            )
