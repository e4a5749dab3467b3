"""The A&A questions players ask as endpoints, and the editions' units.

Each view is a thin envelope over ``combat.axis_allies.questions``: the serializer checks the
JSON types, the question judges the values and names the field, and the work runs under the
calculators' limits (``combat.api.limits.bounded``: an estimate up front, a slot, the budget
inside the solver). The answer is the result's own ``to_dict()``, so the API says exactly what
the resolver reports. ``GET aa/editions`` gives the calculator page every edition's units from
the data files, so nothing about units is written twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from combat.api.limits import bounded
from combat.api.serializers import (
    OPTIONS_SCHEMA,
    UNIT_NAMES,
    StrictEnvelopeSerializer,
    TechsField,
    UnitCountsField,
)
from combat.api.views import BAD_INPUT, BUSY, LIMITS, TAGS, CombatApi
from combat.axis_allies import CombatInputError
from combat.axis_allies.editions import available_editions, load_edition
from combat.axis_allies.errors import MAX_UNITS
from combat.axis_allies.odds import estimated_work
from combat.axis_allies.questions import (
    OrderOfLoss,
    cheapest_force,
    check_order,
    ipc_swing,
    retreat_policy_odds,
    take_and_hold,
    waves,
)
from combat.axis_allies.questions.cheapest import BY, MEASURES
from combat.axis_allies.questions.policies import CHANCES, MAX_POLICY_ROUNDS
from combat.axis_allies.questions.waves import MAX_WAVES
from combat.axis_allies.rules import RULES
from games.web.strict import (
    DocumentedDictField,
    StrictBooleanField,
    StrictEnumField,
)

_NAMES = {"type": "array", "items": {"type": "string", "enum": UNIT_NAMES}}
_ORDER = {
    "oneOf": [
        {**_NAMES, "description": "unit names, first lost first"},
        {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "units": _NAMES,
                "keep_one_land": {"type": "boolean"},
                "keep_capital_ship": {"type": "boolean"},
            },
        },
    ],
    "nullable": True,
    "example": {"units": ["infantry", "artillery"], "keep_one_land": True},
}
_POLICY = {
    "type": "object",
    "nullable": True,
    "additionalProperties": False,
    "properties": {
        "after_round": {
            "type": "integer",
            "minimum": 1,
            "maximum": MAX_POLICY_ROUNDS,
            "nullable": True,
        },
        "below_chance": {"type": "number", "minimum": 0, "maximum": 1, "nullable": True},
        "chance_of": {"type": "string", "enum": list(CHANCES)},
        "below_units": {"type": "integer", "minimum": 1, "nullable": True},
        "strafe": {"type": "boolean"},
    },
    "example": {"below_chance": 0.5},
}


@extend_schema_field(_ORDER)
class OrderField(serializers.Field):
    """An order of loss: a list of unit names, or ``{"units": [...], "keep_one_land": true,
    "keep_capital_ship": true}``; the question checks the names per edition."""

    default_error_messages = {
        "invalid": 'Must be a list of unit names or {{"units": [...], "keep_one_land": ..., '
        '"keep_capital_ship": ...}}.'
    }

    def to_internal_value(self, data: Any) -> list[str] | OrderOfLoss:
        if isinstance(data, list) and all(isinstance(item, str) for item in data):
            return data
        if isinstance(data, Mapping) and set(data) <= {
            "units",
            "keep_one_land",
            "keep_capital_ship",
        }:
            units = data.get("units", [])
            flags = [data.get(k, False) for k in ("keep_one_land", "keep_capital_ship")]
            if (
                isinstance(units, list)
                and all(isinstance(item, str) for item in units)
                and all(isinstance(flag, bool) for flag in flags)
            ):
                return OrderOfLoss(tuple(units), *flags)
        self.fail("invalid")
        raise AssertionError("unreachable")  # Field.fail raises

    def to_representation(self, value: Any) -> Any:
        return value


def _policy_field(help_text: str, **kwargs: Any) -> DocumentedDictField:
    return DocumentedDictField(schema=_POLICY, help_text=help_text, **kwargs)


def _order_field(help_text: str = "Order of loss, first lost first.") -> OrderField:
    return OrderField(default=None, allow_null=True, help_text=help_text)


def _edition_field() -> StrictEnumField:
    return StrictEnumField(
        available_editions(),
        default="revised",
        help_text="The edition (GET /api/combat/aa/editions lists each one's units).",
    )


# --- input envelopes ------------------------------------------------------------------------


class AAQuestionBattleSerializer(StrictEnvelopeSerializer):
    """A battle as the questions take it (as ``aa/odds``, without rounds, method and
    amphibious, which each question adds where it applies)."""

    attacker = UnitCountsField(help_text=f"Attacking units by name, at most {MAX_UNITS} in all.")
    defender = UnitCountsField(help_text=f"Defending units by name, at most {MAX_UNITS} in all.")
    rules = StrictEnumField(RULES, default="dice", help_text="How hits are scored.")
    edition = _edition_field()
    attacker_order = _order_field()
    defender_order = _order_field()
    techs = TechsField(default=list, help_text="Technologies in play.")
    options = DocumentedDictField(
        schema=OPTIONS_SCHEMA, default=None, allow_null=True, help_text="Rule options (Low Luck)."
    )


class AATakeInputSerializer(AAQuestionBattleSerializer):
    amphibious = StrictBooleanField(default=False, help_text="An amphibious assault.")
    policy = _policy_field(
        "When the attacker retreats; null: never.", default=None, allow_null=True
    )


class AASwingInputSerializer(AATakeInputSerializer):
    pass


class AARetreatInputSerializer(AAQuestionBattleSerializer):
    """No ``amphibious``: an amphibious attacker cannot retreat."""

    policy = _policy_field(
        "When the attacker retreats: after_round N, below_chance p (of chance_of win or take), "
        "below_units k, or strafe (the best expected IPC swing)."
    )


class AAWaveSerializer(StrictEnvelopeSerializer):
    units = UnitCountsField(help_text="This wave's attacking units.")
    amphibious = StrictBooleanField(default=False, help_text="This wave lands from the sea.")
    order = _order_field("This wave's order of loss.")
    policy = _policy_field("When this wave retreats.", default=None, allow_null=True)
    techs = TechsField(default=list, help_text="This wave's technologies.")


class AAWavesInputSerializer(StrictEnvelopeSerializer):
    defender = UnitCountsField(help_text="The defending units, fought by every wave in turn.")
    waves = serializers.ListField(
        child=AAWaveSerializer(),
        min_length=1,
        max_length=MAX_WAVES,
        help_text="The attacks, in order; each fights what the previous ones left.",
    )
    rules = StrictEnumField(RULES, default="dice", help_text="How hits are scored.")
    edition = _edition_field()
    defender_order = _order_field()
    options = DocumentedDictField(
        schema=OPTIONS_SCHEMA, default=None, allow_null=True, help_text="Rule options (Low Luck)."
    )


class AACheapestInputSerializer(StrictEnvelopeSerializer):
    defender = UnitCountsField(help_text="The defending units.")
    available = UnitCountsField(help_text="The units the attacker can bring, by name.")
    target = serializers.FloatField(
        default=0.9,
        min_value=0,
        max_value=1,
        help_text="The chance to reach (above 0, at most 1).",
    )
    measure = StrictEnumField(MEASURES, default="take", help_text="take the territory, or win.")
    by = StrictEnumField(
        BY, default="ipc", help_text="ipc: the cheapest force; units: the smallest (then cheapest)."
    )
    rules = StrictEnumField(RULES, default="dice", help_text="How hits are scored.")
    edition = _edition_field()
    attacker_order = _order_field()
    defender_order = _order_field()
    amphibious = StrictBooleanField(default=False, help_text="An amphibious assault.")
    techs = TechsField(default=list, help_text="Technologies in play.")
    options = DocumentedDictField(
        schema=OPTIONS_SCHEMA, default=None, allow_null=True, help_text="Rule options (Low Luck)."
    )


class AAOrderCheckInputSerializer(StrictEnvelopeSerializer):
    units = UnitCountsField(help_text="The force the order is for.")
    order = _order_field("The order to check, first lost first.")
    role = StrictEnumField(("attacker", "defender"), default="attacker", help_text="The side.")
    edition = _edition_field()
    to_take = StrictBooleanField(
        default=True, help_text="The attacker means to take the territory (keep a land unit)."
    )


# --- answers (documentation of to_dict()) ---------------------------------------------------


class AAQuestionOutcomeSerializer(serializers.Serializer):
    attacker_left = serializers.DictField(child=serializers.IntegerField())
    defender_left = serializers.DictField(child=serializers.IntegerField())
    result = serializers.CharField(help_text="attacker, defender, draw, stalemate or retreat.")
    probability = serializers.FloatField()
    attacker_lost_ipc = serializers.IntegerField()
    defender_lost_ipc = serializers.IntegerField()


class AATakeSerializer(serializers.Serializer):
    edition = serializers.CharField()
    rules = serializers.CharField()
    land_battle = serializers.BooleanField()
    take = serializers.FloatField(help_text="The attacker wins with a land unit left.")
    attacker_wins = serializers.FloatField()
    air_only_win = serializers.FloatField(help_text="Won with only aircraft left.")
    defender_holds = serializers.FloatField()
    defender_wins = serializers.FloatField()
    draw = serializers.FloatField()
    stalemate = serializers.FloatField()
    retreat = serializers.FloatField()
    expected_attacker_survivors = serializers.DictField(child=serializers.FloatField())
    expected_defender_survivors = serializers.DictField(child=serializers.FloatField())
    expected_air_to_land = serializers.DictField(child=serializers.FloatField())
    expected_ipc_swing = serializers.FloatField()
    outcomes = AAQuestionOutcomeSerializer(many=True)


class AAPolicySerializer(serializers.Serializer):
    after_round = serializers.IntegerField(allow_null=True)
    below_chance = serializers.FloatField(allow_null=True)
    chance_of = serializers.CharField()
    below_units = serializers.IntegerField(allow_null=True)
    strafe = serializers.BooleanField()


class AAPolicyOddsSerializer(AATakeSerializer):
    policy = AAPolicySerializer()


class AAIpcProbabilitySerializer(serializers.Serializer):
    ipc = serializers.IntegerField()
    probability = serializers.FloatField()


class AASwingSerializer(serializers.Serializer):
    edition = serializers.CharField()
    rules = serializers.CharField()
    attacker_value = serializers.IntegerField(help_text="IPC value of the attacking units.")
    defender_value = serializers.IntegerField()
    attacker_loss = AAIpcProbabilitySerializer(many=True)
    defender_loss = AAIpcProbabilitySerializer(many=True)
    swing = AAIpcProbabilitySerializer(
        many=True, help_text="Defender's loss - attacker's loss (for the attacker)."
    )
    attacker_loss_mean = serializers.FloatField()
    attacker_loss_sd = serializers.FloatField()
    defender_loss_mean = serializers.FloatField()
    defender_loss_sd = serializers.FloatField()
    expected_swing = serializers.FloatField(help_text="The expected TUV swing.")
    swing_sd = serializers.FloatField()


class AAWaveResultSerializer(serializers.Serializer):
    fights = serializers.FloatField()
    take = serializers.FloatField()
    expected_attacker_loss = serializers.FloatField()


class AAWavesSerializer(serializers.Serializer):
    edition = serializers.CharField()
    rules = serializers.CharField()
    take = serializers.FloatField()
    waves = AAWaveResultSerializer(many=True)


class AACheapestSerializer(serializers.Serializer):
    target = serializers.FloatField()
    measure = serializers.CharField()
    found = serializers.BooleanField()
    force = serializers.DictField(child=serializers.IntegerField(), allow_null=True)
    cost = serializers.IntegerField(allow_null=True)
    units = serializers.IntegerField(allow_null=True)
    chance = serializers.FloatField(allow_null=True)
    best_chance = serializers.FloatField(help_text="The chance of everything available.")
    battles_solved = serializers.IntegerField()
    by = serializers.CharField(help_text="ipc or units, as asked.")


class AAOrderCheckSerializer(serializers.Serializer):
    warnings = serializers.ListField(
        child=serializers.CharField(), help_text="Plain sentences; empty: the order is sound."
    )


class AAUnitSerializer(serializers.Serializer):
    name = serializers.CharField()
    kind = serializers.ChoiceField(choices=("land", "air", "sea"))
    attack = serializers.IntegerField()
    defense = serializers.IntegerField()
    cost = serializers.IntegerField()
    hits = serializers.IntegerField()


class AAEditionSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="The edition= value.")
    name = serializers.CharField()
    units = AAUnitSerializer(many=True)


class AAEditionsSerializer(serializers.Serializer):
    editions = AAEditionSerializer(many=True)


# --- views ----------------------------------------------------------------------------------


def _battle_work(data: Mapping[str, Any], attacker: Mapping[str, int]) -> tuple[int, str]:
    """The exact solver's estimate for this battle and the side to shrink when it is too big."""
    defender = data["defender"]
    kwargs = {
        key: data[key]
        for key in ("rules", "edition", "amphibious", "techs", "options")
        if key in data
    }
    work = estimated_work(attacker, defender, **kwargs)
    side = "attacker" if sum(attacker.values()) >= sum(defender.values()) else "defender"
    return work, side


