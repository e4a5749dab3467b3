"""Kept for migration 0012, which names ``games.tournament_models.default_place_points`` as a
field default; the tournament models live in ``games.models.tournaments``."""

from games.models.tournaments import default_place_points

__all__ = ["default_place_points"]
