"""``POST /api/combat/wif/land``: World in Flames option 27, the 2d10 Land CRT.

The body holds the arguments of ``combat.crt.wif.wif_land_odds`` (attack, defense, column, drm,
modifiers, fractional_odds) plus ``resolve``. Without ``resolve`` the answer is the odds: the
level, the total die-roll modifier line by line, and the exact chance of every printed result.
With ``resolve: true`` the server also rolls the dice, with fresh verifiable dice
(``SeededDice``, a new secret seed per request, the context ``wif-land:<uuid>``), and answers
with the rolls (each with its counter), the row read, the parsed result, the seed's SHA-256
``commitment`` and the ``context``.

Stand-alone CRT rolls are not kept: the seed is neither stored nor returned, so the commitment
only shows that the dice were fixed before rolling. Rolls a player must be able to check later
belong to a stored game or battle (the A&A battle endpoints' pattern: store the seed, reveal it
on close). The envelope is checked for JSON types here; what the values mean is the resolver's to
judge, and its errors name the field (``modifiers.weather``...). Anonymous use is allowed.
"""

from __future__ import annotations

import math
from dataclasses import fields
from typing import Any
from uuid import uuid4

from drf_spectacular.utils import (
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from combat.api.serializers import StrictEnvelopeSerializer
from combat.api.views import BAD_INPUT, CombatApi
from combat.crt.wif import (
    COLUMNS,
    MAX_COUNT,
    WifModifiers,
    wif_land_odds,
    wif_land_resolve,
    wif_tables,
)
from combat.dice import SeededDice, new_seed
from games.web.strict import StrictBooleanField, StrictCharField


def _modifiers_schema() -> dict[str, Any]:
    """The ``modifiers`` object in the OpenAPI schema, built from ``WifModifiers`` itself."""
    properties: dict[str, Any] = {}
    for spec in fields(WifModifiers):
        kind = spec.metadata["kind"]
        if kind == "count":
            prop = {"type": "integer", "minimum": 0, "maximum": MAX_COUNT, "default": spec.default}
        elif kind == "optional_count":
            prop = {"type": "integer", "minimum": 1, "maximum": MAX_COUNT, "nullable": True}
        elif kind == "flag":
            prop = {"type": "boolean", "default": False}
        elif kind == "choice":
            prop = {
                "type": "string",
                "enum": list(spec.metadata["allowed"]),
                "default": spec.default,
            }
        elif kind == "options":
            prop = {
                "type": "array",
                "items": {"type": "string", "enum": sorted(wif_tables().options)},
            }
        else:  # divisions
            prop = {"type": "object", "additionalProperties": {"type": "integer", "minimum": 0}}
        properties[spec.name] = {**prop, "description": spec.metadata["doc"]}
    return {
        "type": "object",
        "nullable": True,
        "additionalProperties": False,
        "properties": properties,
        "example": {"terrain": "clear", "weather": "fine", "attacking_arm": 2, "defending_mech": 1},
    }


class StrictNumberField(serializers.FloatField):
    """A finite JSON number, kept as sent (an int stays an int), not "3" or true."""

    def to_internal_value(self, data: Any) -> int | float:
        if isinstance(data, bool) or not isinstance(data, int | float) or not math.isfinite(data):
            self.fail("invalid")
        return data


@extend_schema_field({"type": "number", "minimum": 0})
class NonNegativeNumberField(StrictNumberField):
    """A finite JSON number, 0 or more (the resolver checks it)."""


@extend_schema_field({"type": "number", "exclusiveMinimum": True, "minimum": 0})
class PositiveNumberField(StrictNumberField):
    """A finite JSON number above 0 (the odds divide by it)."""


@extend_schema_field({"type": "string", "enum": list(COLUMNS)})
class ColumnField(StrictCharField):
    """assault or blitz, documented as an enum; the resolver refuses anything else and its error
    lists both (a ChoiceField's error would not)."""


@extend_schema_field(_modifiers_schema())
class WifModifiersField(serializers.DictField):
    """The battle's situation; ``combat.crt.wif.WifModifiers`` checks every key and value."""


class WifLandInputSerializer(StrictEnvelopeSerializer):
    attack = NonNegativeNumberField(help_text="Attack factors (after any halving).")
    defense = PositiveNumberField(help_text="Defense factors, more than 0.")
    column = ColumnField(default="assault", help_text="The CRT column chosen.")
    drm = StrictNumberField(
        default=0, help_text="A raw die-roll modifier added on top (at most one decimal)."
    )
    modifiers = WifModifiersField(
        default=None,
        allow_null=True,
        help_text="Units, terrain, weather and options: each printed modifier line, the x "
        "conditions and the column choice are worked out from them.",
    )
    fractional_odds = StrictBooleanField(
        default=False, help_text="Option 26: from 1:1 up the odds DRM is 2 x odds, to 0.1."
    )
    resolve = StrictBooleanField(
        default=False, help_text="Also roll the dice (server dice) and read the result."
    )


class WifModifierSerializer(serializers.Serializer):
    condition = serializers.CharField()
    count = serializers.FloatField(help_text="How many times the line applies.")
    value = serializers.FloatField(help_text="What the line adds in total.")


class WifOddsSerializer(serializers.Serializer):
    table = serializers.CharField()
    odds_level = serializers.CharField(help_text='"3:1", "<1:6", or the ratio over 10:1.')
    column = serializers.CharField(help_text="assault or blitz.")
    odds_drm = serializers.FloatField()
    drm = serializers.FloatField(help_text="The total die-roll modifier.")
    total_drm = serializers.FloatField()
    explanation = WifModifierSerializer(many=True, help_text="The lines add up to drm.")
    distribution = serializers.DictField(
        child=serializers.FloatField(), help_text='Code as printed ("†1/2S") -> exact chance.'
    )


class WifRollSerializer(serializers.Serializer):
    counter = serializers.IntegerField(help_text="Position in the dice stream.")
    sides = serializers.IntegerField()
    value = serializers.IntegerField()


class WifOutcomeSerializer(serializers.Serializer):
    attacker_losses = serializers.IntegerField(help_text="Printed losses plus the x, if taken.")
    printed_attacker_losses = serializers.IntegerField()
    extra_loss = serializers.BooleanField(help_text="The code has an x.")
    extra_loss_taken = serializers.BooleanField()
    extra_loss_reasons = serializers.ListField(child=serializers.CharField())
    defender_losses = serializers.IntegerField()
    face_up = serializers.CharField(help_text="none, half (†) or all (*) stay face-up.")
    defender_result = serializers.CharField(allow_null=True, help_text="R, S, B or null.")
    may_convert_to_retreat = serializers.BooleanField()
    summary = serializers.CharField()


class WifResolutionSerializer(serializers.Serializer):
    odds = WifOddsSerializer()
    rolls = WifRollSerializer(many=True, help_text="Two d10, then a d10 for a DRM fraction.")
    row = serializers.IntegerField(help_text="The row read, -1..23.")
    code = serializers.CharField()
    outcome = WifOutcomeSerializer()
    commitment = serializers.CharField(help_text="SHA-256 of the server seed (not stored).")
    context = serializers.CharField()


class CrtApi(CombatApi):
    @extend_schema(
        tags=["combat: World in Flames"],
        summary="World in Flames 2d10 Land CRT: odds, or a resolved battle",
        description="Odds (option 27): the odds DRM, every modifier line and the exact chance "
        "of each printed result. With resolve: true, also rolls server dice (a fresh seed whose "
        "commitment is returned; stand-alone rolls are not stored) and reads the result.",
        operation_id="wif_land",
        request=WifLandInputSerializer,
        responses={
            200: OpenApiResponse(
                PolymorphicProxySerializer(
                    component_name="WifLandAnswer",
                    serializers=[WifOddsSerializer, WifResolutionSerializer],
                    resource_type_field_name=None,
                ),
                description="The odds; with resolve: true, the resolution.",
            ),
            400: BAD_INPUT,
        },
    )
    def post(self, request: Request) -> Response:
        serializer = WifLandInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        arguments = dict(serializer.validated_data)
        if not arguments.pop("resolve"):
            return Response(wif_land_odds(**arguments).as_dict())
        return Response(_resolve_with_server_dice(arguments))


def _resolve_with_server_dice(arguments: dict[str, Any]) -> dict[str, Any]:
    """Roll with a fresh secret seed; return the result, the commitment and the context."""
    dice = SeededDice(new_seed(), context=f"wif-land:{uuid4()}")
    result = wif_land_resolve(**arguments, dice=dice)
    return {**result.as_dict(), "commitment": dice.commitment, "context": dice.context}
