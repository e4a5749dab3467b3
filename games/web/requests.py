"""What every feature's API reads from a request the same way: the JSON body through a
serializer, query parameters given once and written plainly, the ``after`` of a paged read, and
the error answers each view documents."""

from __future__ import annotations

import re
from typing import Any

from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.request import Request

from games.web.exceptions import ApplicationError, ErrorSerializer
from games.web.web_errors import ID_MAX

#: The error answers every view documents (each a body in the one error shape).
ERRORS = {400: ErrorSerializer, 401: ErrorSerializer, 403: ErrorSerializer,
          404: ErrorSerializer, 409: ErrorSerializer}  # fmt: skip

#: A whole number as a query parameter: digits, with a minus sign for a 400 min_value.
WHOLE = re.compile(r"-?[0-9]+")


def query_count(request: Request, name: str) -> int:
    """A query parameter that is a whole number from 0 to ``ID_MAX`` (0 when absent), given once
    and written as one: "0.0" or "1e3" would pass DRF's ``IntegerField``, and a repeated
    parameter would be read as its last value, the others dropped unsaid."""
    values = request.query_params.getlist(name)
    if len(values) > 1:
        raise ApplicationError(f"give {name} once", code="invalid", field=name)
    raw = values[0] if values else "0"
    if not WHOLE.fullmatch(raw):
        raise ApplicationError("a whole number, such as 12", code="invalid", field=name)
    try:
        return serializers.IntegerField(min_value=0, max_value=ID_MAX).run_validation(raw)
    except serializers.ValidationError as exc:
        raise serializers.ValidationError({name: exc.detail}) from exc


def query_choice(request: Request, name: str, allowed: list[str]) -> str | None:
    """A query parameter that is one of ``allowed``, given at most once (None when absent)."""
    values = request.query_params.getlist(name)
    if not values:
        return None
    if len(values) > 1:
        raise ApplicationError(f"give {name} once", code="invalid", field=name)
    if values[0] not in allowed:
        raise ApplicationError(
            f"not a valid {name}", code="invalid_choice", field=name, allowed=allowed
        )
    return values[0]


def valid(serializer_class: type[serializers.Serializer], request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise ApplicationError("expected a JSON object", code="parse_error", field="body")
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


def after_param(description: str) -> OpenApiParameter:
    """The ``after`` query parameter of a paged read (the log, the chat): an id, 0 by default."""
    return OpenApiParameter(
        "after",
        {"type": "integer", "minimum": 0, "maximum": ID_MAX},
        required=False,
        description=description,
    )
