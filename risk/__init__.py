"""Nautical-but-Nice Fast Risk.

``risk.rules`` is the pure rules engine (state, actions, engine, map loading and validation,
per-player views) with no Django import. The rest of the app keeps the board in Django models
(maps, territories, oceans, ships, factories, cards, players) and adapts rows to and from the
rules state; the server in ``games`` drives it.
"""
