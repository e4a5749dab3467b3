"""Accounts' rows: the profile every user has (display name, mail and play preferences), and the
names no person may take (the engine's and the server's own actors).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

#: A bot's player id: ``bot:<position>``. Django usernames cannot hold ':', so no clash.
BOT_PREFIX = "bot:"
#: Name prefixes the rules engine and the server give their own seats and actors (allied armies
#: "ally-<n>", their AIs "ai:<seat>", bots "bot:<n>"): no person may be called so.
RESERVED_PREFIXES = ("ally-", "ai:", BOT_PREFIX)


def is_reserved_name(username: str) -> bool:
    return username.lower().startswith(RESERVED_PREFIXES)


class Profile(models.Model):
    """What a player sets about themselves: the name others see and which emails they get."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    display_name = models.CharField(max_length=60, blank=True)
    email_your_turn = models.BooleanField(default=True, help_text='"Your turn" emails.')
    email_reminder = models.BooleanField(default=True, help_text="Deadline reminders.")
    email_game_over = models.BooleanField(default=True, help_text="Game-over results.")

    class RollUntil(models.TextChoices):
        """How far one click of the battle form's Roll button rolls (the player's standing
        choice, so a battle of twenty rolls is one click, not twenty)."""

        ONCE = "once", "one roll a click"
        DECIDED = "decided", "until the battle is decided"
        ARMIES = "armies", "until the attack is down to N armies"

    roll_until = models.CharField(
        max_length=8, choices=RollUntil.choices, default=RollUntil.DECIDED,
        help_text="How far the Roll button rolls on.",
    )  # fmt: skip
    roll_until_armies = models.PositiveSmallIntegerField(
        default=3, help_text='The N of "until N armies left" (1 or more).'
    )

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()
