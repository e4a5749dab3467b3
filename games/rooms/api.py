"""Correspondence rooms under ``/api/rooms``: parse, call a service in
``games.rooms``, serialise.

Anyone signed in reads a public room; a private room answers 404 not_found to anyone but its
sides, referee, creator, staff and holders of its invite token. Only sides post notes, battles,
challenges, result agreements, turn ends and vacations (403 not_a_side); only the referee rules
and decides the result (403 not_referee).
"""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import permissions, serializers, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.common.throttles import RoomPostThrottle
from games.models import MAX_SIDES, MIN_SIDES, Room, RoomEntry
from games.rooms import access, commands, journal, reading, setup, writing
from games.rooms.commands import POST_KINDS
from games.web.exceptions import ErrorSerializer
from games.web.requests import ERRORS, after_param, query_count, valid
from games.web.strict import (
    ClosedSerializer,
    DocumentedDictField,
    StrictBooleanField,
    StrictCharField,
    StrictEnumField,
    StrictIntegerField,
)
from games.web.web_errors import ID_MAX

ROOM_ID = OpenApiParameter(
    "room_id",
    {"type": "integer", "minimum": 0, "maximum": ID_MAX},
    OpenApiParameter.PATH,
    description="The room's id (at most 18 digits; a longer one is no room's id: 404).",
)
INVITE = OpenApiParameter(
    "invite",
    str,
    required=False,
    description="A private room's invite token (read it before joining).",
)
NOT_FOUND = "404 not_found for a missing id and for a private room the caller may not see."


class SideOut(serializers.Serializer):
    position = serializers.IntegerField(min_value=0, help_text="Turn order, from 0.")
    name = serializers.CharField()
    player = serializers.CharField(allow_null=True, help_text="Username; null while free.")
    vacation_days_left = serializers.IntegerField(min_value=0)
    on_vacation_until = serializers.DateTimeField(allow_null=True)
    agreed_result = serializers.DictField(allow_null=True)


class RoomSummaryOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    system = serializers.ChoiceField(choices=Room.System.values)
    rules = serializers.CharField(allow_blank=True)
    edition = serializers.CharField(allow_blank=True)
    edition_name = serializers.CharField(
        allow_blank=True, help_text="The edition's name, from its data file; blank: no edition."
    )
    status = serializers.CharField(help_text="open (sides free), running or finished.")
    public = serializers.BooleanField()
    rated = serializers.BooleanField(help_text="Fixed at creation (2-sided rooms only).")
    referee = serializers.CharField()
    sides = SideOut(many=True)
    turn = serializers.IntegerField(min_value=0, help_text="0 until the room starts.")
    to_move = serializers.CharField(allow_null=True, help_text="The side to move, if running.")
    entries = serializers.IntegerField(min_value=0, help_text="The last journal number.")
    created_at = serializers.DateTimeField()


class RoomListOut(serializers.Serializer):
    rooms = RoomSummaryOut(many=True)


class RoomDetailOut(RoomSummaryOut):
    days_per_turn = serializers.IntegerField(allow_null=True)
    remind_hours = serializers.IntegerField()
    grace_days = serializers.IntegerField()
    vacation_days = serializers.IntegerField()
    turn_started_at = serializers.DateTimeField(allow_null=True)
    due_at = serializers.DateTimeField(allow_null=True, help_text="The side to move's deadline.")
    seed_commitment = serializers.CharField(help_text="SHA-256 of the server seed, from the start.")
    server_seed = serializers.CharField(allow_null=True, help_text="Revealed when the room ends.")
    rolls = serializers.IntegerField(min_value=0, help_text="The last roll number used.")
    result = serializers.DictField(allow_null=True)
    you = serializers.CharField(allow_null=True, help_text="The caller's side, if any.")
    referee_is_you = serializers.BooleanField()
    invite_token = serializers.CharField(allow_null=True, help_text="For participants only.")


class EntryOut(serializers.Serializer):
    number = serializers.IntegerField(min_value=1)
    at = serializers.DateTimeField()
    author = serializers.CharField(allow_null=True)
    side = serializers.CharField(help_text="The author's side, 'referee' or 'server'.")
    kind = serializers.ChoiceField(choices=RoomEntry.Kind.values)
    text = serializers.CharField(allow_blank=True)
    data = serializers.DictField(
        help_text="A battle result: request, notation, odds, result, summary, rolls "
        "[{number, sides, value}], first_roll, last_roll, replaces."
    )
    refers_to = serializers.IntegerField(allow_null=True)


class JournalOut(serializers.Serializer):
    after = serializers.IntegerField(min_value=0)
    last = serializers.IntegerField(min_value=0, help_text="The number to ask after next time.")
    more = serializers.BooleanField()
    entries = EntryOut(many=True)


