"""Tournaments under ``/api/tournaments``: parse, call a service in
``games.tournaments``, serialise.

Tournaments are public: anyone, signed in or not, reads the list and a tournament's entrants,
pairings, standings and crosstable; the staff log is in the detail for staff only. A signed-in
player registers and withdraws themselves. Everything else is a staff action: a signed-in
player who is not staff gets 403 ``staff_only`` before the body is read (so a refusal never
depends on what was sent), an anonymous caller 401, and nothing is written. Every staff write
answers with the tournament's detail, as ``GET`` gives it.
"""

from __future__ import annotations

from dataclasses import MISSING
from typing import Any

from drf_spectacular.utils import OpenApiParameter, PolymorphicProxySerializer, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.common.throttles import TournamentWriteThrottle
from games.models import Game, Room, Tournament, TournamentEntrant, TournamentTable
from games.play.api.games import options_schema
from games.tournaments import access, pairing, reading, results, settings, setup
from games.tournaments.settings import Kind, Setting, TournamentSettings
from games.web.exceptions import ErrorSerializer, ForbiddenError
from games.web.requests import ERRORS, query_choice, valid
from games.web.strict import (
    ClosedSerializer,
    DocumentedDictField,
    DocumentedListField,
    StrictBooleanField,
    StrictCharField,
    StrictEnumField,
    StrictIntegerField,
)
from games.web.web_errors import ID_MAX

STAFF = "403 staff_only for anyone but staff (401 when not signed in); nothing is written. "
NOT_FOUND = "404 not_found (field id) for a missing tournament."
#: Choice sets the schema names once (``ENUM_NAME_OVERRIDES``): SystemEnum is the rooms' too.
ROOM_SYSTEMS = list(Room.System.values)
PLAYS = list(Tournament.Play.values)
STATUSES = list(Tournament.Status.values)
ENTRANT_STATUSES = list(TournamentEntrant.Status.values)
#: The longest reason staff give for a removal, a cancellation or an entered result (the
#: services keep 200 characters of it; a longer one is refused rather than cut unsaid).
MAX_REASON = 200


def _id_param(name: str, what: str) -> OpenApiParameter:
    """``<id:name>`` in the URL: 1 to 18 digits (``games.web.web_errors.IdConverter``)."""
    return OpenApiParameter(
        name,
        {"type": "integer", "minimum": 0, "maximum": ID_MAX},
        OpenApiParameter.PATH,
        description=f"The {what}'s id (at most 18 digits; a longer one is no {what}'s id: 404).",
    )


TOURNAMENT_ID = _id_param("tournament_id", "tournament")
TABLE_ID = _id_param("table_id", "table")
USERNAME = OpenApiParameter(
    "username", str, OpenApiParameter.PATH, description="The entrant's username."
)


class StaffWrites(permissions.BasePermission):
    """Reads for anyone; writes for staff, refused before the body is parsed or the row locked.

    The services check staff again inside (``access.require_staff``); this is the same check,
    made first so a non-staff caller's bad body is still a 403, not a 400.
    """

    def has_permission(self, request: Request, view: APIView) -> bool:
        if request.method in permissions.SAFE_METHODS:
            return True
        if not request.user.is_authenticated:
            return False  # DRF answers 401 not_authenticated with the token challenge
        access.require_staff(request.user)
        return True


def _is_staff(user: Any) -> bool:
    """Whether ``user`` runs tournaments, by the one rule the services apply."""
    try:
        access.require_staff(user)
    except ForbiddenError:
        return False
    return True


# --- answers ------------------------------------------------------------------------------------


class FastRiskPlayOut(serializers.Serializer):
    play = serializers.ChoiceField(choices=["fast_risk"])
    options = serializers.DictField(help_text="The games' rules options (risk/RULES.md).")
    time_control = serializers.ChoiceField(choices=Game.TimeControl.values)
    time_per_decision = serializers.FloatField(
        allow_null=True, help_text="Seconds per decision; null when untimed."
    )


