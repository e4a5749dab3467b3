"""The server's side of maps: rows to documents and back, publishing, and the engine's source.

``documents``: a map version's rows as the JSON documents of ``risk/data`` (the import and export
format), and a document as rows; ``store``: drafts, publishing, trial copies, uploads, the list the
lobby offers, and the map source ``RiskConfig.ready`` registers with the pure
``risk.rules.board_map`` (so the engine reads a published version's rows once per process and
never on the action path).
"""