class EntriesOut(serializers.Serializer):
    entries = EntryOut(many=True)


class RoomListApi(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [RoomPostThrottle]

    class RoomCreateInput(ClosedSerializer):
        name = StrictCharField(max_length=80)
        system = StrictEnumField(Room.System.values)
        rules = StrictCharField(
            max_length=20,
            required=False,
            allow_blank=True,
            default="",
            help_text="A&A only: dice (default), lowluck or chess.",
        )
        edition = StrictCharField(
            required=False,
            default="",
            allow_blank=True,
            max_length=40,
            help_text="A&A only: the edition, revised (default), classic, 1942-2e, "
            "global-1940-2e (+ -balanced-mod, -path-to-victory) or anniversary.",
        )
        sides = serializers.ListField(
            child=StrictCharField(max_length=40),
            min_length=MIN_SIDES,
            max_length=MAX_SIDES,
            help_text="The sides' names in turn order, e.g. Germany, Soviet Union.",
        )
        side = StrictCharField(
            required=False,
            default="",
            allow_blank=True,
            max_length=40,
            help_text="The side the creator plays, if any.",
        )
        referee = StrictCharField(
            required=False,
            default="",
            allow_blank=True,
            max_length=150,
            help_text="A staff user's name; the creator by default.",
        )
        public = StrictBooleanField(required=False, default=True)
        days_per_turn = StrictIntegerField(
            required=False,
            allow_null=True,
            default=None,
            min_value=1,
            max_value=setup.MAX_DAYS_PER_TURN,
        )
        remind_hours = StrictIntegerField(required=False, default=24, min_value=1, max_value=240)
        grace_days = StrictIntegerField(required=False, default=1, min_value=0, max_value=30)
        vacation_days = StrictIntegerField(required=False, default=14, min_value=0, max_value=90)
        rated = StrictBooleanField(
            required=False,
            allow_null=True,
            default=None,
            help_text="Fixed at creation. Default: true for a room of 2 sides; a room of more "
            "sides cannot be rated (400 naming rated).",
        )

    @extend_schema(
        summary="List rooms: public ones and the caller's own",
        operation_id="rooms_list",
        responses={200: RoomListOut, 401: ErrorSerializer},
    )
    def get(self, request: Request) -> Response:
        rooms = reading.listed_for(request.user)[: reading.LIST_LIMIT]
        return Response({"rooms": [reading.room_summary(r) for r in rooms]})

    @extend_schema(
        summary="Create a room; its seed commitment is published in entry #1",
        operation_id="rooms_create",
        description="400 invalid, naming the field (system, rules, edition, sides.<n>, side, "
        "referee: not_staff when the referee is not a staff user; side: referee_plays when "
        "the creator would referee a rated room and play a side in it).",
        request=RoomCreateInput,
        responses={201: RoomDetailOut, **ERRORS, 429: ErrorSerializer},
    )
    def post(self, request: Request) -> Response:
        data = valid(self.RoomCreateInput, request)
        room = setup.room_create(creator=request.user, **data)
        return Response(reading.room_detail(room, request.user), status=status.HTTP_201_CREATED)


class RoomDetailApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="The room: sides, turn, clock, dice commitment (the seed once ended)",
        operation_id="rooms_retrieve",
        description=NOT_FOUND,
        parameters=[ROOM_ID, INVITE],
        responses={200: RoomDetailOut, 401: ErrorSerializer, 404: ErrorSerializer},
    )
    def get(self, request: Request, room_id: int) -> Response:
        room = access.room_for(room_id, request.user, invite=_invite(request))
        return Response(reading.room_detail(room, request.user))


class RoomJoinApi(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [RoomPostThrottle]

    class RoomJoinInput(ClosedSerializer):
        side = StrictCharField(max_length=40, help_text="The free side to play.")
        invite = StrictCharField(
            required=False,
            default="",
            allow_blank=True,
            max_length=100,
            help_text="A private room's invite token.",
        )

    @extend_schema(
        summary="Play a free side; the room starts when every side is taken",
        operation_id="rooms_join",
        description="400 invalid (side: not one of the room's); 409 not_open, already_seated, "
        "side_taken, referee_plays (the referee of a rated room plays no side). Joining "
        "accepts the room's referee (said in the join entry). " + NOT_FOUND,
        parameters=[ROOM_ID],
        request=RoomJoinInput,
        responses={200: RoomDetailOut, **ERRORS, 429: ErrorSerializer},
    )
    def post(self, request: Request, room_id: int) -> Response:
        data = valid(self.RoomJoinInput, request)
        room = setup.room_join(
            room_id=room_id, user=request.user, side=data["side"], invite=data["invite"] or None
        )
        return Response(reading.room_detail(room, request.user))


class RoomJournalApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="The journal after entry N (at most 200 entries; page on with after=last)",
        operation_id="rooms_journal",
        description=NOT_FOUND,
        parameters=[ROOM_ID, after_param("The last entry already read; default 0."), INVITE],
        responses={
            200: JournalOut,
            400: ErrorSerializer,
            401: ErrorSerializer,
            404: ErrorSerializer,
        },
    )
    def get(self, request: Request, room_id: int) -> Response:
        after = query_count(request, "after")
        room = access.room_for(room_id, request.user, invite=_invite(request))
        return Response(reading.journal_page(room, after))