class RoomPlayOut(serializers.Serializer):
    play = serializers.ChoiceField(choices=["room"])
    system = serializers.ChoiceField(choices=ROOM_SYSTEMS)
    rules = serializers.CharField(allow_blank=True, help_text="A&A only: dice, lowluck or chess.")
    edition = serializers.CharField(
        allow_blank=True, help_text="A&A only: the edition (revised, 1942-2e, ...)."
    )
    sides = serializers.ListField(
        child=serializers.CharField(), help_text="The two sides; the first-named plays the first."
    )
    days_per_turn = serializers.IntegerField(allow_null=True, help_text="Null: untimed.")


PLAY = PolymorphicProxySerializer(
    component_name="TournamentPlay",
    serializers={"fast_risk": FastRiskPlayOut, "room": RoomPlayOut},
    resource_type_field_name="play",
    help_text="What each pairing plays: a Fast Risk game on this server, or a room.",
)


class TournamentSummaryOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    format = serializers.ChoiceField(choices=Tournament.Format.values)
    status = serializers.ChoiceField(choices=STATUSES)
    game = PLAY
    rated = serializers.BooleanField(help_text="Its games and rooms are created rated.")
    registration_opens = serializers.DateTimeField(allow_null=True, help_text="Null: at once.")
    registration_closes = serializers.DateTimeField(
        allow_null=True, help_text="Null: at the start."
    )
    min_entrants = serializers.IntegerField()
    max_entrants = serializers.IntegerField()
    entrant_count = serializers.IntegerField(min_value=0, help_text="Active entrants.")
    rounds = serializers.IntegerField(
        allow_null=True,
        help_text="Rounds to play: Swiss and tables as chosen, others fixed at the start.",
    )
    current_round = serializers.IntegerField(min_value=0, help_text="The last round paired.")
    table_sizes = serializers.ListField(
        child=serializers.IntegerField(), help_text="Tables: [fewest, most] players per table."
    )
    place_points = serializers.ListField(
        child=serializers.FloatField(), help_text="Tables: points for 1st, 2nd, ... place."
    )
    late_entry_rounds = serializers.IntegerField(min_value=0)
    auto_pair = serializers.BooleanField(help_text="The next round pairs itself when one ends.")
    champion = serializers.CharField(allow_null=True)
    created_by = serializers.CharField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)


class TournamentListOut(serializers.Serializer):
    tournaments = TournamentSummaryOut(many=True)


class EntrantOut(serializers.Serializer):
    player = serializers.CharField()
    seed = serializers.IntegerField(allow_null=True, help_text="From 1, fixed at the start.")
    rating = serializers.FloatField(allow_null=True, help_text="The rating seeded on.")
    status = serializers.ChoiceField(choices=ENTRANT_STATUSES)
    first_round = serializers.IntegerField(min_value=1, help_text="Late entries: later than 1.")
    bot_stands_in = serializers.BooleanField()
    entered_at = serializers.DateTimeField()


class TableSeatOut(serializers.Serializer):
    player = serializers.CharField()
    place = serializers.IntegerField(allow_null=True, help_text="1 best; null while playing.")
    points = serializers.FloatField(allow_null=True)
    territories = serializers.IntegerField(allow_null=True, help_text="Fast Risk tie-break.")
    bot = serializers.BooleanField(help_text="A bot stands in for this player.")


class TableOut(serializers.Serializer):
    id = serializers.IntegerField(help_text="The table's id, for entering its result.")
    number = serializers.IntegerField(min_value=1, help_text="Board or table number.")
    game = serializers.IntegerField(allow_null=True)
    room = serializers.IntegerField(allow_null=True)
    outcome = serializers.ChoiceField(
        choices=["playing", *[o for o in TournamentTable.Outcome.values if o]]
    )
    players = TableSeatOut(many=True, help_text="In seat order: the first-named first.")


