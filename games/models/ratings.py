"""Ratings' rows: a player's current rating per kind and each rated result's change."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from games.models.play import Game
from games.models.rooms import Room


class Rating(models.Model):
    """A player's current rating of one kind (games.ratings.rate keeps it).

    Glicko-2 kinds: ``rating``/``deviation`` on the Glicko scale (1500/350) and ``volatility``.
    OpenSkill (``fast_risk_multi``): ``rating`` is mu, ``deviation`` sigma, volatility unused.
    """

    class Kind(models.TextChoices):
        FAST_RISK_2P = "fast_risk_2p"
        FAST_RISK_MULTI = "fast_risk_multi"
        AXIS_ALLIES = "axis_allies"
        WIF = "wif"
        FRANCE_1944 = "france_1944"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    kind = models.CharField(max_length=20, choices=Kind.choices)
    rating = models.FloatField(help_text="Glicko rating, or OpenSkill mu.")
    deviation = models.FloatField(help_text="Glicko RD, or OpenSkill sigma.")
    volatility = models.FloatField(default=0.0, help_text="Glicko-2 only.")
    games = models.PositiveIntegerField(default=0)
    last_played = models.DateTimeField(help_text="When the last rated game of this kind ended.")

    class Meta:
        ordering = ("kind", "-rating")
        constraints = [
            models.UniqueConstraint(fields=("user", "kind"), name="games_rating_user_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.rating:.0f}"


class RatingChange(models.Model):
    """One rated result's effect on one player: the history behind the profile's chart."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    kind = models.CharField(max_length=20, choices=Rating.Kind.choices)
    game = models.ForeignKey(
        Game, on_delete=models.CASCADE, null=True, blank=True, related_name="rating_changes"
    )
    room = models.ForeignKey(
        Room, on_delete=models.CASCADE, null=True, blank=True, related_name="rating_changes"
    )
    rating_before = models.FloatField()
    deviation_before = models.FloatField(help_text="After the growth over inactivity.")
    rating_after = models.FloatField()
    deviation_after = models.FloatField()
    volatility_after = models.FloatField(default=0.0)
    at = models.DateTimeField(help_text="When the game or room ended.")

    class Meta:
        ordering = ("at", "pk")
        constraints = [
            models.CheckConstraint(
                condition=Q(game__isnull=False, room__isnull=True)
                | Q(game__isnull=True, room__isnull=False),
                name="games_ratingchange_game_xor_room",
            ),
            models.UniqueConstraint(fields=("user", "game"), name="games_ratingchange_game"),
            models.UniqueConstraint(fields=("user", "room"), name="games_ratingchange_room"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.rating_before:.0f}->{self.rating_after:.0f}"