class RoomTranscriptApi(APIView):
    permission_classes = [permissions.IsAuthenticated]

    @extend_schema(
        summary="The journal as a plain-text transcript, one block per entry",
        operation_id="rooms_transcript",
        description="Lines like '#12  2026-11-24 10:31 UTC  Germany  battle: ...'. " + NOT_FOUND,
        parameters=[ROOM_ID, INVITE],
        responses={
            (200, "text/plain"): OpenApiTypes.STR,
            401: ErrorSerializer,
            404: ErrorSerializer,
        },
    )
    def get(self, request: Request, room_id: int) -> HttpResponse:
        room = access.room_for(room_id, request.user, invite=_invite(request))
        return HttpResponse(reading.room_transcript(room), content_type="text/plain; charset=utf-8")


class RoomPostApi(APIView):
    permission_classes = [permissions.IsAuthenticated]
    throttle_classes = [RoomPostThrottle]

    class RoomEntryInput(ClosedSerializer):
        kind = StrictEnumField(
            POST_KINDS,
            help_text=(
                "note (text), battle (notation or arguments), challenge (entry, text), ruling "
                "(entry, decision, text), agree_result and decide_result (winners, text), end_turn "
                "(text optional), vacation (days), accept_ruling and reject_ruling (entry: a "
                "playing referee's proposed ruling; text optional)."
            ),
        )
        text = StrictCharField(
            required=False, default="", allow_blank=True, max_length=writing.MAX_TEXT
        )
        notation = StrictCharField(
            required=False,
            max_length=500,
            help_text="A battle in the resolver's notation. Priced before it is rolled "
            "(the solver's own estimate of its work): past the limit a 400 too_large with the "
            "estimate and the limit; past the player's budget of battle work a 429 "
            "battle_budget_spent, and while another big battle of theirs is resolved a 429 "
            "battle_running (both with Retry-After); no free slot a 503 battles_busy.",
        )
        arguments = DocumentedDictField(
            schema={"type": "object", "additionalProperties": True},
            required=False,
            help_text="A battle as the resolver's JSON arguments (instead of notation).",
        )
        entry = StrictIntegerField(
            required=False,
            min_value=1,
            max_value=ID_MAX,
            help_text="The journal number challenged or ruled on.",
        )
        decision = StrictEnumField(journal.DECISIONS, required=False)
        winners = serializers.ListField(
            child=StrictCharField(max_length=40), required=False, max_length=MAX_SIDES
        )
        days = StrictIntegerField(required=False, min_value=1, max_value=90)

    @extend_schema(
        summary="Post to the journal: a note, a battle, a challenge, a ruling, a result, a "
        "turn's end or a vacation",
        operation_id="rooms_post",
        description=(
            "201 with the entries written (a battle: its request and its result; a voiding "
            "ruling: the ruling and the re-roll). A referee who plays a side (unrated rooms "
            "only) proposes the rulings that change a result (voided, corrected, "
            "decide_result): they take effect when every other side accepts them "
            "(accept_ruling) or a staff user does; reject_ruling drops one. "
            "400 required/invalid naming the field, "
            "invalid_notation, invalid_input (arguments.<key>), no_entry, not_a_battle, "
            "not_enough_vacation, not_pending; 403 not_a_side, not_referee, not_other_side; "
            "409 not_running, not_your_turn, already_ruled, already_voided, rerolled_once, "
            "ruling_pending, settled, already_accepted, on_vacation. " + NOT_FOUND
        ),
        parameters=[ROOM_ID],
        request=RoomEntryInput,
        responses={201: EntriesOut, **ERRORS, 429: ErrorSerializer, 503: ErrorSerializer},
    )
    def post(self, request: Request, room_id: int) -> Response:
        data = valid(self.RoomEntryInput, request)
        entries = commands.run(room_id, request.user, data["kind"], data)
        return Response(
            {"entries": [reading.entry_dict(e) for e in entries]}, status=status.HTTP_201_CREATED
        )


def _invite(request: Request) -> str | None:
    return request.query_params.get("invite") or None