class RoundOut(serializers.Serializer):
    number = serializers.IntegerField(min_value=1)
    paired_at = serializers.DateTimeField()
    completed_at = serializers.DateTimeField(allow_null=True)
    tables = TableOut(many=True)


class StandingOut(serializers.Serializer):
    """One line; 1 v 1 events have the score columns, table events the points columns."""

    rank = serializers.IntegerField(min_value=1)
    player = serializers.CharField()
    status = serializers.ChoiceField(choices=ENTRANT_STATUSES)
    score = serializers.FloatField(required=False, help_text="1 v 1.")
    buchholz = serializers.FloatField(required=False, help_text="1 v 1.")
    sonneborn_berger = serializers.FloatField(required=False, help_text="1 v 1.")
    wins = serializers.IntegerField(required=False, help_text="1 v 1.")
    played = serializers.IntegerField(required=False, help_text="1 v 1.")
    points = serializers.FloatField(required=False, help_text="Tables.")
    territories = serializers.IntegerField(required=False, help_text="Tables.")
    games = serializers.IntegerField(required=False, help_text="Tables.")


class CrossCellOut(serializers.Serializer):
    """One round of one player; 1 v 1 cells name the opponent, table cells the table."""

    round = serializers.IntegerField(min_value=1)
    opponent = serializers.CharField(allow_null=True, required=False, help_text="Null: a bye.")
    opponent_rank = serializers.IntegerField(allow_null=True, required=False)
    score = serializers.FloatField(required=False)
    first = serializers.BooleanField(required=False, help_text="First-named (white, side 1).")
    table = serializers.IntegerField(required=False)
    place = serializers.IntegerField(allow_null=True, required=False)
    territories = serializers.IntegerField(allow_null=True, required=False)
    points = serializers.FloatField(allow_null=True, required=False)


class CrossRowOut(serializers.Serializer):
    player = serializers.CharField()
    rank = serializers.IntegerField(allow_null=True)
    rounds = CrossCellOut(many=True)


class LogOut(serializers.Serializer):
    at = serializers.DateTimeField()
    actor = serializers.CharField(allow_null=True, help_text="Null: the server's own action.")
    action = serializers.CharField(help_text="created, started, paired, result_entered, ...")
    detail = serializers.DictField()


class TournamentDetailOut(TournamentSummaryOut):
    entrants = EntrantOut(many=True, help_text="Everyone entered, by seed, with their status.")
    pairings = RoundOut(many=True, help_text="Every round paired so far, with its tables.")
    standings = StandingOut(many=True)
    crosstable = CrossRowOut(many=True)
    log = LogOut(many=True, required=False, help_text="The staff log: for staff only.")


def _detail(tournament_id: int, user: Any) -> dict[str, Any]:
    """The tournament's page as data; the staff log only for staff."""
    tournament = reading.tournament_for(tournament_id)
    summary = reading.summary(tournament)
    body = {
        **summary,
        "entrants": reading.entrants(tournament),
        "pairings": reading.rounds(tournament),
        "standings": reading.standings(tournament),
        "crosstable": reading.crosstable_rows(tournament),
    }
    if _is_staff(user):
        body["log"] = reading.log(tournament)
    return body


# --- the list and a new tournament ---------------------------------------------------------------


