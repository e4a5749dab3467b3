"""``POST /api/combat/france-1944``: a France 1944 attack on the revised combat table.

The body is the arguments of ``combat.crt.france_1944.france_1944_odds`` as JSON, plus
``resolve``. With ``resolve: false`` (the default) the answer is the odds: the odds column, the
column after the morale and control shifts, the die-roll modifier, how the modifier was made up,
and the exact chance of every result letter. With ``resolve: true`` the server also rolls the die.

Server dice: each resolution draws a fresh seed (``combat.dice.new_seed``) and rolls with
``SeededDice(seed, context="france-1944:<uuid4>")``; the answer carries the roll with its counter,
the seed's SHA-256 ``commitment`` and the ``context``. The seed is neither stored nor returned:
this stand-alone roll is final, and nobody (the server included) can recompute it afterwards, so
the commitment only ties the answer to one secret seed. Players who need to check rolls after the
fact should resolve inside a game, whose seed is revealed at the end (design.md §2).

The envelope is checked for JSON types here (unknown fields refused); what the values mean (morale
1..6, odds of at least 1-4, a known combat type...) is the resolver's to judge, and its
``CombatInputError`` becomes a 400 naming the field.
"""

from __future__ import annotations

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
from combat.crt.france_1944 import (
    ATTACKING_UNITS,
    COMBAT_TYPES,
    MORALE,
    OTHER_MORALE,
    TERRAIN_MORALE,
    france_1944_odds,
    france_1944_resolve,
)
from combat.dice import SeededDice, new_seed
from games.web.strict import (
    DocumentedIntegerField,
    StrictBooleanField,
    StrictEnumField,
    whole_number,
)

TAGS = ["combat: France 1944"]


@extend_schema_field({"type": "number", "exclusiveMinimum": True, "minimum": 0})
class StrictNumberField(serializers.Field):
    """A JSON number (whole or not), never a string or a boolean; kept as sent."""

    default_error_messages = {"invalid": "A valid number is required."}

    def to_internal_value(self, data: Any) -> int | float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        return data

    def to_representation(self, value: Any) -> Any:
        return value


class France1944InputSerializer(StrictEnvelopeSerializer):
    """The attack: the arguments of ``france_1944_odds``, plus ``resolve``."""

    attack = StrictNumberField(
        help_text="Attacking combat strength, above 0; at least 1-4 odds against the defense."
    )
    defense = StrictNumberField(help_text="Defending combat strength (above 0).")
    combat = StrictEnumField(COMBAT_TYPES, default="set-piece", help_text="set-piece or mobile.")
    # The ranges are stated here and checked by the resolver (one check, its messages).
    attacker_morale = DocumentedIntegerField(schema=whole_number(MORALE[0], MORALE[-1]))
    defender_morale = DocumentedIntegerField(
        schema=whole_number(MORALE[0], MORALE[-1]), help_text="Before adjustments."
    )
    attacking_units = DocumentedIntegerField(
        schema=whole_number(ATTACKING_UNITS[0], ATTACKING_UNITS[-1]),
        help_text="Attacking units, HQs not counted (a combat holds at most 8).",
    )
    terrain_morale = DocumentedIntegerField(
        schema=whole_number(TERRAIN_MORALE[0], TERRAIN_MORALE[-1]),
        default=0,
        help_text="The best terrain adjustment to defender morale: 0, 1 or 2 (no sums).",
    )
    other_morale = DocumentedIntegerField(
        schema=whole_number(OTHER_MORALE[0], OTHER_MORALE[-1]),
        default=0,
        help_text="Sum of the cumulative adjustments to defender morale (79th Armoured, heavy "
        "bombing); with terrain, held within -3..+2.",
    )
    resolve = StrictBooleanField(
        default=False, help_text="true: also roll the die with server dice."
    )


class France1944ModifierSerializer(serializers.Serializer):
    condition = serializers.CharField()
    count = serializers.FloatField()
    value = serializers.FloatField(help_text="What this line adds to the combat modifier.")


class France1944OddsSerializer(serializers.Serializer):
    table = serializers.CharField(help_text='"france-1944".')
    odds_level = serializers.CharField(help_text="The odds column before shifts, e.g. 3-2.")
    column = serializers.CharField(help_text="The column read, after the combat modifier.")
    odds_drm = serializers.IntegerField(help_text="Always 0: odds pick a column here.")
    drm = serializers.IntegerField(help_text="The shifts past 4-1 (or 1-4), added to the die.")
    total_drm = serializers.IntegerField()
    explanation = France1944ModifierSerializer(
        many=True, help_text="The combat modifier, line by line; the values add up to it."
    )
    distribution = serializers.DictField(
        child=serializers.FloatField(), help_text="Exact chance of each result letter A..F."
    )


class France1944RollSerializer(serializers.Serializer):
    counter = serializers.IntegerField(help_text="Position in the dice stream of the context.")
    sides = serializers.IntegerField()
    value = serializers.IntegerField()


class France1944ResultSerializer(serializers.Serializer):
    odds = France1944OddsSerializer()
    rolls = France1944RollSerializer(many=True)
    row = serializers.IntegerField(help_text="The table row read, after the modifier, 1..6.")
    code = serializers.CharField(help_text="The result letter of Table 1.")
    outcome = serializers.DictField(help_text="combat, natural_roll, modified_roll.")
    commitment = serializers.CharField(help_text="SHA-256 (hex) of the secret seed.")
    context = serializers.CharField(help_text='"france-1944:<uuid4>", the dice context.')


France1944Answer = PolymorphicProxySerializer(
    component_name="France1944Answer",
    serializers=[France1944OddsSerializer, France1944ResultSerializer],
    resource_type_field_name=None,
)


class CrtApi(CombatApi):
    @extend_schema(
        tags=TAGS,
        summary="Odds or resolution of a France 1944 attack (revised combat table)",
        description="resolve false: the column, shifts and exact chance of each result. "
        "resolve true: one die rolled with server dice; the answer carries the roll with its "
        "counter, the seed's commitment and the context. The seed is never stored or revealed.",
        operation_id="france_1944",
        request=France1944InputSerializer,
        responses={
            200: OpenApiResponse(France1944Answer, description="The odds, or the resolved result."),
            400: BAD_INPUT,
        },
    )
    def post(self, request: Request) -> Response:
        serializer = France1944InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        attack, defense = data.pop("attack"), data.pop("defense")
        if not data.pop("resolve"):
            return Response(france_1944_odds(attack, defense, **data).as_dict())
        dice = SeededDice(new_seed(), context=f"france-1944:{uuid4()}")
        result = france_1944_resolve(attack, defense, dice=dice, **data)
        body = {**result.as_dict(), "commitment": dice.commitment, "context": dice.context}
        return Response(body)
