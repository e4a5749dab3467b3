"""Admin changelists that cannot be used as an oracle on secret fields.

Django's changelist accepts any lookup on the model's own fields as a URL filter
(``ModelAdmin.lookup_allowed`` only checks lookups that span relations), so
``?server_seed__startswith=3`` answers "is there a game whose seed starts with 3": a running
game's whole seed came out in a few hundred requests. ``SecretSafeAdmin`` closes that door:

- **Filters**: a URL lookup is accepted only if it is a parameter of one of the admin's declared
  ``list_filter``s (or of its ``date_hierarchy``), and never if it touches a secret field, on
  this model or across a relation. Anything else is refused the way Django refuses a lookup it
  does not allow: ``DisallowedModelAdminLookup``, a 400, whatever the value.
- **Ordering**: ``?o=`` orders only by the columns in ``sortable_by`` (Django itself orders by
  any ``list_display`` column, whatever ``sortable_by`` says) and never by a secret field.
- **Declarations**: a system check (``warboard.E001``) fails when ``list_display``,
  ``list_filter``, ``search_fields``, ``ordering``, ``sortable_by``, ``date_hierarchy``,
  ``fields``/``fieldsets``/``readonly_fields`` name a secret field, or when the change form would
  show every field of a model with a secret. So a secret is never searchable, filterable,
  orderable or shown raw; an admin shows it through a method that reveals it only once it is
  public (``GameAdmin.revealed_seed``, ``AABattleAdmin.revealed_seed``).

The secret fields are listed in ``SECRET_FIELDS`` by model label, so a lookup reaching one
through any relation (``game__server_seed``, ``creator__aa_battles__seed``) is caught too.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from django.contrib.admin import FieldListFilter, ListFilter, ModelAdmin
from django.contrib.admin.utils import get_fields_from_path
from django.contrib.admin.views.main import ChangeList
from django.core import checks
from django.core.exceptions import FieldDoesNotExist
from django.db.models import F, Model, OrderBy
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpRequest

#: ``app_label.ModelName`` -> the fields whose values must never be shown raw, filtered, searched
#: or ordered on in the admin. They are secret while their game runs (or their battle is open);
#: refused always, as nothing an operator does needs them as a filter.
SECRET_FIELDS: dict[str, frozenset[str]] = {
    # Decides every roll and the card order; public once the game is finished.
    "games.Game": frozenset({"server_seed"}),
    # Mixed into the game's seed at the start.
    "games.Seat": frozenset({"client_seed"}),
    # The engine's seed, the deck order and every hand.
    "games.GameSnapshot": frozenset({"state"}),
    # The dice context and rolls of each action: served by the replay API once the game is over.
    "games.ActionLog": frozenset({"context", "rolls"}),
    # A correspondence room's dice seed: public once the room has ended.
    "games.Room": frozenset({"server_seed"}),
    # Where each card of a game is (hands, the draw piles' order): shown through a method, and
    # only for finished games (``games.play.admin``).
    "games.Card": frozenset({"card"}),
    # A stored battle's seed: secret until whoever asked for the battle closes it.
    "combat.AABattle": frozenset({"seed"}),
    # Password hashes, reachable from any model with a user foreign key.
    "auth.User": frozenset({"password"}),
}


def is_secret(model: type[Model], field_name: str) -> bool:
    return field_name in SECRET_FIELDS.get(model._meta.label, frozenset())


def secret_in_path(model: type[Model], path: str, *, ordering: bool = False) -> str | None:
    """The secret field ``path`` (a lookup, search field or ordering) touches, as
    ``label.field``, else None. Parts after the last field (``__startswith``, a JSON key) are
    transforms of that field. With ``ordering``, a path ending on a relation orders by the
    related model's ``Meta.ordering``, which is followed as well."""
    path = path.lstrip("-").lstrip("^=@")  # an ordering's "-", a search field's prefix
    for part in path.split(LOOKUP_SEP):
        if part == "pk":
            part = model._meta.pk.name
        try:
            field = model._meta.get_field(part)
        except FieldDoesNotExist:
            return None  # a transform or lookup of the previous field, or no field at all
        if is_secret(model, field.name):
            return f"{model._meta.label}.{field.name}"
        if not field.is_relation or field.related_model is None:
            return None
        model = field.related_model
    if ordering:
        for inner in model._meta.ordering or ():
            name = _ordering_name(inner)
            if name is None:
                return f"{model._meta.label}.ordering"  # an expression: not checked, refused
            found = secret_in_path(model, name, ordering=True)
            if found:
                return found
    return None


def _ordering_name(order: Any) -> str | None:
    """The field path an ordering item names: a string, ``F("x")`` or ``F("x").desc()``."""
    if isinstance(order, str):
        return order
    if isinstance(order, OrderBy):
        order = order.expression
    if isinstance(order, F):
        return order.name
    return None


def _filter_paths(list_filter: Iterable[Any]) -> Iterator[str]:
    """The field paths of declared filters (a ``SimpleListFilter`` declares none)."""
    for item in list_filter:
        if isinstance(item, (list, tuple)):
            item = item[0]
        if isinstance(item, str):
            yield item


