"""Ratings API: the leaderboard per kind and one player's ratings with history.

Public reads (no sign-in): ratings are what players show each other.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.models import Rating
from games.ratings import board
from games.web.exceptions import ErrorSerializer
from games.web.requests import query_choice


class RatingOut(serializers.Serializer):
    username = serializers.CharField()
    display_name = serializers.CharField()
    kind = serializers.ChoiceField(choices=Rating.Kind.values)
    rating = serializers.FloatField(help_text="Glicko rating (1500 at start), or OpenSkill mu.")
    deviation = serializers.FloatField(help_text="Glicko RD, or OpenSkill sigma.")
    provisional = serializers.BooleanField(help_text="Deviation still high (Glicko: RD > 110).")
    games = serializers.IntegerField(min_value=0)
    last_played = serializers.DateTimeField()


class RankedOut(RatingOut):
    rank = serializers.IntegerField(min_value=1)


class LeaderboardOut(serializers.Serializer):
    kind = serializers.ChoiceField(choices=Rating.Kind.values)
    ratings = RankedOut(many=True)


class ChangeOut(serializers.Serializer):
    kind = serializers.ChoiceField(choices=Rating.Kind.values)
    game = serializers.IntegerField(allow_null=True)
    room = serializers.IntegerField(allow_null=True)
    at = serializers.DateTimeField()
    rating_before = serializers.FloatField()
    rating_after = serializers.FloatField()
    deviation_after = serializers.FloatField()


class PlayerRatingsOut(serializers.Serializer):
    username = serializers.CharField()
    ratings = RatingOut(many=True)
    history = ChangeOut(
        many=True,
        help_text="Every rated result the caller may see, oldest first (a private game's or "
        "room's only to its players and staff).",
    )


class LeaderboardApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="The leaderboard of one rating kind, best first",
        operation_id="ratings_list",
        description=(
            f"At most {board.LEADERBOARD_SIZE} rows. Glicko-2 kinds sort by rating, "
            "fast_risk_multi (OpenSkill) by mu - 3 sigma. 400 invalid_choice naming kind."
        ),
        parameters=[
            OpenApiParameter(
                "kind",
                str,
                enum=Rating.Kind.values,
                required=False,
                description="Default fast_risk_2p.",
            ),
        ],
        responses={200: LeaderboardOut, 400: ErrorSerializer},
    )
    def get(self, request: Request) -> Response:
        kind = query_choice(request, "kind", board.KINDS) or Rating.Kind.FAST_RISK_2P
        return Response({"kind": kind, "ratings": board.leaderboard(kind)})


class PlayerRatingsApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A player's ratings per kind and their history",
        operation_id="player_ratings",
        description="404 not_found for no such (active) user. The history lists a private "
        "game's or room's result only to its players, the player themselves and staff.",
        parameters=[OpenApiParameter("username", str, OpenApiParameter.PATH)],
        responses={200: PlayerRatingsOut, 404: ErrorSerializer},
    )
    def get(self, request: Request, username: str) -> Response:
        return Response(board.player_ratings(username, request.user))
