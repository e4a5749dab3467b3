"""The tournaments' Celery tasks: results recorded, pairings mailed, the periodic backstop
(task names unchanged)."""

from __future__ import annotations

from celery import shared_task

from games.common.retries import DB_RETRY
from games.tournaments import mail, results


@shared_task(name="games.tournament_game_over", **DB_RETRY)
def tournament_game_over(game_id: int) -> bool:
    """A finished game's result goes to its tournament table, if it has one."""
    return results.record_game(game_id)


@shared_task(name="games.tournament_room_over", **DB_RETRY)
def tournament_room_over(room_id: int) -> bool:
    """A finished room's result goes to its tournament table, if it has one."""
    return results.record_room(room_id)


@shared_task(name="games.tournament_round_mail", **DB_RETRY)
def tournament_round_mail(tournament_id: int, number: int) -> int:
    """Tell every player of a newly paired round their pairing."""
    return mail.round_paired(tournament_id, number)


@shared_task(name="games.sweep_tournaments")
def sweep_tournaments() -> int:
    """Results a lost task did not record (Celery beat)."""
    return results.sweep()
