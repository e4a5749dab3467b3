"""``fight``: play one battle with injected dice and report every round, roll and casualty."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from combat.axis_allies.engine import (
    Recorder,
    State,
    battle_result,
    initial_state,
    is_over,
    play_round,
    surfaced,
)
from combat.axis_allies.errors import CombatInputError
from combat.axis_allies.reports import BattleReport, RoundReport
from combat.axis_allies.rules import ATTACKER, EXACT, RollingChance
from combat.axis_allies.setup import BattleOptions, BattleSetup, SideSetup, build_setup
from combat.dice import Dice

#: A battle that has not ended after this many rounds is a bug, not bad luck.
MAX_ROUNDS = 10_000


def fight(
    attacker: Mapping[str, int],
    defender: Mapping[str, int],
    *,
    rules: str = "dice",
    edition: str = "revised",
    dice: Dice | None,
    rounds: int | None = None,
    attacker_order: Sequence[str] | None = None,
    defender_order: Sequence[str] | None = None,
    amphibious: bool = False,
    techs: Iterable[str] | Mapping[str, Iterable[str]] = (),
    options: Mapping[str, Any] | BattleOptions | None = None,
) -> BattleReport:
    """Resolve one battle. ``dice`` may be None only for rules that never roll (chess, COF)."""
    setup = build_setup(
        attacker,
        defender,
        rules=rules,
        edition=edition,
        rounds=rounds,
        attacker_order=attacker_order,
        defender_order=defender_order,
        amphibious=amphibious,
        techs=techs,
        options=options,
    )
    if dice is None and not setup.rules.deterministic:
        raise CombatInputError("dice", f"rules {rules!r} roll dice; pass a Dice object")
    return play_battle(setup, dice)


def play_battle(setup: BattleSetup, dice: Dice | None) -> BattleReport:
    return play_battle_state(setup, dice)[0]


def play_battle_state(setup: BattleSetup, dice: Dice | None) -> tuple[BattleReport, State]:
    """The battle's report and its last state (submerged submarines still counted apart, as
    the exact solver's ends are: the Monte Carlo method reads the result from it)."""
    chance = RollingChance(dice)
    state = initial_state(setup)
    reports: list[RoundReport] = []
    stalemate = False
    number = 0
    while not (is_over(setup, state) and not state.first_round):
        number += 1
        if number > MAX_ROUNDS:
            raise RuntimeError(f"battle still running after {MAX_ROUNDS} rounds")
        last = setup.rounds is not None and number >= setup.rounds
        rec = Recorder(chance)
        ((_p, after),) = play_round(setup, state, chance, last_round=last, rec=rec)
        reports.append(_round_report(setup, number, state, after, rec))
        previous, state = state, after
        if last or is_over(setup, state):
            break
        if state == previous._replace(first_round=False) and _cannot_progress(setup, state):
            stalemate = True
            break
    winner = result_of(setup, state, stalemate)
    final, state = state, surfaced(setup, state)  # submerged submarines survive the battle
    report = BattleReport(
        rules=setup.rules.key,
        edition=setup.edition.key,
        rounds=tuple(reports),
        winner=winner,
        attacker_survivors=_frozen(setup.attacker.alive(state.att)),
        defender_survivors=_frozen(setup.defender.alive(state.dfn)),
        attacker_damaged=_frozen(damaged(setup.attacker, state.att)),
        defender_damaged=_frozen(damaged(setup.defender, state.dfn)),
    )
    return report, final


def _cannot_progress(setup: BattleSetup, state: State) -> bool:
    """True when every possible round leaves the state as it is (nobody can ever score)."""
    outcomes = play_round(setup, state, EXACT)
    return len(outcomes) == 1 and outcomes[0][1] == state


def result_of(setup: BattleSetup, state: State, stalemate: bool) -> str:
    """``engine.battle_result``: the units still in the battle decide (the attacker withdrew
    when both sides are left and nobody is stuck)."""
    return battle_result(setup, state, stalemate)


def damaged(side: SideSetup, state: tuple[int, ...]) -> dict[str, int]:
    result: dict[str, int] = {}
    for (name, hp), n in zip(side.slots, state, strict=True):
        if n and hp < side.units[name].hits:
            result[name] = result.get(name, 0) + n
    return result


def _losses(side: SideSetup, before: tuple[int, ...], after: tuple[int, ...]) -> dict[str, int]:
    a, b = side.alive(before), side.alive(after)
    return {n: a[n] - b.get(n, 0) for n in a if a[n] != b.get(n, 0)}


def _round_report(
    setup: BattleSetup, number: int, before: State, after: State, rec: Recorder
) -> RoundReport:
    hits = {"attacker": 0, "defender": 0}
    for fire in rec.fires:
        hits[fire.side] += max(fire.hits, 0)
    return RoundReport(
        number=number,
        attacker_hits=hits[ATTACKER],
        defender_hits=hits["defender"],
        # Submerged submarines are not casualties: compare the states with them surfaced.
        attacker_casualties=_frozen(
            _losses(setup.attacker, surfaced(setup, before).att, surfaced(setup, after).att)
        ),
        defender_casualties=_frozen(
            _losses(setup.defender, surfaced(setup, before).dfn, surfaced(setup, after).dfn)
        ),
        fire=tuple(rec.fires),
    )


def _frozen(mapping: Mapping[str, Any]) -> Mapping[str, Any]:
    return MappingProxyType(dict(mapping))
