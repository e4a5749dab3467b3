"""Forced steps: a pending decision that leaves nothing to decide, which the server takes.

The rule (risk/RULES.md F1): a player's step is **forced** when, for its one pending decision,
the rules offer exactly one legal action (besides the ones open at any time: leave, concede,
vote for a draw, preferences) and that action has no free parameter, so exactly one action can
be built from it. Then waiting for a click decides nothing: the server's driver takes it, with
a note in the log (``FORCED_NOTE``), as it takes a bot's decision.

Forced steps, spec by spec (``forced_action``; anything else is never forced):

- ``end_campaign`` or ``retreat`` alone (their options are empty);
- ``end_turn`` with no ally to declare; ``place_factory`` with one site; ``place_ship`` with
  one station; ``place`` with one territory and ``min == max``;
- ``roll`` of a committed or flanking block that can add nothing (``max_add`` 0, no dice to
  choose): one roll (the next is looked at afresh);
- ``move_in`` with ``min == max`` (normal), or no source that can send more (committed);
- ``mobilize`` with no card to reveal and each wild die's territory the only one;
- ``poker`` whose only move is ``choose`` and every stash card must be chosen.

Hidden information: whether a step is forced must follow from what everyone sees, or the
server's speed would tell the table about a hand (RULES.md M3, V2). So a reinforcement while
the hand holds 3 or more Risk cards is never forced (a turn-in may be open, which depends on
the cards), nor a mobilization while the defender holds any Risk card it could reveal by count.

Cheap by design: it runs after every action for the person the game waits on, so the campaign
and end phases first look for an obvious choice (a land attack, a transfer, a ship that may
sail) before building any spec.
"""

from __future__ import annotations

from typing import Any

from risk.rules import turns
from risk.rules.actions import (
    Action,
    ActionSpec,
    EndCampaign,
    EndTurn,
    Mobilize,
    MoveIn,
    Place,
    PlaceFactory,
    PlaceShip,
    Poker,
    Retreat,
    Roll,
)
from risk.rules.board import board_map
from risk.rules.engine import Decision, pending_decisions, specs_for
from risk.rules.state import GameState
from risk.rules.vocabulary import DecisionKind

#: The event the server writes before a forced step's own events (the page's note); it is the
#: server's, not the engine's: ``verify_game`` leaves it out when it compares the events.
FORCED_NOTE = "forced"

#: A hand this size or more may hold a set (a turn-in then depends on hidden cards).
_MAY_HOLD_A_SET = 3


def forced_action(state: GameState, player: str) -> Action | None:
    """The one action ``player``'s pending decision allows, or None when they have a choice
    (or no decision, or more than one)."""
    mine = [d for d in pending_decisions(state) if d.player == player]
    if len(mine) != 1 or _may_have_a_choice(state, mine[0]):
        return None
    specs = specs_for(state, mine[0])
    if len(specs) != 1:
        return None
    return only_action(specs[0], player)


def note(player: str, action: Action) -> dict[str, Any]:
    """The log's line for a forced step: who had no choice, and what the server did for them."""
    return {"type": FORCED_NOTE, "player": player, "action": action.type}


def _may_have_a_choice(state: GameState, decision: Decision) -> bool:
    """A quick look for a choice before any spec is built (and the hidden-card guards)."""
    kind, turn = decision.kind, state.turn
    if kind in (DecisionKind.REINFORCE, DecisionKind.CAMPAIGN, DecisionKind.END):
        assert turn is not None
        seat = state.seat(turn.seat)
        if kind == DecisionKind.REINFORCE and len(seat.risk_cards) >= _MAY_HOLD_A_SET:
            return turns.turn_in_refusal(state) is None
        if kind != DecisionKind.END:
            return _may_attack_over_land(state, turn.seat)
        return not turn.transferred and _may_transfer(state, turn.seat)
    if kind == DecisionKind.MOBILIZE:
        battle = state.battle
        assert battle is not None and battle.mobilization is not None
        may_reveal = battle.mobilization.get("may_reveal", True)
        return bool(may_reveal and state.seat(battle.defender).risk_cards)
    return kind in (DecisionKind.ARRANGE, DecisionKind.CHALLENGE, DecisionKind.ANSWER,
                    DecisionKind.JOIN_DEFENCE, DecisionKind.BATTLE_PRIZES)  # fmt: skip


def _may_attack_over_land(state: GameState, seat: str) -> bool:
    """Some own territory can spare an army and borders a territory not its own (a possible
    attack target: the full check, with the protected seat and locks, is the spec's)."""
    bmap = board_map(state)
    territories = state.territories
    return any(
        territories[name].armies > 1
        and any(territories[t].owner != seat for t in bmap.territories[name].adjacent)
        for name in state.owned(seat)
    )


def _may_transfer(state: GameState, seat: str) -> bool:
    """Exactly when the transfer spec exists: an own territory of 2+ borders another own one."""
    bmap = board_map(state)
    territories = state.territories
    return any(
        territories[name].armies > 1
        and any(territories[t].owner == seat for t in bmap.territories[name].adjacent)
        for name in state.owned(seat)
    )


def only_action(spec: ActionSpec, player: str) -> Action | None:
    """The action ``spec`` allows when it allows exactly one, else None."""
    o, kind = spec.options, spec.type
    if kind == "end_campaign":
        return EndCampaign(player)
    if kind == "retreat":
        return Retreat(player)
    if kind == "end_turn" and not o["allies"]:
        return EndTurn(player)
    if kind == "place_factory" and len(o["territories"]) == 1:
        return PlaceFactory(player, o["territories"][0])
    if kind == "place_ship" and len(o["stations"]) == 1:
        return PlaceShip(player, o["stations"][0])
    if kind == "place" and len(o["territories"]) == 1 and o["min"] == o["max"]:
        return Place(player, o["territories"][0], o["max"])
    if kind == "roll" and not o["max_add"] and not o["dice"]:
        return Roll(player)
    if kind == "move_in":
        return _only_move_in(o, player)
    if kind == "mobilize" and not o["cards"]:
        wild, where = o["wild_dice"], o["territories"]
        if wild == 0 or len(where) == 1:
            return Mobilize(player, wild_territories=tuple(where[:1]) * wild)
    if kind == "poker" and o["moves"] == ["choose"]:
        choose = o["choose"]
        if choose["min"] == choose["max"] == len(choose["stash"]):
            return Poker(player, move="choose", cards=tuple(choose["stash"]))
    return None


def _only_move_in(o: dict[str, Any], player: str) -> Action | None:
    if "min" in o:
        return MoveIn(player, o["max"]) if o["min"] == o["max"] else None
    if any(most > 0 for most in o["extra_from"].values()):
        return None
    return MoveIn(player, 0)
