"""No tables: a game's rules state is one JSON row, ``games.models.GameSnapshot``, and the map
is the validated data file ``risk/data/classic-risk-map.json`` (``risk.rules.board_map``).

The board and map tables this module held until a game's state became one JSON row are
dropped by migration 0004; their rows moved into the snapshots in ``games`` migration 0002.
"""
