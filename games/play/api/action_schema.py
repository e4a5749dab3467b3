"""The actions of Fast Risk in the OpenAPI schema, one component each.

Built from ``risk.rules.actions.ACTION_TYPES`` (the dataclasses ``action_from_dict`` parses), so
the schema names the same fields, types and required keys the parser checks: a field with a
default may be left out, ``str | None`` may be null, a tuple is an array (a pair such as a
flank, ``[source, armies]``, an array of exactly two). ``player`` is the actor's name; the
server takes it from the caller's seat, so a client may leave it out or send null. Whether an
action is allowed now is the engine's business (``legal_actions`` lists what is, with its
choices).
"""

from __future__ import annotations

import types
import typing
from dataclasses import MISSING, fields
from functools import cache
from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from games.web.strict import ClosedSerializer, DocumentedListField
from risk.rules.actions import ACTION_TYPES, Action

SCALARS: dict[Any, dict[str, Any]] = {
    str: {"type": "string", "minLength": 1},  # the parser refuses an empty string
    int: {"type": "integer"},
    bool: {"type": "boolean"},
}


def json_schema(hint: Any) -> dict[str, Any]:
    """The JSON schema of a field annotated ``hint`` as ``action_from_dict`` reads it."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        (inner,) = [a for a in typing.get_args(hint) if a is not type(None)]
        return {**json_schema(inner), "nullable": True}
    if origin is tuple:
        args = typing.get_args(hint)
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": json_schema(args[0])}
        kinds = [json_schema(a) for a in args]
        items = kinds[0] if all(k == kinds[0] for k in kinds) else {"oneOf": kinds}
        return {"type": "array", "items": items, "minItems": len(args), "maxItems": len(args)}
    return dict(SCALARS[hint])


def _field(name: str, hint: Any, required: bool) -> serializers.Field:
    schema = json_schema(hint)
    nullable = bool(schema.pop("nullable", False))
    kind = schema["type"]
    if kind == "array":
        return DocumentedListField(schema=schema, required=required, allow_null=nullable)
    field_class = {"string": serializers.CharField, "integer": serializers.IntegerField,
                   "boolean": serializers.BooleanField}[kind]  # fmt: skip
    extra = {"allow_blank": False, "trim_whitespace": False} if kind == "string" else {}
    return field_class(required=required, allow_null=nullable, **extra)


def action_serializer(cls: type[Action]) -> type[serializers.Serializer]:
    """A serializer class (for the schema only) stating ``cls``'s JSON form."""
    hints = typing.get_type_hints(cls)
    attrs: dict[str, Any] = {
        "type": serializers.ChoiceField(choices=[cls.type]),
        "__doc__": (cls.__doc__ or cls.type).strip().splitlines()[0],
    }
    for f in fields(cls):
        if f.name == "player":
            attrs["player"] = serializers.CharField(
                required=False, allow_null=True, trim_whitespace=False,
                help_text="The caller's own player name, or null, or left out: the server acts "
                "for the caller's seat (another name is 403 not_your_decision).",
            )  # fmt: skip
            continue
        has_default = f.default is not MISSING or f.default_factory is not MISSING
        attrs[f.name] = _field(f.name, hints[f.name], required=not has_default)
    name = "".join(part.capitalize() for part in cls.type.split("_")) + "Action"
    # A closed serializer: the parser refuses unknown keys, so ``additionalProperties: false``.
    return type(name, (ClosedSerializer,), attrs)


@cache
def action_component() -> PolymorphicProxySerializer:
    """Every action type, told apart by ``type`` (a discriminator), each its own component."""
    return PolymorphicProxySerializer(
        component_name="Action",
        serializers={kind: action_serializer(cls) for kind, cls in ACTION_TYPES.items()},
        resource_type_field_name="type",
    )
