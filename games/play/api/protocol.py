"""``GET /api/protocol``: the wire protocol's catalog (``games.protocol.schema.catalog``) for the
browser and any other client: the events' English templates, the quiet actions and the JSON
Schema of the events, the game view (with its legal actions' options) and the socket's
messages. Public and the same for everyone (it changes only with the code), so it is cached like
a static file. The same definitions are OpenAPI components (``add_protocol_components``, a
drf-spectacular post-processing hook).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import permissions
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.protocol import schema


class ProtocolApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="The wire protocol's catalog: event sentences and the JSON Schema",
        operation_id="protocol_retrieve",
        description=(
            "events: each event type's English templates (line: the event log's sentence; "
            "summary: the mail digest's line, or null), in the template language described in "
            "games/protocol/events.py; quiet_actions: actions that get no line of their own in "
            "the digest; schema: a JSON Schema (2020-12) document whose $defs hold the events "
            "(Event), the game view (GameView, its legal actions' options per action type in "
            "LegalAction) and the socket's messages (SocketClientMessage, SocketServerMessage), "
            "as the OpenAPI components of the same names."
        ),
        responses={200: OpenApiResponse(description="The catalog (JSON).")},
    )
    def get(self, request: Request) -> Response:
        response = Response(schema.catalog())
        response["Cache-Control"] = "public, max-age=3600"
        return response


def add_protocol_components(
    result: dict[str, Any], generator: Any, request: Any, public: Any
) -> dict[str, Any]:
    """The protocol's definitions as components of the OpenAPI document (the game view that
    ``GameDetailOut.view`` names among them)."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    ours = schema.openapi_components()
    clash = set(ours) & set(components)
    if clash:
        raise ValueError(f"protocol components clash with the API's: {sorted(clash)}")
    components.update(ours)
    return result
