"""Endpoints of the A&A resolver, open to anonymous players.

Correspondence players may not have accounts yet, so every view allows anonymous use; a signed-in
requester is remembered and may close their battle without the token. Signed in means what it
means in the games API: an API token (scripts and bots) or a session (browsers, CSRF-checked by
DRF). Token authentication comes first so that a wrong token is a 401 with
``WWW-Authenticate: Token`` (DRF answers 401 only when the first class names a challenge), never
silently treated as anonymous. Bodies are JSON only, so a form post is a 415
rather than a half-parsed battle. Every refusal uses the project's one error shape
(games.web.exceptions).
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.authentication import SessionAuthentication, TokenAuthentication
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from combat.api.limits import CalculatorThrottle, bounded
from combat.api.serializers import (
    AABattleCloseInputSerializer,
    AABattleCreatedOutputSerializer,
    AABattleCreateInputSerializer,
    AABattleOutputSerializer,
    AAOddsInputSerializer,
    AAOddsSerializer,
)
from combat.axis_allies import CombatInputError, battle_odds
from combat.axis_allies.odds import estimated_work
from combat.selectors import aa_battle_get
from combat.services import aa_battle_close, aa_battle_create
from games.web.exceptions import ErrorSerializer
from games.web.parsers import JSONParser

TAGS = ["combat: Axis & Allies"]
BAD_INPUT = OpenApiResponse(
    ErrorSerializer, description="Bad input: the field and what is allowed."
)
#: Said in the odds endpoints' descriptions.
LIMITS = (
    " Bounded work: a battle too large to solve is a 400 naming the field and the limit; a 503 "
    "(Retry-After) when every calculator is busy or the work ran out of its budget."
)
NOT_FOUND = OpenApiResponse(ErrorSerializer, description="No battle has this id (field 'id').")
BUSY = OpenApiResponse(
    ErrorSerializer,
    description="Every calculator is busy ('calculators_busy') or the work ran out of its budget "
    "('budget_exceeded'); Retry-After says when to try again.",
)
BATTLE_ID = OpenApiParameter(
    "battle_id", OpenApiTypes.UUID, OpenApiParameter.PATH, description="The id of the battle."
)


class CombatApi(APIView):
    # The project's two classes (settings.REST_FRAMEWORK), the token first: see the docstring.
    authentication_classes = [TokenAuthentication, SessionAuthentication]
    permission_classes = [AllowAny]
    parser_classes = [JSONParser]
    throttle_classes = [CalculatorThrottle]


#: Largest simulation the odds endpoint runs: runs x units in the battle (about 5 s of work).
#: The exact solver refuses past its own state limit, counting the AA gun's outcomes.
MAX_MONTE_CARLO_WORK = 500_000


class AAOddsApi(CombatApi):
    @extend_schema(
        tags=TAGS,
        summary="Exact odds of an A&A battle",
        description="The probability of every way the battle can end, worked out exactly; "
        'method "monte-carlo" samples instead, for comparison and for very large battles.' + LIMITS,
        operation_id="aa_odds",
        request=AAOddsInputSerializer,
        responses={
            200: OpenApiResponse(AAOddsSerializer, description="The exact odds (or sampled)."),
            400: BAD_INPUT,
            503: BUSY,
        },
    )
    def post(self, request: Request) -> Response:
        serializer = AAOddsInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        attacker, defender = data.pop("attacker"), data.pop("defender")
        work = estimated_work(attacker, defender, **data)
        side = "attacker" if sum(attacker.values()) >= sum(defender.values()) else "defender"
        if data.get("method") == "monte-carlo" and work > MAX_MONTE_CARLO_WORK:
            raise CombatInputError(
                side, f"too large to simulate ({work:,} runs x units > {MAX_MONTE_CARLO_WORK:,})"
            )
        if data.get("method") == "monte-carlo":
            odds = bounded(work, side, lambda: battle_odds(attacker, defender, **data))
        else:  # too many states to solve exactly: the simulation is the way to an answer
            odds = bounded(work, "method", lambda: battle_odds(attacker, defender, **data),
                           remedy='ask for method "monte-carlo"')  # fmt: skip
        return Response(odds.as_dict())


class AABattleCreateApi(CombatApi):
    @extend_schema(
        tags=TAGS,
        summary="Resolve an A&A battle with verifiable server dice",
        description="Rolls now and publishes the seed's SHA-256 commitment; the seed stays "
        "secret until the battle is closed with the close_token, shown only in this answer.",
        operation_id="aa_battle_create",
        request=AABattleCreateInputSerializer,
        responses={
            201: OpenApiResponse(
                AABattleCreatedOutputSerializer,
                description="The battle, every roll with its counter, and the close_token.",
            ),
            400: BAD_INPUT,
        },
    )
    def post(self, request: Request) -> Response:
        serializer = AABattleCreateInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        client_seed = data.pop("client_seed")
        created = aa_battle_create(
            request_data=data, requester=request.user, client_seed=client_seed
        )
        context = {"close_token": created.close_token}
        body = AABattleCreatedOutputSerializer(created.battle, context=context).data
        url = reverse("combat:aa-battle-detail", args=[created.battle.id], request=request)
        return Response(body, status=status.HTTP_201_CREATED, headers={"Location": url})


class AABattleDetailApi(CombatApi):
    @extend_schema(
        tags=TAGS,
        summary="A stored A&A battle",
        description="The seed is null until the battle is closed; then `verification` says "
        "whether it reproduces every roll and matches the commitment.",
        operation_id="aa_battle_retrieve",
        parameters=[BATTLE_ID],
        responses={
            200: OpenApiResponse(AABattleOutputSerializer, description="The stored battle."),
            404: NOT_FOUND,
        },
    )
    def get(self, request: Request, battle_id: str) -> Response:
        battle = aa_battle_get(battle_id=battle_id)
        return Response(AABattleOutputSerializer(battle).data)


class AABattleCloseApi(CombatApi):
    @extend_schema(
        tags=TAGS,
        summary="Close an A&A battle and reveal its seed",
        description="Needs the close_token, or the signed-in user who created the battle (a "
        "session or an API token). Closing again answers the same.",
        operation_id="aa_battle_close",
        parameters=[BATTLE_ID],
        request=AABattleCloseInputSerializer,
        responses={
            200: OpenApiResponse(
                AABattleOutputSerializer, description="The closed battle, its seed revealed."
            ),
            400: BAD_INPUT,
            401: OpenApiResponse(
                ErrorSerializer, description="A wrong API token (Authorization: Token ...)."
            ),
            403: OpenApiResponse(ErrorSerializer, description="Wrong or missing close_token."),
            404: NOT_FOUND,
        },
    )
    def post(self, request: Request, battle_id: str) -> Response:
        serializer = AABattleCloseInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        token = serializer.validated_data["close_token"] or None
        battle = aa_battle_close(battle_id=battle_id, close_token=token, user=request.user)
        return Response(AABattleOutputSerializer(battle).data)
