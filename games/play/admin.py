"""Live games in the admin: games, boards, seats and deadlines, with the operator's levers
(pause/resume, end a game, extend a deadline, replace a seat with the AI), each a service call
(``games.play.operations``), and every game's pieces as rows, read-only.

The pieces (``games.models.pieces``): territory holdings and ships are the public board, shown
for every game (inline on its page, and in their own lists). Cards are another matter: a hand
is its holder's alone and the order of a draw pile is what the seed keeps secret, so staff see
no card row of a game that is not over, in any list, filter, search, inline or change page
(the card admin's rows are the finished games' only); once a game is over its seed, and with it
every card, is public, and its card rows are listed like the rest.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

from django.contrib import admin, messages
from django.contrib.admin.views.decorators import staff_member_required
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.html import format_html
from django.views.decorators.http import require_POST

from games.common.admin import SECRET, OperatorActions, ReadOnlyInline
from games.models import (
    Card,
    Deadline,
    Game,
    GameSnapshot,
    Seat,
    Ship,
    TerritoryHolding,
)
from games.play import lobby, operations
from games.web.admin_secrets import ReadOnly, SecretSafeAdmin
from games.web.exceptions import ApplicationError
from risk.maps import store
from risk.models import Map
from risk.rules import to_dict, view_for
from risk.rules.upcast import load_state

# --- games --------------------------------------------------------------------------------------


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("position", "player", "user", "colour", "state", "timeouts", "last_seen_sequence")
    readonly_fields = fields
    show_change_link = True


class OpenDeadlineInline(ReadOnlyInline):
    model = Deadline
    verbose_name_plural = "open deadlines"
    fields = ("seat", "kind", "opened_at", "remind_at", "reminded_at", "due_at")
    readonly_fields = fields
    show_change_link = True

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).filter(status=Deadline.Status.OPEN)


class HoldingInline(ReadOnlyInline):
    model = TerritoryHolding
    verbose_name_plural = "territories (the board)"
    fields = ("territory", "owner", "seat", "armies", "factory", "captives")
    readonly_fields = fields


class ShipInline(ReadOnlyInline):
    model = Ship
    verbose_name_plural = "ships afloat"
    fields = ("ship", "owner", "seat", "station", "armies", "captives")
    readonly_fields = fields


def finished_only(cards: QuerySet) -> QuerySet:
    """The card rows staff may see: those of finished games (the module docstring)."""
    return cards.filter(game__status=Game.Status.FINISHED)


class CardInline(ReadOnlyInline):
    """A finished game's cards where they ended (``GameAdmin`` lists it for those alone)."""

    model = Card
    verbose_name_plural = "cards (where they ended)"
    fields = ("kind", "pile", "holder", "position", "revealed_card")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return finished_only(super().get_queryset(request))

    @admin.display(description="card")
    def revealed_card(self, obj: Card) -> str:
        return obj.card if obj.game.status == Game.Status.FINISHED else SECRET


#: Every Game field but the seed, which is shown through ``revealed_seed``.
GAME_FIELDS = (
    "name",
    "kind",
    "status",
    "creator",
    "public",
    "invite_token",
    "seat_count",
    "options",
    "time_control",
    "time_per_decision",
    "max_timeouts",
    "seed_commitment",
    "revealed_seed",
    "version",
    "live_board",
    "result",
    "created_at",
    "started_at",
    "paused_at",
    "finished_at",
)
#: What an operator may edit in place; the rest changes through the services only.
GAME_EDITABLE = ("name", "public", "max_timeouts")


