"""The Fast Risk board in rows: the maps, and each game's live board.

**Maps** (``Map``, ``Continent``, ``Territory``, ``Border``, ``Ocean``, ``Station``,
``SeaLane``) are the validated map files copied into tables by ``risk.maps.sync_map`` (the data
migration and ``manage.py load_map``), so an operator can browse them and a second map is only
data. The map file stays the source of truth: the rows are rewritten from it, never edited by
hand (the admin shows them read-only).

**A game's board** hangs off a ``Board``: one row per seat (``Player``), territory
(``TerritoryState``), ship, factory and card, so a database read answers "who holds Brazil" and an
action rewrites only the rows it touched. The per-turn sub-states (turn, battle, poker contest)
stay JSON on the Board: they are small, short-lived and always read and written whole.
``risk.adapter`` converts between these rows and the pure ``risk.rules.state.GameState``.

Constraints hold what the rules promise (one holding per territory, armies never negative, a card
in a hand has a holder). Card positions and seat order are *not* unique constraints on purpose:
a reshuffle rewrites many positions in one bulk update, and both SQLite and PostgreSQL check a
non-deferrable unique constraint row by row, so swapping two positions would fail half-way.
"""

from __future__ import annotations

from django.db import models
from django.db.models import F, Q

# --- maps ----------------------------------------------------------------------------------------


class Map(models.Model):
    """One map file, by the name games choose it with (``Options.map``, e.g. "classic")."""

    name = models.SlugField(max_length=50, unique=True, help_text="The file's risk/data name.")
    title = models.CharField(max_length=200, blank=True, help_text="The map document's own name.")
    wild_cards = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ("name",)

    def __str__(self) -> str:
        return self.name