def create_field(name: str, setting: Setting) -> serializers.Field:
    """The API field of one setting, from its metadata (``games.tournaments.settings``): its
    limits are the schema's ``minimum``/``maximum``, its help the schema's description."""
    given = settings.default(name)
    optional: dict[str, Any] = {} if given is MISSING else {"required": False, "default": given}
    if setting.null:
        optional["allow_null"] = True
    if setting.help:
        optional["help_text"] = setting.help
    kind = setting.kind
    if kind == Kind.TEXT or (kind == Kind.CHOICE and setting.offered):
        blank = given == ""
        return StrictCharField(max_length=setting.max_length, allow_blank=blank, **optional)
    if kind == Kind.CHOICE:
        return StrictEnumField(setting.values, allow_blank="" in setting.values, **optional)
    if kind == Kind.INTEGER:
        return StrictIntegerField(min_value=setting.low, max_value=setting.high, **optional)
    if kind == Kind.BOOLEAN:
        return StrictBooleanField(**optional)
    if kind == Kind.DATETIME:
        return serializers.DateTimeField(**optional)
    if kind == Kind.OPTIONS:
        return DocumentedDictField(schema=options_schema(), **{**optional, "default": dict})
    if kind == Kind.NAMES:
        return serializers.ListField(
            child=StrictCharField(max_length=setting.max_length),
            min_length=setting.low, max_length=setting.high, **optional,
        )  # fmt: skip
    assert kind == Kind.NUMBERS, kind
    items = {"type": "number", "minimum": setting.low, "maximum": setting.high}
    described = {"type": "array", "nullable": setting.null, "minItems": settings.TABLE_SIZES[0],
                 "items": items, "description": optional.pop("help_text", "")}  # fmt: skip
    return DocumentedListField(schema=described, **optional)


def create_input(table: dict[str, Setting] | None = None) -> type[ClosedSerializer]:
    """The body of ``POST /api/tournaments``: one field per setting, generated from ``table``
    (``settings.SETTINGS``; a test passes a changed one to see the fields follow)."""
    table = settings.SETTINGS if table is None else table
    fields = {name: create_field(name, setting) for name, setting in table.items()}
    return type("TournamentCreateInput", (ClosedSerializer,), fields)


class TournamentListApi(APIView):
    permission_classes = [StaffWrites]
    throttle_classes = [TournamentWriteThrottle]

    TournamentCreateInput = create_input()

    @extend_schema(
        summary="List tournaments, newest first",
        operation_id="tournaments_list",
        description="Public. 400 invalid_choice naming status.",
        parameters=[
            OpenApiParameter(
                "status",
                str,
                enum=Tournament.Status.values,
                required=False,
                description="Only tournaments of this status.",
            ),
        ],
        responses={200: TournamentListOut, 400: ErrorSerializer},
    )
    def get(self, request: Request) -> Response:
        wanted = query_choice(request, "status", Tournament.Status.values)
        return Response({"tournaments": [reading.summary(t) for t in reading.listed(wanted)]})

    @extend_schema(
        summary="Create a tournament (staff), open for registration",
        operation_id="tournaments_create",
        description=(
            STAFF + "400 naming the field: unknown_field, a wrong type, or a setting the "
            "services refuse (format, options.<key>, minutes, days, room_system, room_rules, "
            "room_edition, room_sides.<n>, rounds, min_entrants, max_entrants, table_min, "
            "place_points.<n>, registration_closes, late_entry_rounds); 409 name_taken."
        ),
        request=TournamentCreateInput,
        responses={201: TournamentDetailOut, **ERRORS, 429: ErrorSerializer},
    )
    def post(self, request: Request) -> Response:
        data = valid(self.TournamentCreateInput, request)
        tournament = setup.tournament_create(
            actor=request.user, settings=TournamentSettings(**data)
        )
        return Response(_detail(tournament.pk, request.user), status=status.HTTP_201_CREATED)


