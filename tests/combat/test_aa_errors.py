"""Bad input is refused before any die is rolled, naming the field and the allowed values."""

from __future__ import annotations

import pytest

from combat.axis_allies import CombatInputError, battle_odds, fight
from combat.axis_allies.editions import _parse_edition
from combat.axis_allies.errors import EditionDataError
from combat.dice import FixedDice

INF = {"infantry": 1}


def refused(field: str, **kwargs) -> CombatInputError:
    call = {"attacker": INF, "defender": INF, **kwargs}
    with pytest.raises(CombatInputError) as caught:
        battle_odds(call.pop("attacker"), call.pop("defender"), **call)
    assert caught.value.field == field
    assert isinstance(caught.value, ValueError)
    return caught.value


def test_unknown_unit_lists_the_edition_units():
    error = refused("attacker.tank", attacker={"tank": 2})
    assert "armor" in error.allowed and "tank" not in error.allowed
    assert str(error).startswith("attacker.tank: not a unit of the revised edition (allowed:")


def test_a_unit_the_edition_does_not_have():
    error = refused("attacker.artillery", attacker={"artillery": 1}, edition="classic")
    assert "classic" in str(error)


@pytest.mark.parametrize("count", [-1, 1.5, True, "3", None])
def test_counts_must_be_whole_and_not_negative(count):
    refused("defender.infantry", defender={"infantry": count})


def test_unknown_rules_and_edition():
    assert "chess-cof-r" in refused("rules", rules="chess-cofr").allowed
    assert refused("edition", edition="global1940").allowed == [
        "1942-2e",
        "anniversary",
        "classic",
        "global-1940-2e",
        "global-1940-2e-balanced-mod",
        "global-1940-2e-path-to-victory",
        "revised",
    ]


def test_empty_sides():
    refused("attacker", attacker={})
    refused("defender", defender={"infantry": 0})
    refused("attacker", attacker=["infantry"])


def test_ships_on_land_only_as_bombardment():
    refused("attacker.battleship", attacker={"infantry": 1, "battleship": 1})
    refused("defender.destroyer", defender={"infantry": 1, "destroyer": 1})
    refused("attacker.transport", attacker={"infantry": 1, "transport": 1}, amphibious=True)
    refused("amphibious", attacker={"destroyer": 1}, defender={"destroyer": 1}, amphibious=True)


def test_aa_guns_do_not_attack():
    refused("attacker.aa_gun", attacker={"infantry": 1, "aa_gun": 1})


def test_rounds_orders_options_techs_method():
    refused("rounds", rounds=0)
    refused("attacker_order", attacker_order=["tank"])
    refused("attacker_order", attacker_order=["infantry", "infantry"])
    refused("defender_order", defender_order="infantry")
    refused("options.first_strike", options={"first_strike": True})
    refused("options.attacker_first_strike_subs", options={"attacker_first_strike_subs": -1})
    refused("techs", techs=["radar"])
    refused("techs.neutral", techs={"neutral": []})
    refused("method", method="guess")


def test_dice_rules_need_dice():
    with pytest.raises(CombatInputError) as caught:
        fight(INF, INF, rules="lowluck", dice=None)
    assert caught.value.field == "dice"


def test_an_explicit_order_of_loss_is_followed():
    """The attacker chooses to lose its armor before its infantry."""
    report = fight(
        {"infantry": 1, "armor": 1},
        {"infantry": 2},
        rounds=1,
        attacker_order=["armor"],
        dice=FixedDice([6, 6, 1, 6]),
    )
    assert dict(report.rounds[0].attacker_casualties) == {"armor": 1}


def test_edition_files_are_validated_with_the_key_at_fault():
    with pytest.raises(EditionDataError, match=r"test.toml: units.infantry.attack: must be a non"):
        _parse_edition(
            "test",
            {
                "sub_first_strike": "both",
                "units": {"infantry": {"kind": "land", "attack": -1, "defense": 2, "cost": 3}},
            },
            "test.toml",
        )
    with pytest.raises(EditionDataError, match=r"units.artillery.supports: unknown unit 'inf'"):
        _parse_edition(
            "test",
            {
                "sub_first_strike": "both",
                "units": {
                    "artillery": {
                        "kind": "land",
                        "attack": 2,
                        "defense": 2,
                        "cost": 4,
                        "supports": {"inf": 1},
                    }
                },
            },
            "test.toml",
        )
    with pytest.raises(EditionDataError, match=r"techs.jets.units: unknown unit 'jet'"):
        _parse_edition(
            "test",
            {
                "sub_first_strike": "both",
                "units": {"fighter": {"kind": "air", "attack": 3, "defense": 4, "cost": 10}},
                "techs": {"jets": {"units": {"jet": {"defense": 5}}}},
            },
            "test.toml",
        )


def test_odd_shapes_are_named_not_crashed_on():
    refused("techs.attacker", techs={"attacker": 5})
    refused("techs.attacker", techs={"attacker": [["jet_fighters"]]})
    refused("rules", rules={})
    refused("edition", edition=["revised"])


def test_one_side_brings_at_most_a_thousand_units():
    error = refused("attacker", attacker={"infantry": 1001})
    assert error.message == "at most 1000 units a side"
    refused("runs", method="monte-carlo", runs=0)