class Continent(models.Model):
    map = models.ForeignKey(Map, on_delete=models.CASCADE, related_name="continents")
    name = models.CharField(max_length=80)
    bonus = models.PositiveSmallIntegerField(help_text="Armies for holding all of it.")

    class Meta:
        ordering = ("map", "id")
        constraints = [
            models.UniqueConstraint(fields=("map", "name"), name="risk_continent_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name


class Territory(models.Model):
    class Card(models.TextChoices):
        INFANTRY = "infantry"
        CAVALRY = "cavalry"
        ARTILLERY = "artillery"

    map = models.ForeignKey(Map, on_delete=models.CASCADE, related_name="territories")
    continent = models.ForeignKey(Continent, on_delete=models.CASCADE, related_name="territories")
    name = models.CharField(max_length=80)
    card = models.CharField(max_length=10, choices=Card.choices, help_text="Its card's symbol.")

    class Meta:
        ordering = ("map", "id")
        verbose_name_plural = "territories"
        constraints = [
            models.UniqueConstraint(fields=("map", "name"), name="risk_territory_unique_name"),
            models.CheckConstraint(
                condition=Q(card__in=("infantry", "cavalry", "artillery")),
                name="risk_territory_card_symbol",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def neighbours(self) -> models.QuerySet[Territory]:
        """The territories across a border (a border is one row, stored either way round)."""
        return Territory.objects.filter(Q(borders_a__b=self) | Q(borders_b__a=self)).distinct()


class Border(models.Model):
    """A two-way land border, stored once: ``a`` is the end with the smaller id."""

    map = models.ForeignKey(Map, on_delete=models.CASCADE, related_name="borders")
    a = models.ForeignKey(Territory, on_delete=models.CASCADE, related_name="borders_a")
    b = models.ForeignKey(Territory, on_delete=models.CASCADE, related_name="borders_b")

    class Meta:
        ordering = ("map", "a", "b")
        constraints = [
            models.UniqueConstraint(fields=("a", "b"), name="risk_border_unique_pair"),
            # One row per border: the order of the ends is fixed, so (b, a) cannot come back.
            models.CheckConstraint(condition=Q(a__lt=F("b")), name="risk_border_a_before_b"),
        ]

    def __str__(self) -> str:
        return f"{self.a} - {self.b}"


class Ocean(models.Model):
    map = models.ForeignKey(Map, on_delete=models.CASCADE, related_name="oceans")
    name = models.CharField(max_length=80)

    class Meta:
        ordering = ("map", "id")
        constraints = [
            models.UniqueConstraint(fields=("map", "name"), name="risk_ocean_unique_name"),
        ]

    def __str__(self) -> str:
        return self.name


class Station(models.Model):
    """Where ships lie off one coast: one per (territory, ocean it touches), drawn at (x, y)."""

    map = models.ForeignKey(Map, on_delete=models.CASCADE, related_name="stations")
    ocean = models.ForeignKey(Ocean, on_delete=models.CASCADE, related_name="stations")
    territory = models.ForeignKey(Territory, on_delete=models.CASCADE, related_name="stations")
    key = models.CharField(max_length=170, help_text='"Ocean:Territory", as the rules name it.')
    x = models.FloatField(help_text="0 west .. 1 east, on the drawn board.")
    y = models.FloatField(help_text="0 north .. 1 south, on the drawn board.")

    class Meta:
        ordering = ("map", "id")
        constraints = [
            models.UniqueConstraint(fields=("map", "key"), name="risk_station_unique_key"),
            models.UniqueConstraint(fields=("ocean", "territory"), name="risk_station_one_a_coast"),
            models.CheckConstraint(
                condition=Q(x__gte=0, x__lte=1, y__gte=0, y__lte=1), name="risk_station_on_board"
            ),
        ]

    def __str__(self) -> str:
        return self.key


class SeaLane(models.Model):
    """An undirected lane between two stations, ``distance`` boat lengths long; ``a`` < ``b``."""

    map = models.ForeignKey(Map, on_delete=models.CASCADE, related_name="lanes")
    a = models.ForeignKey(Station, on_delete=models.CASCADE, related_name="lanes_a")
    b = models.ForeignKey(Station, on_delete=models.CASCADE, related_name="lanes_b")
    distance = models.PositiveSmallIntegerField(help_text="In boat lengths.")

    class Meta:
        ordering = ("map", "a", "b")
        constraints = [
            models.UniqueConstraint(fields=("a", "b"), name="risk_sealane_unique_pair"),
            models.CheckConstraint(condition=Q(a__lt=F("b")), name="risk_sealane_a_before_b"),
            models.CheckConstraint(condition=Q(distance__gte=1), name="risk_sealane_distance"),
        ]

    def __str__(self) -> str:
        return f"{self.a} - {self.b} ({self.distance})"


# --- a game's board ------------------------------------------------------------------------------


class Board(models.Model):
    """One game's board and its game-wide fields; everything else hangs off it.

    ``seed`` drives every roll and the card order, so it is secret until the game is over
    (design.md section 2): only ``seed_commitment`` may be shown while the game runs.
    """

    map = models.ForeignKey(Map, on_delete=models.PROTECT, related_name="boards")
    seed = models.CharField(max_length=128, help_text="Secret until the game is over.")
    seed_commitment = models.CharField(max_length=64, help_text="SHA-256 of the seed (hex).")
    version = models.PositiveSmallIntegerField(help_text="risk.rules.state.SCHEMA_VERSION.")
    options = models.JSONField(help_text="risk.rules.state.Options as a dict.")
    round = models.PositiveIntegerField(default=1)
    turn_number = models.PositiveIntegerField(default=0)
    actions = models.PositiveIntegerField(
        default=0, help_text="Actions applied (the dice counter)."
    )
    next_ship = models.PositiveIntegerField(default=1, help_text="The next ship's number.")
    first_seat = models.CharField(max_length=40)
    over = models.BooleanField(default=False)
    # NULL, not "", for "none": the rules state says None and the adapter copies it unchanged.
    winner = models.CharField(max_length=40, null=True, blank=True)  # noqa: DJ001
    ranking = models.JSONField(default=list, blank=True, help_text="Seat ids, best first.")
    armies_created = models.JSONField(default=dict, blank=True, help_text="Ledger, by source.")
    armies_lost = models.JSONField(default=dict, blank=True, help_text="Ledger, by cause.")
    # Per-turn sub-states: small and short-lived, so JSON (risk.rules.state.to_dict's form).
    turn = models.JSONField(null=True, blank=True)
    battle = models.JSONField(null=True, blank=True)
    contest = models.JSONField(null=True, blank=True)
    draw_votes = models.JSONField(
        default=list, blank=True, help_text="Seat ids of the players agreeing to a draw."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("-created_at",)

    def __str__(self) -> str:
        return f"Board {self.pk}"


class Player(models.Model):
    """A seat: a player's army or an allied army (``person`` empty), in seat order."""

    class Kind(models.TextChoices):
        PLAYER = "player"
        ALLIED = "allied"

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="players")
    seat_id = models.CharField(max_length=40, help_text="The seat's id in the rules state.")
    order = models.PositiveSmallIntegerField(help_text="Index in the state's seat list.")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    person = models.CharField(  # noqa: DJ001 (None in the state, as ``winner``)
        max_length=150, null=True, blank=True, help_text="Who plays it; empty for an allied army."
    )
    colour = models.CharField(max_length=20)
    suits = models.JSONField(default=list, blank=True, help_text="Poker suits it was dealt.")
    pot = models.IntegerField(null=True, blank=True, help_text="Betting pot, when counted out.")
    alive = models.BooleanField(default=True)
    set_up = models.BooleanField(default=True)
    defence_dice = models.PositiveSmallIntegerField(
        default=2, help_text="Dice it defends a normal attack with (a standing preference)."
    )
    reveal = models.CharField(
        max_length=12, default="ask", help_text="Its answer to a mobilization: ask or reveal-all."
    )
    revealed = models.JSONField(
        default=list, blank=True, help_text="Hand cards shown for mobilization, not turned in."
    )

    class Meta:
        ordering = ("board", "order")
        constraints = [
            models.UniqueConstraint(fields=("board", "seat_id"), name="risk_player_unique_seat"),
            models.CheckConstraint(
                condition=Q(kind__in=("player", "allied")), name="risk_player_kind"
            ),
            models.CheckConstraint(
                condition=Q(pot__isnull=True) | Q(pot__gte=0), name="risk_player_pot_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return self.seat_id


class TerritoryState(models.Model):
    """Who holds a territory, with how many armies, and the captured armies kept there."""

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="territory_states")
    territory = models.ForeignKey(Territory, on_delete=models.PROTECT, related_name="+")
    owner = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="territories")
    armies = models.IntegerField()
    captured = models.JSONField(default=dict, blank=True, help_text="Original owner -> armies.")

    class Meta:
        ordering = ("board", "territory")
        constraints = [
            models.UniqueConstraint(
                fields=("board", "territory"), name="risk_territorystate_unique_territory"
            ),
            models.CheckConstraint(condition=Q(armies__gte=0), name="risk_territorystate_armies"),
        ]

    def __str__(self) -> str:
        return f"{self.territory}: {self.armies}"


class Factory(models.Model):
    """A factory on a territory (at most one per territory, rule text)."""

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="factories")
    territory = models.ForeignKey(Territory, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ("board", "territory")
        verbose_name_plural = "factories"
        constraints = [
            models.UniqueConstraint(
                fields=("board", "territory"), name="risk_factory_one_per_territory"
            ),
        ]

    def __str__(self) -> str:
        return f"Factory in {self.territory}"


class Ship(models.Model):
    """A ship at a station with its crew, captured armies and what it did this turn."""

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="ships")
    ship_id = models.CharField(max_length=20, help_text="The ship's id in the rules state.")
    owner = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ships")
    station = models.ForeignKey(Station, on_delete=models.PROTECT, related_name="+")
    armies = models.IntegerField()
    captured = models.JSONField(default=dict, blank=True, help_text="Original owner -> armies.")
    cruises = models.IntegerField(default=0, help_text="Cruises it may still start this turn.")
    moves = models.IntegerField(default=0, help_text="Boat lengths left on this cruise.")
    cruising = models.BooleanField(default=False)
    out_of_action = models.BooleanField(default=False)
    ports = models.JSONField(default=list, blank=True, help_text="Picked up from, this turn.")

    class Meta:
        ordering = ("board", "id")
        constraints = [
            models.UniqueConstraint(fields=("board", "ship_id"), name="risk_ship_unique_id"),
            models.CheckConstraint(condition=Q(armies__gte=0), name="risk_ship_armies"),
            models.CheckConstraint(condition=Q(cruises__gte=0), name="risk_ship_cruises"),
            models.CheckConstraint(condition=Q(moves__gte=0), name="risk_ship_moves"),
        ]

    def __str__(self) -> str:
        return f"{self.ship_id} at {self.station}"


class CardLocation(models.TextChoices):
    DRAW = "draw", "draw pile"
    DISCARD = "discard", "discard pile"
    HAND = "hand"


class BoardCard(models.Model):
    """Where one card is. ``position`` counts from the bottom of a pile (so drawing the top card
    moves no other card) and from the first card of a hand. ``copy`` tells identical cards apart
    (the two wild cards)."""

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="%(class)ss")
    card = models.CharField(max_length=80)
    copy = models.PositiveSmallIntegerField(default=0)
    location = models.CharField(max_length=10, choices=CardLocation.choices)
    holder = models.ForeignKey(
        Player, on_delete=models.CASCADE, null=True, blank=True, related_name="%(class)ss"
    )
    position = models.PositiveSmallIntegerField()

    class Meta:
        abstract = True
        ordering = ("board", "location", "holder", "position")

    def __str__(self) -> str:
        return self.card


def _card_constraints(prefix: str) -> list[models.BaseConstraint]:
    return [
        models.UniqueConstraint(fields=("board", "card", "copy"), name=f"{prefix}_unique_card"),
        models.CheckConstraint(
            condition=Q(location__in=("draw", "discard", "hand")), name=f"{prefix}_location"
        ),
        # A card is in a hand exactly when someone holds it.
        models.CheckConstraint(
            condition=Q(location="hand", holder__isnull=False)
            | (~Q(location="hand") & Q(holder__isnull=True)),
            name=f"{prefix}_holder_iff_hand",
        ),
    ]


class RiskCard(BoardCard):
    """A territory card (the territory's name) or a wild card ("wild", copies 0, 1, ...)."""

    class Meta(BoardCard.Meta):
        constraints = _card_constraints("risk_riskcard")


class PokerCard(BoardCard):
    """A poker card, "Qh"."""

    class Meta(BoardCard.Meta):
        constraints = _card_constraints("risk_pokercard")
