"""Operators look battles up when a player disputes one; nothing here may alter the proof.

The rows are read-only: closing a battle (which reveals its seed) is for whoever asked for it,
through the API. The seed is shown only once the battle is closed (``revealed_seed``), and, as
a ``SecretSafeAdmin``, the changelist accepts only its declared filter as a URL lookup and never
one on the seed, so a crafted ``?seed__startswith=`` cannot test guesses against it (a filter
that answered a right guess differently from a wrong one would leak the seed a character at a
time).
"""

from __future__ import annotations

from django.contrib import admin

from combat.models import AABattle
from games.web.admin_secrets import ReadOnly, SecretSafeAdmin

SECRET = "secret until the battle is closed"


@admin.register(AABattle)
class AABattleAdmin(SecretSafeAdmin, ReadOnly, admin.ModelAdmin):
    list_display = ("id", "created_at", "requester", "closed_at")
    list_filter = ("closed_at",)
    search_fields = ("id", "commitment")
    fields = (
        "id",
        "created_at",
        "requester",
        "closed_at",
        "revealed_seed",
        "commitment",
        "context",
        "client_seed",
        "close_token_hash",
        "request",
        "report",
    )
    readonly_fields = fields

    @admin.display(description="seed")
    def revealed_seed(self, obj: AABattle) -> str:
        return obj.seed if obj.is_closed else SECRET
