"""The form of ``/tournaments/new``: it parses what a browser sends into the keyword arguments
of ``games.tournaments.setup.tournament_create``; the service checks every setting.

The form only turns text into types (numbers, dates, lists) and offers the closed choices; it
does not repeat the service's rules, so a refusal comes from one place and is shown next to the
field the service names (``FIELD_OF`` maps its names onto the form's).
"""

from __future__ import annotations

from typing import Any

from django import forms

from combat.axis_allies.editions import available_editions
from games.models import AI_LEVELS, Game, Room, Tournament
from games.web.exceptions import ApplicationError
from risk.rules.state import WIN_CONDITIONS

#: The service's field names that the form calls differently.
FIELD_OF = {
    "options.win": "win",
    "options.round_limit": "round_limit",
    "system": "room_system",
    "rules": "room_rules",
    "edition": "room_edition",
    "sides": "room_sides",
}
#: A&A rules a room tournament offers (``games.rooms.setup.RULES``).
ROOM_RULES = [
    ("", "(A&A only) dice"),
    ("dice", "Dice"),
    ("lowluck", "Low Luck"),
    ("chess", "A&A Chess"),
]
#: The form's fieldsets: (legend, field names).
GROUPS = (
    ("The event", ("name", "description", "play", "format", "rated")),
    ("Fast Risk games", ("win", "round_limit", "time_control", "minutes", "days", "ai_level")),
    (
        "Correspondence rooms",
        ("room_system", "room_rules", "room_edition", "room_sides", "days_per_turn"),
    ),
    (
        "Entries and rounds",
        (
            "registration_opens",
            "registration_closes",
            "min_entrants",
            "max_entrants",
            "rounds",
            "table_min",
            "table_max",
            "place_points",
            "late_entry_rounds",
            "auto_pair",
        ),
    ),
)
#: A plain text input: a browser's date-time picker takes a Tab per part and shows its focus
#: inside its parts, which the site's keyboard checks cannot see.
DATETIME = forms.DateTimeInput(format="%Y-%m-%d %H:%M", attrs={"placeholder": "YYYY-MM-DD HH:MM"})


def _number(low: int, high: int, **kwargs: Any) -> forms.IntegerField:
    return forms.IntegerField(min_value=low, max_value=high, **kwargs)


