"""What the AI reads off the board: who is on whose side, threats, continent goals, values.

Everything here works on the (redacted) ``GameState`` a bot is given and touches only public
facts: owners, armies, ships, factories, the turn. Values are in armies: "taking this territory
is worth about as much as having 4 more armies".
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from risk.rules.board_map import BoardMap, load_map
from risk.rules.state import PLAYER, GameState

#: What a territory is worth in itself: a third of an army a turn for the rest of the game, a
#: better ranking at a round limit, one step nearer the enemy.
TERRITORY = 2.0
#: The Risk card (and, on an allied turn, the poker card) a first conquest in a turn brings.
CARD = 3.0
#: An army of an enemy player destroyed, against one of our own lost (1.0).
ENEMY_ARMY = 0.5
#: An allied army's army destroyed: allies only fight when somebody plays them.
ALLY_ARMY = 0.15


@dataclass
class Side:
    """The point of view of one decision.

    ``acting`` is the seat whose armies move (a player, or the allied army whose turn the player
    plays); ``me`` the seat whose interest counts (the player: an allied army it plays is a tool,
    not a friend); ``enemies`` the other live players. Allied armies nobody plays now are
    obstacles and spoils.
    """

    state: GameState
    acting: str
    me: str
    goals: bool = True  # work towards the goal continent (else every continent alike)

    @cached_property
    def bmap(self) -> BoardMap:
        return load_map(self.state.options.map, self.state.options.map_version)

    @cached_property
    def enemies(self) -> frozenset[str]:
        return frozenset(
            s.id
            for s in self.state.seats
            if s.kind == PLAYER and s.alive and s.id not in (self.me, self.acting)
        )

    @cached_property
    def mine(self) -> frozenset[str]:
        return frozenset(self.state.owned(self.acting))

    @property
    def allied_turn(self) -> bool:
        return self.acting != self.me

    def hostile(self, owner: str) -> bool:
        """May the acting seat attack ``owner``'s armies? Never its own, nor (on an allied turn)
        the player's who plays it."""
        return owner not in (self.acting, self.me)

    def army_weight(self, owner: str) -> float:
        """An enemy player's army destroyed: ``ENEMY_ARMY``, or a whole army against the one
        enemy player left (its loss is then all ours to gain)."""
        if owner not in self.enemies:
            return ALLY_ARMY
        return 1.0 if len(self.enemies) == 1 else ENEMY_ARMY

    # --- threats ---------------------------------------------------------------------------

    def enemy_neighbours(self, name: str) -> list[str]:
        terr = self.state.territories
        return [n for n in self.bmap.territories[name].adjacent if terr[n].owner != self.acting]

    def threat(self, name: str, *, besides: str | None = None) -> float:
        """Armies that could come at ``name`` next turn: enemy players' in full, allies' a
        quarter (they move only when somebody plays them)."""
        total = 0.0
        for n in self.enemy_neighbours(name):
            if n == besides:
                continue
            holding = self.state.territories[n]
            weight = 1.0 if holding.owner in self.enemies else 0.25
            total += weight * max(0, holding.armies - 1)
        return total

    def is_border(self, name: str) -> bool:
        return bool(self.enemy_neighbours(name))

    # --- continents ------------------------------------------------------------------------

    @cached_property
    def goal(self) -> str | None:
        if not self.goals:
            return None
        return self._goal()

    def _goal(self) -> str | None:
        """The continent to work on (Wolf's continent valuation, in small): its bonus against
        what stands in the way: the armies of others inside it and the territories still to
        take, favouring continents where the acting seat already has a foothold."""
        terr = self.state.territories
        best, best_score = None, 0.0
        for cont in self.bmap.continents.values():
            held = sum(1 for t in cont.territories if terr[t].owner == self.acting)
            if held == 0:
                continue
            others = [t for t in cont.territories if terr[t].owner != self.acting]
            if not others:
                continue
            cost = sum(terr[t].armies for t in others) * 0.4 + len(others)
            score = cont.bonus * (1 + held / len(cont.territories)) / (1 + cost)
            if score > best_score:
                best, best_score = cont.name, score
        return best

    def conquest_value(self, target: str, *, took_territory: bool) -> float:
        """What taking ``target`` is worth to ``me`` (before the fight's losses)."""
        state, terr = self.state, self.state.territories
        owner = terr[target].owner
        cont = self.bmap.continents[self.bmap.continent_of(target)]
        value = TERRITORY
        held = sum(1 for t in cont.territories if terr[t].owner == self.acting)
        scale = 0.3 if self.allied_turn else 1.0  # an ally's continents are not ours
        if held + 1 == len(cont.territories):
            value += 2.5 * cont.bonus * scale
        else:
            share = (held + 1) / len(cont.territories)
            value += cont.bonus * share * (1.0 if cont.name == self.goal else 0.3) * scale
        if all(terr[t].owner == owner for t in cont.territories):
            value += 2.0 * cont.bonus * (1.0 if owner in self.enemies else 0.4)
        if owner in self.enemies:
            value += 2.0
            left = sum(1 for h in terr.values() if h.owner == owner)
            if left == 1:
                value += 40.0 if not state.ships_of(owner) else 12.0
            elif left <= 3:
                value += 4.0
        if terr[target].factory:
            value += 3.0
        if not took_territory:
            value += CARD
        return value


def side_for(state: GameState, player: str) -> Side:
    """The side of ``player`` now: the seat it plays, and the seat whose turn it plays."""
    seat = state.seat_of_actor(player)
    me = seat.id if seat is not None else player
    turn = state.turn
    acting = me
    if turn is not None and turn.controller == player:
        acting = turn.seat
    return Side(state, acting, me)
