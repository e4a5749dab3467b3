"""Nothing to register: a game's board is shown read-only by ``games.admin.GameSnapshotAdmin``."""
