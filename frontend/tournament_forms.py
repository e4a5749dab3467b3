"""The form of ``/tournaments/new``: its fields are generated from the one description of a
tournament's settings (``games.tournaments.settings``), and it hands the service a
``TournamentSettings``.

The form only turns text into types (numbers, dates, lists) and offers the closed choices, with
the limits, labels and initial values the settings state; it does not repeat the service's
rules, so a refusal comes from one place and is shown next to the field the service names
(``FIELD_OF`` maps its names onto the form's).
"""

from __future__ import annotations

from dataclasses import MISSING
from typing import Any

from django import forms

from games.tournaments import settings
from games.tournaments.settings import Kind, Setting, TournamentSettings
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
#: The settings of the event itself, shown first; the others are grouped by the play they
#: apply to, then the entries and rounds.
EVENT = ("name", "description", "play", "format", "rated")
#: The form's own fields for the Fast Risk rules options (``options``): the two a tournament
#: sets; the games take the other options at their defaults.
OPTION_FIELDS = ("win", "round_limit")
#: A plain text input: a browser's date-time picker takes a Tab per part and shows its focus
#: inside its parts, which the site's keyboard checks cannot see.
DATETIME = forms.DateTimeInput(format="%Y-%m-%d %H:%M", attrs={"placeholder": "YYYY-MM-DD HH:MM"})
#: Settings typed on several lines.
TEXTAREA_ROWS = {"description": 3, "room_sides": 2}


def _names(name: str) -> tuple[str, ...]:
    """The form's field names for a setting (the options are two fields)."""
    return OPTION_FIELDS if settings.SETTINGS[name].kind == Kind.OPTIONS else (name,)


def _group(play: str | None) -> tuple[str, ...]:
    return tuple(
        field
        for name, setting in settings.SETTINGS.items()
        if setting.play == play and name not in EVENT
        for field in _names(name)
    )


#: The form's fieldsets: (legend, field names).
GROUPS = (
    ("The event", EVENT),
    ("Fast Risk games", _group(settings.FAST_RISK)),
    ("Correspondence rooms", _group(settings.ROOM)),
    ("Entries and rounds", _group(None)),
)


def form_field(name: str, setting: Setting) -> forms.Field:
    """The form field of one setting, from its metadata: its limits, label and initial value."""
    given = settings.default(name)
    common: dict[str, Any] = {"label": setting.label}
    if given is not MISSING and given not in ("", None):
        common["initial"] = given
    # A setting with a default may be left empty, except those whose empty value is no value
    # (a whole number, a closed choice without a blank one).
    optional = given is not MISSING and (
        setting.null or given == "" or setting.kind == Kind.BOOLEAN
    )
    common["required"] = not optional
    kind = setting.kind
    if kind == Kind.CHOICE:
        return forms.ChoiceField(choices=list(setting.choices), **common)
    if kind == Kind.INTEGER:
        return forms.IntegerField(min_value=setting.low, max_value=setting.high, **common)
    if kind == Kind.BOOLEAN:
        return forms.BooleanField(**common)
    if kind == Kind.DATETIME:
        return forms.DateTimeField(widget=DATETIME, **common)
    rows = TEXTAREA_ROWS.get(name)
    widget = forms.Textarea(attrs={"rows": rows}) if rows else None
    if kind == Kind.TEXT:
        return forms.CharField(max_length=setting.max_length, widget=widget, **common)
    return forms.CharField(widget=widget, **common)  # a list, read by its clean_ method


def _option_fields() -> dict[str, forms.Field]:
    return {
        "win": forms.ChoiceField(choices=[(w, w.replace("-", " ")) for w in WIN_CONDITIONS]),
        "round_limit": forms.IntegerField(
            min_value=1, max_value=1000, required=False, label="Round limit (for “round limit”)"
        ),
    }


def form_fields(table: dict[str, Setting] | None = None) -> dict[str, forms.Field]:
    """Every field of the form, generated from ``table`` (``settings.SETTINGS``; a test passes
    a changed one to see the fields follow)."""
    table = settings.SETTINGS if table is None else table
    fields: dict[str, forms.Field] = {}
    for name, setting in table.items():
        fields.update(_option_fields() if setting.kind == Kind.OPTIONS else
                      {name: form_field(name, setting)})  # fmt: skip
    return fields


class TournamentForm(forms.Form):
    """Every setting of ``TournamentSettings``; the Fast Risk ones apply to ``play=fast_risk``,
    the room ones to ``play=room`` (the other group is ignored, as the service ignores it)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields.update(form_fields())

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

    def tournament_settings(self) -> TournamentSettings:
        """The cleaned form as the service's settings: the group of the chosen play, and the
        Fast Risk options from their two fields."""
        data = dict(self.cleaned_data)
        options: dict[str, Any] = {"win": data.pop("win")}
        if (limit := data.pop("round_limit")) is not None:
            options["round_limit"] = limit
        return TournamentSettings.of({**data, "options": options})

    def refused(self, exc: ApplicationError) -> None:
        """Show the service's refusal next to the field it names (else above the form)."""
        field = exc.field or ("name" if exc.code == "name_taken" else None)
        if field is not None:
            base = field.split(".")[0]
            field = FIELD_OF.get(field) or FIELD_OF.get(base, base)
        self.add_error(field if field in self.fields else None, exc.message)
