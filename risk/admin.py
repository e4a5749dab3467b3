"""Operators browse maps and look at live boards; nothing here may change either.

Map rows are a copy of a validated map file (``manage.py load_map`` rewrites them), so editing
them here would bypass the validator and be undone by the next load: they are view-only. A live
board is written only by the game service through ``risk.adapter``: view-only too.

The seed decides every roll and the card order, so it is secret until the game is over
(design.md section 2): the Board pages show its commitment, and the seed itself only once
``over`` is true. It is never a list column, a filter or a search field (searching would let an
operator test guesses against it).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from risk.models import (
    Board,
    Border,
    Continent,
    Factory,
    Map,
    Ocean,
    Player,
    PokerCard,
    RiskCard,
    SeaLane,
    Ship,
    Station,
    Territory,
    TerritoryState,
)


class ViewOnly:
    """No add, change or delete, for superusers too; viewing stays as the user's permissions say."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class ViewOnlyAdmin(ViewOnly, admin.ModelAdmin):
    pass


class ViewOnlyInline(ViewOnly, admin.TabularInline):
    extra = 0
    show_change_link = True
    #: Foreign keys each row shows, fetched with the rows rather than one query per row.
    select_related: tuple[str, ...] = ()

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).select_related(*self.select_related)


# --- maps ----------------------------------------------------------------------------------------


class ContinentInline(ViewOnlyInline):
    model = Continent
    fields = ("name", "bonus")


class OceanInline(ViewOnlyInline):
    model = Ocean
    fields = ("name",)


@admin.register(Map)
class MapAdmin(ViewOnlyAdmin):
    list_display = ("name", "title", "wild_cards")
    search_fields = ("name", "title")
    inlines = (ContinentInline, OceanInline)


@admin.register(Continent)
class ContinentAdmin(ViewOnlyAdmin):
    list_display = ("name", "map", "bonus")
    list_filter = ("map",)
    search_fields = ("name",)


class BorderInline(ViewOnlyInline):
    model = Border
    fk_name = "a"
    fields = ("b",)
    select_related = ("b",)
    verbose_name_plural = "borders (where this territory is the first end; see neighbours)"


class StationInline(ViewOnlyInline):
    model = Station
    fields = ("key", "ocean", "x", "y")
    select_related = ("ocean",)


@admin.register(Territory)
class TerritoryAdmin(ViewOnlyAdmin):
    list_display = ("name", "map", "continent", "card")
    list_filter = ("map", "continent", "card")
    search_fields = ("name",)
    readonly_fields = ("neighbour_names",)
    inlines = (BorderInline, StationInline)

    @admin.display(description="neighbours")
    def neighbour_names(self, obj: Territory) -> str:
        return ", ".join(sorted(t.name for t in obj.neighbours()))


@admin.register(Border)
class BorderAdmin(ViewOnlyAdmin):
    list_display = ("a", "b", "map")
    list_filter = ("map",)
    list_select_related = ("a", "b", "map")
    search_fields = ("a__name", "b__name")


@admin.register(Ocean)
class OceanAdmin(ViewOnlyAdmin):
    list_display = ("name", "map")
    list_filter = ("map",)
    inlines = (StationInline,)


@admin.register(Station)
class StationAdmin(ViewOnlyAdmin):
    list_display = ("key", "ocean", "territory", "x", "y")
    list_filter = ("map", "ocean")
    list_select_related = ("ocean", "territory")
    search_fields = ("key",)


@admin.register(SeaLane)
class SeaLaneAdmin(ViewOnlyAdmin):
    list_display = ("a", "b", "distance", "map")
    list_filter = ("map", "distance")
    list_select_related = ("a", "b", "map")
    search_fields = ("a__key", "b__key")


# --- live boards ---------------------------------------------------------------------------------


class PlayerInline(ViewOnlyInline):
    model = Player
    fields = ("order", "seat_id", "kind", "person", "colour", "suits", "pot", "alive", "set_up")


