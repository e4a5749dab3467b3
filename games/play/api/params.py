"""What the game endpoints share in their requests: the game id in the path and a private
game's invite token in the query (with the 404 that hides a private game)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter
from rest_framework.request import Request

from games.web.web_errors import ID_MAX

#: How a private game is read: its invite token as ``?invite=`` (``games.play.access``).
INVITE = OpenApiParameter(
    "invite", str, required=False,
    description="A private game's invite token. Without it (and without a seat, being its "
    "creator or staff) a private game answers 404 not_found, as a missing id does.",
)  # fmt: skip
NOT_FOUND = "404 not_found for a missing id and for a private game the caller may not see."
#: ``<id:game_id>`` in the URL: 1 to 18 digits (``games.web.web_errors.IdConverter``).
GAME_ID = OpenApiParameter(
    "game_id", {"type": "integer", "minimum": 0, "maximum": ID_MAX}, OpenApiParameter.PATH,
    description="The game's id (at most 18 digits; a longer one is no game's id: 404).",
)  # fmt: skip


def invite_token(request: Request) -> str | None:
    """The ``?invite=`` query parameter (a private game's token), if any."""
    return request.query_params.get("invite") or None
