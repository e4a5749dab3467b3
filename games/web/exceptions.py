"""One error shape for the whole API, so a client handles every refusal with the same code.

Every 4xx answer has the flat body::

    {"error": "<code>", "message": "...", "field": "attacker.tank" | "body" | null,
     "allowed": [...] | null}

- ``error`` is a machine code a client can switch on: DRF's own codes for DRF's errors (a
  validation error's first code such as ``required``, ``invalid`` or ``min_value``; else
  ``not_authenticated``, ``authentication_failed``, ``permission_denied``, ``not_found``,
  ``method_not_allowed``, ``parse_error``, ``unsupported_media_type``, ``not_acceptable``,
  ``throttled``), ``invalid_input`` for the resolvers' ``CombatInputError``, and the ``code`` of
  an ``ApplicationError`` (``invalid_request``, ``not_found``, ``forbidden``, ``conflict`` or one
  of its own).
- ``message`` is for people.
- ``field`` names where the request went wrong: a dotted path such as ``attacker.tank``, ``body``
  for the request as a whole (not JSON, not an object, not a JSON media type), or null when no
  one field is to blame.
- ``allowed`` lists the accepted values when there is a closed set, else null.
- A specific error may add keys of its own after these four: an ``ApplicationError`` raised with
  ``extra={"version": 7}`` (say, a 409 ``stale_version``) answers with ``"version": 7`` too.
  Extra keys never replace the four above.

DRF's headers (``Allow``, ``Retry-After``, ``WWW-Authenticate``) are kept.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.settings import api_settings
from rest_framework.views import exception_handler as drf_exception_handler
from rest_framework.views import set_rollback

from combat.errors import CombatInputError

#: The field name used when the request body as a whole is at fault (not an object, not JSON).
BODY = "body"
#: The keys every error body has; ``extra`` keys may not use them.
RESERVED_KEYS = frozenset({"error", "message", "field", "allowed"})
#: The code of the resolvers' ``CombatInputError``.
INVALID_INPUT = "invalid_input"


class ApplicationError(Exception):
    """A request the services refuse.

    ``status`` is the HTTP status it becomes and ``code`` the body's ``error``; subclasses set
    both, and ``code=`` overrides the class's for one error (e.g. ``"stale_version"``).
    ``extra`` is merged into the body after the standard keys, e.g. ``extra={"version": 7}``.
    """

    status: int = status.HTTP_400_BAD_REQUEST
    code: str = "invalid_request"

    def __init__(
        self,
        message: str,
        *,
        field: str | None = None,
        allowed: Iterable[object] | None = None,
        code: str | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.allowed = [str(a) for a in allowed] if allowed is not None else None
        if code is not None:
            self.code = code
        self.extra = dict(extra or {})
        _check_extra(self.extra)

    def body(self) -> dict[str, Any]:
        return error_body(self.code, self.field, self.message, self.allowed, **self.extra)


class NotFoundError(ApplicationError):
    status = status.HTTP_404_NOT_FOUND
    code = "not_found"


class ForbiddenError(ApplicationError):
    status = status.HTTP_403_FORBIDDEN
    code = "forbidden"


class UnavailableError(ApplicationError):
    """The server cannot do the work now (busy, or the work ran out of its budget): try later."""

    status = status.HTTP_503_SERVICE_UNAVAILABLE
    code = "unavailable"
    headers = {"Retry-After": "1"}


class ThrottledError(ApplicationError):
    """Too many requests of one kind in the window: try again after ``wait`` seconds."""

    status = status.HTTP_429_TOO_MANY_REQUESTS
    code = "throttled"

    def __init__(self, message: str, *, wait: float) -> None:
        super().__init__(message)
        self.headers = {"Retry-After": str(max(1, math.ceil(wait)))}


class ConflictError(ApplicationError):
    """The request clashes with the current state (e.g. an older version than the stored one)."""

    status = status.HTTP_409_CONFLICT
    code = "conflict"


def error_body(
    code: str,
    field: str | None,
    message: str,
    allowed: Sequence[str] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """The one error body: ``error``, ``message``, ``field``, ``allowed``, then any ``extra``.

    ``field`` is a name, ``body`` or null, never ``""`` (the schema says so): a body's empty key
    (``{"": 1}``) is the body's fault, and is said as ``body``."""
    _check_extra(extra)
    if field == "":
        field = BODY
    body: dict[str, Any] = {
        "error": code,
        "message": message,
        "field": field,
        "allowed": list(allowed) if allowed is not None else None,
    }
    body.update(extra)
    return body


def _check_extra(extra: Mapping[str, Any]) -> None:
    clash = sorted(RESERVED_KEYS.intersection(extra))
    if clash:
        raise ValueError(f"extra error keys may not replace the standard ones: {clash}")


def api_exception_handler(exc: Exception, context: Mapping[str, Any]) -> Response | None:
    """DRF's ``EXCEPTION_HANDLER``: every handled error as one ``error_body``; others -> 500."""
    if isinstance(exc, ApplicationError):
        set_rollback()  # as DRF does for its own errors, should ATOMIC_REQUESTS be turned on
        return Response(exc.body(), status=exc.status, headers=getattr(exc, "headers", None))
    if isinstance(exc, CombatInputError):
        set_rollback()
        body = error_body(INVALID_INPUT, exc.field, _combat_message(exc), exc.allowed)
        return Response(body, status=status.HTTP_400_BAD_REQUEST)
    # DRF turns Django's Http404 and PermissionDenied into its own exceptions; do it first here so
    # the code below reads the codes of the exception actually answered.
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(*exc.args)
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    response = drf_exception_handler(exc, context)  # keeps headers such as Allow, Retry-After
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    field: str | None
    detail: object
    if isinstance(exc, exceptions.ValidationError):
        field, detail = _first_error(exc.detail, ())
        message = str(detail)
        # The first error's code, as exc.get_codes() has it for that entry.
        code = getattr(detail, "code", None) or exc.default_code
    else:
        detail = response.data.get("detail") if isinstance(response.data, Mapping) else None
        message = str(detail) if detail else response.status_text
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) and codes else exc.default_code
        body_at_fault = isinstance(exc, exceptions.ParseError | exceptions.UnsupportedMediaType)
        field = BODY if body_at_fault else None
    response.data = error_body(code, field, message)
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
    """The first message in a DRF error tree, with the dotted path of the field it is about.

    The message is returned as found: DRF's ``ErrorDetail``, a ``str`` carrying its ``code``.
    """
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
        return ".".join(path) or BODY, detail
    return ".".join(path) or BODY, exceptions.ErrorDetail("Invalid input.", code="invalid")


class ErrorSerializer(serializers.Serializer):
    """The body of every 4xx answer; documents ``error_body`` (never used to parse anything).

    A specific error may add keys of its own after these four (e.g. ``version`` on a 409).
    """

    error = serializers.CharField(
        help_text="A machine code to switch on: 'required', 'invalid', 'invalid_input', "
        "'not_found', 'method_not_allowed', 'parse_error', 'forbidden', 'conflict'..."
    )
    message = serializers.CharField(help_text="What is wrong, for people.")
    field = serializers.CharField(
        allow_null=True, help_text="Where the request is wrong: a dotted path, 'body' or null."
    )
    allowed = serializers.ListField(
        child=serializers.CharField(),
        allow_null=True,
        help_text="The accepted values, when there is a closed set; else null.",
    )
