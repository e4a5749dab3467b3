"""Maps in the admin: upload a map file, edit a draft with inlines, publish it, try it against bots.

A draft is the only editable version (``risk.models``): every save of one runs the validator on
its rows and lists each fault it finds (``risk.maps.documents.row_problems``), so whoever edits
sees at once what stands between the draft and a playable map. Publishing (an action) runs it
again and is refused, each fault named, until there are none; a published or trial version is
read-only here, and "New draft from this version" copies it to change it. "Try against bots"
(a draft's page) freezes a trial copy and starts a private, unrated game on it
(``games.play.admin.map_try``).

A game's own board is not here: it is a JSON row, shown by ``games.admin``.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from risk.maps import store
from risk.maps.documents import row_problems
from risk.models import Border, Continent, Lane, Map, Ocean, Station, Territory

#: The request attribute that tells the inlines which map they belong to.
_EDITED = "_risk_map_edited"
#: The ids of the datalists the change page offers the typed names from.
DATALISTS = {Territory: "risk-map-territories", Station: "risk-map-stations"}


class PickedByName(forms.ModelChoiceField):
    """A territory or a station of the map, typed by its name (a station as ``Ocean:Territory``)
    with the map's names offered by a datalist: a select of every station at each end of 83 lanes
    (and of every territory at each end of 83 borders) made the classic map's page 1.5 MB."""

    widget = forms.TextInput

    def __init__(self, queryset: QuerySet, *, names: dict[int, str], **kwargs: Any) -> None:
        kwargs.pop("widget", None)
        super().__init__(queryset, **kwargs)
        self.names = names
        self.pk_of = {name: pk for pk, name in names.items()}

    def prepare_value(self, value: Any) -> Any:
        if hasattr(value, "pk"):
            value = value.pk
        return self.names.get(value, value)

    def to_python(self, value: Any) -> Any:
        if value in self.empty_values:
            return None
        pk = self.pk_of.get(str(value).strip())
        if pk is None:
            raise forms.ValidationError(
                f"{value!r} is not a name of this map", code="invalid_choice"
            )
        return self.queryset.get(pk=pk)

    def has_changed(self, initial: Any, data: Any) -> bool:
        return str(self.prepare_value(initial) or "") != str(data or "")


def map_names_of(request: HttpRequest, model: Any, edited: Any) -> dict[int, str]:
    """{pk: name} of the edited map's territories or stations (a station: its key), read once a
    page."""
    cache: dict[Any, dict[int, str]] = request.__dict__.setdefault("_risk_map_names", {})
    if model not in cache:
        rows = model.objects.filter(map=edited) if edited else model.objects.none()
        if model is Station:
            rows = rows.select_related("ocean", "territory")
        cache[model] = {row.pk: str(row) for row in rows}
    return cache[model]


