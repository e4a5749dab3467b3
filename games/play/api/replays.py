"""``GET /api/games/{id}/replay/board``: a finished game on the board, step by step.

Beside ``games.play.api.games.ReplayApi`` (the log with the seeds) and read the same way: anyone who
may see the game, only once it is over. The answer is computed and cached by
``games.play.replay``; here it is only routed and described.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import permissions, serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.common.throttles import ReplayThrottle
from games.play import replay
from games.play.api.params import GAME_ID, INVITE, NOT_FOUND, invite_token
from games.play.reads import fetch
from games.web.exceptions import ErrorSerializer

PATCH_OP_FIELDS = {
    "op": serializers.ChoiceField(choices=["add", "remove", "replace"]),
    "path": serializers.CharField(
        allow_blank=True, help_text='A JSON Pointer (RFC 6901); "" is the whole view.'
    ),
    "value": serializers.JSONField(required=False, help_text="Absent for remove."),
}

BOARD_REPLAY = inline_serializer(
    "BoardReplay",
    {
        "start": serializers.DictField(
            help_text="The spectator's view (as GET /api/games/{id} gives a spectator) of the "
            "game as it was dealt, before the first log entry."
        ),
        "steps": inline_serializer(
            "BoardReplayStep",
            {
                "sequence": serializers.IntegerField(min_value=1, help_text="The log entry."),
                "patch": inline_serializer(
                    "ViewPatchOp",
                    PATCH_OP_FIELDS,
                    many=True,
                    help_text="JSON Patch (RFC 6902; add/remove/replace on object keys) from "
                    "the spectator's view before this entry to the view after it.",
                ),
            },
            many=True,
        ),
    },
)


class ReplayBoardApi(APIView):
    permission_classes = [permissions.AllowAny]
    throttle_classes = [ReplayThrottle]

    @extend_schema(
        summary="A finished game on the board: the spectator's view at the start, then one "
        "patch per log entry",
        operation_id="games_replay_board",
        description=(
            "Only what a spectator sees. 409 not_over while the game runs (the replay needs the "
            "revealed seed), 409 replay_too_long for a log past the replay's bound, 503 "
            "replays_busy (with Retry-After) while another replay is being prepared; anonymous "
            "readers are rate-limited per address (429 with Retry-After). " + NOT_FOUND
        ),
        parameters=[GAME_ID, INVITE],
        responses={
            200: BOARD_REPLAY,
            404: ErrorSerializer,
            409: ErrorSerializer,
            429: ErrorSerializer,
            503: ErrorSerializer,
        },
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = fetch.game_for(game_id, request.user, invite=invite_token(request))
        return Response(replay.game_board_replay(game))
