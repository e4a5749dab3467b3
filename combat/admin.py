"""Operators look battles up when a player disputes one; nothing here may alter the proof."""

from __future__ import annotations

from django.contrib import admin

from combat.models import AABattle


@admin.register(AABattle)
class AABattleAdmin(admin.ModelAdmin):
    list_display = ("id", "created_at", "requester", "closed_at")
    list_filter = ("closed_at",)
    search_fields = ("id", "commitment")
    readonly_fields = (
        "id",
        "created_at",
        "seed",
        "commitment",
        "context",
        "client_seed",
        "close_token_hash",
        "request",
        "report",
    )
