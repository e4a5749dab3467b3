"""Request fields that take JSON as sent, and request bodies that refuse keys they do not know.

DRF's own fields coerce: ``"3"`` and ``3.0`` pass an ``IntegerField``, ``"yes"`` and ``1`` a
``BooleanField``, ``3`` a ``CharField``. The OpenAPI schema says ``integer``, ``boolean`` and
``string``, so the server takes exactly those JSON types: a typo is refused
with its field named rather than guessed at, and a client generated from the schema and one
written by hand get the same answers.

``ClosedSerializer`` refuses a key it does not know (error ``unknown_field``, naming the first
and listing the known ones): a misspelt option would otherwise be dropped and the request served
differently from what was asked. Its schema says ``additionalProperties: false``
(``games.web.schema``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from drf_spectacular.drainage import set_override
from rest_framework import serializers

from games.web.exceptions import ApplicationError


class StrictCharField(serializers.CharField):
    """A JSON string, never a number turned into one."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictBooleanField(serializers.BooleanField):
    """JSON true or false, not "yes", 1 or "on"."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid")
        return data


class StrictIntegerField(serializers.IntegerField):
    """A JSON whole number, not "3", 3.0 or true."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictChoiceField(serializers.ChoiceField):
    """A JSON string that is one of the choices, not a number that reads as one."""

    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):
            self.fail("invalid_choice", input=data)
        return super().to_internal_value(data)


class ClosedSerializer(serializers.Serializer):
    """Refuses fields it does not know, naming the first one and listing the known ones."""

    def to_internal_value(self, data: Any) -> dict[str, Any]:
        if isinstance(data, Mapping):
            unknown = sorted(str(key) for key in data if key not in self.fields)
            if unknown:
                raise self.unknown_fields(unknown)
        return super().to_internal_value(data)

    def unknown_fields(self, unknown: list[str]) -> ApplicationError:
        """The refusal of the keys ``unknown`` (sorted); a body may word its own."""
        message = "unknown field" if unknown[0] else "unknown field: an empty key"
        return ApplicationError(
            message, field=unknown[0], allowed=sorted(self.fields), code="unknown_field"
        )


class StrictEnumField(StrictCharField):
    """A JSON string from a closed set, stated in the schema as an ``enum``.

    The value is checked where it is used (a resolver, a service), whose error names the field and
    lists the allowed values; this field checks only that it is a string, so there is one check
    and one message, and the schema says what that check accepts.
    """

    def __init__(self, values: Iterable[str], **kwargs: Any) -> None:
        self.values = tuple(values)
        super().__init__(**kwargs)
        set_override(self, "field", {"type": "string", "enum": list(self.values)})


class SchemaStated:
    """A field whose value a resolver or a service checks in full, with the error that names
    the exact key and explains (``options.win``, "only the most favourable terrain adjustment
    applies"); ``schema=`` states in the OpenAPI schema what that check accepts, so there is one
    check and the schema agrees with it."""

    def __init__(self, *args: Any, schema: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        set_override(self, "field", schema)


class DocumentedDictField(SchemaStated, serializers.DictField):
    """A JSON object, its keys and values stated by ``schema``."""


class DocumentedListField(SchemaStated, serializers.ListField):
    """A JSON array, its items and length stated by ``schema``."""


class DocumentedIntegerField(SchemaStated, StrictIntegerField):
    """A JSON whole number, its range stated by ``schema``."""


def whole_number(minimum: int, maximum: int) -> dict[str, Any]:
    """The schema of a whole number from ``minimum`` to ``maximum``."""
    return {"type": "integer", "minimum": minimum, "maximum": maximum}
