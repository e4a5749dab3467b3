"""Request envelopes and documented answers of the A&A combat API.

Input serializers check only the envelope: that each top-level field has the right JSON type,
taken as sent (no "3" -> 3 or "yes" -> true coercion, so a typo is refused rather than guessed).
What the values mean (unit names, counts, rules, editions, options) is the resolver's to judge:
it names the exact field and the allowed values, and the error handler passes both on. Unknown
top-level fields are refused (error code ``unknown_field``, the known ones as ``allowed``),
because a misspelt ``amphibious`` would otherwise be dropped and the battle resolved differently
from what the player asked for.

The output serializers for the resolver's reports document their shape in the OpenAPI schema;
the views send ``as_dict()`` itself, so the answer is always exactly what the resolver reports.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from combat.axis_allies.editions import available_editions, load_edition
from combat.axis_allies.errors import MAX_UNITS
from combat.axis_allies.odds import METHODS
from combat.axis_allies.reports import RESULTS
from combat.axis_allies.rules import RULES
from combat.axis_allies.setup import SUBMERGE_POLICIES
from combat.models import AABattle
from combat.selectors import aa_battle_verification
from games.web.strict import (
    ClosedSerializer,
    DocumentedDictField,
    DocumentedIntegerField,
    StrictBooleanField,
    StrictCharField,
    StrictEnumField,
)


def _editions() -> tuple[Any, ...]:
    return tuple(load_edition(key) for key in available_editions())


#: Every unit and technology name of any edition; the resolver checks them per edition.
UNIT_NAMES = sorted({name for edition in _editions() for name in edition.units})
TECH_NAMES = sorted({name for edition in _editions() for name in edition.techs})
_UNIT_COUNTS = {
    "type": "object",
    "properties": {
        name: {"type": "integer", "minimum": 0, "maximum": MAX_UNITS} for name in UNIT_NAMES
    },
    "additionalProperties": False,
    "minProperties": 1,
    "example": {"infantry": 3, "armor": 1},
}
_TECHS = {"type": "array", "items": {"type": "string", "enum": TECH_NAMES}}
#: The JSON schema of the rule options (Low Luck), shared by every A&A request body.
OPTIONS_SCHEMA = {
    "type": "object",
    "nullable": True,
    "additionalProperties": False,
    "properties": {
        name: {"type": "integer", "minimum": 0, "nullable": True}
        for name in ("attacker_first_strike_subs", "defender_first_strike_subs")
    }
    | {"bombard_separately": {"type": "boolean"}}
    | {
        name: {"type": "string", "enum": list(SUBMERGE_POLICIES)}
        for name in ("attacker_submerge", "defender_submerge")
    }
    | {"landed_from_sea": {"type": "integer", "minimum": 0, "nullable": True}},
    "example": {"bombard_separately": True},
}


@extend_schema_field(_UNIT_COUNTS)
class UnitCountsField(serializers.DictField):
    """``{"unit name": count}``; the resolver checks the names and counts per edition."""


@extend_schema_field(
    {
        "oneOf": [
            {**_TECHS, "description": "technologies of the attacker"},
            {
                "type": "object",
                "properties": {"attacker": _TECHS, "defender": _TECHS},
                "additionalProperties": False,
            },
        ],
        "example": ["heavy_bombers"],
    }
)
class TechsField(serializers.Field):
    """A list of technologies (the attacker's) or ``{"attacker": [...], "defender": [...]}``."""

    default_error_messages = {
        "invalid": 'Must be a list of technology names or {{"attacker": [...], "defender": [...]}}.'
    }

    def to_internal_value(self, data: Any) -> list[str] | dict[str, list[str]]:
        if _is_names(data):
            return data
        if isinstance(data, Mapping) and all(_is_names(v) for v in data.values()):
            return {str(k): v for k, v in data.items()}
        self.fail("invalid")
        # Not reached: Field.fail raises, which mypy cannot see without DRF type stubs.
        raise AssertionError("unreachable")

    def to_representation(self, value: Any) -> Any:
        return value


def _is_names(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)


# --- input envelopes ------------------------------------------------------------------------


class StrictEnvelopeSerializer(ClosedSerializer):
    """A calculator's request body: unknown fields are refused (``games.web.strict``)."""


class AABattleInputSerializer(StrictEnvelopeSerializer):
    """The battle itself: the arguments of ``combat.axis_allies.fight`` and ``battle_odds``."""

    attacker = UnitCountsField(
        help_text="Attacking units by name, at least one that fights, at most "
        f"{MAX_UNITS} in all; each edition has its own units (the resolver names a wrong one)."
    )
    defender = UnitCountsField(
        help_text=f"Defending units by name (an aa_gun included), at most {MAX_UNITS} in all."
    )
    rules = StrictEnumField(RULES, default="dice", help_text="How hits are scored.")
    edition = StrictEnumField(
        available_editions(),
        default="revised",
        help_text="The edition (GET /api/combat/aa/editions lists each one's units).",
    )
    rounds = DocumentedIntegerField(
        schema={"type": "integer", "minimum": 1},
        default=None,
        allow_null=True,
        help_text="Stop after this many rounds; null: to the end.",
    )
    attacker_order = serializers.ListField(
        child=StrictEnumField(UNIT_NAMES),
        default=None,
        allow_null=True,
        help_text="Order of loss, first lost first; units left out follow the default order.",
    )
    defender_order = serializers.ListField(
        child=StrictEnumField(UNIT_NAMES),
        default=None,
        allow_null=True,
        help_text="As attacker_order.",
    )
    amphibious = StrictBooleanField(
        default=False, help_text="An amphibious assault: battleships bombard in round 1."
    )
    techs = TechsField(default=list, help_text="Technologies in play.")
    options = DocumentedDictField(
        schema=OPTIONS_SCHEMA,
        default=None,
        allow_null=True,
        help_text=(
            "Rule options: first-strike submarine groups and separate bombardment (Low Luck); "
            "when each side's submarines submerge (never, when_cannot_hit: the default, always; "
            "editions where subs submerge); the land units landed from sea, which bound the "
            "bombarding ships where the edition says so."
        ),
    )


class AAOddsInputSerializer(AABattleInputSerializer):
    method = StrictEnumField(
        METHODS,
        default="exact",
        help_text="exact (a Markov chain) or monte-carlo (for comparison).",
    )


class AABattleCreateInputSerializer(AABattleInputSerializer):
    client_seed = StrictCharField(
        default="",
        allow_blank=True,
        max_length=200,
        trim_whitespace=False,
        help_text="Your own text, mixed into the dice context so the server cannot pick it.",
    )


class AABattleCloseInputSerializer(StrictEnvelopeSerializer):
    close_token = StrictCharField(
        default="",
        allow_blank=True,
        trim_whitespace=False,
        help_text="The token returned when the battle was created (not needed by its "
        "signed-in requester).",
    )


# --- the resolver's reports (documentation of as_dict()) ------------------------------------


class AARollSerializer(serializers.Serializer):
    side = serializers.CharField()
    stage = serializers.CharField()
    counter = serializers.IntegerField(help_text="Position in the battle's dice stream.")
    sides = serializers.IntegerField()
    value = serializers.IntegerField()
    needed = serializers.IntegerField(
        allow_null=True, help_text="Hit on a value <= needed; null: the face itself counts."
    )
    hit = serializers.BooleanField(allow_null=True)


class AAFireSerializer(serializers.Serializer):
    side = serializers.CharField()
    stage = serializers.CharField()
    strength = serializers.IntegerField(help_text="Dice rolled, or the firepower total.")
    hits = serializers.IntegerField()
    rolls = AARollSerializer(many=True)


class AARoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    attacker_hits = serializers.IntegerField()
    defender_hits = serializers.IntegerField()
    attacker_casualties = serializers.DictField(child=serializers.IntegerField())
    defender_casualties = serializers.DictField(child=serializers.IntegerField())
    fire = AAFireSerializer(many=True)


class AABattleReportSerializer(serializers.Serializer):
    rules = serializers.CharField()
    edition = serializers.CharField()
    winner = serializers.ChoiceField(choices=RESULTS)
    attacker_survivors = serializers.DictField(child=serializers.IntegerField())
    defender_survivors = serializers.DictField(child=serializers.IntegerField())
    attacker_damaged = serializers.DictField(child=serializers.IntegerField())
    defender_damaged = serializers.DictField(child=serializers.IntegerField())
    rounds = AARoundSerializer(many=True)


class AAOutcomeSerializer(serializers.Serializer):
    attacker_left = serializers.DictField(child=serializers.IntegerField())
    defender_left = serializers.DictField(child=serializers.IntegerField())
    result = serializers.ChoiceField(choices=RESULTS)
    probability = serializers.FloatField()


class AAOddsSerializer(serializers.Serializer):
    rules = serializers.CharField()
    edition = serializers.CharField()
    method = serializers.CharField()
    attacker_wins = serializers.FloatField()
    defender_wins = serializers.FloatField()
    draw = serializers.FloatField()
    stalemate = serializers.FloatField(help_text="Neither side can ever score again.")
    expected_attacker_survivors = serializers.DictField(child=serializers.FloatField())
    expected_defender_survivors = serializers.DictField(child=serializers.FloatField())
    expected_ipc_swing = serializers.FloatField(
        help_text="E[IPC the defender loses] - E[IPC the attacker loses]."
    )
    outcomes = AAOutcomeSerializer(many=True, help_text="Every end, most likely first.")


# --- stored battles -------------------------------------------------------------------------


class AAVerificationSerializer(serializers.Serializer):
    procedure = serializers.CharField()
    verified = serializers.BooleanField(
        allow_null=True, help_text="null until the seed is revealed."
    )


class AABattleOutputSerializer(serializers.ModelSerializer):
    closed = serializers.BooleanField(source="is_closed", read_only=True)
    client_seed = serializers.SerializerMethodField()
    seed = serializers.SerializerMethodField()
    report = serializers.SerializerMethodField()
    verification = serializers.SerializerMethodField()

    class Meta:
        model = AABattle
        fields: tuple[str, ...] = (
            "id",
            "created_at",
            "closed",
            "closed_at",
            "request",
            "report",
            "commitment",
            "context",
            "client_seed",
            "seed",
            "verification",
        )

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_client_seed(self, battle: AABattle) -> str | None:
        return battle.client_seed or None

    @extend_schema_field(
        serializers.CharField(allow_null=True, help_text="null until the battle is closed.")
    )
    def get_seed(self, battle: AABattle) -> str | None:
        return battle.seed if battle.is_closed else None

    @extend_schema_field(AABattleReportSerializer)
    def get_report(self, battle: AABattle) -> dict[str, Any]:
        return battle.report

    @extend_schema_field(AAVerificationSerializer)
    def get_verification(self, battle: AABattle) -> dict[str, Any]:
        return aa_battle_verification(battle=battle)


class AABattleCreatedOutputSerializer(AABattleOutputSerializer):
    close_token = serializers.SerializerMethodField()

    class Meta(AABattleOutputSerializer.Meta):
        fields = (*AABattleOutputSerializer.Meta.fields, "close_token")

    @extend_schema_field(
        serializers.CharField(help_text="Reveals the seed via /close. Shown only this once.")
    )
    def get_close_token(self, battle: AABattle) -> str:
        return self.context["close_token"]
