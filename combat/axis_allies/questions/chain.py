"""The battle as an explicit Markov chain over end-of-round states, for the questions.

``battle_odds`` only needs where a battle ends; the questions also need a decision at every
end-of-round state (retreat or fight on), a value per state (the chance to win from here, the
expected IPC swing of fighting on) and battles that start from a given state (a later wave
against a damaged defender). ``Chain`` builds the graph of every state the battle can reach
after round 1, with each state's successors from the same round code as ``battle_odds``
(``engine.play_round``); ``grid.GridChain`` does the same passes in numpy when the sides' fire
is independent (no submarines, nothing carried), and ``grid.make_chain`` picks. Every
transition that changes a state lowers the hit points left (or, under COF, moves a carried
fraction on), so the graph without its self-loops is acyclic: values are computed children
first (DFS post-order) and masses are pushed parents first (the reverse), each state once. A
self-loop (a round in which nobody hits) is divided out: the decision at a state is the same
each time the battle comes back to it, so the battle leaves the state with probability 1
unless nobody can ever score again (a stalemate).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from combat.axis_allies import chains
from combat.axis_allies.engine import (
    Branches,
    State,
    battle_result,
    initial_state,
    is_over,
    play_round,
    surfaced,
)
from combat.axis_allies.errors import CombatInputError
from combat.axis_allies.odds import MAX_EXACT_STATES
from combat.axis_allies.questions.orders import OrderLike, OrderOfLoss, apply_order, parse_order
from combat.axis_allies.rules import ATTACKER, DEFENDER, EXACT
from combat.axis_allies.setup import BattleOptions, BattleSetup, SideSetup, build_setup
from combat.budget import charge

#: A round that leaves the state unchanged with at least this chance means nobody can score.
STUCK = 1.0 - 1e-12

NO_ORDER = OrderOfLoss()

#: Stopping is preferred when going on is better by no more than this (IPC or probability).
TIE = 1e-9

#: The ways a battle can end here: ``battle_odds``'s four, plus the attacker's retreat.
RESULTS = ("attacker", "defender", "draw", "stalemate", "retreat")


@dataclass(frozen=True)
class Battle:
    """One battle as the questions take it: the forces and every rule choice."""

    attacker: Mapping[str, int]
    defender: Mapping[str, int]
    rules: str = "dice"
    edition: str = "revised"
    attacker_order: OrderOfLoss = NO_ORDER
    defender_order: OrderOfLoss = NO_ORDER
    amphibious: bool = False
    techs: Any = ()
    options: Mapping[str, Any] | BattleOptions | None = None

    @classmethod
    def of(
        cls,
        attacker: Mapping[str, int],
        defender: Mapping[str, int],
        *,
        rules: str = "dice",
        edition: str = "revised",
        attacker_order: OrderLike = None,
        defender_order: OrderLike = None,
        amphibious: bool = False,
        techs: Any = (),
        options: Mapping[str, Any] | BattleOptions | None = None,
    ) -> Battle:
        return cls(
            attacker,
            defender,
            rules,
            edition,
            parse_order(attacker_order, "attacker_order"),
            parse_order(defender_order, "defender_order"),
            amphibious,
            techs if techs is not None else (),
            options,
        )

    def setup(self) -> BattleSetup:
        """The validated setup, keep options applied (``CombatInputError`` names the field)."""
        setup = build_setup(
            self.attacker,
            self.defender,
            rules=self.rules,
            edition=self.edition,
            rounds=None,
            attacker_order=list(self.attacker_order.units) or None,
            defender_order=list(self.defender_order.units) or None,
            amphibious=self.amphibious,
            techs=self.techs,
            options=self.options,
        )
        setup = apply_order(setup, ATTACKER, self.attacker_order)
        return apply_order(setup, DEFENDER, self.defender_order)

    def odds_kwargs(self, setup: BattleSetup) -> dict[str, Any] | None:
        """Arguments for ``battle_odds`` giving the same battle, or None when it cannot
        (``keep_one_land`` is not a fixed order of kinds)."""
        if self.attacker_order.keep_one_land or self.defender_order.keep_one_land:
            return None
        return {
            "rules": self.rules,
            "edition": self.edition,
            "attacker_order": list(setup.attacker.order),
            "defender_order": list(setup.defender.order),
            "amphibious": self.amphibious,
            "techs": self.techs,
            "options": self.options,
        }


def check_size(setup: BattleSetup, field: str, start: State | None = None) -> int:
    """Refuse a battle past the exact solver's limit (``odds.MAX_EXACT_STATES``), naming
    ``field``; returns the bound on the states it may hold."""
    att, dfn = setup.attacker, setup.defender
    a = att.hit_points(start.att if start else att.initial)
    d = dfn.hit_points(start.dfn if start else dfn.initial)
    starts = 1
    if setup.aa_gun:
        starts = chains.aa_outcome_count(setup.rules, chains.attacker_planes(setup))
    size = starts * (a + 1) * (d + 1)
    if size > MAX_EXACT_STATES:
        raise CombatInputError(
            field,
            f"battle too large for an exact answer ({size} states > {MAX_EXACT_STATES})",
        )
    return size


def land_battle(setup: BattleSetup) -> bool:
    """A battle for a territory (a land unit on either side, an AA gun, a bombarded
    landing) rather than for a sea zone; a battle of aircraft alone counts as a sea battle."""
    sides: Iterable[SideSetup] = (setup.attacker, setup.defender)
    return (
        setup.aa_gun
        or bool(setup.bombarders)
        or any(side.units[name].kind == "land" for side in sides for name in side.order)
    )


def takes(setup: BattleSetup, state: State, result: str) -> bool:
    """The attacker takes the territory: it won with a land unit left (aircraft cannot take
    one); in a sea battle, it cleared the zone."""
    if result != "attacker":
        return False
    return not land_battle(setup) or setup.attacker.has(state.att, lambda u: u.kind == "land")


def side_value(side: SideSetup, state: tuple[int, ...]) -> int:
    """IPC value of a side state (a damaged two-hit unit still counts in full, as TripleA's
    TUV does)."""
    return sum(side.units[name].cost * n for (name, _hp), n in zip(side.slots, state, strict=True))


class Chain:
    """Every end-of-round state a battle can reach, its successors, and passes over them."""

    def __init__(self, setup: BattleSetup, start: State | None = None) -> None:
        self.setup = setup
        self.start = start if start is not None else initial_state(setup)
        self._successors: dict[State, Branches] = {}
        charge(1)
        self.opening: Branches = play_round(setup, self.start, EXACT)
        self.postorder: list[State] = self._explore()

    # --- the graph ---------------------------------------------------------------------

    def over(self, state: State) -> bool:
        return is_over(self.setup, state)

    def successors(self, state: State) -> Branches:
        """(probability, state) after one more round from an end-of-round state."""
        found = self._successors.get(state)
        if found is None:
            charge(1)
            found = play_round(self.setup, state, EXACT)
            self._successors[state] = found
        return found

    def _explore(self) -> list[State]:
        """The states the battle can be in after a round and still going, children first."""
        post: list[State] = []
        seen: set[State] = set()
        for _p, root in self.opening:
            if root in seen or self.over(root):
                continue
            seen.add(root)
            stack = [(root, iter(self.successors(root)))]
            while stack:
                state, children = stack[-1]
                for _q, child in children:
                    if child != state and child not in seen and not self.over(child):
                        seen.add(child)
                        stack.append((child, iter(self.successors(child))))
                        break
                else:
                    stack.pop()
                    post.append(state)
        return post

    def stay(self, state: State) -> float:
        return sum(q for q, s in self.successors(state) if s == state)

    # --- passes ------------------------------------------------------------------------

    def result(self, state: State) -> str:
        """How a battle that stopped at ``state`` ended (not a retreat): ``battle_result``."""
        return battle_result(self.setup, state, True)

    def out(self, state: State) -> State:
        """An end state as reported: submerged submarines back among the survivors."""
        return surfaced(self.setup, state)

    def values(
        self,
        terminal: Callable[[State, str], float],
        stop: Callable[[State], float] | None = None,
    ) -> tuple[Callable[[State], float], set[State]]:
        """Optimal stopping over the chain: the value of every live state and where to stop.

        A state's value is the larger of ``stop(state)`` (retreating now; never, when ``stop``
        is None) and the expectation, over the next round, of the successors' values, an ended
        battle being worth ``terminal(state, result)`` and a stalemate
        ``terminal(state, "stalemate")``. Returns (value of a live state, the live states
        where stopping is at least as good as going on: ties stop).
        """
        value: dict[State, float] = {}
        stops: set[State] = set()
        for state in self.postorder:
            succ = self.successors(state)
            stay = sum(q for q, s in succ if s == state)
            if stay >= STUCK:
                value[state] = terminal(self.out(state), "stalemate")
                continue
            total = 0.0
            for q, s in succ:
                if s == state:
                    continue
                total += q * (value[s] if s in value else terminal(self.out(s), self.result(s)))
            going_on = total / (1.0 - stay)
            if stop is not None and stop(self.out(state)) >= going_on - TIE:
                stops.add(state)
                value[state] = stop(self.out(state))
            else:
                value[state] = going_on
        return value.__getitem__, stops

    def distribute(self, retreat: Callable[[State], bool]) -> list[tuple[float, State, str]]:
        """Where the battle ends when the attacker retreats at the end of any round whose
        state satisfies ``retreat`` (a state-only rule: the same at every return to a state).
        Returns (probability, state, result) with result in ``RESULTS``."""
        ends: list[tuple[float, State, str]] = []
        mass: dict[State, float] = {}

        def arrive(p: float, state: State) -> None:
            if self.over(state):
                ends.append((p, self.out(state), self.result(state)))
            else:
                mass[state] = mass.get(state, 0.0) + p

        for p, state in self.opening:
            arrive(p, state)
        for state in reversed(self.postorder):
            p = mass.pop(state, 0.0)
            if p == 0.0:
                continue
            succ = self.successors(state)
            stay = sum(q for q, s in succ if s == state)
            if stay >= STUCK:
                ends.append((p, self.out(state), "stalemate"))
            elif retreat(state):
                ends.append((p, self.out(state), "retreat"))
            else:
                scale = p / (1.0 - stay)
                for q, s in succ:
                    if s != state:
                        arrive(scale * q, s)
        return ends

    def rounds(
        self, limit: int, retreat: Callable[[State], bool]
    ) -> list[tuple[float, State, str]]:
        """As ``distribute``, but the attacker also retreats at the end of round ``limit``;
        played round by round (a round count is not part of the state)."""
        ends: list[tuple[float, State, str]] = []
        dist: dict[State, float] = {}
        for p, state in self.opening:
            dist[state] = dist.get(state, 0.0) + p
        for number in range(1, limit + 1):
            charge(len(dist))
            nxt: dict[State, float] = {}
            for state, p in dist.items():
                if self.over(state):
                    ends.append((p, self.out(state), self.result(state)))
                elif self.stay(state) >= STUCK:
                    ends.append((p, self.out(state), "stalemate"))
                elif number == limit or retreat(state):
                    ends.append((p, self.out(state), "retreat"))
                else:
                    for q, s in self.successors(state):
                        nxt[s] = nxt.get(s, 0.0) + p * q
            dist = nxt
        return ends
