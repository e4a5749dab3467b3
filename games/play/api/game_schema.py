"""The game answers in the OpenAPI schema: the lobby's summary and the detail.

Schema-only serializers, stating what ``games.play.reads.shown`` returns, so a generated client
gets typed games. The player's ``view`` (``risk.rules.views.view_for``) is the ``GameView``
component, defined in ``games.protocol.view``; ``legal_actions`` lists ``{type, options}`` specs
(``LegalAction``, typed per action type in ``games.protocol.legal``), and an action built from one
is an ``Action`` (``POST .../actions``).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import AI_LEVELS, Game, Seat

#: The games' statuses, named StatusEnum in the schema (``ENUM_NAME_OVERRIDES``): tournaments
#: and their entrants have a ``status`` of their own.
GAME_STATUSES = list(Game.Status.values)


class SeatOut(serializers.Serializer):
    position = serializers.IntegerField(min_value=0)
    player = serializers.CharField(help_text="The name the rules know the seat by.")
    name = serializers.CharField(help_text="The display name (or the player name).")
    bot = serializers.BooleanField()
    colour = serializers.CharField(
        allow_blank=True, help_text="Army colour, empty before the start."
    )
    state = serializers.ChoiceField(choices=Seat.State.values)


class GameSummaryOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(allow_blank=True)
    kind = serializers.CharField()
    status = serializers.ChoiceField(choices=GAME_STATUSES)
    version = serializers.IntegerField(min_value=0, help_text="The last log entry applied.")
    creator = serializers.CharField()
    public = serializers.BooleanField()
    seat_count = serializers.IntegerField()
    seats = SeatOut(many=True)
    options = serializers.DictField(help_text="The rules options (risk/RULES.md).")
    time_control = serializers.ChoiceField(choices=Game.TimeControl.values)
    seconds_per_turn = serializers.IntegerField(allow_null=True)
    max_timeouts = serializers.IntegerField()
    ai_level = serializers.ChoiceField(choices=list(AI_LEVELS))
    ai_delay_ms = serializers.IntegerField(min_value=0)
    hints = serializers.BooleanField()
    rated = serializers.BooleanField(
        help_text="Fixed at creation; false from the start if any seat was a bot."
    )
    seed_commitment = serializers.CharField(help_text="SHA-256 of the server seed (hex).")
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)
    result = serializers.DictField(allow_null=True, help_text="winner and ranking, once over.")


class YouOut(serializers.Serializer):
    position = serializers.IntegerField()
    player = serializers.CharField()
    state = serializers.ChoiceField(choices=Seat.State.values)


class TurnOut(serializers.Serializer):
    seat = serializers.CharField()
    controller = serializers.CharField(help_text="Who plays the turn (an allied army's declarer).")
    phase = serializers.CharField()
    round = serializers.IntegerField()


class PendingOut(serializers.Serializer):
    player = serializers.CharField(help_text="Who the game waits for.")
    seat = serializers.CharField()
    kind = serializers.CharField(help_text="The kind of decision.")
    deadline = serializers.DateTimeField(allow_null=True)


@extend_schema_field({"allOf": [{"$ref": "#/components/schemas/GameView"}], "nullable": True})
class ViewField(serializers.DictField):
    """The caller's view: the ``GameView`` component (``games.protocol.view``)."""


class GameDetailOut(GameSummaryOut):
    you = YouOut(allow_null=True, help_text="The caller's seat; null for a spectator.")
    view = ViewField(
        allow_null=True,
        help_text="The game as the caller may see it (null before the start).",
    )
    turn = TurnOut(allow_null=True)
    pending = PendingOut(many=True)
    invite_token = serializers.CharField(
        required=False, help_text="Only to the game's players, creator and staff."
    )
    server_seed = serializers.CharField(required=False, help_text="Revealed when it is over.")
    client_seeds = serializers.ListField(child=serializers.CharField(allow_blank=True),
                                         required=False)  # fmt: skip


class GameListItemOut(GameSummaryOut):
    allies = serializers.ListField(
        child=serializers.CharField(), required=False,
        help_text="With joinable=true: the allied armies the caller may take over (a 'join').",
    )  # fmt: skip


class GameListOut(serializers.Serializer):
    games = GameListItemOut(many=True)
