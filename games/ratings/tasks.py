"""The ratings' Celery tasks: rate a finished game or room once (task names unchanged)."""

from __future__ import annotations

from celery import shared_task

from games.common.retries import DB_RETRY
from games.ratings import rate


@shared_task(name="games.rate_game", **DB_RETRY)
def rate_game(game_id: int) -> int:
    """Update the ratings after a rated game ended (idempotent: rated once only)."""
    return rate.rate_game(game_id)


@shared_task(name="games.rate_room", **DB_RETRY)
def rate_room(room_id: int) -> int:
    """Update the ratings after a rated room ended (idempotent: rated once only)."""
    return rate.rate_room(room_id)
