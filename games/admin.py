"""The operators' view of the game server: games, seats and deadlines, and the few levers an
operator needs (pause/resume, end a game, extend a deadline, replace a seat with the AI), and the
replies received by mail.

Every lever is an admin action that calls a service in ``games.services.deadlines``; nothing
here writes a game's state itself, so the admin can never skip the game lock, the log or the
clock. The rows are read-only apart from a game's name, listing and timeout limit.

Tournaments (issue 19) follow the same rule: one is added through ``tournament_create`` (the
add form's settings are checked by that service alone), run by actions that call the
tournament services (start, pair the next round, cancel; each logs itself), and a change edits
only its name, description, entry window and limits and automatic pairing, logged as "edited".
The staff log (``TournamentAction``) is read-only.

Hidden information (issues 7 and 15): the server seed decides every roll and the card order, so
no list column, filter, search field or change page shows it while the game is on; a finished
game's page reveals it (``revealed_seed``). Players' client seeds are treated the same way, the
board's page shows the public view until the end, and the action log (whose rolls would give
away the deck order) is not browsable here at all: the replay API serves it once the game is
over. Every admin here is a ``games.web.admin_secrets.SecretSafeAdmin``: the changelists accept
only their declared filters as URL lookups and never a lookup, search or ordering that touches
a secret field, so a crafted URL (``?server_seed__startswith=3``) is a 400 rather than an
oracle on the seed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html, format_html_join

from games.models import (
    AI_LEVELS,
    Deadline,
    Game,
    GameSnapshot,
    InboundMail,
    Rating,
    RatingChange,
    Room,
    RoomEntry,
    RoomSide,
    Seat,
    Tournament,
    TournamentAction,
    TournamentEntrant,
    TournamentRound,
)
from games.services import operations
from games.tournaments import pairing
from games.tournaments import setup as tournament_setup
from games.tournaments.log import logged
from games.web.admin_secrets import ReadOnly, SecretSafeAdmin
from games.web.exceptions import ApplicationError
from risk.rules import to_dict

SECRET = "secret until the game is over"


class OperatorActions:
    """Admin actions need the right to change games, whatever the model they are listed on."""

    def has_operate_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.change_game")

    def run_each(
        self,
        request: HttpRequest,
        rows: QuerySet,
        service: Callable[[Any], Any],
        done: str,
    ) -> None:
        """``service`` on each row; one message for the successes, one per refusal."""
        ok = 0
        for row in rows:
            try:
                service(row)
            except ApplicationError as exc:
                self.message_user(request, f"{row}: {exc.message}", messages.WARNING)
            else:
                ok += 1
        if ok:
            self.message_user(request, f"{done}: {ok}", messages.SUCCESS)


# --- games --------------------------------------------------------------------------------------


class ReadOnlyInline(admin.TabularInline):
    """A listing inside a parent's page: the services write these rows, the admin only shows
    them (no add, change or delete here)."""

    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


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
    inlines = (SeatInline, OpenDeadlineInline)
    actions = ("pause_games", "resume_games", "end_games")

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
        from risk.rules import view_for
        from risk.rules.upcast import load_state

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


# --- moves by email -----------------------------------------------------------------------------


@admin.register(InboundMail)
class InboundMailAdmin(SecretSafeAdmin, ReadOnly, admin.ModelAdmin):
    """The replies received at reply addresses (``inbound_mail``): what became of each, for
    an operator answering "my mail was not played". Read-only: the record is what keeps a
    mail from being applied twice."""

    list_display = (
        "received_at", "sender", "game", "seat", "room", "outcome", "applied", "reason",
    )  # fmt: skip
    list_filter = ("outcome",)
    search_fields = ("sender", "message_id", "=game__id", "=room__id")
    list_select_related = ("game", "seat", "room")
    date_hierarchy = "received_at"
    fields = (
        "message_id", "sender", "game", "seat", "room", "outcome", "applied", "reason",
        "received_at",
    )  # fmt: skip


# --- correspondence rooms -----------------------------------------------------------------------


class RoomSideInline(ReadOnlyInline):
    model = RoomSide
    fields = ("position", "name", "user", "vacation_days_left", "vacation_ends_at", "agreed_result")
    readonly_fields = fields


@admin.register(Room)
class RoomAdmin(SecretSafeAdmin, ReadOnly, admin.ModelAdmin):
    """A room, read-only: its services write it. The seed shows only once the room has ended."""

    list_display = ("id", "name", "system", "status", "public", "referee", "created_at")
    list_filter = ("status", "system", "public")
    search_fields = ("=id", "name", "referee__username")
    list_select_related = ("referee",)
    fields = (
        "name", "system", "rules", "edition", "status", "creator", "referee", "public",
        "days_per_turn", "remind_hours", "grace_days", "vacation_days", "seed_commitment",
        "revealed_seed", "roll_count", "entry_count", "turn_number", "turn_position",
        "turn_started_at", "result", "created_at", "started_at", "finished_at",
    )  # fmt: skip
    readonly_fields = fields
    inlines = (RoomSideInline,)

    @admin.display(description="seed")
    def revealed_seed(self, obj: Room) -> str:
        return obj.server_seed if obj.status == Room.Status.FINISHED else SECRET


@admin.register(RoomEntry)
class RoomEntryAdmin(SecretSafeAdmin, ReadOnly, admin.ModelAdmin):
    """Journal entries are never edited (issue 18): no add, change or delete here either; a
    correction is a later referee entry, posted through the room."""

    list_display = ("id", "room", "number", "kind", "side", "created_at")
    list_filter = ("kind",)
    search_fields = ("=room__id", "side", "text")
    list_select_related = ("room",)
    fields = ("room", "number", "created_at", "author", "side", "kind", "text", "data",
              "refers_to")  # fmt: skip
    readonly_fields = fields


# --- ratings ------------------------------------------------------------------------------------


@admin.register(Rating)
class RatingAdmin(SecretSafeAdmin, ReadOnly, admin.ModelAdmin):
    """Current ratings, read-only: rated results write them, and ``manage.py rerate`` rebuilds
    them from the results (editing one here would be undone by the next rerate)."""

    list_display = ("user", "kind", "rating", "deviation", "volatility", "games", "last_played")
    list_filter = ("kind",)
    search_fields = ("user__username",)
    list_select_related = ("user",)
    ordering = ("kind", "-rating")
    fields = ("user", "kind", "rating", "deviation", "volatility", "games", "last_played")
    readonly_fields = fields


@admin.register(RatingChange)
class RatingChangeAdmin(SecretSafeAdmin, ReadOnly, admin.ModelAdmin):
    """Each rated result's effect on each player: the history behind the profile's chart."""

    list_display = ("at", "user", "kind", "rating_before", "rating_after", "game", "room")
    list_filter = ("kind",)
    search_fields = ("user__username", "=game__id", "=room__id")
    list_select_related = ("user", "game", "room")
    date_hierarchy = "at"
    fields = ("user", "kind", "at", "game", "room", "rating_before", "deviation_before",
              "rating_after", "deviation_after", "volatility_after")  # fmt: skip
    readonly_fields = fields


# --- tournaments --------------------------------------------------------------------------------


class TournamentEntrantInline(ReadOnlyInline):
    model = TournamentEntrant
    fields = ("seed", "user", "rating", "status", "bot_stands_in", "first_round", "entered_at",
              "left_at", "left_reason")  # fmt: skip
    readonly_fields = fields


class TournamentRoundInline(ReadOnlyInline):
    """Each round with its tables (a table belongs to a round, so it is listed in the round's
    row: Django's admin does not nest inlines)."""

    model = TournamentRound
    fields = ("number", "paired_at", "paired_by", "completed_at", "tables")
    readonly_fields = fields

    @admin.display(description="tables")
    def tables(self, obj: TournamentRound) -> str:
        lines = []
        for table in obj.tables.prefetch_related("seats__entrant__user"):
            seats = sorted(table.seats.all(), key=lambda s: s.position)
            players = ", ".join(
                s.entrant.user.get_username() + (f" ({s.place})" if s.place else "") for s in seats
            )
            play = f"game {table.game_id}" if table.game_id else (
                f"room {table.room_id}" if table.room_id else "no game")  # fmt: skip
            lines.append(format_html("{}: {} — {}, {}", table.number, players, play,
                                     table.outcome or "playing"))  # fmt: skip
        return format_html_join("", "<div>{}</div>", ((line,) for line in lines))


#: The settings of ``tournament_create``, in the add form.
TOURNAMENT_SETTINGS = (
    "name", "description", "play", "format", "options", "time_control", "time_per_decision",
    "ai_level", "room_system", "room_rules", "room_edition", "room_sides", "days_per_turn",
    "rated", "registration_opens", "registration_closes", "min_entrants", "max_entrants",
    "rounds", "table_min", "table_max", "place_points", "late_entry_rounds", "auto_pair",
)  # fmt: skip
#: What staff may edit once it exists; the rest is fixed by the creation or the services.
TOURNAMENT_EDITABLE = ("name", "description", "registration_opens", "registration_closes",
                       "min_entrants", "max_entrants", "auto_pair")  # fmt: skip
#: The service's field names the add form calls differently (a refusal is shown there).
TOURNAMENT_FIELD_OF = {"minutes": "time_per_decision", "days": "time_per_decision",
                       "system": "room_system", "rules": "room_rules", "edition": "room_edition",
                       "sides": "room_sides"}  # fmt: skip


class _DryRun(Exception):
    """Rolls back a trial creation (``TournamentAddForm.clean``)."""


class TournamentAddForm(forms.ModelForm):
    """The admin's add form: ``tournament_create`` is the only validator of the settings, so
    ``clean`` runs it in a savepoint that is rolled back, and its refusal is shown next to the
    field it names; ``TournamentAdmin.save_model`` then creates the tournament through it."""

    actor: Any = None  # set per request by TournamentAdmin.get_form
    time_control = forms.ChoiceField(choices=Game.TimeControl.choices, initial="correspondence")
    ai_level = forms.ChoiceField(choices=[(a, a) for a in AI_LEVELS], initial="hard")
    room_system = forms.ChoiceField(choices=[("", "-"), *Room.System.choices], required=False)
    min_entrants = forms.IntegerField(required=False, help_text="Empty: 2, or the smallest table.")

    class Meta:
        model = Tournament
        fields = TOURNAMENT_SETTINGS

    def service_kwargs(self) -> dict[str, Any]:
        data = {name: self.cleaned_data.get(name) for name in TOURNAMENT_SETTINGS}
        allowance = data.pop("time_per_decision")
        seconds = int(allowance.total_seconds()) if allowance else 0
        data["minutes"], data["days"] = seconds // 60 or None, seconds // 86400 or None
        data["options"] = data["options"] or {}
        data["room_sides"] = data["room_sides"] or None
        data["place_points"] = data["place_points"] or None
        return data

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.errors:
            return cleaned
        try:
            with transaction.atomic():
                tournament_setup.tournament_create(actor=self.actor, **self.service_kwargs())
                raise _DryRun
        except _DryRun:
            pass
        except ApplicationError as exc:
            field = exc.field or ("name" if exc.code == "name_taken" else None)
            if field is not None:
                base = field.split(".")[0]
                field = TOURNAMENT_FIELD_OF.get(field) or TOURNAMENT_FIELD_OF.get(base, base)
            self.add_error(field if field in self.fields else None, exc.message)
        return cleaned


class TournamentChangeForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = TOURNAMENT_EDITABLE

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        low, high = cleaned.get("min_entrants"), cleaned.get("max_entrants")
        if low is not None and high is not None:
            t = self.instance
            try:  # the same limits as at creation, the format's largest field among them
                tournament_setup.check_counts(t.format, low, high, t.table_min, t.table_max)
            except ApplicationError as exc:
                self.add_error(exc.field if exc.field in self.fields else None, str(exc))
        opens, closes = cleaned.get("registration_opens"), cleaned.get("registration_closes")
        if opens and closes and closes <= opens:
            self.add_error("registration_closes", "registration must close after it opens")
        return cleaned


@admin.register(Tournament)
class TournamentAdmin(SecretSafeAdmin, OperatorActions, admin.ModelAdmin):
    """Tournaments: created through ``tournament_create`` (the add form), run by the actions
    below, which call the services (each checks staff and writes the staff log itself). A
    change edits only ``TOURNAMENT_EDITABLE`` and is logged as "edited"."""

    list_display = ("id", "name", "play", "format", "status", "current_round", "rounds", "rated",
                    "champion", "created_at")  # fmt: skip
    list_display_links = ("id", "name")
    list_filter = ("status", "play", "format", "rated")
    search_fields = ("=id", "name")
    list_select_related = ("champion",)
    inlines = (TournamentEntrantInline, TournamentRoundInline)
    actions = ("start_tournaments", "pair_next_rounds", "cancel_tournaments")

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False,
                 **kwargs: Any) -> Any:  # fmt: skip
        if obj is None:
            kwargs["form"] = type("TournamentAddForm", (TournamentAddForm,),
                                  {"actor": request.user})  # fmt: skip
            kwargs["fields"] = TOURNAMENT_SETTINGS
        else:
            kwargs["form"] = TournamentChangeForm
            kwargs["fields"] = TOURNAMENT_EDITABLE
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return TOURNAMENT_SETTINGS
        return (*TOURNAMENT_SETTINGS, "status", "current_round", "champion", "created_by",
                "created_at", "started_at", "finished_at")  # fmt: skip

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is None:
            return ()
        return tuple(f for f in self.get_fields(request, obj) if f not in TOURNAMENT_EDITABLE)

    def get_inlines(self, request: HttpRequest, obj: Any) -> Any:
        return self.inlines if obj is not None else ()

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # an event is cancelled, never deleted: its log and results stay

    def has_run_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("games.change_tournament")

    def save_model(self, request: HttpRequest, obj: Tournament, form: Any, change: bool) -> None:
        if not change:
            created = tournament_setup.tournament_create(actor=request.user,
                                                         **form.service_kwargs())  # fmt: skip
            # The admin goes on with ``obj`` (its history entry, the redirect): make it the row.
            for field in Tournament._meta.concrete_fields:
                setattr(obj, field.attname, getattr(created, field.attname))
            obj._state.adding, obj._state.db = False, created._state.db
            return
        # Only the edited columns: a full save would write back the status and round read
        # when the form was posted, over a pairing committed in between.
        changed = [f for f in form.changed_data if f in TOURNAMENT_EDITABLE]
        if changed:
            with transaction.atomic():
                obj.save(update_fields=changed)
                logged(obj, request.user, "edited", fields=changed)

    @admin.action(description="Start the selected tournaments", permissions=("run",))
    def start_tournaments(self, request: HttpRequest, queryset: QuerySet) -> None:
        self.run_each(request, queryset, lambda t: tournament_setup.tournament_start(
            actor=request.user, tournament_id=t.pk), "Started")  # fmt: skip

    @admin.action(description="Pair the next round", permissions=("run",))
    def pair_next_rounds(self, request: HttpRequest, queryset: QuerySet) -> None:
        self.run_each(request, queryset, lambda t: pairing.round_pair(
            actor=request.user, tournament_id=t.pk), "Paired the next round")  # fmt: skip

    @admin.action(description="Cancel the selected tournaments", permissions=("run",))
    def cancel_tournaments(self, request: HttpRequest, queryset: QuerySet) -> None:
        reason = f"cancelled by {request.user.get_username()} in the admin"
        self.run_each(request, queryset, lambda t: tournament_setup.tournament_cancel(
            actor=request.user, tournament_id=t.pk, reason=reason), "Cancelled")  # fmt: skip


@admin.register(TournamentAction)
class TournamentActionAdmin(SecretSafeAdmin, ReadOnly, admin.ModelAdmin):
    """The staff log, read-only: the services write it."""

    list_display = ("at", "tournament", "action", "actor", "detail")
    list_filter = ("action",)
    search_fields = ("=tournament__id", "tournament__name", "actor__username")
    list_select_related = ("tournament", "actor")
    date_hierarchy = "at"
    fields = ("tournament", "at", "actor", "action", "detail")
    readonly_fields = fields
