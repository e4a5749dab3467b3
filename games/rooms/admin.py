"""Correspondence rooms and their journals, read-only (the services write them)."""

from __future__ import annotations

from django.contrib import admin

from games.common.admin import SECRET, ReadOnlyInline
from games.models import (
    Room,
    RoomEntry,
    RoomSide,
)
from games.web.admin_secrets import ReadOnly, SecretSafeAdmin

# --- correspondence rooms -----------------------------------------------------------------------


class RoomSideInline(ReadOnlyInline):
    model = RoomSide
    fields = ("position", "name", "user", "vacation_days_left", "vacation_ends_at", "agreed_result")
    readonly_fields = fields


@admin.register(Room)
class RoomAdmin(SecretSafeAdmin, ReadOnly, admin.ModelAdmin):
    """A room, read-only: its services write it. The seed shows only once the room has ended."""

    list_display = ("id", "name", "system", "status", "public", "referee", "created_at")
    list_filter = ("status", "system", "public")
    search_fields = ("=id", "name", "referee__username")
    list_select_related = ("referee",)
    fields = (
        "name", "system", "rules", "edition", "status", "creator", "referee", "public",
        "days_per_turn", "remind_hours", "grace_days", "vacation_days", "seed_commitment",
        "revealed_seed", "roll_count", "entry_count", "turn_number", "turn_position",
        "turn_started_at", "result", "created_at", "started_at", "finished_at",
    )  # fmt: skip
    readonly_fields = fields
    inlines = (RoomSideInline,)

    @admin.display(description="seed")
    def revealed_seed(self, obj: Room) -> str:
        return obj.server_seed if obj.status == Room.Status.FINISHED else SECRET


@admin.register(RoomEntry)
class RoomEntryAdmin(SecretSafeAdmin, ReadOnly, admin.ModelAdmin):
    """Journal entries are never edited: no add, change or delete here either; a
    correction is a later referee entry, posted through the room."""

    list_display = ("id", "room", "number", "kind", "side", "created_at")
    list_filter = ("kind",)
    search_fields = ("=room__id", "side", "text")
    list_select_related = ("room",)
    fields = ("room", "number", "created_at", "author", "side", "kind", "text", "data",
              "refers_to")  # fmt: skip
    readonly_fields = fields
