"""``POST /api/combat/poker/evaluate``: value and rank poker hands, for players settling a pot.

Send one hand (``cards``) or several (``hands``, up to six players); each gets its category and
description, and with several the answer ranks them (1 = best; equal hands share a rank).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from combat.api.serializers import StrictEnvelopeSerializer
from combat.api.views import BAD_INPUT, CombatApi
from combat.errors import CombatInputError
from combat.poker import CATEGORIES, evaluate
from combat.poker.cards import DECK
from games.web.strict import StrictBooleanField, StrictCharField


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "string", "enum": list(DECK)},
        "minItems": 5,
        "maxItems": 5,
        "uniqueItems": True,
    }
)
class HandField(serializers.ListField):
    """Five different cards; ``combat.poker`` checks each (its error lists the deck)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=StrictCharField(), min_length=5, max_length=5, **kwargs)


class PokerEvaluateInputSerializer(StrictEnvelopeSerializer):
    #: Exactly one of the two (``validate``), stated in the schema too (``games.web.schema``).
    schema_extra = {"oneOf": [{"required": ["cards"]}, {"required": ["hands"]}]}

    cards = HandField(
        required=False,
        help_text='One hand: five cards such as "Qh", "Td", "As".',
    )
    hands = serializers.ListField(
        child=HandField(),
        min_length=1,
        max_length=6,
        required=False,
        help_text="Several hands to rank.",
    )
    red_queens_high = StrictBooleanField(
        default=True, help_text="The Fast Risk rule: red queens rank above the ace."
    )

    def validate(self, attrs: dict) -> dict:
        if ("cards" in attrs) == ("hands" in attrs):
            raise CombatInputError("cards", 'send either "cards" (one hand) or "hands"')
        return attrs


class HandValueSerializer(serializers.Serializer):
    cards = serializers.ListField(child=serializers.CharField())
    category = serializers.ChoiceField(choices=CATEGORIES)
    description = serializers.CharField()
    rank = serializers.IntegerField(help_text="1 = best; equal hands share a rank.")


class PokerEvaluateSerializer(serializers.Serializer):
    red_queens_high = serializers.BooleanField()
    hands = HandValueSerializer(many=True)


class PokerEvaluateApi(CombatApi):
    @extend_schema(
        tags=["combat: Fast Risk"],
        summary="Value and rank poker hands",
        operation_id="poker_evaluate",
        request=PokerEvaluateInputSerializer,
        responses={200: OpenApiResponse(PokerEvaluateSerializer), 400: BAD_INPUT},
    )
    def post(self, request: Request) -> Response:
        serializer = PokerEvaluateInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        hands = data.get("hands") or [data["cards"]]
        red_queens = data["red_queens_high"]
        values = []
        for index, cards in enumerate(hands):
            try:
                values.append(evaluate(cards, red_queens_high=red_queens))
            except CombatInputError as error:
                field = "cards" if "cards" in data else f"hands.{index}"
                raise CombatInputError(field, error.message, error.allowed) from error
        body = [
            {
                "cards": list(cards),
                "category": value.category,
                "description": value.describe(),
                # competition ranking (1, 1, 3): one more than the strictly better hands
                "rank": 1 + sum(other > value for other in values),
            }
            for cards, value in zip(hands, values, strict=True)
        ]
        return Response({"red_queens_high": red_queens, "hands": body})
