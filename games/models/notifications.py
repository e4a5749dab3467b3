"""Notifications' rows: each person's channel per kind of notice, and their push devices."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

#: A channel a notice may take; "" stored means "the default" (``games.notifications.kinds``).
CHANNEL_CHOICES = [("push", "push"), ("email", "email"), ("none", "none")]


def _channel_field(help_text: str) -> models.CharField:
    return models.CharField(max_length=5, blank=True, choices=CHANNEL_CHOICES, help_text=help_text)


class NotificationSettings(models.Model):
    """The channel a person chose for each kind of notice; empty: the default (push while a
    device of theirs is subscribed, else email for what was mailed before push existed)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_settings"
    )
    your_turn = _channel_field("It is their turn in a game.")
    deadline = _channel_field("A deadline of theirs is close.")
    attacked = _channel_field("Someone attacked one of their territories or ships.")
    room_entry = _channel_field("A challenge, ruling, timeout or end in one of their rooms.")
    round_paired = _channel_field("A round of one of their tournaments is paired.")

    def __str__(self) -> str:
        return f"notifications of {self.user}"


class PushSubscription(models.Model):
    """One browser's Web Push subscription (what ``PushManager.subscribe`` returned there).

    The endpoint is the push service's URL for that browser: unique, so a browser that signs in
    as someone else moves to them rather than receiving both people's notices. Deleted when the
    push service answers 404 or 410 (the browser dropped it)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.CharField(max_length=2048, unique=True)
    #: The browser's P-256 public key (base64url) and its 16-byte auth secret (base64url).
    p256dh = models.CharField(max_length=128)
    auth = models.CharField(max_length=64)
    user_agent = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"push device {self.pk} of {self.user}"