class TournamentDetailApi(APIView):
    permission_classes = [permissions.AllowAny]

    @extend_schema(
        summary="A tournament: entrants, rounds with their pairings, standings, crosstable",
        operation_id="tournaments_retrieve",
        description="Public; the staff log (log) is there for staff only. " + NOT_FOUND,
        parameters=[TOURNAMENT_ID],
        responses={200: TournamentDetailOut, 401: ErrorSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, tournament_id: int) -> Response:
        return Response(_detail(tournament_id, request.user))


# --- players: entering and leaving ---------------------------------------------------------------


class RegisterApi(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [TournamentWriteThrottle]

    @extend_schema(
        summary="Enter the tournament (during registration, or as a late entry)",
        operation_id="tournaments_register",
        description="201 with the tournament. 400 reserved_username; 409 already_entered, "
        "registration_not_open, registration_closed, full, referee_plays (the creator of a "
        "rated room tournament referees its rooms). " + NOT_FOUND,
        parameters=[TOURNAMENT_ID],
        request=None,
        responses={201: TournamentDetailOut, **ERRORS, 429: ErrorSerializer},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        setup.register(tournament_id=tournament_id, user=request.user)
        return Response(_detail(tournament_id, request.user), status=status.HTTP_201_CREATED)


class WithdrawApi(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [TournamentWriteThrottle]

    @extend_schema(
        summary="Leave the tournament (during play: unfinished 1 v 1 games are forfeited)",
        operation_id="tournaments_withdraw",
        description="Before the start the entry is deleted (the player may enter again). "
        "409 not_entered, tournament_over. " + NOT_FOUND,
        parameters=[TOURNAMENT_ID],
        request=None,
        responses={
            200: TournamentDetailOut,
            401: ErrorSerializer,
            404: ErrorSerializer,
            409: ErrorSerializer,
            429: ErrorSerializer,
        },
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        setup.withdraw(tournament_id=tournament_id, user=request.user)
        return Response(_detail(tournament_id, request.user))


# --- staff actions -------------------------------------------------------------------------------


class StaffApi(APIView):
    """A staff action on one tournament, answered with its detail."""

    permission_classes = [StaffWrites]
    throttle_classes = [TournamentWriteThrottle]

    def answer(self, request: Request, tournament_id: int) -> Response:
        return Response(_detail(tournament_id, request.user))


class ReasonInput(ClosedSerializer):
    reason = StrictCharField(
        required=False, default="", allow_blank=True, max_length=MAX_REASON,
        help_text="Why, for the staff log.",
    )  # fmt: skip


class StartApi(StaffApi):
    @extend_schema(
        summary="Start (staff): close registration, seed by rating, pair round 1",
        operation_id="tournaments_start",
        description=STAFF + "409 not_registration, too_few_entrants, cannot_pair. " + NOT_FOUND,
        parameters=[TOURNAMENT_ID],
        request=None,
        responses={200: TournamentDetailOut, **ERRORS, 429: ErrorSerializer},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        setup.tournament_start(actor=request.user, tournament_id=tournament_id)
        return self.answer(request, tournament_id)


class PairApi(StaffApi):
    @extend_schema(
        summary="Pair the next round now (staff)",
        operation_id="tournaments_pair",
        description=STAFF
        + "409 not_running, no_more_rounds, round_incomplete, cannot_pair. "
        + NOT_FOUND,
        parameters=[TOURNAMENT_ID],
        request=None,
        responses={200: TournamentDetailOut, **ERRORS, 429: ErrorSerializer},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        pairing.round_pair(actor=request.user, tournament_id=tournament_id)
        return self.answer(request, tournament_id)


class FinishApi(StaffApi):
    @extend_schema(
        summary="Finish after the last complete round (staff): champion from the standings",
        operation_id="tournaments_finish",
        description=STAFF + "For a round that cannot be paired (its reason is in the staff log as "
        "pairing_failed) or an event the staff stop early; a knockout stopped before its final "
        "names no champion. 409 not_running, round_incomplete. " + NOT_FOUND,
        parameters=[TOURNAMENT_ID],
        request=None,
        responses={200: TournamentDetailOut, **ERRORS, 429: ErrorSerializer},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        results.finish_now(actor=request.user, tournament_id=tournament_id)
        return self.answer(request, tournament_id)


class CancelApi(StaffApi):
    @extend_schema(
        summary="Cancel the tournament (staff): no champion; games under way play on",
        operation_id="tournaments_cancel",
        description=STAFF + "409 tournament_over. " + NOT_FOUND,
        parameters=[TOURNAMENT_ID],
        request=ReasonInput,
        responses={200: TournamentDetailOut, **ERRORS, 429: ErrorSerializer},
    )
    def post(self, request: Request, tournament_id: int) -> Response:
        data = valid(ReasonInput, request)
        setup.tournament_cancel(
            actor=request.user, tournament_id=tournament_id, reason=data["reason"]
        )
        return self.answer(request, tournament_id)


class EntrantRemoveApi(StaffApi):
    @extend_schema(
        summary="Remove an entrant (staff): no more pairings, unfinished games resolved",
        operation_id="tournaments_entrant_remove",
        description=STAFF + "404 not_found naming username when not entered; 409 not_active, "
        "tournament_over. " + NOT_FOUND,
        parameters=[TOURNAMENT_ID, USERNAME],
        request=ReasonInput,
        responses={200: TournamentDetailOut, **ERRORS, 429: ErrorSerializer},
    )
    def post(self, request: Request, tournament_id: int, username: str) -> Response:
        data = valid(ReasonInput, request)
        setup.entrant_remove(actor=request.user, tournament_id=tournament_id,
                             username=username, reason=data["reason"])  # fmt: skip
        return self.answer(request, tournament_id)


class StandInApi(StaffApi):
    class StandInInput(ClosedSerializer):
        on = StrictBooleanField(
            required=False, default=True, help_text="true: a bot plays; false: the player."
        )

    @extend_schema(
        summary="Let a bot play a Fast Risk entrant's seats from the next pairing (staff)",
        operation_id="tournaments_stand_in",
        description=STAFF + "400 naming username for a room tournament (a room's result is "
        "entered instead); 404 not_found naming username when not entered. " + NOT_FOUND,
        parameters=[TOURNAMENT_ID, USERNAME],
        request=StandInInput,
        responses={200: TournamentDetailOut, **ERRORS, 429: ErrorSerializer},
    )
    def post(self, request: Request, tournament_id: int, username: str) -> Response:
        data = valid(self.StandInInput, request)
        setup.stand_in(actor=request.user, tournament_id=tournament_id, username=username,
                       on=data["on"])  # fmt: skip
        return self.answer(request, tournament_id)


class ResultApi(StaffApi):
    class ResultInput(ClosedSerializer):
        places = serializers.ListField(
            child=StrictIntegerField(min_value=1, max_value=6), min_length=1, max_length=6,
            help_text="Places by seat order (the table's players), 1 best; ties as 1, 1, 3.",
        )  # fmt: skip
        territories = serializers.ListField(
            child=StrictIntegerField(min_value=0, max_value=200), max_length=6, required=False,
            allow_null=True, default=None,
            help_text="Fast Risk: territories each seat held (tie-break); default: the game's.",
        )  # fmt: skip
        reason = StrictCharField(
            required=False, default="", allow_blank=True, max_length=MAX_REASON,
            help_text="Why, for the staff log (an adjudication, a game ended without a result).",
        )  # fmt: skip

    @extend_schema(
        summary="Enter a table's result (staff); a game or room still running is ended",
        operation_id="tournaments_result",
        description=STAFF + "400 naming places (one per seat, ranked 1, 2, 2, 4), places.<n>, "
        "territories; 404 not_found naming table for a table not in this tournament; 409 "
        "table_done. " + NOT_FOUND,
        parameters=[TOURNAMENT_ID, TABLE_ID],
        request=ResultInput,
        responses={200: TournamentDetailOut, **ERRORS, 429: ErrorSerializer},
    )
    def post(self, request: Request, tournament_id: int, table_id: int) -> Response:
        data = valid(self.ResultInput, request)
        results.enter_result(
            actor=request.user, tournament_id=tournament_id, table_id=table_id,
            places=data["places"], territories=data["territories"], reason=data["reason"],
        )  # fmt: skip
        return self.answer(request, tournament_id)