class TournamentForm(forms.Form):
    """Every setting of ``tournament_create``; the Fast Risk ones apply to ``play=fast_risk``,
    the room ones to ``play=room`` (the other group is ignored, as the service ignores it)."""

    name = forms.CharField(max_length=80)
    description = forms.CharField(
        required=False, max_length=4000, widget=forms.Textarea(attrs={"rows": 3})
    )
    play = forms.ChoiceField(
        choices=[
            ("fast_risk", "Fast Risk games"),
            ("room", "Correspondence rooms (A&A, WiF, France 1944)"),
        ]
    )
    format = forms.ChoiceField(
        choices=[
            ("round_robin", "Round robin (1 v 1)"),
            ("swiss", "Swiss (1 v 1)"),
            ("knockout", "Knockout (1 v 1)"),
            ("tables", "Multiplayer tables (Fast Risk, 3-6)"),
        ]
    )
    # Fast Risk games, as the lobby's create form offers them.
    win = forms.ChoiceField(choices=[(w, w.replace("-", " ")) for w in WIN_CONDITIONS])
    round_limit = _number(1, 1000, required=False, label="Round limit (for “round limit”)")
    time_control = forms.ChoiceField(choices=Game.TimeControl.choices, initial="correspondence")
    minutes = _number(1, 240, required=False, label="Minutes per decision (live)")
    days = _number(1, 30, required=False, initial=3, label="Days per decision (correspondence)")
    ai_level = forms.ChoiceField(
        choices=[(level, level) for level in AI_LEVELS],
        initial="hard",
        label="AI level (bot stand-ins, allied armies)",
    )
    # Correspondence rooms.
    room_system = forms.ChoiceField(
        required=False, label="Room system", choices=[("", "(rooms only)"), *Room.System.choices]
    )
    room_rules = forms.ChoiceField(required=False, label="A&A rules", choices=ROOM_RULES)
    room_edition = forms.ChoiceField(
        required=False,
        label="A&A edition",
        choices=[("", "(A&A only) revised"), *((e, e) for e in sorted(available_editions()))],
    )
    room_sides = forms.CharField(
        required=False,
        label="The two sides, first-named first (one per line; empty: the system's)",
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    days_per_turn = _number(
        1, 60, required=False, initial=7, label="Days per turn (rooms; empty: untimed)"
    )
    # The event.
    rated = forms.BooleanField(required=False, initial=True, label="Rated")
    registration_opens = forms.DateTimeField(
        required=False,
        widget=DATETIME,
        label="Registration opens (YYYY-MM-DD HH:MM, UTC; empty: now)",
    )
    registration_closes = forms.DateTimeField(
        required=False,
        widget=DATETIME,
        label="Registration closes (YYYY-MM-DD HH:MM, UTC; empty: at the start)",
    )
    min_entrants = _number(
        2, 256, required=False, label="Fewest entrants (empty: 2, or the smallest table)"
    )
    max_entrants = _number(2, 256, initial=64, label="Most entrants")
    rounds = _number(
        1,
        30,
        required=False,
        label="Rounds (Swiss and tables; Swiss empty: log2 of the field; others: from the field)",
    )
    table_min = _number(3, 6, initial=3, label="Smallest table (tables)")
    table_max = _number(3, 6, initial=6, label="Largest table (tables)")
    place_points = forms.CharField(
        required=False, label="Points for 1st, 2nd, … place (tables; empty: 10, 6, 4, 3, 2, 1)"
    )
    late_entry_rounds = _number(
        0, 30, initial=0, label="Late entries until this many rounds are paired (Swiss, tables)"
    )
    auto_pair = forms.BooleanField(
        required=False,
        initial=True,
        label="Pair the next round as soon as the last one is complete",
    )

    def add_error(self, field: str | None, error: Any) -> None:
        """Also point each field in error at its message (``aria-describedby``)."""
        super().add_error(field, error)
        for name in self._errors or {}:
            if name in self.fields:
                self.fields[name].widget.attrs["aria-describedby"] = f"id_{name}-error"

    def clean_place_points(self) -> list[float] | None:
        text = self.cleaned_data["place_points"].strip()
        if not text:
            return None
        try:
            return [float(p) for p in text.replace(",", " ").split()]
        except ValueError:
            raise forms.ValidationError("numbers separated by commas") from None

    def clean_room_sides(self) -> list[str] | None:
        sides = [line.strip() for line in self.cleaned_data["room_sides"].splitlines()]
        return [s for s in sides if s] or None

    def service_kwargs(self) -> dict[str, Any]:
        """The cleaned form as ``tournament_create``'s keyword arguments (no ``actor``)."""
        data = dict(self.cleaned_data)
        common = {
            key: data[key]
            for key in (
                "name",
                "description",
                "play",
                "format",
                "rated",
                "registration_opens",
                "registration_closes",
                "min_entrants",
                "max_entrants",
                "rounds",
                "table_min",
                "table_max",
                "place_points",
                "late_entry_rounds",
                "auto_pair",
            )
        }
        if data["play"] == Tournament.Play.FAST_RISK:
            options: dict[str, Any] = {"win": data["win"]}
            if data["round_limit"] is not None:
                options["round_limit"] = data["round_limit"]
            return {
                **common,
                "options": options,
                "time_control": data["time_control"],
                "minutes": data["minutes"],
                "days": data["days"],
                "ai_level": data["ai_level"],
            }
        return {
            **common,
            "room_system": data["room_system"],
            "room_rules": data["room_rules"],
            "room_edition": data["room_edition"],
            "room_sides": data["room_sides"],
            "days_per_turn": data["days_per_turn"],
        }

    def refused(self, exc: ApplicationError) -> None:
        """Show the service's refusal next to the field it names (else above the form)."""
        field = exc.field or ("name" if exc.code == "name_taken" else None)
        if field is not None:
            base = field.split(".")[0]
            field = FIELD_OF.get(field) or FIELD_OF.get(base, base)
        self.add_error(field if field in self.fields else None, exc.message)
