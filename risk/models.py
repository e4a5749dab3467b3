"""The maps, as rows: a map's versions, continents, territories, borders, oceans, coasts and lanes.

A game's own state is not here: it is one JSON row, ``games.models.GameSnapshot``. These tables
hold the boards games are played on, so staff (and, with ``WARBOARD_USER_MAPS``, players) can make
maps and the server can list them. The engine never reads a row on the action path: it reads a
frozen ``risk.rules.board_map.BoardMap`` built once per process from a map version's rows
(``risk.maps.store``), cached for good because a version that a game can be played on never
changes.

A map's life (``Map.Status``):

- **draft**: the only editable state. Its rows may be wrong while someone works on them; every save
  in the admin runs the validator and lists each fault, and a draft is never played.
- **trial**: a frozen copy of a good draft, made to try it against bots (never in the lobby).
- **published**: frozen for good, offered in the lobby. A change is a new draft (a new version),
  published in turn; games already running keep the version they were started on.

The card deck is not a table: the map implies it (one card per territory, with the territory's
``card`` symbol, plus ``Map.wild_cards`` wilds; ``Map.deck``), so it can never disagree with the
territories, and the validator's "the deck matches" (every symbol equally many) is checked on them.

The JSON documents (``risk/data/<name>-risk-map.json`` and ``<name>-risk-board.json``) stay the
import and export format: ``risk.maps.documents`` turns one into rows and rows back into the
same document.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import F, Q

from risk.rules.board_map import MAX_SEATS, MIN_SEATS

#: A map's name as URLs and games write it (``risk.rules.board_map.check_map_name``).
MAP_NAME = RegexValidator(
    r"^[a-z0-9][a-z0-9_-]*$", "lower-case letters, digits, - and _ (first a letter or digit)"
)


def default_view_box() -> list[int]:
    return [0, 0, 1000, 600]


class Map(models.Model):
    """One version of one map (``name`` + ``version``), with what the document says at its top."""

    class Status(models.TextChoices):
        DRAFT = "draft"
        TRIAL = "trial"
        PUBLISHED = "published"

    name = models.CharField(max_length=40, validators=[MAP_NAME], help_text="e.g. classic")
    version = models.PositiveIntegerField()
    title = models.CharField(max_length=200, help_text="The document's name: what players read.")
    notes = models.JSONField(default=list, blank=True, help_text="The document's notes (text).")
    board_notes = models.JSONField(default=list, blank=True, help_text="The drawn board's notes.")
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="maps",
    )  # fmt: skip
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    wild_cards = models.PositiveSmallIntegerField(default=2)
    min_seats = models.PositiveSmallIntegerField(default=MIN_SEATS)
    max_seats = models.PositiveSmallIntegerField(default=MAX_SEATS)
    view_box = models.JSONField(
        default=default_view_box, help_text="The drawn board's [x, y, width, height]."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("name", "version")
        constraints = [
            models.UniqueConstraint(fields=("name", "version"), name="risk_map_name_version"),
            models.CheckConstraint(
                condition=Q(min_seats__gte=MIN_SEATS)
                & Q(min_seats__lte=F("max_seats"))
                & Q(max_seats__lte=MAX_SEATS),
                name="risk_map_seats",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name}@{self.version} ({self.status})"

    @property
    def ref(self) -> str:
        """``"classic@1"``, as games and URLs name it."""
        return f"{self.name}@{self.version}"

    @property
    def editable(self) -> bool:
        return self.status == Map.Status.DRAFT

    def deck(self) -> list[tuple[str, str]]:
        """The Risk cards the map implies: (territory, symbol) per territory, then the wilds."""
        cards = [(t.name, t.card) for t in self.territories.order_by("position")]
        return cards + [("wild", "wild")] * self.wild_cards

    def clean(self) -> None:
        if self.pk is not None:
            stored = Map.objects.filter(pk=self.pk).values_list("status", flat=True).first()
            if stored not in (None, Map.Status.DRAFT):
                raise ValidationError(
                    f"{self.ref} is {stored}: a version games can be played on never changes; "
                    "make a new draft from it instead"
                )


class MapPart(models.Model):
    """A row of a map: it belongs to one version and changes only while that version is a draft."""

    class Meta:
        abstract = True

    map_id: int

    def save(self, *args: Any, **kwargs: Any) -> None:
        if (owner := self._frozen()) is not None:
            raise ValidationError(f"{owner.ref} is {owner.status}: it never changes")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> Any:
        if (owner := self._frozen()) is not None:
            raise ValidationError(f"{owner.ref} is {owner.status}: it never changes")
        return super().delete(*args, **kwargs)

    def _frozen(self) -> Map | None:
        owner = Map.objects.filter(pk=self.map_id).only("status", "name", "version").first()
        return owner if owner is not None and owner.status != Map.Status.DRAFT else None


class Continent(MapPart):
    map = models.ForeignKey(Map, on_delete=models.CASCADE, related_name="continents")
    name = models.CharField(max_length=100)
    bonus = models.PositiveSmallIntegerField(help_text="Armies a turn for holding all of it.")
    position = models.PositiveSmallIntegerField(default=0, help_text="Order on the map.")

    class Meta:
        ordering = ("map", "position", "pk")
        constraints = [
            models.UniqueConstraint(fields=("map", "name"), name="risk_continent_name"),
        ]

    def __str__(self) -> str:
        return self.name


class Territory(MapPart):
    class Card(models.TextChoices):
        INFANTRY = "infantry"
        CAVALRY = "cavalry"
        ARTILLERY = "artillery"

    map = models.ForeignKey(Map, on_delete=models.CASCADE, related_name="territories")
    name = models.CharField(max_length=100)
    continent = models.ForeignKey(Continent, on_delete=models.CASCADE, related_name="territories")
    card = models.CharField(max_length=10, choices=Card.choices, help_text="Its Risk card symbol.")
    position = models.PositiveSmallIntegerField(default=0, help_text="Order on the map.")
    polygon = models.JSONField(
        default=list, blank=True, help_text="Its shape on the drawn board: [[x, y], ...]."
    )
    label_x = models.FloatField(default=0, help_text="Where its name and armies are drawn.")
    label_y = models.FloatField(default=0)
    extra = models.JSONField(
        default=dict, blank=True, help_text="Other keys of the document's territory (kept as is)."
    )

    class Meta:
        ordering = ("map", "position", "pk")
        verbose_name_plural = "territories"
        constraints = [
            models.UniqueConstraint(fields=("map", "name"), name="risk_territory_name"),
        ]

    def __str__(self) -> str:
        return self.name


class Border(MapPart):
    """Two territories that border each other (one row for both ways)."""

    map = models.ForeignKey(Map, on_delete=models.CASCADE, related_name="borders")
    a = models.ForeignKey(Territory, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(Territory, on_delete=models.CASCADE, related_name="+")
    link = models.BooleanField(
        default=False, help_text="Drawn as a line across water (their shapes do not touch)."
    )
    wrap = models.BooleanField(default=False, help_text="That line crosses the east-west edge.")

    class Meta:
        ordering = ("map", "pk")
        constraints = [
            models.UniqueConstraint(fields=("map", "a", "b"), name="risk_border_pair"),
            models.CheckConstraint(condition=~Q(a=F("b")), name="risk_border_two_territories"),
        ]

    def __str__(self) -> str:
        return f"{self.a}-{self.b}"


class Ocean(MapPart):
    map = models.ForeignKey(Map, on_delete=models.CASCADE, related_name="oceans")
    name = models.CharField(max_length=100)
    position = models.PositiveSmallIntegerField(default=0, help_text="Order on the map.")
    label_x = models.FloatField(default=0, help_text="Where its name is drawn.")
    label_y = models.FloatField(default=0)

    class Meta:
        ordering = ("map", "position", "pk")
        constraints = [models.UniqueConstraint(fields=("map", "name"), name="risk_ocean_name")]

    def __str__(self) -> str:
        return self.name


class Station(MapPart):
    """A coast: a territory on an ocean, where ships lie (key ``"<ocean>:<territory>"``)."""

    map = models.ForeignKey(Map, on_delete=models.CASCADE, related_name="stations")
    ocean = models.ForeignKey(Ocean, on_delete=models.CASCADE, related_name="stations")
    territory = models.ForeignKey(Territory, on_delete=models.CASCADE, related_name="stations")
    x = models.FloatField(help_text="West to east, 0..1 (the map document's place).")
    y = models.FloatField(help_text="North to south, 0..1.")
    board_x = models.FloatField(default=0, help_text="Its place on the drawn board.")
    board_y = models.FloatField(default=0)

    class Meta:
        ordering = ("map", "ocean__position", "territory__position")
        constraints = [
            models.UniqueConstraint(fields=("ocean", "territory"), name="risk_station_coast"),
        ]

    def __str__(self) -> str:
        return f"{self.ocean}:{self.territory}"


class Lane(MapPart):
    """A sea lane between two stations, ``length`` boat lengths long (both ways)."""

    map = models.ForeignKey(Map, on_delete=models.CASCADE, related_name="lanes")
    a = models.ForeignKey(Station, on_delete=models.CASCADE, related_name="+")
    b = models.ForeignKey(Station, on_delete=models.CASCADE, related_name="+")
    length = models.PositiveSmallIntegerField(help_text="Boat lengths.")
    position = models.PositiveSmallIntegerField(default=0, help_text="Order on the map.")

    class Meta:
        ordering = ("map", "position", "pk")
        constraints = [
            models.UniqueConstraint(fields=("map", "a", "b"), name="risk_lane_pair"),
            models.CheckConstraint(condition=~Q(a=F("b")), name="risk_lane_two_stations"),
        ]

    def __str__(self) -> str:
        return f"{self.a} - {self.b} ({self.length})"