@admin.register(Game)
class GameAdmin(SecretSafeAdmin, OperatorActions, admin.ModelAdmin):
    list_display = (
        "id",
        "__str__",
        "kind",
        "status",
        "time_control",
        "public",
        "seat_count",
        "version",
        "creator",
        "created_at",
    )
    list_display_links = ("id", "__str__")
    list_filter = ("status", "kind", "time_control", "public")
    # Never the seed: a search box would let anyone test guesses against it.
    search_fields = ("=id", "name", "creator__username", "seats__player")
    list_select_related = ("creator",)
    fields = GAME_FIELDS
    readonly_fields = tuple(f for f in GAME_FIELDS if f not in GAME_EDITABLE)
    inlines = (SeatInline, OpenDeadlineInline, HoldingInline, ShipInline)
    actions = ("pause_games", "resume_games", "end_games")

    def get_inlines(self, request: HttpRequest, obj: Game | None) -> Any:
        if obj is not None and obj.status == Game.Status.FINISHED:
            return (*self.inlines, CardInline)
        return self.inlines

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # games are made in the lobby, with a seed and seats

    def has_delete_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        # Only a lobby game with no board and no log; a game that ran is ended, not deleted.
        return (
            obj is not None
            and obj.status == Game.Status.OPEN
            and super().has_delete_permission(request, obj)
        )

    def save_model(self, request: HttpRequest, obj: Game, form: Any, change: bool) -> None:
        # Only the edited columns: a full save would write back the version and status read
        # when the form was posted, over an action committed in between.
        changed = [f for f in form.changed_data if f in GAME_EDITABLE]
        if changed:
            obj.save(update_fields=changed)

    @admin.display(description="seed")
    def revealed_seed(self, obj: Game) -> str:
        return obj.server_seed if obj.status == Game.Status.FINISHED else SECRET

    @admin.display(description="live board (read-only)")
    def live_board(self, obj: Game) -> str:
        if not GameSnapshot.objects.filter(pk=obj.pk).exists():
            return "not started"
        url = reverse("admin:games_gamesnapshot_change", args=[obj.pk])
        return format_html('<a href="{}">board at log entry {}</a>', url, obj.version)

    @admin.action(description="Pause the selected games", permissions=("operate",))
    def pause_games(self, request: HttpRequest, queryset: QuerySet) -> None:
        self.run_each(request, queryset, operations.game_pause, "Paused")

    @admin.action(description="Resume the selected games", permissions=("operate",))
    def resume_games(self, request: HttpRequest, queryset: QuerySet) -> None:
        self.run_each(request, queryset, operations.game_resume, "Resumed")

    @admin.action(description="End the selected games (no winner)", permissions=("operate",))
    def end_games(self, request: HttpRequest, queryset: QuerySet) -> None:
        reason = f"ended by {request.user.get_username()} in the admin"
        self.run_each(request, queryset, lambda g: operations.game_end(g, reason), "Ended")


# --- boards -------------------------------------------------------------------------------------


@admin.register(GameSnapshot)
class GameSnapshotAdmin(SecretSafeAdmin, ReadOnly, admin.ModelAdmin):
    """A game's board, read-only, from its snapshot row. While the game runs it is the public
    view (``view_for`` with no player: hand sizes, not cards; no deck order; the seed's
    commitment, not the seed), like a spectator's; once the game is over, the whole state."""

    list_display = ("game", "version", "schema_version", "updated_at")
    search_fields = ("=game__id",)
    list_select_related = ("game",)
    fields = ("game", "version", "schema_version", "updated_at", "board")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).defer("state")

    @admin.display(description="board")
    def board(self, obj: GameSnapshot) -> str:
        state = load_state(GameSnapshot.objects.values_list("state", flat=True).get(pk=obj.pk))
        shown = to_dict(state) if obj.game.status == Game.Status.FINISHED else view_for(state, None)
        return format_html("<pre>{}</pre>", json.dumps(shown, indent=1, sort_keys=True))


# --- seats --------------------------------------------------------------------------------------


@admin.register(Seat)
class SeatAdmin(SecretSafeAdmin, ReadOnly, OperatorActions, admin.ModelAdmin):
    list_display = ("__str__", "game", "position", "player", "user", "state", "timeouts")
    list_filter = ("state", "game__status")
    search_fields = ("player", "user__username", "=game__id")
    list_select_related = ("game", "user")
    fields = (
        "game",
        "position",
        "player",
        "user",
        "colour",
        "state",
        "timeouts",
        "last_seen_sequence",
        "turns",
        "revealed_client_seed",
        "joined_at",
    )
    readonly_fields = fields
    actions = ("replace_with_ai",)

    @admin.display(description="client seed")
    def revealed_client_seed(self, obj: Seat) -> str:
        return obj.client_seed if obj.game.status == Game.Status.FINISHED else SECRET

    @admin.action(description="Replace with AI", permissions=("operate",))
    def replace_with_ai(self, request: HttpRequest, queryset: QuerySet) -> None:
        self.run_each(
            request,
            queryset.select_related("game"),
            lambda seat: operations.seat_replace_with_bot(seat.game, seat),
            "Replaced with the AI",
        )


# --- deadlines ----------------------------------------------------------------------------------


