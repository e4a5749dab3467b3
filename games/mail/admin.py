"""Replies received by mail, read-only."""

from __future__ import annotations

from django.contrib import admin

from games.models import (
    InboundMail,
)
from games.web.admin_secrets import ReadOnly, SecretSafeAdmin

# --- moves by email -----------------------------------------------------------------------------


@admin.register(InboundMail)
class InboundMailAdmin(SecretSafeAdmin, ReadOnly, admin.ModelAdmin):
    """The replies received at reply addresses (``games.mail.intake``): what became of each, for
    an operator answering "my mail was not played". Read-only: the record is what keeps a
    mail from being applied twice."""

    list_display = (
        "received_at", "sender", "game", "seat", "room", "outcome", "applied", "reason",
    )  # fmt: skip
    list_filter = ("outcome",)
    search_fields = ("sender", "message_id", "=game__id", "=room__id")
    list_select_related = ("game", "seat", "room")
    date_hierarchy = "received_at"
    fields = (
        "message_id", "sender", "game", "seat", "room", "outcome", "applied", "reason",
        "received_at",
    )  # fmt: skip
