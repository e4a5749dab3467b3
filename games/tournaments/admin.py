"""Tournaments in the admin: added through ``tournament_create``, run by actions that call
the tournament services, the staff log read-only."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db import transaction
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join

from games.common.admin import OperatorActions, ReadOnlyInline
from games.models import (
    AI_LEVELS,
    Game,
    Room,
    Tournament,
    TournamentAction,
    TournamentEntrant,
    TournamentRound,
)
from games.tournaments import pairing
from games.tournaments import setup as tournament_setup
from games.tournaments.log import logged
from games.tournaments.settings import TournamentSettings
from games.web.admin_secrets import ReadOnly, SecretSafeAdmin
from games.web.exceptions import ApplicationError

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

    def tournament_settings(self) -> TournamentSettings:
        """The model form's columns as the service's settings (an allowance back into the
        minutes or days it was made from)."""
        data = {name: self.cleaned_data.get(name) for name in TOURNAMENT_SETTINGS}
        allowance = data.pop("time_per_decision")
        seconds = int(allowance.total_seconds()) if allowance else 0
        data["minutes"], data["days"] = seconds // 60 or None, seconds // 86400 or None
        data["options"] = data["options"] or {}
        data["room_sides"] = data["room_sides"] or None
        data["place_points"] = data["place_points"] or None
        return TournamentSettings(**data)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if self.errors:
            return cleaned
        try:
            with transaction.atomic():
                tournament_setup.tournament_create(
                    actor=self.actor, settings=self.tournament_settings()
                )
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
            created = tournament_setup.tournament_create(
                actor=request.user, settings=form.tournament_settings()
            )
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
