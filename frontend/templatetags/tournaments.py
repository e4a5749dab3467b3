"""How the tournament pages print their values: formats, games, scores and places."""

from __future__ import annotations

from typing import Any

from django import template

register = template.Library()

FORMATS = {
    "round_robin": "Round robin",
    "swiss": "Swiss",
    "knockout": "Knockout",
    "tables": "Multiplayer tables",
}
SYSTEMS = {"axis_allies": "Axis & Allies", "wif": "World in Flames", "france_1944": "France 1944"}
RULES = {"dice": "dice", "lowluck": "Low Luck", "chess": "A&A Chess"}


@register.filter
def format_label(value: str) -> str:
    return FORMATS.get(value, value)


@register.filter
def points(value: float | None) -> str:
    """A score as a crosstable prints it: 1, ½, 2½, 0, and the quarters Sonneborn-Berger
    gives (a draw with a player on ½: ¼) as 2¼, ¾; other numbers shortest (1.2)."""
    if value is None:
        return ""
    whole = int(value)
    fraction = FRACTIONS.get(value - whole)
    if fraction is not None:
        return f"{whole}{fraction}" if whole else fraction
    return f"{value:g}"


FRACTIONS = {0.25: "¼", 0.5: "½", 0.75: "¾"}


@register.filter
def ordinal(value: int | None) -> str:
    if value is None:
        return ""
    n = int(value)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _clock(game: dict[str, Any]) -> str:
    seconds = game.get("time_per_decision")
    if game["time_control"] == "untimed" or not seconds:
        return "untimed"
    if game["time_control"] == "live":
        return f"live, {int(seconds // 60)} min per decision"
    return f"correspondence, {int(seconds // 86400)} days per decision"


@register.filter
def game_label(game: dict[str, Any]) -> str:
    """``reading.summary``'s ``game`` in words: "Fast Risk (round limit 10), live, 5 min per
    decision" or "Axis & Allies, A&A Chess, classic edition: Axis v Allies, 7 days per turn"."""
    if game["play"] == "fast_risk":
        options = game.get("options") or {}
        win = str(options.get("win", "last-standing")).replace("-", " ")
        if options.get("round_limit"):
            win += f" {options['round_limit']}"
        return f"Fast Risk ({win}), {_clock(game)}"
    parts = [SYSTEMS.get(game["system"], game["system"])]
    if game.get("rules"):
        parts.append(f"{RULES.get(game['rules'], game['rules'])}, {game['edition']} edition")
    days = game.get("days_per_turn")
    pace = f"{days} days per turn" if days else "untimed"
    return f"{', '.join(parts)}: {' v '.join(game.get('sides') or [])}, {pace}"
