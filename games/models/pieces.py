"""Every started game's pieces as rows: territories held, ships afloat, and where each card is.

The rules state stays one JSON row (``GameSnapshot``), which is what an action reads and
writes; these tables repeat its pieces so that SQL can answer what the JSON cannot ("which games
have a ship in the Pacific", "how many factories does bob hold", one game's pieces as rows in the
admin). They are written in the same transaction as the state row and the log entry, from what
the action touched (``games.play.pieces``: one statement an action on PostgreSQL), so they never
disagree with them; ``risk.rules.pieces`` defines each row.

Keys are the map's and the rules state's strings (territory names, station keys, seat ids), not
foreign keys to map rows: a game's pieces are the pieces of its rules state, whatever map it is
played on. ``owner`` (and a card's ``holder``) is the army, the seat id in the rules state (a
player's name, or ``ally-<n>``); ``seat`` links the row to the ``Seat`` of the person playing
that army now (none for an allied army that nobody plays), rewritten when the army changes hands.

Hidden information: a card in a hand, a stash or a poker hand belongs to its holder's eyes, and
the order of every draw pile is secret; ``Card.card`` is a secret field for the admin
(``games.web.admin_secrets``). Only ``games.play.pieces`` reads card rows for anyone, and only
their own (``own_cards``) or a finished game's.
"""

from __future__ import annotations

from django.db import models

from games.models.play import Game, Seat


class TerritoryHolding(models.Model):
    """A territory of a game's board: who holds it and with what."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="holdings")
    territory = models.CharField(max_length=100, help_text="The territory's name on the map.")
    owner = models.CharField(
        max_length=150, help_text="The army holding it: its seat id in the rules state."
    )
    seat = models.ForeignKey(
        Seat,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="holdings",
        help_text="The seat of the person playing that army; none for an allied army.",
    )
    armies = models.PositiveIntegerField()
    factory = models.BooleanField(default=False)
    captives = models.JSONField(
        default=dict, blank=True, help_text="Captured armies held here: {original owner: armies}."
    )

    class Meta:
        ordering = ("game", "territory")
        constraints = [
            models.UniqueConstraint(fields=("game", "territory"), name="games_holding_territory")
        ]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.territory}: {self.owner} {self.armies}"


class Ship(models.Model):
    """A ship afloat in a game: a sunk ship's row is deleted in the action that sinks it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="ships")
    ship = models.CharField(max_length=20, help_text="The ship's id in the rules state (S<n>).")
    owner = models.CharField(max_length=150, help_text="The army it belongs to (seat id).")
    seat = models.ForeignKey(
        Seat,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="ships",
        help_text="The seat of the person playing that army; none for an allied army.",
    )
    station = models.CharField(max_length=100, help_text="The map's station key (ocean:coast).")
    armies = models.PositiveIntegerField(help_text="Its crew.")
    captives = models.JSONField(
        default=dict, blank=True, help_text="Captured armies aboard: {original owner: armies}."
    )

    class Meta:
        ordering = ("game", "ship")
        constraints = [models.UniqueConstraint(fields=("game", "ship"), name="games_ship_id")]

    def __str__(self) -> str:
        return f"{self.game_id}/{self.ship}: {self.owner} at {self.station}"


class Card(models.Model):
    """One card of a game and where it is: a pile (a deck's draw or discard pile, a seat's hand,
    a poker hand's deck or a player's stash, hand or discards in it) and its position there,
    0 at the bottom. Risk cards are territory names or "wild" (a map has several wild cards,
    so a card is known by its place, not its face); poker cards are "Qh" and the like."""

    class Kind(models.TextChoices):
        RISK = "risk"
        POKER = "poker"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="cards")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    pile = models.CharField(max_length=20, help_text="draw, discard, hand, poker-deck, ...")
    holder = models.CharField(
        max_length=150, blank=True, help_text="The seat id holding the pile; '' for a deck's."
    )
    seat = models.ForeignKey(
        Seat,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="cards",
        help_text="The seat of the person playing the holder's army; none for a deck's pile.",
    )
    position = models.PositiveSmallIntegerField(help_text="0 is the bottom of the pile.")
    card = models.CharField(max_length=100)

    class Meta:
        ordering = ("game", "kind", "pile", "holder", "position")
        constraints = [
            models.UniqueConstraint(
                fields=("game", "kind", "pile", "holder", "position"), name="games_card_place"
            )
        ]

    def __str__(self) -> str:
        where = f"{self.pile} of {self.holder}" if self.holder else self.pile
        return f"{self.game_id}: a {self.kind} card, {where} #{self.position}"
