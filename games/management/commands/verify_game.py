"""``manage.py verify_game <id>`` or ``manage.py verify_game --file replay.json``.

Re-derives every roll of a finished game from its revealed seed and replays the game from
scratch to the stored final state (``games.play.verify``). Prints a short report and exits 0,
or prints the first mismatch (with its log sequence) and exits 1. ``--file`` checks a body
downloaded from ``GET /api/games/{id}/replay`` without the database: the players, options,
seeds and log come from the file; there are no board rows, so the final state is not compared
(the result and every entry's events are). ``--commitment`` checks the seed against the
commitment you noted when the game was created, rather than the one in the file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.models import Game
from games.play.verify import (
    ReplayFormatError,
    VerifyReport,
    game_verify,
    replay_data_from_json,
    verify_replay,
)
from games.web.exceptions import ApplicationError


class Command(BaseCommand):
    help = "Re-derive every roll of a finished game and replay it to its final state."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("game_id", nargs="?", type=int, help="The game's id.")
        parser.add_argument(
            "--file", type=Path, help="A saved GET /api/games/{id}/replay body to check instead."
        )
        parser.add_argument(
            "--commitment",
            help="The seed commitment published at the game's creation (with --file: checked "
            "instead of the file's own).",
        )

    def handle(
        self, *args: Any, game_id: int | None, file: Path | None, commitment: str | None,
        **options: Any,
    ) -> None:  # fmt: skip
        if (game_id is None) == (file is None):
            raise CommandError("give a game id or --file replay.json (one of them)")
        report = (
            _from_file(file, commitment) if file is not None else _from_rows(game_id, commitment)
        )
        for line in report.lines()[:-1]:
            self.stdout.write(line)
        if report.mismatch is not None:
            raise CommandError(report.lines()[-1])
        self.stdout.write(self.style.SUCCESS("OK"))


def _from_rows(game_id: int | None, commitment: str | None) -> VerifyReport:
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise CommandError(f"no game {game_id}")
    if commitment is not None and commitment.lower() != game.seed_commitment:
        raise CommandError(
            f"game {game_id}: the stored commitment is {game.seed_commitment}, not {commitment}"
        )
    try:
        return game_verify(game)
    except ApplicationError as exc:
        raise CommandError(exc.message) from exc


def _from_file(path: Path, commitment: str | None) -> VerifyReport:
    try:
        body = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise CommandError(f"{path}: cannot read a JSON replay ({exc})") from exc
    if not isinstance(body, dict):
        raise CommandError(f"{path}: a replay is a JSON object")
    try:
        data = replay_data_from_json(body)
    except ReplayFormatError as exc:
        raise CommandError(f"{path}: {exc}") from exc
    if commitment is not None:
        data.seed_commitment = commitment
    return verify_replay(data)
