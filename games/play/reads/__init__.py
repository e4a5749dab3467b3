"""Reading games without writing (no lock, no transaction of their own): the bottom of live
play, used by the transports, the notifications and the write path alike.

- ``fetch``: one game's row (with its state, as the caller may see it) and the caller's seat;
- ``shown``: what a caller may read of a game: the detail with their own view, the log, the
  replay (every read through the engine's per-viewer filters);
- ``lists``: the lobby's filtered lists (mine, waiting on me, joinable).
"""
