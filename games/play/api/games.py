"""The lobby and play endpoints under ``/api/games``: parse, call a service, serialise.

Every refusal is the one error shape (``games.web.exceptions``); the codes each endpoint can answer
are listed in its OpenAPI description.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.common.throttles import HintThrottle, ReplayThrottle
from games.models import AI_LEVELS, MAX_SEATS, MIN_SEATS, Game
from games.play import access, chat, hints, lobby, replay, submit
from games.play.api.action_schema import action_component
from games.play.api.compressed import gzipped_json
from games.play.api.game_schema import GameDetailOut, GameListOut
from games.play.api.params import GAME_ID, INVITE, NOT_FOUND, invite_token
from games.play.reads import fetch, lists, shown
from games.web.exceptions import ApplicationError, ErrorSerializer
from games.web.requests import ERRORS, after_param, query_choice, query_count, valid
from games.web.strict import (
    ClosedSerializer,
    DocumentedDictField,
    StrictBooleanField,
    StrictCharField,
    StrictIntegerField,
)
from risk.rules import Options
from risk.rules.state import MAX_PIRATE_TURNS

GAME = OpenApiTypes.OBJECT
#: The values a boolean query parameter takes (as a browser and the schema write them).
BOOLEANS = ["true", "false"]


def options_schema() -> dict[str, Any]:
    """The rules options a new game may set, as ``lobby.checked_options`` checks them (each key
    of ``risk.rules.Options``, with the defaults of a game that leaves it out)."""
    default = Options()
    choices = {"win": lobby.WINS, "ally_defender": lobby.ALLY_DEFENDERS,
               "ally_cards": lobby.ALLY_CARDS,
               "defender_dice": lobby.DEFENDER_DICE_CHOICES}  # fmt: skip
    properties: dict[str, Any] = {}
    for name, value in default.to_dict().items():
        if name == "revision":  # not a host's choice (every new game plays the newest)
            continue
        if name in choices:
            prop: dict[str, Any] = {"type": "string", "enum": list(choices[name])}
        elif name == "map":
            # The published maps change while the server runs: listed by GET /api/maps.
            prop = {"type": "string", "pattern": "^[a-z0-9][a-z0-9_-]*$",
                    "description": "A published map (GET /api/maps lists them)."}  # fmt: skip
        elif name == "map_version":
            prop = {"type": "integer", "minimum": 1, "nullable": True,
                    "description": "A published version of the map; left out, its newest. The "
                    "game keeps the version it was created with."}  # fmt: skip
            value = None
        elif name == "round_limit":
            prop = {"type": "integer", "minimum": 1, "nullable": True,
                    "description": "Rounds to play; required when win is round-limit."}  # fmt: skip
        elif name == "min_commitment":
            low, high = lobby.MIN_COMMITMENTS
            prop = {"type": "integer", "minimum": low, "maximum": high,
                    "description": "The fewest armies a committed block or flank commits "
                    "(risk/RULES.md C10)."}  # fmt: skip
        elif name == "pirate_turns":
            prop = {
                "type": "integer", "minimum": 1, "maximum": MAX_PIRATE_TURNS, "nullable": True,
                "description": "A player that began this many turns in a row without a "
                "territory is out at the start of its next (RULES.md J10); null: never.",
            }  # fmt: skip
        else:
            prop = {"type": "boolean"}
        if value is not None:
            prop["default"] = value
        properties[name] = prop
    return {"type": "object", "properties": properties, "additionalProperties": False}


class GameListApi(APIView):
    """``GET`` the lobby (public games and the caller's own); ``POST`` create a game."""

    permission_classes = [permissions.IsAuthenticatedOrReadOnly]

    class GameCreateInput(serializers.Serializer):
        name = StrictCharField(max_length=80, required=False, default="", allow_blank=True)
        seats = StrictIntegerField(min_value=MIN_SEATS, max_value=MAX_SEATS)
        options = DocumentedDictField(
            schema=options_schema(), required=False, default=dict,
            help_text="Rules options (risk/RULES.md); a round-limit game needs round_limit.",
        )  # fmt: skip
        public = StrictBooleanField(required=False, default=True)
        time_control = serializers.ChoiceField(choices=Game.TimeControl.values, default="untimed")
        minutes = StrictIntegerField(
            required=False, allow_null=True, default=None, min_value=lobby.LIVE_MINUTES[0],
            max_value=lobby.LIVE_MINUTES[1], help_text="Minutes per turn; a live game needs it.",
        )  # fmt: skip
        days = StrictIntegerField(
            required=False, allow_null=True, default=None, min_value=lobby.CORRESPONDENCE_DAYS[0],
            max_value=lobby.CORRESPONDENCE_DAYS[1],
            help_text="Days per turn; a correspondence game needs it.",
        )  # fmt: skip
        max_timeouts = StrictIntegerField(
            required=False, default=3, min_value=1, max_value=lobby.MAX_TIMEOUTS
        )
        client_seed = StrictCharField(max_length=64, required=False, default="",
                                      allow_blank=True)  # fmt: skip
        ai_level = serializers.ChoiceField(
            choices=list(AI_LEVELS), default="hard",
            help_text="The AI's strength for bot seats, allied armies and timed-out players.",
        )  # fmt: skip
        ai_delay_ms = StrictIntegerField(
            required=False, min_value=0, max_value=lobby.MAX_AI_DELAY_MS,
            help_text="Milliseconds between the AI's moves, so people can follow them (the "
            "server's AI_DELAY_MS when left out).",
        )  # fmt: skip
        hints = StrictBooleanField(
            required=False, default=True,
            help_text="Whether players may ask the AI for a hint (GET /api/games/{id}/hint); "
            "never in a game that is rated when it starts (403 hints_rated).",
        )  # fmt: skip
        rated = StrictBooleanField(
            required=False, default=True,
            help_text="Fixed at creation; the game stays rated at the start only if every "
            "seat is a person (a bot seat makes it unrated).",
        )  # fmt: skip

    @extend_schema(
        summary="List games: public games, and the private games the caller sits in or created",
        operation_id="games_list",
        description=(
            "Other private games are never listed (not even for staff). The filters narrow "
            "that list and combine with each other and with status: mine=true the games where "
            "the caller holds a seat (not one they left); waiting=me the running games where a "
            "pending decision is the caller's; joinable=true the running public games where "
            "the engine offers the caller a 'join' (a live allied army to take over), each "
            "with 'allies', the armies on offer. mine and waiting list nothing for a visitor. "
            "400 invalid naming the parameter for any other value."
        ),
        parameters=[
            OpenApiParameter("status", str, enum=Game.Status.values, required=False),
            OpenApiParameter("mine", bool, required=False,
                             description="true: only games where the caller holds a seat."),
            OpenApiParameter("waiting", str, enum=["me"], required=False,
                             description="me: only running games waiting on the caller."),
            OpenApiParameter("joinable", bool, required=False,
                             description="true: only running public games with an allied "
                             "army the caller may take over."),
        ],
        responses={200: GameListOut, 400: ErrorSerializer},
    )  # fmt: skip
    def get(self, request: Request) -> Response:
        games = access.listed_for(request.user)
        wanted = query_choice(request, "status", Game.Status.values)
        if wanted is not None:
            games = games.filter(status=wanted)
        if query_choice(request, "mine", BOOLEANS) == "true":
            games = lists.mine(games, request.user)
        waiting = query_choice(request, "waiting", ["me"]) == "me"
        joinable = query_choice(request, "joinable", BOOLEANS) == "true"
        games = games.select_related("creator").prefetch_related("seats__user__profile")
        allies: dict[int, list[str]] = {}
        if waiting:
            games = games.filter(pk__in=[g.pk for g in lists.waiting_on(games, request.user)])
        if joinable:
            allies = {g.pk: a for g, a in lists.joinable(games, request.user)}
            games = games.filter(pk__in=list(allies))
        out = []
        for game in games[: lists.LIMIT]:
            summary = shown.game_summary(game, list(game.seats.all()))
            if game.pk in allies:
                summary["allies"] = allies[game.pk]
            out.append(summary)
        return Response({"games": out})

    @extend_schema(
        summary="Create a game; the creator takes the first seat",
        operation_id="games_create",
        description="400 invalid (field named: seats, options.<key>, minutes, days, ...).",
        request=GameCreateInput,
        responses={201: GameDetailOut, **ERRORS},
    )
    def post(self, request: Request) -> Response:
        data = valid(self.GameCreateInput, request)
        game = lobby.game_create(creator=request.user, **data)
        return Response(shown.game_detail(game, request.user), status=status.HTTP_201_CREATED)


class GameDetailApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="The game as the caller sees it",
        operation_id="games_retrieve",
        description=(
            "The caller's seat view (or the spectator view), the version, whose turn it is, "
            "the pending decisions with their deadlines. Other players' cards, the deck order "
            "and the seed never appear before the game is over. invite_token only for its "
            "players, its creator and staff. " + NOT_FOUND
        ),
        parameters=[GAME_ID, INVITE],
        responses={200: GameDetailOut, 404: ErrorSerializer},
    )
    def get(self, request: Request, game_id: int) -> Response:
        game = fetch.game_for(game_id, request.user, invite=invite_token(request))
        return Response(shown.game_detail(game, request.user))


class JoinApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    class JoinInput(serializers.Serializer):
        invite = StrictCharField(
            required=False, default="", allow_blank=True, max_length=100,
            help_text="A private game's invite token (without it: 404, as for a missing id).",
        )  # fmt: skip
        client_seed = StrictCharField(max_length=64, required=False, default="",
                                      allow_blank=True)  # fmt: skip

    @extend_schema(
        summary="Take a free seat before the start",
        operation_id="games_join",
        parameters=[GAME_ID],
        description=(
            "404 not_found for a missing id and for a private game without its invite token "
            "(403 invite_required only for staff, who see every game); 409 not_open, "
            "game_full, already_seated. A running game is joined with a 'join' action instead."
        ),
        request=JoinInput,
        responses={200: GameDetailOut, **ERRORS},
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = valid(self.JoinInput, request)
        lobby.game_join(game_id=game_id, user=request.user, **data)
        game = fetch.game_for(game_id, request.user, invite=data["invite"])
        return Response(shown.game_detail(game, request.user))


class LeaveApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Give up a seat before the start (the creator cancels the game)",
        operation_id="games_leave",
        parameters=[GAME_ID],
        description=(
            "409 not_open, not_seated. In a running game send a 'leave' action. " + NOT_FOUND
        ),
        request=None,
        responses={204: None, **ERRORS},
    )
    def post(self, request: Request, game_id: int) -> Response:
        lobby.game_leave(game_id=game_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class CancelApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Cancel a game before it starts (creator only): the game is deleted",
        operation_id="games_cancel",
        parameters=[GAME_ID],
        description="403 not_creator (its message names the creator); 409 not_open. " + NOT_FOUND,
        request=None,
        responses={204: None, **ERRORS},
    )
    def post(self, request: Request, game_id: int) -> Response:
        lobby.game_cancel(game_id=game_id, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class BotsApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    class BotsInput(ClosedSerializer):
        ai_level = serializers.ChoiceField(
            choices=list(AI_LEVELS), required=False,
            help_text="The bots' strength, set for the whole game (its bots, allied armies and "
            "timed-out players); left out: the game's level stays.",
        )  # fmt: skip

    @extend_schema(
        summary="Fill every empty seat with a bot (creator only), at an AI level if given",
        operation_id="games_bots",
        parameters=[GAME_ID],
        description="400 invalid naming ai_level; 403 not_creator; 409 not_open. " + NOT_FOUND,
        request=BotsInput,
        responses={200: GameDetailOut, **ERRORS},
    )
    def post(self, request: Request, game_id: int) -> Response:
        data = valid(self.BotsInput, request)
        lobby.game_fill_with_bots(game_id=game_id, user=request.user, ai_level=data.get("ai_level"))
        return Response(shown.game_detail(fetch.game_for(game_id, request.user), request.user))


class StartApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="Start the game (creator only): the board is dealt from the committed seed",
        operation_id="games_start",
        parameters=[GAME_ID],
        description="403 not_creator; 409 not_open, seats_empty. " + NOT_FOUND,
        request=None,
        responses={200: GameDetailOut, **ERRORS},
    )
    def post(self, request: Request, game_id: int) -> Response:
        game = lobby.game_start(game_id=game_id, user=request.user)
        return Response(shown.game_detail(game, request.user))


class EventsApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="The action log after entry N, as the caller may see it",
        operation_id="games_events",
        description=(
            "Others' private cards are stripped from actions and events; rolls and seeds are "
            "included only once the game is over. At most 500 entries: page on with after=last. "
            + NOT_FOUND
        ),
        parameters=[
            GAME_ID,
            after_param("The last entry already read; default 0."),
            INVITE,
        ],
        responses={200: GAME, 400: ErrorSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, game_id: int) -> Response:
        after_n = query_count(request, "after")
        game = fetch.game_for(game_id, request.user, invite=invite_token(request))
        return Response(shown.log_for(game, request.user, after_n))


class ChatApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="The game's chat: the newest 100 lines after line N, oldest first",
        operation_id="games_chat",
        description=(
            "Readable by whoever may read the game (as GET events); lines are written over the "
            "game socket ({\"type\": \"chat\", \"text\": ...}) by seated players only. A client "
            "asks with after=<the last id it holds> after a reconnect, so no line is lost. "
            + NOT_FOUND
        ),
        parameters=[
            GAME_ID,
            after_param("The id of the last line already read; default 0 (from the start)."),
            INVITE,
        ],
        responses={
            200: inline_serializer("ChatPage", {
                "after": serializers.IntegerField(),
                "last": serializers.IntegerField(help_text="The id to ask after next time."),
                "messages": inline_serializer("ChatLine", {
                    "type": serializers.ChoiceField(choices=["chat"]),
                    "id": serializers.IntegerField(),
                    "author": serializers.CharField(help_text="The author's username."),
                    "seat": serializers.CharField(
                        help_text="The rules seat the author played, '' before the start."
                    ),
                    "text": serializers.CharField(help_text="Plain text, never markup."),
                    "at": serializers.DateTimeField(),
                }, many=True),
            }),
            400: ErrorSerializer, 404: ErrorSerializer,
        },
    )  # fmt: skip
    def get(self, request: Request, game_id: int) -> Response:
        after_id = query_count(request, "after")
        game = fetch.game_for(game_id, request.user, invite=invite_token(request))
        return Response(chat.messages_after(game, after_id))


class ActionsApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    class ActionInput(serializers.Serializer):
        """The body's shape for the API schema; ``submit.parse_submission`` checks it (the
        socket's action messages go through the same parser and rate limit)."""

        action = action_component()
        expected_version = serializers.IntegerField(min_value=0)
        idempotency_key = serializers.CharField(
            max_length=submit.MAX_KEY_LENGTH, required=False, allow_null=True, default=None,
            trim_whitespace=False,
        )  # fmt: skip
        invite = serializers.CharField(
            max_length=submit.MAX_INVITE_LENGTH, required=False, allow_null=True,
            default=None, allow_blank=True, trim_whitespace=False,
            help_text="A private game's invite token: a 'join' action (taking over an allied "
            "army) by someone without a seat needs it.",
        )  # fmt: skip

    @extend_schema(
        summary="Submit an action",
        operation_id="games_actions",
        parameters=[GAME_ID],
        description=(
            "One transaction per action with the game row locked. 200 with the caller's events "
            "and the new version. 400 invalid_action (malformed; field action.<name>) or "
            "illegal_action (the engine's reason; 'rule' names the rule); 403 not_seated or "
            "not_your_decision; 404 not_found for a missing id and for a private game the "
            "caller may not see (a newcomer's 'join' needs the body's invite); 409 "
            "stale_version (with 'version', the current one) or not_running; 429 throttled. "
            "A repeated idempotency_key returns the first response and applies nothing."
        ),
        request=ActionInput,
        responses={
            200: inline_serializer(
                "ActionApplied",
                {
                    "version": serializers.IntegerField(),
                    "sequence": serializers.IntegerField(),
                    "events": serializers.ListField(child=serializers.DictField()),
                },
            ),
            **ERRORS,
            429: ErrorSerializer,
        },
    )
    def post(self, request: Request, game_id: int) -> Response:
        submit.check_action_rate(request.user.pk)
        if not isinstance(request.data, dict):
            raise ApplicationError("expected a JSON object", code="parse_error", field="body")
        submission = submit.parse_submission(request.data)
        body = submit.action_submit(game_id=game_id, user=request.user, **submission.as_kwargs())
        return Response(body)


class HintApi(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [HintThrottle]

    @extend_schema(
        summary="The AI's suggestion for the caller's pending decision, with its reasons",
        operation_id="games_hint",
        description=(
            "The hard AI's choice (an action as POST actions takes it, with the player) and its "
            "reasons in words, with the exact odds it used; computed from the caller's own view "
            "only. 403 hints_off in a game that turns hints off, 403 hints_rated in a rated game "
            "(people only: their rating measures their own play), 403 not_seated without a seat, "
            "409 not_your_decision when nothing is asked of the caller, 409 not_running. "
            + NOT_FOUND
        ),
        parameters=[GAME_ID, INVITE],
        responses={
            200: inline_serializer("Hint", {
                "version": serializers.IntegerField(),
                "player": serializers.CharField(),
                "action": serializers.DictField(),
                "reasons": serializers.ListField(child=serializers.CharField()),
            }),
            **ERRORS, 429: ErrorSerializer,
        },
    )  # fmt: skip
    def get(self, request: Request, game_id: int) -> Response:
        game = fetch.game_for(game_id, request.user, invite=invite_token(request))
        return Response(hints.game_hint(game, request.user))


class ReplayApi(APIView):
    permission_classes = [permissions.AllowAny]
    throttle_classes = [ReplayThrottle]

    @extend_schema(
        summary="The whole log with the revealed seeds (after the game is over)",
        operation_id="games_replay",
        description=(
            "409 not_over while the game runs: the seed would reveal the card order. A finished "
            "game's replay never changes: it is computed once and kept, and sent gzipped to a "
            "client that accepts gzip. Anonymous readers are rate-limited per address (429 "
            "with Retry-After); 503 replays_busy (with Retry-After) while another replay is "
            "being prepared. " + NOT_FOUND
        ),
        parameters=[GAME_ID, INVITE],
        responses={
            200: GAME,
            404: ErrorSerializer,
            409: ErrorSerializer,
            429: ErrorSerializer,
            503: ErrorSerializer,
        },
    )
    def get(self, request: Request, game_id: int) -> HttpResponse:
        game = fetch.game_for(game_id, request.user, invite=invite_token(request))
        return gzipped_json(request, replay.game_log_replay(game))