def _unit_counts(field: str, units: Mapping[str, Any], edition: str) -> dict[str, int]:
    """Counts checked as the resolver checks a battle's (for questions that do not fight)."""
    known = load_edition(edition).units
    if not units:
        raise CombatInputError(field, 'at least one unit, e.g. {"infantry": 3}')
    for name, count in units.items():
        if name not in known:
            raise CombatInputError(f"{field}.{name}", f"not a unit of the {edition} edition", known)
        if isinstance(count, bool) or not isinstance(count, int) or not 0 <= count <= MAX_UNITS:
            raise CombatInputError(f"{field}.{name}", f"must be a whole number 0 to {MAX_UNITS}")
    if sum(units.values()) > MAX_UNITS:
        raise CombatInputError(field, f"at most {MAX_UNITS} units in all")
    return dict(units)


def _question(
    summary: str, description: str, operation_id: str, request: type, answer: type
) -> Any:
    return extend_schema(
        tags=TAGS,
        summary=summary,
        description=description + LIMITS,
        operation_id=operation_id,
        request=request,
        responses={
            200: OpenApiResponse(answer, description="The exact answer."),
            400: BAD_INPUT,
            503: BUSY,
        },
    )


def _valid(serializer_class: type, request: Request) -> dict[str, Any]:
    serializer = serializer_class(data=request.data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


class AATakeApi(CombatApi):
    @_question(
        "Does the attacker take the territory?",
        "The chance the attacker takes the territory (wins with a land unit left), apart from "
        "winning with aircraft only, and the aircraft expected to need a landing place.",
        "aa_take",
        AATakeInputSerializer,
        AATakeSerializer,
    )
    def post(self, request: Request) -> Response:
        data = _valid(AATakeInputSerializer, request)
        work, side = _battle_work(data, data["attacker"])
        attacker, defender = data.pop("attacker"), data.pop("defender")
        result = bounded(work, side, lambda: take_and_hold(attacker, defender, **data))
        return Response(result.to_dict())


class AARetreatApi(CombatApi):
    @_question(
        "The exact result of a retreat policy",
        "Every end (win, lose, draw, retreat with survivors) when the attacker retreats after "
        "round N, under a chance p, under k units, or strafes.",
        "aa_retreat",
        AARetreatInputSerializer,
        AAPolicyOddsSerializer,
    )
    def post(self, request: Request) -> Response:
        data = _valid(AARetreatInputSerializer, request)
        work, side = _battle_work(data, data["attacker"])
        attacker, defender = data.pop("attacker"), data.pop("defender")
        result = bounded(work, side, lambda: retreat_policy_odds(attacker, defender, **data))
        return Response(result.to_dict())


class AASwingApi(CombatApi):
    @_question(
        "The IPC swing of a battle",
        "The distribution of the IPC value each side loses, means, spreads and the expected TUV "
        "swing (defender's loss - attacker's loss).",
        "aa_swing",
        AASwingInputSerializer,
        AASwingSerializer,
    )
    def post(self, request: Request) -> Response:
        data = _valid(AASwingInputSerializer, request)
        work, side = _battle_work(data, data["attacker"])
        attacker, defender = data.pop("attacker"), data.pop("defender")
        result = bounded(work, side, lambda: ipc_swing(attacker, defender, **data))
        return Response(result.to_dict())


class AAWavesApi(CombatApi):
    @_question(
        "Several waves against one territory",
        "Attacks one after another on the survivors of the previous ones, exact.",
        "aa_waves",
        AAWavesInputSerializer,
        AAWavesSerializer,
    )
    def post(self, request: Request) -> Response:
        data = _valid(AAWavesInputSerializer, request)
        plan = [dict(wave) for wave in data.pop("waves")]
        work, side = 0, "waves"
        for k, wave in enumerate(plan):
            sizing = {**data, "amphibious": wave["amphibious"], "techs": wave["techs"]}
            wave_work, _ = _battle_work(sizing, wave["units"])
            if wave_work > work:
                work, side = wave_work, f"waves.{k}.units"
        defender = data.pop("defender")
        result = bounded(work, side, lambda: waves(defender, _waves(plan), **data))
        return Response(result.to_dict())


def _waves(plan: list[dict[str, Any]]) -> list[Any]:
    from combat.axis_allies.questions import Wave

    return [Wave(**wave) for wave in plan]


class AACheapestApi(CombatApi):
    @_question(
        "The cheapest force that reaches a chance",
        "Given the defender, the units available and a target chance (to take or to win), the "
        "cheapest attacking force (IPC, then fewest units; by=units: fewest units, then IPC) "
        "that reaches it, exact.",
        "aa_cheapest",
        AACheapestInputSerializer,
        AACheapestSerializer,
    )
    def post(self, request: Request) -> Response:
        data = _valid(AACheapestInputSerializer, request)
        _unit_counts("available", data["available"], data["edition"])
        work, side = _battle_work(data, data["available"])
        side = "available" if side == "attacker" else side
        defender, available = data.pop("defender"), data.pop("available")
        target = data.pop("target")
        result = bounded(work, side, lambda: cheapest_force(defender, available, target, **data))
        return Response(result.to_dict())


class AAOrderCheckApi(CombatApi):
    @extend_schema(
        tags=TAGS,
        summary="Is this order of loss sensible?",
        description="Plain-sentence warnings about an order of loss (units lost before worse "
        "ones, the last land unit lost before aircraft when taking, a capital ship before a "
        "cheaper ship); an empty list when it is sound.",
        operation_id="aa_order_check",
        request=AAOrderCheckInputSerializer,
        responses={
            200: OpenApiResponse(AAOrderCheckSerializer, description="The warnings."),
            400: BAD_INPUT,
        },
    )
    def post(self, request: Request) -> Response:
        data = _valid(AAOrderCheckInputSerializer, request)
        units = _unit_counts("units", data.pop("units"), data["edition"])
        order = data.pop("order")
        return Response({"warnings": check_order(units, order, **data)})


def editions_listing() -> dict[str, Any]:
    """Every edition and its units, in the data file's order."""
    return {
        "editions": [
            {
                "key": key,
                "name": edition.name,
                "units": [
                    {
                        "name": unit.name,
                        "kind": unit.kind,
                        "attack": unit.attack,
                        "defense": unit.defense,
                        "cost": unit.cost,
                        "hits": unit.hits,
                    }
                    for unit in edition.units.values()
                ],
            }
            for key in available_editions()
            for edition in (load_edition(key),)
        ]
    }


class AAEditionsApi(CombatApi):
    @extend_schema(
        tags=TAGS,
        summary="The A&A editions and their units",
        description="Every edition= value with its units' attack, defense, cost (IPC), hits "
        "and kind, read from the edition data files.",
        operation_id="aa_editions",
        responses={200: OpenApiResponse(AAEditionsSerializer, description="The editions.")},
    )
    def get(self, request: Request) -> Response:
        return Response(editions_listing())
