"""The game server's Celery tasks, composed: Celery's autodiscovery imports ``games.tasks``, and
importing each feature's tasks module registers its tasks under their names ("games.advance",
"games.rate_game", ...). Callers queue tasks by name (``games.common.queue``), never import them.
"""

from games.play import tasks as play_tasks
from games.ratings import tasks as ratings_tasks
from games.rooms import tasks as rooms_tasks
from games.tournaments import tasks as tournaments_tasks

__all__ = ["play_tasks", "ratings_tasks", "rooms_tasks", "tournaments_tasks"]
