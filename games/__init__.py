"""The game server: the part of Warboard that players talk to.

It owns accounts, the lobby, games and their seats, the append-only action log and the services
that apply actions inside one transaction, the REST API, the Channels consumers, the Celery tasks
(AI turns, deadlines, notifications, broadcasts), correspondence rooms, tournaments and ratings,
and the server's own plumbing: the ``/healthz`` probe and the ``/ws/ping/`` websocket. Rules live
in ``combat`` and ``risk.rules``; this app loads, calls and saves.
"""
