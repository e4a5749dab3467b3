"""Live games: the lobby, the action path, pushes, the driver, clocks, deadlines, chat, hints
and replays, with their API (``api``), websockets (``sockets``) and tasks.

The path of one action: ``submit`` (the transport-neutral entry: parse, throttle) -> ``write``
(the transaction: lock, apply, log, save) -> ``effects`` (after the commit, once: ``push`` to
each viewer, deadline tasks, mail, the ``driver``; a finished game is announced on
``games.hooks.on_game_finished``). ``reads`` is what a caller may see or list; ``snapshots``
the one state row; ``verify`` and ``replay`` the finished game's checks and replays; ``hints``
the AI's suggestion; ``operations`` what the admin does. Imports no other feature.
"""
