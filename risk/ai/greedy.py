"""``GreedyBot``: a simple heuristic player, the benchmark opponent of the AI.

It attacks with normal attacks (3 dice against 2) when clearly ahead (armies at least twice the
defenders), rolls on while it still has as many armies as the defender, reinforces the border
territory most outnumbered by its neighbours, transfers its largest idle stack to that border,
turns in cards for armies when it must, and otherwise plays legal, sensible defaults: no cruises,
every eligible card revealed for mobilization, no challenges, poker by checking and calling. It
declares the allied army with the most armies at the end of each turn and plays it the same way.
Every action is built from its ``ActionSpec`` (legal by construction).
"""

from __future__ import annotations

import random

from risk.ai.board_sense import side_for
from risk.rules.actions import (
    Action,
    ActionSpec,
    Answer,
    Arrange,
    Attack,
    Challenge,
    Discard,
    EndCampaign,
    EndCruise,
    EndTurn,
    JoinDefence,
    Mobilize,
    MoveIn,
    Place,
    PlaceFactory,
    PlaceShip,
    Poker,
    Prize,
    Retreat,
    Roll,
    Transfer,
    TurnIn,
)
from risk.rules.bots import BotView
from risk.rules.sampler import sample_action
from risk.rules.state import NORMAL, GameState


class GreedyBot:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def decide(self, view: BotView, legal: list[ActionSpec]) -> Action:
        specs: dict[str, ActionSpec] = {}
        for spec in legal:
            specs.setdefault(spec.type, spec)
        action = self._choose(view, specs)
        return action if action is not None else sample_action(view.state, view.player, self.rng)

    def _choose(self, view: BotView, specs: dict[str, ActionSpec]) -> Action | None:
        me, state = view.player, view.state
        side = side_for(state, me)
        if "arrange" in specs:
            o = specs["arrange"].options
            owned = o["territories"]
            base, extra = divmod(o["armies"], len(owned))
            arrangement = tuple((t, base + (1 if i < extra else 0)) for i, t in enumerate(owned))
            stations = o["ship_stations"]
            return Arrange(
                me,
                arrangement=arrangement,
                factory=owned[0],
                ship_station=stations[0] if stations else None,
            )
        if "mobilize" in specs:
            o = specs["mobilize"].options
            cards = tuple(o["cards"])
            wilds = o["wild_dice"] + cards.count("wild")
            return Mobilize(me, reveal=cards, wild_territories=(o["territories"][0],) * wilds)
        if "join_defence" in specs:
            return JoinDefence(me)
        if "challenge" in specs:
            return Challenge(me, contest=False)
        if "answer" in specs:
            return Answer(me, demur=False)
        if "poker" in specs:
            return self._poker(specs["poker"], me)
        if "prize" in specs:
            return Prize(me, ship=specs["prize"].options["ships"][0], by=None)
        if "move_in" in specs:
            o = specs["move_in"].options
            return MoveIn(me, armies=o["max"]) if "max" in o else MoveIn(me, armies=0)
        if "roll" in specs:
            battle = state.battle
            assert battle is not None
            flank = battle.flanks[battle.next_flank]
            if "retreat" in specs and battle.kind == "land":
                defenders = state.territories[battle.target].armies
                if flank.standing < defenders:
                    return Retreat(me)
            need = max(0, flank.commitment - flank.standing)
            return Roll(me, add=min(need, specs["roll"].options["max_add"]))
        if "place_ship" in specs:
            return PlaceShip(me, station=specs["place_ship"].options["stations"][0])
        if "turn_in" in specs and len(state.seat(side.acting).risk_cards) >= 5:
            o = specs["turn_in"].options
            return TurnIn(me, cards=tuple(o["sets"][0]), reward="armies")
        if "place" in specs:
            o = specs["place"].options
            return Place(
                me, territory=_weakest_border(state, side, o["territories"]), armies=o["max"]
            )
        if "place_factory" in specs:
            return PlaceFactory(me, territory=specs["place_factory"].options["territories"][0])
        if "discard" in specs:
            o = specs["discard"].options
            return Discard(me, cards=tuple(o["cards"][: o["count"]]))
        if "transfer" in specs:
            action = self._transfer(specs["transfer"], state, side, me)
            if action is not None:
                return action
        if "end_turn" in specs:
            allies = specs["end_turn"].options["allies"]
            if allies:
                strongest = max(
                    allies, key=lambda a: sum(state.territories[t].armies for t in state.owned(a))
                )
                return EndTurn(me, ally=strongest)
            return EndTurn(me)
        if "attack" in specs:
            action = self._attack(specs["attack"], state, side, me)
            if action is not None:
                return action
        if "end_cruise" in specs:
            return EndCruise(me, ship=specs["end_cruise"].options["ship"])
        if "end_campaign" in specs:
            return EndCampaign(me)
        return None

    def _attack(self, spec: ActionSpec, state: GameState, side, me: str) -> Action | None:
        best = None
        for target, sources in spec.options["targets"].items():
            holding = state.territories[target]
            if not side.hostile(holding.owner):
                continue
            for source in sources:
                if source not in state.territories:
                    continue
                spare = spec.options["room"][source][NORMAL][1]
                if spare >= 2 * holding.armies and (best is None or holding.armies < best[0]):
                    best = (holding.armies, target, source, spare)
        if best is None:
            return None
        _, target, source, spare = best
        return Attack(me, target=target, mode=NORMAL, flanks=((source, spare),))

    def _transfer(self, spec: ActionSpec, state: GameState, side, me: str) -> Action | None:
        idle = [s for s in spec.options["sources"] if not side.is_border(s)]
        if not idle:
            return None
        source = max(idle, key=lambda s: spec.options["max"][s])
        borders = [d for d in spec.options["destinations"][source] if side.is_border(d)]
        if not borders:
            return None
        dest = _weakest_border(state, side, borders)
        return Transfer(me, source=source, destination=dest, armies=spec.options["max"][source])

    def _poker(self, spec: ActionSpec, me: str) -> Action:
        o = spec.options
        moves = o["moves"]
        if "choose" in moves:
            choose = o["choose"]
            return Poker(me, move="choose", cards=tuple(choose["stash"][: choose["max"]]))
        if "draw" in moves:
            return Poker(me, move="draw")
        for move in ("show", "check", "call"):
            if move in moves:
                return Poker(me, move=move)
        return Poker(me, move=moves[0])


def _weakest_border(state: GameState, side, territories: list[str]) -> str:
    """The territory most outnumbered by the hostile armies next to it."""

    def gap(t: str) -> float:
        hostile = sum(state.territories[n].armies for n in side.enemy_neighbours(t))
        return hostile - state.territories[t].armies if hostile else float("-inf")

    return max(territories, key=gap)
