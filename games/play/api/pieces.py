"""A game's pieces as rows over HTTP: ``GET /api/games/{id}/pieces`` and ``GET /api/me/pieces``.

The board (holdings, ships) is public to whoever may see the game; cards are only ever the
caller's own (``games.play.reads.pieces`` says why and how). Parse, read, serialise.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Card
from games.play.api.params import GAME_ID, INVITE, NOT_FOUND, invite_token
from games.play.reads import fetch
from games.play.reads import pieces as reading
from games.web.exceptions import ApplicationError, ErrorSerializer
from games.web.requests import query_choice, query_count
from games.web.schema import NO_NUL
from games.web.web_errors import ID_MAX

BOOLEANS = ["true", "false"]
#: The longest seat id (a username, or ally-<n>) an ``owner`` filter may name.
MAX_OWNER = 150

CAPTIVES = serializers.DictField(
    child=serializers.IntegerField(min_value=0),
    help_text="Captured armies held there: {the army they were taken from: armies}.",
)
HOLDING = {
    "territory": serializers.CharField(help_text="The territory's name on the map."),
    "owner": serializers.CharField(help_text="The army holding it (its seat id)."),
    "armies": serializers.IntegerField(min_value=0),
    "factory": serializers.BooleanField(),
    "captives": CAPTIVES,
}
SHIP = {
    "ship": serializers.CharField(help_text="The ship's id (S<n>)."),
    "owner": serializers.CharField(help_text="The army it belongs to (its seat id)."),
    "station": serializers.CharField(help_text="The map's station key (ocean:coast)."),
    "armies": serializers.IntegerField(min_value=0, help_text="Its crew."),
    "captives": CAPTIVES,
}
CARD = {
    "kind": serializers.ChoiceField(choices=Card.Kind.values),
    "pile": serializers.CharField(
        help_text="hand (a seat's Risk hand or poker cards); during a poker hand also stash, "
        "in-hand and discards."
    ),
    "holder": serializers.CharField(help_text="The army holding the pile (its seat id)."),
    "position": serializers.IntegerField(min_value=0, help_text="0: the oldest card."),
    "card": serializers.CharField(help_text='A territory name or "wild"; a poker card ("Qh").'),
}
GAME_FIELD = {"game": serializers.IntegerField(help_text="The game's id.")}

GAME_PIECES = inline_serializer(
    "GamePieces",
    {
        "game": serializers.IntegerField(),
        "holdings": inline_serializer("PieceHolding", HOLDING, many=True),
        "ships": inline_serializer("PieceShip", SHIP, many=True),
        "cards": inline_serializer(
            "PieceCard", CARD, many=True,
            help_text="The caller's own cards in this game (none for anyone else).",
        ),
    },
)  # fmt: skip
MY_PIECES = inline_serializer(
    "MyPieces",
    {
        "holdings": inline_serializer("MyHolding", {**GAME_FIELD, **HOLDING}, many=True),
        "ships": inline_serializer("MyShip", {**GAME_FIELD, **SHIP}, many=True),
        "cards": inline_serializer("MyCard", {**GAME_FIELD, **CARD}, many=True),
    },
)
KIND = OpenApiParameter(
    "kind", str, enum=Card.Kind.values, required=False, description="Only this deck's cards."
)


def _owner(request: Request) -> str | None:
    """The ``owner`` filter: one seat id, at most ``MAX_OWNER`` characters (None: absent)."""
    values = request.query_params.getlist("owner")
    if not values:
        return None
    if len(values) > 1:
        raise ApplicationError("give owner once", code="invalid", field="owner")
    if not values[0] or len(values[0]) > MAX_OWNER or "\x00" in values[0]:
        raise ApplicationError(
            f"a seat id of 1 to {MAX_OWNER} characters (no NUL)", code="invalid", field="owner"
        )
    return values[0]


class GamePiecesApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A game's pieces as rows: who holds each territory, the ships afloat, and the "
        "caller's own cards",
        operation_id="games_pieces",
        description=(
            "The board is public to whoever may see the game (as GET /api/games/{id}). Cards "
            "are the caller's own only: those of the army they play now (Risk hand, poker "
            "cards, and during a poker hand their stash, hand and discards); never another "
            "seat's, never a deck's pile, whatever the filters. A game still in the lobby has "
            "no rows. owner: one army's holdings and ships; factory: holdings with (true) or "
            "without (false) a factory; kind: one deck's cards. 400 invalid naming the "
            "parameter. " + NOT_FOUND
        ),
        parameters=[
            GAME_ID,
            OpenApiParameter(
                "owner", {"type": "string", "minLength": 1, "maxLength": MAX_OWNER,
                          "pattern": NO_NUL}, required=False,
                description="A seat id: only that army's holdings and ships.",
            ),
            OpenApiParameter("factory", bool, required=False,
                             description="true: holdings with a factory; false: without."),
            KIND,
            INVITE,
        ],
        responses={200: GAME_PIECES, 400: ErrorSerializer, 404: ErrorSerializer},
    )  # fmt: skip
    def get(self, request: Request, game_id: int) -> Response:
        owner = _owner(request)
        factory = query_choice(request, "factory", BOOLEANS)
        kind = query_choice(request, "kind", Card.Kind.values)
        game = fetch.game_for(game_id, request.user, invite=invite_token(request))
        rows: dict[str, Any] = {"game": game.pk}
        rows |= reading.board(
            game, owner=owner, factory=None if factory is None else factory == "true"
        )
        cards = reading.own_cards(request.user, game=game, kind=kind)
        rows["cards"] = list(cards.values(*reading.CARD_FIELDS))
        return Response(rows)


class MyPiecesApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Everything the caller holds, in all their games",
        operation_id="me_pieces",
        description=(
            "The territories, ships and cards of the armies the caller plays now, each row "
            "with its game (an army they left is no longer theirs). game: one game's; kind: "
            "one deck's cards. 400 invalid naming the parameter; 401/403 for a visitor."
        ),
        parameters=[
            OpenApiParameter("game", {"type": "integer", "minimum": 0, "maximum": ID_MAX},
                             required=False, description="Only this game's rows."),
            KIND,
        ],
        responses={200: MY_PIECES, 400: ErrorSerializer, 401: ErrorSerializer,
                   403: ErrorSerializer},
    )  # fmt: skip
    def get(self, request: Request) -> Response:
        game_id = query_count(request, "game") if "game" in request.query_params else None
        kind = query_choice(request, "kind", Card.Kind.values)
        return Response(reading.mine(request.user, game_id=game_id, kind=kind))
