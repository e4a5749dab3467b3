"""Stand-alone Axis & Allies battles resolved with server dice that players can check afterwards.

A correspondence player asks the server to roll a battle so that neither side holds the dice. The
row keeps everything needed to prove the roll was fair once the seed is out (design.md section
2): the request, every roll in the report, the seed, its published commitment and the context the
rolls were derived under. The seed stays secret until whoever asked for the battle closes it;
only the hash of the close token is kept, so a database read does not let anyone close it.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class AABattle(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    requester = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="aa_battles",
    )
    request = models.JSONField(help_text="The battle as resolved, defaults filled in.")
    report = models.JSONField(default=dict, help_text="combat.axis_allies BattleReport.as_dict().")
    seed = models.CharField(max_length=128, help_text="Secret until the battle is closed.")
    commitment = models.CharField(max_length=64, help_text="SHA-256 of the seed (hex).")
    context = models.CharField(max_length=255, help_text="What the rolls are derived under.")
    client_seed = models.CharField(max_length=200, blank=True)
    close_token_hash = models.CharField(max_length=64, help_text="SHA-256 of the close token.")
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
        verbose_name = "A&A battle"

    def __str__(self) -> str:
        return f"A&A battle {self.id}"

    @property
    def is_closed(self) -> bool:
        return self.closed_at is not None

    def rolls(self) -> list[dict[str, int]]:
        """Every roll in the stored report as ``{"counter", "sides", "value"}``, in report order."""
        return [
            {"counter": roll["counter"], "sides": roll["sides"], "value": roll["value"]}
            for round_ in self.report.get("rounds", ())
            for fire in round_.get("fire", ())
            for roll in fire.get("rolls", ())
        ]