class MapPartInline(admin.TabularInline):
    """Rows of one map, editable while it is a draft; their choices are the map's own rows."""

    extra = 0
    #: What a row's name is made of, read with the rows (not one query per row).
    related: tuple[str, ...] = ()

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        return super().get_queryset(request).select_related(*self.related)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        edited = getattr(request, _EDITED, None)
        model = db_field.related_model
        if model in DATALISTS:
            rows = model.objects.filter(map=edited) if edited else model.objects.none()
            field = PickedByName(
                rows, names=map_names_of(request, model, edited), required=not db_field.blank,
                label=db_field.verbose_name.capitalize(),
            )  # fmt: skip
            field.widget.attrs.update({"list": DATALISTS[model], "size": 24})
            return field
        field = super().formfield_for_foreignkey(db_field, request, **kwargs)
        if field is not None and model is not Map:
            field.queryset = model.objects.filter(map=edited) if edited else model.objects.none()
            # The choices read once a page, not once a row.
            cache: dict[Any, Any] = request.__dict__.setdefault("_risk_map_choices", {})
            if model not in cache:
                cache[model] = list(field.choices)
            field.choices = cache[model]
        return field

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _editable(obj) and super().has_add_permission(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _editable(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _editable(obj) and super().has_delete_permission(request, obj)


def _editable(the_map: Any) -> bool:
    return the_map is None or the_map.status == Map.Status.DRAFT


class ContinentInline(MapPartInline):
    model = Continent
    fields = ("name", "bonus", "position")


class TerritoryInline(MapPartInline):
    model = Territory
    related = ("continent",)
    fields = ("name", "continent", "card", "position", "label_x", "label_y", "polygon")


class BorderInline(MapPartInline):
    model = Border
    related = ("a", "b")
    fields = ("a", "b", "link", "wrap")


class OceanInline(MapPartInline):
    model = Ocean
    fields = ("name", "position", "label_x", "label_y")


class StationInline(MapPartInline):
    model = Station
    related = ("ocean", "territory")
    fields = ("ocean", "territory", "x", "y", "board_x", "board_y")


class LaneInline(MapPartInline):
    model = Lane
    related = ("a__ocean", "a__territory", "b__ocean", "b__territory")
    fields = ("a", "b", "length", "position")


class UploadForm(forms.Form):
    name = forms.SlugField(max_length=40, help_text="The map's name, e.g. islands.")
    file = forms.FileField(
        help_text="A map file: the map document with its drawn board under 'board' (the format "
        "of risk/data and of 'Download the map file')."
    )


@admin.register(Map)
class MapAdmin(admin.ModelAdmin):
    list_display = ("name", "version", "title", "status", "author", "created_at", "published_at")
    list_filter = ("status",)
    search_fields = ("name", "title")
    ordering = ("name", "version")
    readonly_fields = ("version", "status", "created_at", "published_at")
    fields = (
        "name", "version", "title", "status", "author", "wild_cards", "min_seats", "max_seats",
        "view_box", "notes", "board_notes", "created_at", "published_at",
    )  # fmt: skip
    inlines = [
        ContinentInline, TerritoryInline, BorderInline, OceanInline, StationInline, LaneInline,
    ]  # fmt: skip
    actions = ["publish", "new_draft"]
    change_form_template = "admin/risk/map/change_form.html"
    change_list_template = "admin/risk/map/change_list.html"

    def get_urls(self) -> list[Any]:
        upload = path(
            "upload/", self.admin_site.admin_view(self.upload_view), name="risk_map_upload"
        )
        return [upload, *super().get_urls()]

    def get_form(self, request: HttpRequest, obj: Any = None, **kwargs: Any) -> Any:
        setattr(request, _EDITED, obj)  # the inlines offer this map's rows only
        return super().get_form(request, obj, **kwargs)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        if obj is not None and obj.pk and obj.name:
            return (*self.readonly_fields, "name")  # a version keeps its map's name
        return self.readonly_fields

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _editable(obj) and super().has_change_permission(request, obj)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return _editable(obj) and super().has_delete_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Map, form: Any, change: bool) -> None:
        if not change:
            obj.version = store.next_version(obj.name)
            obj.author = obj.author or request.user
        super().save_model(request, obj, form, change)

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        """After the rows are saved: the validator on the whole draft, each fault named."""
        super().save_related(request, form, formsets, change)
        faults = row_problems(form.instance)
        for fault in faults:
            self.message_user(request, str(fault), messages.ERROR)
        if faults:
            self.message_user(
                request,
                f"{form.instance.ref} is saved as a draft with {len(faults)} fault(s): it "
                "cannot be tried or published until they are mended.",
                messages.WARNING,
            )
        else:
            self.message_user(request, f"{form.instance.ref} has no fault: it can be published.")

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:  # fmt: skip
        found = Map.objects.filter(pk=object_id).first()
        extra = dict(extra_context or {})
        if found is not None:
            extra["datalists"] = {
                DATALISTS[model]: sorted(map_names_of(request, model, found).values())
                for model in DATALISTS
            }
            extra["map_file_url"] = reverse("map-version", args=[found.name, found.version])
            extra["try_url"] = reverse("map-try", args=[found.pk])
            extra["seat_choices"] = list(range(found.min_seats, found.max_seats + 1))
        return super().change_view(request, object_id, form_url, extra)

    # --- actions ----------------------------------------------------------------------------

    @admin.action(description="Publish the selected drafts (the validator runs first)")
    def publish(self, request: HttpRequest, queryset: QuerySet) -> None:
        for the_map in queryset:
            try:
                done = store.publish(the_map)
            except store.MapRefused as refused:
                for line in refused.lines():
                    self.message_user(request, f"{the_map.ref}: {line}", messages.ERROR)
            else:
                self.message_user(request, f"{done.ref} is published.", messages.SUCCESS)

    @admin.action(description="New draft from the selected versions")
    def new_draft(self, request: HttpRequest, queryset: QuerySet) -> None:
        for the_map in queryset:
            draft = store.new_draft(the_map, author=request.user)
            link = reverse("admin:risk_map_change", args=[draft.pk])
            self.message_user(
                request, format_html('<a href="{}">{}</a>: a new draft of {}', link, draft.ref,
                                     the_map.ref),
            )  # fmt: skip

    # --- the upload page --------------------------------------------------------------------

    def upload_view(self, request: HttpRequest) -> HttpResponse:
        """A map file as a new draft, or the page again with each fault named."""
        form = UploadForm(request.POST or None, request.FILES or None)
        faults: list[str] = []
        if request.method == "POST" and form.is_valid():
            try:
                raw = json.loads(form.cleaned_data["file"].read().decode("utf-8"))
                draft = store.upload(raw, name=form.cleaned_data["name"], author=request.user)
            except (UnicodeDecodeError, json.JSONDecodeError) as exc:
                faults = [f"[bad-json] the file is not JSON: {exc}"]
            except store.MapRefused as refused:
                faults = refused.lines()
            else:
                self.message_user(request, f"{draft.ref} is uploaded as a draft.")
                return HttpResponseRedirect(reverse("admin:risk_map_change", args=[draft.pk]))
        context = {
            **self.admin_site.each_context(request), "opts": self.model._meta, "form": form,
            "faults": faults, "title": "Upload a map file",
        }  # fmt: skip
        return TemplateResponse(request, "admin/risk/map/upload.html", context)
