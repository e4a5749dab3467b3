"""``POST /api/combat/risk/odds``: exact odds of a Fast Risk battle before the attack.

The envelope is checked for JSON types here; what the numbers mean (a commitment of at least 2,
flanks only in a flanking attack...) is ``combat.risk_dice``'s to judge, and its errors name the
field. Anonymous use is allowed, like the A&A calculator.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from combat import risk_dice
from combat.api.limits import bounded
from combat.api.serializers import StrictEnvelopeSerializer
from combat.api.views import BAD_INPUT, BUSY, LIMITS, CombatApi
from games.web.strict import (
    DocumentedIntegerField,
    DocumentedListField,
    StrictBooleanField,
    StrictIntegerField,
    whole_number,
)

DEFAULT_OUTCOMES = 500  # end states listed unless asked: the likeliest, most first
MAX_OUTCOMES = 10_000  # a bound on the answer's size (27,734 for flanking [20, 20, 20] v 40)


class RiskOddsInputSerializer(StrictEnvelopeSerializer):
    # The ranges are stated here and checked by combat.risk_dice (one check, its messages).
    attackers = DocumentedIntegerField(
        schema=whole_number(1, risk_dice.MAX_ARMIES),
        required=False,
        allow_null=True,
        default=None,
        help_text="Armies taking part (the one staying behind not counted): at least 1, in a "
        f"committed attack 2 to {risk_dice.MAX_COMMITMENT}; null when flanking (or their sum).",
    )
    defenders = DocumentedIntegerField(
        schema=whole_number(1, risk_dice.MAX_ARMIES), help_text="Armies defending."
    )
    mode = serializers.ChoiceField(choices=risk_dice.MODES, default="normal")
    reserves = DocumentedIntegerField(
        schema=whole_number(0, risk_dice.MAX_ARMIES),
        default=0,
        help_text="Committed mode only: armies replacing losses.",
    )
    flanks = DocumentedListField(
        schema={
            "type": "array",
            "items": whole_number(2, risk_dice.MAX_COMMITMENT),
            "minItems": 2,
        },
        child=StrictIntegerField(),
        required=False,
        allow_null=True,
        default=None,
        help_text="Flanking mode only (and needed there): the armies of each flank, e.g. [15, 15].",
    )
    stop_below = DocumentedIntegerField(
        schema=whole_number(0, risk_dice.MAX_ARMIES),
        default=0,
        help_text="Normal mode only: stop once the attacker has this many or fewer left.",
    )
    naval = StrictBooleanField(
        default=False, help_text="Ship against ship: sink rolls after total defeats, capture."
    )
    defender_dice = serializers.ChoiceField(
        choices=risk_dice.DEFENDER_DICE,
        default="commitment",
        help_text="Committed and flanking: the defender rolls one fewer die than the commitment "
        "(commitment, the rule text), or never fewer than a normal attack's 2 (normal, a host "
        "option of Fast Risk games).",
    )
    max_outcomes = StrictIntegerField(
        default=DEFAULT_OUTCOMES,
        min_value=1,
        max_value=MAX_OUTCOMES,
        help_text="How many of the most likely end states to list (a large flanking battle "
        f"ends in tens of thousands of ways); at most {MAX_OUTCOMES:,}.",
    )


class RiskOutcomeSerializer(serializers.Serializer):
    attackers_left = serializers.IntegerField()
    flanks_left = serializers.ListField(child=serializers.IntegerField())
    defenders_left = serializers.IntegerField()
    captured = serializers.IntegerField()
    defender_ship = serializers.CharField(allow_null=True)
    probability = serializers.FloatField()


class RiskOddsSerializer(serializers.Serializer):
    mode = serializers.CharField()
    attacker_wins = serializers.FloatField()
    defender_wins = serializers.FloatField()
    expected_attacker_losses = serializers.FloatField()
    expected_defender_losses = serializers.FloatField()
    expected_captures = serializers.FloatField()
    outcomes = RiskOutcomeSerializer(many=True, help_text="The likeliest end states, most first.")
    outcomes_total = serializers.IntegerField(help_text="How many end states there are in all.")
    outcomes_left_out = serializers.FloatField(
        help_text="The chance of the end states not listed (0 when all are)."
    )
    naval = serializers.DictField(child=serializers.FloatField(), allow_null=True)


class RiskOddsApi(CombatApi):
    @extend_schema(
        tags=["combat: Fast Risk"],
        summary="Exact odds of a Fast Risk battle",
        description="Normal, committed, flanking or naval; every way the battle can end with "
        "its probability, worked out exactly." + LIMITS,
        operation_id="risk_odds",
        request=RiskOddsInputSerializer,
        responses={200: OpenApiResponse(RiskOddsSerializer), 400: BAD_INPUT, 503: BUSY},
    )
    def post(self, request: Request) -> Response:
        serializer = RiskOddsInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        attackers, defenders = data.pop("attackers"), data.pop("defenders")
        shown = data.pop("max_outcomes")
        estimate = risk_dice.estimated_states(attackers, defenders, **data)
        odds = bounded(
            estimate,
            _largest(attackers, defenders, data),
            # as_dict inside the budget: a flanking battle's outcome list is a second walk
            lambda: risk_dice.battle_odds(attackers, defenders, **data).as_dict(shown),
        )
        return Response(odds)


def _largest(attackers: int | None, defenders: int, data: dict) -> str:
    """The field to shrink when a battle is too large: the biggest army in it."""
    sizes = {
        "attackers" if attackers is not None else "flanks": attackers or sum(data["flanks"] or []),
        "reserves": data.get("reserves", 0),
        "defenders": defenders,
    }
    return max(sizes, key=lambda name: sizes[name])