class TerritoryStateInline(ViewOnlyInline):
    model = TerritoryState
    fields = ("territory", "owner", "armies", "captured")
    select_related = ("territory", "owner")


class FactoryInline(ViewOnlyInline):
    model = Factory
    fields = ("territory",)
    select_related = ("territory",)


class ShipInline(ViewOnlyInline):
    model = Ship
    fields = ("ship_id", "owner", "station", "armies", "captured", "cruises", "moves", "cruising")
    select_related = ("owner", "station")


class RevealedCards:
    """Card rows say who holds which card and the deck order: hidden information (issue 7),
    so the admin lists them only for boards whose game is over, like the seed."""

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).filter(board__over=True)  # type: ignore[misc]


class RiskCardInline(RevealedCards, ViewOnlyInline):
    model = RiskCard
    fields = ("card", "copy", "location", "holder", "position")
    select_related = ("holder",)


class PokerCardInline(RevealedCards, ViewOnlyInline):
    model = PokerCard
    fields = ("card", "location", "holder", "position")
    select_related = ("holder",)


#: Every Board field but the seed; the seed is shown through ``revealed_seed``.
BOARD_FIELDS = (
    "map",
    "seed_commitment",
    "revealed_seed",
    "version",
    "options",
    "round",
    "turn_number",
    "next_ship",
    "first_seat",
    "over",
    "winner",
    "ranking",
    "armies_created",
    "armies_lost",
    "turn",
    "battle",
    "revealed_contest",
    "created_at",
    "updated_at",
)


@admin.register(Board)
class BoardAdmin(ViewOnlyAdmin):
    list_display = ("id", "map", "round", "turn_number", "over", "winner", "updated_at")
    list_filter = ("over", "map")
    search_fields = ("id", "seed_commitment")
    fields = BOARD_FIELDS
    readonly_fields = BOARD_FIELDS
    inlines = (
        PlayerInline,
        TerritoryStateInline,
        FactoryInline,
        ShipInline,
        RiskCardInline,
        PokerCardInline,
    )

    @admin.display(description="seed")
    def revealed_seed(self, obj: Board) -> str:
        return obj.seed if obj.over else "secret until the game is over"

    @admin.display(description="contest")
    def revealed_contest(self, obj: Board) -> Any:
        """A poker hand in progress holds every player's cards and the deck: only its public
        part (who declared, which ally, the stage) until the game is over."""
        if obj.over or not obj.contest:
            return obj.contest
        return {k: obj.contest.get(k) for k in ("declarer", "ally", "stage", "answers")}


@admin.register(Player)
class PlayerAdmin(ViewOnlyAdmin):
    list_display = ("seat_id", "board", "order", "kind", "person", "colour", "alive")
    list_filter = ("kind", "alive")
    search_fields = ("seat_id", "person")


@admin.register(TerritoryState)
class TerritoryStateAdmin(ViewOnlyAdmin):
    list_display = ("territory", "board", "owner", "armies")
    list_select_related = ("territory", "owner")
    search_fields = ("territory__name",)


@admin.register(Factory)
class FactoryAdmin(ViewOnlyAdmin):
    list_display = ("territory", "board")
    list_select_related = ("territory",)


@admin.register(Ship)
class ShipAdmin(ViewOnlyAdmin):
    list_display = ("ship_id", "board", "owner", "station", "armies", "cruising", "out_of_action")
    list_select_related = ("owner", "station")
    search_fields = ("ship_id",)


@admin.register(RiskCard)
class RiskCardAdmin(RevealedCards, ViewOnlyAdmin):
    list_display = ("card", "copy", "board", "location", "holder", "position")
    list_filter = ("location",)
    list_select_related = ("holder",)


@admin.register(PokerCard)
class PokerCardAdmin(RevealedCards, ViewOnlyAdmin):
    list_display = ("card", "board", "location", "holder", "position")
    list_filter = ("location",)
    list_select_related = ("holder",)
