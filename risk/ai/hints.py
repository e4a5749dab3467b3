"""Hints: the hard AI's choice for a person's pending decision, with its reasons in words.

``hint(view, legal, rng)`` asks ``StrategicBot`` at ``hard`` for the decision, from the same
redacted view a bot of that seat would get (so a hint can reveal nothing the player may not
see), and explains it with the exact odds the AI plays by (``risk.ai.odds``): the chance an
attack wins and the armies each side loses on average, the odds of a battle from where it
stands, the enemy armies a territory faces. The reasons describe the decision; they are not a
trace of every alternative the AI weighed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from risk.ai import odds as exact
from risk.ai.board_sense import side_for
from risk.ai.strategic import PROFILES, StrategicBot
from risk.rules.actions import (
    Action,
    Attack,
    EndCampaign,
    MoveIn,
    Place,
    Retreat,
    Roll,
    TurnIn,
)
from risk.rules.bots import BotView
from risk.rules.engine import ActionSpec
from risk.rules.state import FLANKING, LAND, NORMAL, GameState

#: The level a hint plays at: the strongest.
HINT_LEVEL = "hard"


@dataclass(frozen=True)
class Hint:
    """The suggested action and why, in words."""

    action: Action
    reasons: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action.to_dict(), "reasons": list(self.reasons)}


def hint(view: BotView, legal: list[ActionSpec], rng: random.Random) -> Hint:
    """The hard AI's decision for ``view.player`` among ``legal``, with its reasons."""
    action = StrategicBot(rng, HINT_LEVEL).decide(view, legal)
    reasons = tuple(_reasons(view, legal, action)) or (
        f"The {HINT_LEVEL} AI's choice for this {action.type.replace('_', ' ')} decision.",
    )
    return Hint(action, reasons)


def _reasons(view: BotView, legal: list[ActionSpec], action: Action) -> Iterator[str]:
    state = view.state
    if isinstance(action, Attack):
        yield _attack_reason(state, action)
    elif isinstance(action, EndCampaign):
        yield from _no_attack_reason(state, legal)
    elif isinstance(action, (Roll, Retreat)):
        yield from _battle_reason(state, action)
    elif isinstance(action, Place):
        yield _place_reason(view, action)
    elif isinstance(action, TurnIn):
        yield (
            f"Turn in {', '.join(action.cards)} for {action.reward}: a set held is worth "
            "nothing until it is turned in."
        )
    elif isinstance(action, MoveIn):
        yield f"Move {action.armies} armies in: the AI keeps the rest where they face more enemies."


def attack_odds(state: GameState, action: Attack) -> exact.Odds:
    """The exact odds of ``action`` as the AI counts them: a normal attack rolled to the end,
    or a committed (flanking) block of 2 refilled from everything its sources can spare."""
    defenders = state.territories[action.target].armies
    if action.mode == NORMAL:
        return exact.normal(sum(armies for _, armies in action.flanks), defenders)
    available = sum(_spare(state, source) for source in {s for s, _ in action.flanks})
    return exact.block(available, defenders, action.mode == FLANKING, state.options)


def _threshold() -> str:
    """The least chance of winning the hinting AI opens an attack at."""
    return f"{PROFILES[HINT_LEVEL].min_win:.0%}"


def _percent(p: float) -> str:
    """A chance as people read it: one decimal, and no "100.0%" for what can still fail."""
    if p > 0.999:
        return "more than 99.9%"
    if 0 < p < 0.001:
        return "less than 0.1%"
    return f"{p:.1%}"


def _spare(state: GameState, source: str) -> int:
    if source in state.ships:
        return state.ships[source].armies
    return max(0, state.territories[source].armies - 1)


def _attack_reason(state: GameState, action: Attack) -> str:
    odds = attack_odds(state, action)
    target = state.territories[action.target]
    sources = " and ".join(dict.fromkeys(source for source, _ in action.flanks))
    return (
        f"Attack {action.target} ({target.owner}, {target.armies} armies) from {sources}, "
        f"{action.mode}: by the exact odds it wins {_percent(odds.win)} of the time, losing "
        f"{odds.attacker_losses:.1f} armies on average against {odds.defender_losses:.1f} of "
        f"the defender's (the AI attacks from {_threshold()})."
    )


def _no_attack_reason(state: GameState, legal: list[ActionSpec]) -> Iterator[str]:
    spec = next((s for s in legal if s.type == "attack"), None)
    if spec is None:
        yield "No attack is open now."
        return
    best: tuple[float, str, str] | None = None
    for target, sources in spec.options["targets"].items():
        for source in sources:
            room = spec.options["room"][source][NORMAL][1]
            win = exact.normal(room, state.territories[target].armies).win
            if best is None or win > best[0]:
                best = (win, target, source)
    if best is None:
        yield "No attack is open now."
        return
    win, target, source = best
    yield (
        f"End the campaign: the best normal attack left, {target} from {source}, wins "
        f"{_percent(win)} by the exact odds; the AI attacks from {_threshold()}."
    )


def _battle_reason(state: GameState, action: Action) -> Iterator[str]:
    battle = state.battle
    if battle is None or battle.kind != LAND:
        return
    flank = battle.flanks[battle.next_flank]
    defenders = state.territories[battle.target].armies
    if battle.mode == NORMAL:
        win = exact.normal(flank.standing, defenders).win
    else:
        live = [f for f in battle.flanks if not f.out]
        spare = sum(_spare(state, source) for source in {f.source for f in live})
        flanking = battle.mode == FLANKING and len(live) >= 2
        win = exact.block(sum(f.standing for f in live) + spare, defenders, flanking,
                          state.options).win  # fmt: skip
    verb = "Roll on" if isinstance(action, Roll) else "Retreat"
    yield (
        f"{verb}: from here the attack on {battle.target} ({defenders} armies left) wins "
        f"{_percent(win)} by the exact odds."
    )


def _place_reason(view: BotView, action: Place) -> str:
    side = side_for(view.state, view.player)
    threat = side.threat(action.territory)
    enemies = side.enemy_neighbours(action.territory)
    if not enemies:
        return f"Place {action.armies} on {action.territory}: it is the AI's staging ground."
    return (
        f"Place {action.armies} on {action.territory}: it borders {len(enemies)} other "
        f"territories, {threat:.0f} armies that could strike it next turn."
    )
