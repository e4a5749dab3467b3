"""Ratings and their history, read-only (the rating tasks write them)."""

from __future__ import annotations

from django.contrib import admin

from games.models import (
    Rating,
    RatingChange,
)
from games.web.admin_secrets import ReadOnly, SecretSafeAdmin

# --- ratings ------------------------------------------------------------------------------------


@admin.register(Rating)
class RatingAdmin(SecretSafeAdmin, ReadOnly, admin.ModelAdmin):
    """Current ratings, read-only: rated results write them, and ``manage.py rerate`` rebuilds
    them from the results (editing one here would be undone by the next rerate)."""

    list_display = ("user", "kind", "rating", "deviation", "volatility", "games", "last_played")
    list_filter = ("kind",)
    search_fields = ("user__username",)
    list_select_related = ("user",)
    ordering = ("kind", "-rating")
    fields = ("user", "kind", "rating", "deviation", "volatility", "games", "last_played")
    readonly_fields = fields


@admin.register(RatingChange)
class RatingChangeAdmin(SecretSafeAdmin, ReadOnly, admin.ModelAdmin):
    """Each rated result's effect on each player: the history behind the profile's chart."""

    list_display = ("at", "user", "kind", "rating_before", "rating_after", "game", "room")
    list_filter = ("kind",)
    search_fields = ("user__username", "=game__id", "=room__id")
    list_select_related = ("user", "game", "room")
    date_hierarchy = "at"
    fields = ("user", "kind", "at", "game", "room", "rating_before", "deviation_before",
              "rating_after", "deviation_after", "volatility_after")  # fmt: skip
    readonly_fields = fields
