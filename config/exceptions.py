"""One error shape for the whole API, so a client handles every refusal with the same code.

Every 4xx answer has the body ``{"error": {"field": ..., "message": ..., "allowed": ...}}``:
``field`` names where the request went wrong (a dotted path such as ``attacker.tank``, ``body``
for the request as a whole, or null when no one field is to blame), ``message`` is for people,
``allowed`` lists the accepted values when there is a closed set (else null). DRF's own errors
(validation, parse, authentication, 404, 405, ...) are reshaped into it here; the resolvers'
``CombatInputError`` and the services' ``ApplicationError`` already carry field and allowed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from combat.errors import CombatInputError

#: The field name used when the request body as a whole is at fault (not an object, not JSON).
BODY = "body"


class ApplicationError(Exception):
    """A request the services refuse; ``status`` is the HTTP status it becomes."""

    status: int = status.HTTP_400_BAD_REQUEST

    def __init__(
        self, message: str, *, field: str | None = None, allowed: Iterable[object] | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.allowed = [str(a) for a in allowed] if allowed is not None else None


class NotFoundError(ApplicationError):
    status = status.HTTP_404_NOT_FOUND


class ForbiddenError(ApplicationError):
    status = status.HTTP_403_FORBIDDEN


def error_body(
    field: str | None, message: str, allowed: Sequence[str] | None = None
) -> dict[str, Any]:
    return {"error": {"field": field, "message": message, "allowed": allowed}}


def api_exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response | None:
    """DRF's ``EXCEPTION_HANDLER``: every handled error as one ``error_body``; others -> 500."""
    if isinstance(exc, ApplicationError):
        set_rollback()  # as DRF does for its own errors, should ATOMIC_REQUESTS be turned on
        return Response(error_body(exc.field, exc.message, exc.allowed), status=exc.status)
    if isinstance(exc, CombatInputError):
        set_rollback()
        body = error_body(exc.field, _combat_message(exc), exc.allowed)
        return Response(body, status=status.HTTP_400_BAD_REQUEST)
    response = drf_exception_handler(exc, context)  # keeps headers such as Allow, Retry-After
    if response is None:
        return None
    if isinstance(exc, exceptions.ValidationError):
        field, message = _first_error(exc.detail, ())
    else:
        # DRF has already turned Http404 and Django's PermissionDenied into {"detail": ...}.
        detail = response.data.get("detail") if isinstance(response.data, Mapping) else None
        message = str(detail) if detail else response.status_text
        body_at_fault = isinstance(exc, exceptions.ParseError | exceptions.UnsupportedMediaType)
        field = BODY if body_at_fault else None
    response.data = error_body(field, message)
    return response


def _combat_message(exc: CombatInputError) -> str:
    """The bare message: ``str(exc)`` repeats the field in front and the allowed list behind."""
    message = getattr(exc, "message", None)
    if isinstance(message, str):
        return message
    text = str(exc).removeprefix(f"{exc.field}: ")
    if exc.allowed is not None:
        text = text.removesuffix(f" (allowed: {', '.join(exc.allowed)})")
    return text


def _first_error(detail: Any, path: tuple[str, ...]) -> tuple[str, str]:
    """The first message in a DRF error tree, with the dotted path of the field it is about."""
    if isinstance(detail, Mapping):
        for key, value in detail.items():
            step = () if key == api_settings.NON_FIELD_ERRORS_KEY else (str(key),)
            return _first_error(value, path + step)
    elif isinstance(detail, list) and detail:
        # A list of messages, or a ListField's per-item errors (empty dicts for valid items).
        for index, value in enumerate(detail):
            if value:
                step = (str(index),) if isinstance(value, Mapping | list) else ()
                return _first_error(value, path + step)
    elif detail:
        return ".".join(path) or BODY, str(detail)
    return ".".join(path) or BODY, "Invalid input."


class ErrorDetailSerializer(serializers.Serializer):
    """Documents ``error_body`` in the OpenAPI schema (never used to parse anything)."""

    field = serializers.CharField(
        allow_null=True, help_text="Where the request is wrong: a dotted path, 'body' or null."
    )
    message = serializers.CharField(help_text="What is wrong, for people.")
    allowed = serializers.ListField(
        child=serializers.CharField(),
        allow_null=True,
        help_text="The accepted values, when there is a closed set; else null.",
    )


class ErrorSerializer(serializers.Serializer):
    """The body of every 4xx answer."""

    error = ErrorDetailSerializer()