@admin.register(Deadline)
class DeadlineAdmin(SecretSafeAdmin, ReadOnly, OperatorActions, admin.ModelAdmin):
    list_display = (
        "id",
        "game",
        "seat",
        "kind",
        "status",
        "opened_at",
        "remind_at",
        "reminded_at",
        "due_at",
        "closed_at",
    )
    list_filter = ("status", "game__time_control", "kind")
    search_fields = ("seat__player", "=game__id")
    list_select_related = ("game", "seat")
    date_hierarchy = "due_at"
    fields = list_display[1:]
    readonly_fields = fields
    actions = ("extend_hour", "extend_day")

    @admin.action(description="Extend by 1 hour", permissions=("operate",))
    def extend_hour(self, request: HttpRequest, queryset: QuerySet) -> None:
        self._extend(request, queryset, timedelta(hours=1), "1 hour")

    @admin.action(description="Extend by 1 day", permissions=("operate",))
    def extend_day(self, request: HttpRequest, queryset: QuerySet) -> None:
        self._extend(request, queryset, timedelta(days=1), "1 day")

    def _extend(self, request: HttpRequest, queryset: QuerySet, by: timedelta, text: str) -> None:
        self.run_each(
            request, queryset, lambda d: operations.deadline_extend(d, by), f"Extended by {text}"
        )


# --- pieces -------------------------------------------------------------------------------------


@admin.register(TerritoryHolding)
class TerritoryHoldingAdmin(SecretSafeAdmin, ReadOnly, admin.ModelAdmin):
    """Who holds what on every board (public information, like the spectator's view)."""

    list_display = ("game", "territory", "owner", "seat", "armies", "factory")
    list_filter = ("factory", "game__status")
    search_fields = ("=game__id", "territory", "owner", "seat__player")
    list_select_related = ("game", "seat")
    fields = ("game", "territory", "owner", "seat", "armies", "factory", "captives")
    readonly_fields = fields


@admin.register(Ship)
class ShipAdmin(SecretSafeAdmin, ReadOnly, admin.ModelAdmin):
    """Every ship afloat (public information)."""

    list_display = ("game", "ship", "owner", "seat", "station", "armies")
    list_filter = ("game__status",)
    search_fields = ("=game__id", "ship", "owner", "station", "seat__player")
    list_select_related = ("game", "seat")
    fields = ("game", "ship", "owner", "seat", "station", "armies", "captives")
    readonly_fields = fields


@admin.register(Card)
class CardAdmin(SecretSafeAdmin, ReadOnly, admin.ModelAdmin):
    """The cards of finished games only (the module docstring): a running or paused game's
    rows are not in this admin's rows at all, so no list, search, filter or change page (whose
    object is looked up among these rows) reaches them."""

    list_display = ("game", "kind", "pile", "holder", "position", "revealed_card")
    list_filter = ("kind", "pile")
    search_fields = ("=game__id", "holder")
    list_select_related = ("game",)
    fields = ("game", "kind", "pile", "holder", "seat", "position", "revealed_card")
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return finished_only(super().get_queryset(request))

    @admin.display(description="card")
    def revealed_card(self, obj: Card) -> str:
        return obj.card if obj.game.status == Game.Status.FINISHED else SECRET


# --- trying a map -------------------------------------------------------------------------------


@require_POST
@staff_member_required
def map_try(request: HttpRequest, map_id: int) -> HttpResponse:
    """``POST /maps/<id>/try`` (the map's admin page): a private, unrated game on that version
    against bots, started at once; a draft is frozen as a trial copy first (the validator runs
    and names each fault). The staff member plays the first seat, or only watches
    (``watch``)."""
    the_map = get_object_or_404(Map, pk=map_id)
    back = reverse("admin:risk_map_change", args=[the_map.pk])
    if not request.user.has_perm("risk.change_map"):
        messages.error(request, "Trying a map needs the right to change maps.")
        return HttpResponseRedirect(back)
    try:
        seats = int(request.POST.get("seats", the_map.min_seats))
        tried = (
            store.trial_copy(the_map, author=request.user)
            if the_map.status == Map.Status.DRAFT
            else the_map
        )
        game = lobby.game_try_map(
            creator=request.user, name=tried.name, version=tried.version, seats=seats,
            watch=bool(request.POST.get("watch")),
        )  # fmt: skip
    except store.MapRefused as refused:
        for line in refused.lines():
            messages.error(request, f"{the_map.ref}: {line}")
        return HttpResponseRedirect(back)
    except (ApplicationError, ValueError) as exc:
        messages.error(request, f"{the_map.ref}: {getattr(exc, 'message', exc)}")
        return HttpResponseRedirect(back)
    return HttpResponseRedirect(f"/games/{game.pk}")
