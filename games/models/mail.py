"""Moves and posts by mail: each inbound mail, recorded once."""

from __future__ import annotations

from django.db import models

from games.models.play import Game, Seat


class InboundMail(models.Model):
    """A mail received at a reply address, once: its Message-ID is unique, so the same mail
    delivered again (a provider's retry, a replay) is recognised and never applied twice.

    Written before the mail's lines are applied (``reading``, the claim: of two deliveries at
    once only one reads and answers), and completed with the outcome after them. A mail that
    is not read (over a limit, or failing) is recorded as ``parked`` with the reason."""

    class Outcome(models.TextChoices):
        APPLIED = "applied"  # every line applied (or none given)
        PARTLY = "partly"  # some lines applied, then one refused
        REFUSED = "refused"  # nothing applied: the address, the sender, the turn or line 1
        #: Claimed by the delivery reading it (its lines not all applied yet): a second
        #: delivery of the same mail at that moment reads nothing and sends no answer.
        READING = "reading"
        #: Not read: over a size or shape limit (``games.mail.core.limits``), or its processing
        #: failed; ``reason`` says which. Nothing of it was applied after that point.
        PARKED = "parked"

    message_id = models.CharField(max_length=998, help_text="As in the mail's header.")
    #: sha256 of ``message_id``: the unique key (a Message-ID may exceed an index's width).
    key = models.CharField(max_length=64, unique=True)
    sender = models.CharField(max_length=254)
    game = models.ForeignKey(Game, on_delete=models.SET_NULL, null=True, blank=True)
    seat = models.ForeignKey(Seat, on_delete=models.SET_NULL, null=True, blank=True)
    #: For a reply to a room's mail (``room+...`` address): the room it was posted to.
    room = models.ForeignKey("Room", on_delete=models.SET_NULL, null=True, blank=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    applied = models.PositiveSmallIntegerField(default=0, help_text="Lines applied.")
    reason = models.CharField(max_length=500, blank=True, help_text="The refusal, if any.")
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-received_at",)

    def __str__(self) -> str:
        return f"{self.message_id[:60]} from {self.sender}: {self.outcome}"
