"""The OpenAPI schema states what the server really answers and accepts.

drf-spectacular documents what the views declare; this adds what every view shares, so no view
can forget it and a client generated from the schema sends only requests the server accepts:

- **401** on every operation that takes a token (``TokenAuthentication`` first): a bad token is
  refused even where anonymous use is allowed, with a ``WWW-Authenticate: Token`` challenge.
- **413** and **415** on every operation with a request body: a body over ``MAX_REQUEST_BODY``
  (``games.web.web_errors.BodyLimit``), a body that is not JSON.
- **429** with ``Retry-After`` on every throttled view (``throttle_classes``; a ``writes_only``
  throttle: its POST, PUT, PATCH and DELETE only).
- Every refusal in the one error shape, ``Error`` (``games.web.exceptions``).
- Request strings as the server reads them: no NUL character (DRF refuses it, and PostgreSQL
  cannot store it) and, where a blank value is refused, something besides white space (DRF trims
  it first).
- A ``ClosedSerializer``'s body (``games.web.strict``) says ``additionalProperties: false``.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular import openapi
from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.plumbing import force_instance
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter
from rest_framework import serializers
from rest_framework.authentication import TokenAuthentication
from rest_framework.permissions import SAFE_METHODS

from games.web.exceptions import ErrorSerializer
from games.web.strict import ClosedSerializer

#: A request string: any text without a NUL character.
NO_NUL = "^[^\\u0000]*$"
#: A request string that may not be blank: DRF trims white space, then refuses an empty value.
NOT_BLANK = "^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$"

ERROR_DESCRIPTIONS = {
    "401": "Not signed in ('not_authenticated') or a bad token ('authentication_failed'); "
    "the answer carries a 'WWW-Authenticate: Token' challenge.",
    "413": "The request body is over the server's limit ('request_too_large', with 'limit').",
    "415": "The body is not JSON ('unsupported_media_type', field 'body').",
    "429": "Too many requests ('throttled'); Retry-After says when to try again.",
}
WWW_AUTHENTICATE = OpenApiParameter(
    "WWW-Authenticate",
    OpenApiTypes.STR,
    OpenApiParameter.HEADER,
    response=[401],
    required=True,
    description="'Token': send 'Authorization: Token <key>' (POST /api/auth/token).",
)
RETRY_AFTER = OpenApiParameter(
    "Retry-After",
    OpenApiTypes.INT,
    OpenApiParameter.HEADER,
    response=[429, 503],
    required=True,
    description="Seconds to wait before trying again.",
)
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


class AutoSchema(openapi.AutoSchema):
    """The project's schema class (``REST_FRAMEWORK["DEFAULT_SCHEMA_CLASS"]``)."""

    def _takes_token(self) -> bool:
        classes = getattr(self.view, "authentication_classes", ())
        return any(issubclass(c, TokenAuthentication) for c in classes)

    def _throttled(self) -> bool:
        classes = getattr(self.view, "throttle_classes", ())
        if self.method in SAFE_METHODS:  # a throttle that counts writes only never refuses these
            classes = [c for c in classes if not getattr(c, "writes_only", False)]
        return bool(classes)

    def _has_body(self) -> bool:
        return self.method in BODY_METHODS and self.get_request_serializer() is not None

    def get_override_parameters(self) -> list[Any]:
        parameters = list(super().get_override_parameters())
        names = {p.name for p in parameters if isinstance(p, OpenApiParameter)}
        if self._takes_token() and WWW_AUTHENTICATE.name not in names:
            parameters.append(WWW_AUTHENTICATE)
        if RETRY_AFTER.name not in names:
            parameters.append(RETRY_AFTER)
        return parameters

    def _get_response_bodies(self, direction: str = "response") -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        shared = []
        if self._takes_token():
            shared.append("401")
        if self._has_body():
            shared += ["413", "415"]
        if self._throttled():
            shared.append("429")
        for code in shared:
            if code not in responses:
                answer = self._get_response_for_code(ErrorSerializer, code, direction=direction)
                responses[code] = {**answer, "description": ERROR_DESCRIPTIONS[code]}
        return dict(sorted(responses.items()))

    def _get_request_body(self, direction: str = "request") -> dict[str, Any] | None:
        body = super()._get_request_body(direction)
        # A body whose fields are all optional is still required when a rule between them
        # (``schema_extra``, e.g. "cards or hands") cannot hold for an empty one.
        if body is not None and getattr(self.get_request_serializer(), "schema_extra", None):
            body["required"] = True
        return body

    def _map_basic_serializer(self, serializer: Any, direction: str) -> dict[str, Any]:
        schema = super()._map_basic_serializer(serializer, direction)
        if direction == "request":
            for name, field in force_instance(serializer).fields.items():
                prop = schema["properties"].get(name)
                if prop is not None and not field.read_only:
                    _state_string(field, prop)
        return schema


def _state_string(field: serializers.Field, prop: dict[str, Any]) -> None:
    """What DRF's ``CharField`` refuses that a plain ``type: string`` allows (see the module)."""
    if not isinstance(field, serializers.CharField) or isinstance(field, serializers.ChoiceField):
        return
    if prop.get("type") != "string" or "pattern" in prop or "enum" in prop or "format" in prop:
        return
    blank_refused = not field.allow_blank and field.trim_whitespace
    prop["pattern"] = NOT_BLANK if blank_refused else NO_NUL


class ClosedSerializerExtension(OpenApiSerializerExtension):
    """A body that refuses unknown keys says so: ``additionalProperties: false``; a rule between
    its fields that the serializer checks in ``validate`` is its ``schema_extra`` (e.g. a
    ``oneOf`` of required fields)."""

    target_class = ClosedSerializer
    match_subclasses = True

    def map_serializer(self, auto_schema: openapi.AutoSchema, direction: str) -> dict[str, Any]:
        schema = auto_schema._map_basic_serializer(self.target, direction)
        schema["additionalProperties"] = False
        schema.update(getattr(self.target, "schema_extra", {}))
        return schema