class SecretSafeChangeList(ChangeList):
    """Orders by a ``?o=`` column only if it is in ``sortable_by`` and touches no secret."""

    def get_ordering_field(self, field_name: Any) -> Any:
        if field_name not in self.sortable_by:
            return None
        order_field = super().get_ordering_field(field_name)
        if order_field is None:
            return None
        name = _ordering_name(order_field)
        if name is None or secret_in_path(self.model, name, ordering=True):
            return None
        return order_field


class SecretSafeAdmin(ModelAdmin):
    """A ``ModelAdmin`` whose changelist is no oracle on secret fields (the module docstring).
    List it first among an admin's bases, before other mixins and ``ModelAdmin`` itself."""

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        if secret_in_path(self.model, lookup):
            return False
        if lookup not in self.declared_filter_parameters(request):
            return False
        return super().lookup_allowed(lookup, value, request)

    def declared_filter_parameters(self, request: HttpRequest | None) -> set[str]:
        """The URL parameters the declared ``list_filter``s and ``date_hierarchy`` read, as
        Django's own filter classes report them (``status__exact``, ``closed_at__gte``...)."""
        list_filter = self.get_list_filter(request) if request is not None else self.list_filter
        names: set[str] = set()
        for item in list_filter:
            if isinstance(item, type) and issubclass(item, ListFilter):
                spec = item(request, {}, self.model, self)
            else:
                path, filter_class = (
                    item if isinstance(item, (list, tuple)) else (item, FieldListFilter.create)
                )
                field = get_fields_from_path(self.model, path)[-1]
                spec = filter_class(field, request, {}, self.model, self, field_path=path)
            names.update(spec.expected_parameters() or ())
        if self.date_hierarchy:
            names.update(f"{self.date_hierarchy}__{part}" for part in ("year", "month", "day"))
        return names

    def get_changelist(self, request: HttpRequest, **kwargs: Any) -> type[ChangeList]:
        return SecretSafeChangeList

    def get_sortable_by(self, request: HttpRequest) -> Any:
        columns = super().get_sortable_by(request)
        return [c for c in columns if not self._column_is_secret(c)]

    def _column_is_secret(self, column: Any) -> bool:
        if not isinstance(column, str):
            order_field = getattr(column, "admin_order_field", None)
            if order_field is None:
                return False
            name = _ordering_name(order_field)
            return name is None or bool(secret_in_path(self.model, name, ordering=True))
        if is_secret(self.model, column):
            return True
        attr = getattr(self, column, None) or getattr(self.model, column, None)
        if isinstance(attr, property):
            attr = attr.fget
        order_field = getattr(attr, "admin_order_field", None)
        if order_field is None:
            return bool(secret_in_path(self.model, column, ordering=True))
        name = _ordering_name(order_field)
        return name is None or bool(secret_in_path(self.model, name, ordering=True))

    # --- the system check ---------------------------------------------------------------------

    def check(self, **kwargs: Any) -> list[checks.CheckMessage]:
        return [*super().check(**kwargs), *self._check_secrets()]

    def _check_secrets(self) -> list[checks.CheckMessage]:
        model = self.model
        named: list[tuple[str, str]] = []
        named += [("list_filter", p) for p in _filter_paths(self.list_filter)]
        named += [("search_fields", p) for p in self.search_fields or ()]
        named += [("date_hierarchy", self.date_hierarchy)] if self.date_hierarchy else []
        named += [("ordering", p) for p in (self.ordering or ()) if isinstance(p, str)]
        for option in ("list_display", "sortable_by"):
            named += [(option, c) for c in (getattr(self, option) or ()) if isinstance(c, str)]
        shown = list(self.readonly_fields or ())
        if self.fieldsets:
            shown += [f for _, opts in self.fieldsets for f in _flatten(opts.get("fields", ()))]
        elif self.fields:
            shown += list(_flatten(self.fields))
        named += [("fields", f) for f in shown if isinstance(f, str)]

        errors = []
        for option, path in named:
            found = secret_in_path(model, path, ordering=option in ("ordering", "sortable_by"))
            if option in ("list_display", "sortable_by") and not found:
                found = f"{model._meta.label}.{path}" if self._column_is_secret(path) else None
            if found:
                errors.append(
                    checks.Error(
                        f"{option} names {path!r}, which touches the secret field {found}.",
                        hint="Show it through a method that reveals it once it is public.",
                        obj=self.__class__,
                        id="warboard.E001",
                    )
                )
        if not self.fields and not self.fieldsets:
            excluded = set(self.exclude or ())
            for name in sorted(SECRET_FIELDS.get(model._meta.label, ())):
                if name not in excluded:
                    errors.append(
                        checks.Error(
                            f"the change form shows every field, the secret {name!r} too.",
                            hint="Declare fields (or fieldsets), or exclude it.",
                            obj=self.__class__,
                            id="warboard.E001",
                        )
                    )
        return errors


def _flatten(fields: Iterable[Any]) -> Iterator[Any]:
    for item in fields:
        if isinstance(item, (list, tuple)):
            yield from item
        else:
            yield item


class ReadOnly:
    """Rows an operator sees but never adds, edits or deletes by hand: the services write them
    (the admin's actions call those services)."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
