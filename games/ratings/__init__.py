"""Ratings: Glicko-2 for two sides, OpenSkill for tables.

- ``rate``: a finished game's or room's ratings, once (load, call ``games.competition``, save);
- ``board``: what the pages and the API read (leaderboards, a player's ratings and history);
- ``rerank``: finished games ranked again by the engine's current ranking (``manage.py rerate``);
- ``api``, ``tasks``: the HTTP layer and the Celery tasks.
"""
