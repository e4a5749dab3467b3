"""Axis & Allies battles: standard dice, Low Luck and the diceless A&A Chess variants.

Pure Python (no Django). ``fight`` resolves a battle with injected dice and reports every round
and roll; ``battle_odds`` gives the exact distribution of its end. Unit tables are the TOML
files in ``data/``. The rule decisions are recorded in the docstrings of ``rules`` (how each
rule turns firepower into hits), ``engine`` (the stages of a round), ``setup`` (order of loss,
AA guns, bombarding ships, techs), ``anti_aircraft`` and ``specials`` (bombing raids, rockets,
technology rolls).
"""

from combat.axis_allies.battle import fight
from combat.axis_allies.errors import CombatInputError
from combat.axis_allies.odds import battle_odds
from combat.axis_allies.reports import BattleOdds, BattleReport, Outcome, RoundReport
from combat.axis_allies.setup import BattleOptions
from combat.axis_allies.specials import (
    AAReport,
    BombingReport,
    TechReport,
    aa_fire,
    rocket_attack,
    strategic_bombing,
    tech_dice_cost,
    tech_roll,
)

__all__ = [
    "AAReport",
    "BattleOdds",
    "BattleOptions",
    "BattleReport",
    "BombingReport",
    "CombatInputError",
    "Outcome",
    "RoundReport",
    "TechReport",
    "aa_fire",
    "battle_odds",
    "fight",
    "rocket_attack",
    "strategic_bombing",
    "tech_dice_cost",
    "tech_roll",
]
