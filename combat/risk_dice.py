"""Risk battles of Nautical-but-Nice Fast Risk: one roll, a whole battle, and their exact odds.

Modes (rule text "How to Campaign", "Naval Battles"; design.md §5):

* ``normal``: the attacker rolls min(3, a) dice, the defender min(2, d); highest against highest,
  ties to the defender. ``attackers`` counts the armies that take part: the one that must stay
  behind is not counted. ``stop_below=k``: the attacker stops once it has k or fewer left.
* ``committed``: the attacker commits ``attackers`` armies and rolls one die per committed army
  still standing; the defender rolls commitment - 1 dice (or all it has) every roll, even when
  the commitment has shrunk. Losses are replaced from ``reserves`` while any remain. The attack
  ends only with all defenders or the whole commitment destroyed.
* ``flanking``: ``flanks=[n1, n2, ...]``, each a committed block (its commitment is its starting
  size) rolling in turn, first flank first. While two or more flanks stand, the attacker adds one
  to one die of each roll, and a roll in which the defender loses every comparison captures one
  of the defeated armies (kept apart, converted at the end of the turn; it does not fight). When
  one flank remains the battle reverts to committed rules: no +1, no captures.
* ``defender_dice="normal"`` (a Fast Risk host option, risk/RULES.md C11): against a committed
  or flanking block the defender rolls never fewer dice than in a normal attack, max(2,
  commitment - 1) (or all it has). The default ``"commitment"`` is the rule text's.

Where the +1 goes: adding one to a die changes the sorted attacker dice in exactly one place (the
top die of a run of equal values becomes one higher), so it can turn at most one comparison, from
a tie into a win. It is therefore applied to the highest die whose comparison it turns; when no
comparison can turn, it changes nothing. (``tests/combat/test_risk_dice.py`` checks this against
trying the +1 on every die.)

Naval (``naval=True``): the armies aboard fight (a ship's last army fights too; the ship sinks with
it). After a roll in which a ship loses every comparison (a "total defeat"), both sides roll a
die and the defeated ship sinks, with everyone aboard, if its die is lower (ties: it survives;
probability 15/36). A ship whose last army falls is not rolled for: "Total defeat of a defending
ship gives the attacker the option of letting the ship sink OR boarding her", so an emptied ship
is the victor's to board (when the victorious ship still has 2 or more armies) or sink, and an
attacking ship with no army left sinks. Commandeering a flanking ship whose own crew died is left
to the game engine.

Exact odds: one roll's distribution is counted exactly, in integers, by a dynamic programme over
the faces 6..1 (``_roll_counts``; defender dice go first within a face, which gives ties to the
defender). Counting all of them up to 60 dice a side takes minutes, so the counts, rounded once
to probabilities, are shipped in ``data/risk_rolls.npz`` and loaded (and checked) once per
process (``_tables``). A battle's distribution comes from a second dynamic programme over its
states in decreasing order of armies left (every roll destroys at least one army), a whole layer
of states at a time in numpy arrays: normal and committed attacks as a chain over (attackers,
defenders) walked by diagonals (``_solve_line``), flanking attacks as layers of numbered states
(``_solve_flanking``). Nothing is sampled. The solvers charge ``combat.budget`` one unit per
successor state generated; ``estimated_states`` predicts that count from the request.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache, cached_property, lru_cache
from math import comb, prod
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from combat import risk_flanking
from combat.budget import charge
from combat.dice import Dice
from combat.errors import CombatInputError

MODES = ("normal", "committed", "flanking")
DEFENDER_DICE = ("commitment", "normal")  # one fewer than the commitment; or never below 2
MAX_ARMIES = 1000  # per side; keeps one request from holding a worker
MAX_COMMITMENT = 60  # dice one side rolls at once in a committed roll
P_SINK = 15 / 36  # the defeated ship's die is lower than the other's


# --- one roll -----------------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _roll_counts(n: int, m: int, bonus: bool) -> tuple[tuple[tuple[int, int], int], ...]:
    """((attacker losses, defender losses), number of the 6^(n+m) rolls giving it).

    Faces are placed from 6 down to 1. Placing k of the ``rem`` dice still unplaced on face v can
    be done C(rem, k) ways; the rest go to lower faces later. A state is (i, j, used): attacker
    and defender dice placed so far, capped at c = min(n, m) because dice below the compared pairs
    never matter (a side that reaches c is settled at once, its other dice free on the lower
    faces: (v-1)^rest ways), and whether the +1 has found a tie to turn. Placing ``a`` attacker
    dice on v wins pairs i+1..i+a that no defender die has reached (k > j): defender dice go first
    within a face, so ties go to the defender; the +1 can turn pair i+1 when the defender's
    (i+1)-th die also shows v. Each state holds a polynomial over pairs won so far, packed into
    one integer (``_SLOT`` bits a coefficient), so a transition is one big-integer operation.
    """
    c = min(n, m)
    width = (n + m) * 3 + 1  # 6^(n+m) < 2^(3(n+m)): no coefficient overflows its slot
    states: dict[tuple[int, int, bool], int] = {(0, 0, False): 1}
    for v in range(6, 0, -1):
        placed_d: dict[tuple[int, int, bool, bool], int] = {}
        for (i, j, used), poly in states.items():
            for b, ways in _placements(m - j if j < c else 0, v, c - j):
                key = (i, j + b, used, j < i + 1 <= j + b)
                placed_d[key] = placed_d.get(key, 0) + ways * poly
        states = {}
        for (i, j, used, tie_on_top), poly in placed_d.items():
            for a, ways in _placements(n - i if i < c else 0, v, c - i):
                won = max(0, i + a - max(i, j))
                state = (i + a, j, used or (bonus and a >= 1 and tie_on_top))
                states[state] = states.get(state, 0) + (ways * poly << (won * width))
    mask = (1 << width) - 1
    counts: dict[tuple[int, int], int] = {}
    for (_i, _j, used), poly in states.items():
        won = 0
        while poly:
            ways = poly & mask
            if ways:
                total = won + 1 if used else won
                counts[(c - total, total)] = counts.get((c - total, total), 0) + ways
            poly >>= width
            won += 1
    return tuple(sorted(counts.items()))


@cache
def _placements(rem: int, v: int, room: int) -> tuple[tuple[int, int], ...]:
    """(k, ways) for putting k of ``rem`` unplaced dice on face v, k < ``room`` kept apart and
    k >= room lumped into k = room with the lumped dice's lower faces counted in."""
    if rem == 0:
        return ((0, 1),)
    if v == 1:  # every die left shows 1
        return ((min(rem, room), 1),)
    result = [(k, comb(rem, k)) for k in range(min(rem, room - 1) + 1)] if room > 0 else []
    if rem >= room:
        lumped = sum(comb(rem, k) * (v - 1) ** (rem - k) for k in range(room, rem + 1))
        result.append((room, lumped))
    return tuple(result)


@cache
def _roll_distribution(n: int, m: int, bonus: bool) -> tuple[tuple[tuple[int, int], float], ...]:
    """The same as ``_roll_counts``, as probabilities (exact rationals rounded once): read from
    the shipped tables up to ``TABLE_DICE`` dice a side, counted beyond."""
    if n <= TABLE_DICE and m <= TABLE_DICE:
        row, c = _tables()[int(bonus), n, m], min(n, m)
        return tuple(((c - won, won), float(row[won])) for won in range(c, -1, -1))
    total = 6 ** (n + m)
    return tuple((losses, ways / total) for losses, ways in _roll_counts(n, m, bonus))


TABLE_DICE = 60  # the shipped tables cover 1..60 dice a side (MAX_COMMITMENT)
TABLE_FILE = Path(__file__).parent / "data" / "risk_rolls.npz"
_CHECKED_EXACTLY = 5  # at load, tables up to this many dice a side are recounted exactly


@cache
def _tables() -> np.ndarray:
    """Every one-roll distribution, loaded and validated once per process.

    ``table[bonus, n, m, won]`` is the probability that ``n`` attacker dice (with the +1 when
    ``bonus``) against ``m`` defender dice win exactly ``won`` of the min(n, m) comparisons: the
    exact count of ``_roll_counts`` divided by 6^(n+m), rounded once. The file is written by
    ``python -m combat.risk_dice --write-tables`` (minutes of big-integer counting, so it is
    shipped rather than rebuilt). Loading checks the shape, that every row is a distribution over
    exactly 0..min(n, m) wins, and recounts the small tables exactly.
    """
    with np.load(TABLE_FILE) as data:
        table = np.array(data["probabilities"], dtype=np.float64)
    size = TABLE_DICE + 1
    if table.shape != (2, size, size, size) or not np.isfinite(table).all():
        raise ValueError(f"{TABLE_FILE.name}: expected finite (2, {size}, {size}, {size}) tables")
    n, m, won = np.ogrid[:size, :size, :size]
    allowed = (n >= 1) & (m >= 1) & (won <= np.minimum(n, m))
    if (table[:, ~allowed] != 0).any() or (table[:, allowed] <= 0).any():
        raise ValueError(f"{TABLE_FILE.name}: a row is not over 0..min(n, m) wins")
    sums = table.sum(axis=3)[:, 1:, 1:]
    if np.abs(sums - 1.0).max() > 1e-12:
        raise ValueError(f"{TABLE_FILE.name}: a row does not sum to one")
    for bonus in (0, 1):
        for a in range(1, _CHECKED_EXACTLY + 1):
            for d in range(1, _CHECKED_EXACTLY + 1):
                if _exact_row(a, d, bool(bonus)) != table[bonus, a, d, : min(a, d) + 1].tolist():
                    raise ValueError(f"{TABLE_FILE.name}: table {a} v {d} differs from the count")
    table.setflags(write=False)
    return table


def _exact_row(n: int, m: int, bonus: bool) -> list[float]:
    """P(the attacker wins exactly k comparisons) for k = 0..min(n, m), from the exact count."""
    c, total = min(n, m), 6 ** (n + m)
    row = [0.0] * (c + 1)
    for (_lost, won), ways in _roll_counts(n, m, bonus):
        row[won] = ways / total
    return row


def write_tables(path: Path = TABLE_FILE, *, processes: int = 2) -> None:
    """Count every table exactly and write the file ``_tables`` loads (slow: minutes)."""
    from multiprocessing import Pool

    size = TABLE_DICE + 1
    jobs = [(n, m, b) for n in range(1, size) for m in range(1, size) for b in (False, True)]
    jobs.sort(key=lambda job: -min(job[0], job[1]))  # the longest first
    table = np.zeros((2, size, size, size))
    with Pool(processes) as pool:
        for (n, m, b), row in zip(jobs, pool.starmap(_exact_row, jobs), strict=True):
            table[int(b), n, m, : len(row)] = row
    np.savez_compressed(path, probabilities=table)


def roll_odds(
    attacker_dice: int, defender_dice: int, *, attacker_bonus: int = 0
) -> dict[tuple[int, int], float]:
    """{(attacker losses, defender losses): probability} for one roll of these dice."""
    n = _count("attacker_dice", attacker_dice, 1, MAX_COMMITMENT)
    m = _count("defender_dice", defender_dice, 1, MAX_COMMITMENT)
    if attacker_bonus not in (0, 1) or isinstance(attacker_bonus, bool):
        raise CombatInputError("attacker_bonus", "must be 0 or 1 (+1 on one die)", (0, 1))
    return dict(_roll_distribution(n, m, bool(attacker_bonus)))


@dataclass(frozen=True)
class RollReport:
    """One roll: the dice (sorted, highest first), the +1 if any, and each comparison."""

    attacker: tuple[int, ...]
    defender: tuple[int, ...]
    bonus_die: int | None  # index into ``attacker`` of the die that got +1
    comparisons: tuple[tuple[int, int, str], ...]  # (attacker die, defender die, winner)
    attacker_losses: int
    defender_losses: int
    counters: tuple[int, ...] = ()  # the dice stream counters, when the dice keep a log

    def as_dict(self) -> dict[str, Any]:
        return {
            "attacker": list(self.attacker),
            "defender": list(self.defender),
            "bonus_die": self.bonus_die,
            "comparisons": [list(c) for c in self.comparisons],
            "attacker_losses": self.attacker_losses,
            "defender_losses": self.defender_losses,
            "counters": list(self.counters),
        }


def resolve_roll(
    attacker_dice: int, defender_dice: int, *, attacker_bonus: int = 0, dice: Dice
) -> RollReport:
    """Roll the dice (attacker's first, then the defender's) and compare them."""
    roll_odds(attacker_dice, defender_dice, attacker_bonus=attacker_bonus)  # validates
    return _roll(attacker_dice, defender_dice, bool(attacker_bonus), dice)


def roll_dice(attacker_dice: int, defender_dice: int, *, bonus: bool, dice: Dice) -> RollReport:
    """One roll for a caller that has checked its own counts (the game engine): no upper bound.

    ``resolve_roll`` caps a request at ``MAX_COMMITMENT`` dice to keep one HTTP request small; a
    game's committed attack may legitimately roll more.
    """
    if attacker_dice < 1 or defender_dice < 0:
        raise CombatInputError("dice", f"{attacker_dice} v {defender_dice} dice cannot be rolled")
    return _roll(attacker_dice, defender_dice, bonus, dice)


def _roll(n: int, m: int, bonus: bool, dice: Dice) -> RollReport:
    log = getattr(dice, "log", None)
    start = len(log) if log is not None else 0
    att = sorted((dice.roll(6) for _ in range(n)), reverse=True)
    dfn = sorted((dice.roll(6) for _ in range(m)), reverse=True)
    counters = tuple(r.counter for r in log[start:]) if log is not None else ()
    c = min(n, m)
    bonus_die = None
    if bonus:
        # The highest top-of-a-run die that ties its defender die: +1 turns that comparison.
        for k in range(c):
            if (k == 0 or att[k - 1] != att[k]) and att[k] == dfn[k]:
                bonus_die = k
                break
    shown = [v + 1 if k == bonus_die else v for k, v in enumerate(att)]
    comparisons = tuple(
        (shown[k], dfn[k], "attacker" if shown[k] > dfn[k] else "defender") for k in range(c)
    )
    won = sum(1 for *_dice, winner in comparisons if winner == "attacker")
    return RollReport(tuple(shown), tuple(dfn), bonus_die, comparisons, c - won, won, counters)


# --- a battle -----------------------------------------------------------------------------


class BattleState(NamedTuple):
    flanks: tuple[int, ...]  # armies standing in each flank (one entry unless flanking)
    reserves: int  # committed mode: armies that replace losses
    defenders: int
    turn: int = 0  # index of the flank that rolls next
    captured: int = 0
    attacker_sunk: tuple[bool, ...] = ()  # naval: ships sunk by the sink roll
    defender_sunk: bool = False


@dataclass(frozen=True)
class BattleSetup:
    mode: str
    commitments: tuple[int, ...]
    stop_below: int
    naval: bool
    defender_floor: int = 1  # the fewest dice a defender with the armies rolls (committed)

    def dice(self, state: BattleState) -> tuple[int, int, bool]:
        """(attacker dice, defender dice, +1 allowed) for the flank whose turn it is."""
        standing = state.flanks[state.turn]
        if self.mode == "normal":
            return min(3, standing), min(2, state.defenders), False
        defender_dice = min(
            max(self.defender_floor, self.commitments[state.turn] - 1), state.defenders
        )
        live = sum(1 for f in state.flanks if f > 0)
        return standing, defender_dice, self.mode == "flanking" and live >= 2


class Chance:
    """Exact outcomes: every roll result and sink roll with its probability."""

    def roll(self, n: int, m: int, bonus: bool) -> list[tuple[float, tuple[int, int]]]:
        return [(p, losses) for losses, p in _roll_distribution(n, m, bonus)]

    def sinks(self) -> list[tuple[float, bool]]:
        return [(P_SINK, True), (1 - P_SINK, False)]


@dataclass
class Rolling:
    """Rolled outcomes from injected dice, each logged for the report."""

    dice: Dice
    rolls: list[RollReport] = field(default_factory=list)
    sink_rolls: list[dict[str, Any]] = field(default_factory=list)

    def roll(self, n: int, m: int, bonus: bool) -> list[tuple[float, tuple[int, int]]]:
        report = _roll(n, m, bonus, self.dice)
        self.rolls.append(report)
        return [(1.0, (report.attacker_losses, report.defender_losses))]

    def sinks(self) -> list[tuple[float, bool]]:
        defeated, other = self.dice.roll(6), self.dice.roll(6)
        self.sink_rolls.append(
            {
                "after_roll": len(self.rolls),
                "defeated": defeated,
                "other": other,
                "sank": defeated < other,
            }
        )
        return [(1.0, defeated < other)]


def is_over(setup: BattleSetup, state: BattleState) -> bool:
    if state.defenders == 0 or not any(state.flanks):
        return True
    return setup.mode == "normal" and state.flanks[0] <= setup.stop_below


def step(setup: BattleSetup, state: BattleState, chance) -> list[tuple[float, BattleState]]:
    """Every state one roll can lead to, with its probability (one when rolling)."""
    n, m, bonus = setup.dice(state)
    k = state.turn
    results = []
    for p, (att_lost, def_lost) in chance.roll(n, m, bonus):
        flanks = list(state.flanks)
        refill = min(att_lost, state.reserves)
        flanks[k] -= att_lost - refill
        captured = state.captured + (1 if bonus and def_lost == min(n, m) else 0)
        base = state._replace(
            flanks=tuple(flanks),
            reserves=state.reserves - refill,
            defenders=state.defenders - def_lost,
            captured=captured,
        )
        for q, after in _sink_rolls(
            setup, base, k, att_lost == min(n, m), def_lost == min(n, m), chance
        ):
            results.append((p * q, _next_turn(after)))
    return results


def _sink_rolls(setup, state, k, attacker_routed, defender_routed, chance):
    """Naval total defeats: the routed ship rolls against the other and may sink."""
    if not setup.naval:
        return [(1.0, state)]
    if attacker_routed and state.flanks[k] > 0:
        sunk = state._replace(
            flanks=_zeroed(state.flanks, k), attacker_sunk=_flagged(state.attacker_sunk, k)
        )
        return [(q, sunk if sinks else state) for q, sinks in chance.sinks()]
    if defender_routed and state.defenders > 0:
        sunk = state._replace(defenders=0, defender_sunk=True)
        return [(q, sunk if sinks else state) for q, sinks in chance.sinks()]
    return [(1.0, state)]  # a roll has at least one comparison: only one side can be routed


def _zeroed(flanks: tuple[int, ...], k: int) -> tuple[int, ...]:
    return (*flanks[:k], 0, *flanks[k + 1 :])


def _flagged(flags: tuple[bool, ...], k: int) -> tuple[bool, ...]:
    return (*flags[:k], True, *flags[k + 1 :])


def _next_turn(state: BattleState) -> BattleState:
    size = len(state.flanks)
    for offset in range(1, size + 1):
        nxt = (state.turn + offset) % size
        if state.flanks[nxt] > 0:
            return state._replace(turn=nxt)
    return state


# --- inputs -------------------------------------------------------------------------------


def _int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _count(name: str, value: object, minimum: int, maximum: int = MAX_ARMIES) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise CombatInputError(name, f"must be a whole number >= {minimum}, got {value!r}")
    if value > maximum:
        raise CombatInputError(name, f"at most {maximum}, got {value}")
    return value


def build(attackers, defenders, *, mode, reserves, flanks, stop_below, naval,
          defender_dice="commitment"):  # fmt: skip
    """Validate a battle request: (setup, initial state)."""
    if mode not in MODES:
        raise CombatInputError("mode", f"unknown mode {mode!r}", MODES)
    if defender_dice not in DEFENDER_DICE:
        raise CombatInputError(
            "defender_dice", f"unknown defender dice {defender_dice!r}", DEFENDER_DICE
        )
    d = _count("defenders", defenders, 1)
    r = _count("reserves", reserves, 0)
    stop = _count("stop_below", stop_below, 0)
    if not isinstance(naval, bool):
        raise CombatInputError("naval", "must be true or false")
    if mode == "flanking":
        if attackers is not None and (
            not isinstance(flanks, Sequence) or attackers != sum(f for f in flanks if _int(f))
        ):
            raise CombatInputError(
                "attackers", "a flanking attack gives its armies as flanks: null, or their sum"
            )
        if not isinstance(flanks, Sequence) or isinstance(flanks, str) or len(flanks) < 2:
            raise CombatInputError("flanks", "a flanking attack needs two or more flanks")
        blocks = tuple(_count(f"flanks[{i}]", f, 2, MAX_COMMITMENT) for i, f in enumerate(flanks))
        if r:
            raise CombatInputError("reserves", "reserves reinforce committed attacks only")
    else:
        if flanks is not None:
            raise CombatInputError("flanks", f"only for mode 'flanking', not {mode!r}")
        low = 2 if mode == "committed" else 1
        top = MAX_COMMITMENT if mode == "committed" else MAX_ARMIES
        blocks = (_count("attackers", attackers, low, top),)
        if r and mode != "committed":
            raise CombatInputError("reserves", "reserves reinforce committed attacks only")
    if stop and mode != "normal":
        raise CombatInputError("stop_below", "only a normal attack may stop part way")
    if sum(blocks) + r > MAX_ARMIES:
        raise CombatInputError("attackers", f"at most {MAX_ARMIES} armies a side")
    setup = BattleSetup(mode, blocks, stop, naval, 2 if defender_dice == "normal" else 1)
    state = BattleState(blocks, r, d, attacker_sunk=(False,) * len(blocks))
    return setup, state


# --- reports and odds -----------------------------------------------------------------------


@dataclass(frozen=True)
class RiskBattleReport:
    mode: str
    winner: str  # "attacker" or "defender" (the attacker stopped or was destroyed)
    flanks_left: tuple[int, ...]
    reserves_left: int
    defenders_left: int
    captured: int
    rolls: tuple[RollReport, ...]
    sink_rolls: tuple[dict[str, Any], ...] = ()
    attacker_ships_sunk: tuple[bool, ...] = ()
    defender_ship: str | None = None  # naval: "sunk", "capturable", "afloat"

    @property
    def attackers_left(self) -> int:
        return sum(self.flanks_left) + self.reserves_left

    def as_dict(self) -> dict[str, Any]:
        return {
            "mode": self.mode,
            "winner": self.winner,
            "attackers_left": self.attackers_left,
            "flanks_left": list(self.flanks_left),
            "reserves_left": self.reserves_left,
            "defenders_left": self.defenders_left,
            "captured": self.captured,
            "rolls": [r.as_dict() for r in self.rolls],
            "sink_rolls": list(self.sink_rolls),
            "attacker_ships_sunk": list(self.attacker_ships_sunk),
            "defender_ship": self.defender_ship,
        }


def _winner(state: BattleState) -> str:
    return "attacker" if state.defenders == 0 and any(state.flanks) else "defender"


def _defender_ship(setup: BattleSetup, state: BattleState) -> str | None:
    if not setup.naval:
        return None
    if state.defender_sunk:
        return "sunk"
    if state.defenders > 0:
        return "afloat"
    return "capturable" if max(state.flanks) >= 2 else "sunk"


def resolve_battle(
    attackers: int | None,
    defenders: int,
    *,
    mode: str = "normal",
    reserves: int = 0,
    flanks: Sequence[int] | None = None,
    stop_below: int = 0,
    naval: bool = False,
    defender_dice: str = "commitment",
    dice: Dice,
) -> RiskBattleReport:
    """Fight a battle to its end with injected dice; every roll is in the report."""
    setup, state = build(
        attackers,
        defenders,
        mode=mode,
        reserves=reserves,
        flanks=flanks,
        stop_below=stop_below,
        naval=naval,
        defender_dice=defender_dice,
    )
    rolling = Rolling(dice)
    while not is_over(setup, state):
        ((_p, state),) = step(setup, state, rolling)
    return RiskBattleReport(
        mode=mode,
        winner=_winner(state),
        flanks_left=state.flanks,
        reserves_left=state.reserves,
        defenders_left=state.defenders,
        captured=state.captured,
        rolls=tuple(rolling.rolls),
        sink_rolls=tuple(rolling.sink_rolls),
        attacker_ships_sunk=state.attacker_sunk if naval else (),
        defender_ship=_defender_ship(setup, state),
    )


@dataclass(frozen=True)
class RiskOutcome:
    attackers_left: int
    flanks_left: tuple[int, ...]
    defenders_left: int
    captured: int
    probability: float
    defender_ship: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {
            "attackers_left": self.attackers_left,
            "flanks_left": list(self.flanks_left),
            "defenders_left": self.defenders_left,
            "captured": self.captured,
            "defender_ship": self.defender_ship,
            "probability": self.probability,
        }


@dataclass(frozen=True)
class OutcomeTable:
    """A battle's end states as arrays, most likely first: ``rows`` holds per end state
    [flanks..., reserves, defenders left, captured, defender ship code] (the code indexes
    ``_SHIPS``), ``probability`` its chance. ``RiskOdds.outcomes`` turns rows into objects only
    when asked: a large flanking battle has tens of thousands of end states, and building them
    all took longer than solving the battle."""

    flank_count: int
    rows: np.ndarray
    probability: np.ndarray

    def as_dicts(self, limit: int | None = None) -> list[dict[str, Any]]:
        """The ``limit`` most likely outcomes (all when None) as ``RiskOutcome.as_dict`` gives
        them, without building the objects."""
        k = self.flank_count
        rows, probability = self.rows[:limit], self.probability[:limit]
        return [
            {
                "attackers_left": sum(row[:k]) + row[k],
                "flanks_left": row[:k],
                "defenders_left": row[k + 1],
                "captured": row[k + 2],
                "defender_ship": _SHIPS[row[k + 3]],
                "probability": prob,
            }
            for row, prob in zip(rows.tolist(), probability.tolist(), strict=True)
        ]

    def outcomes(self) -> tuple[RiskOutcome, ...]:
        k = self.flank_count
        return tuple(
            RiskOutcome(
                sum(row[:k]) + row[k],
                tuple(row[:k]),
                row[k + 1],
                row[k + 2],
                prob,
                _SHIPS[row[k + 3]],
            )
            for row, prob in zip(self.rows.tolist(), self.probability.tolist(), strict=True)
        )


@dataclass(frozen=True)
class RiskOdds:
    mode: str
    attacker_wins: float
    defender_wins: float
    expected_attacker_losses: float
    expected_defender_losses: float
    expected_captures: float
    outcome_table: Callable[[], OutcomeTable] = field(repr=False, compare=False)
    naval: dict[str, float] | None = None  # sinking and capture chances

    @cached_property
    def outcomes(self) -> tuple[RiskOutcome, ...]:
        """Every end state with its probability, most likely first. Built on first use: a
        flanking battle's end states split by captures need a second, longer walk (and tens of
        thousands of objects), which the odds themselves do not."""
        return self.outcome_table().outcomes()

    def as_dict(self, max_outcomes: int | None = None) -> dict[str, Any]:
        """Everything, with the ``max_outcomes`` most likely outcomes (all when None);
        ``outcomes_total`` counts them all and ``outcomes_left_out`` is the chance of those
        left out (a large flanking battle ends in tens of thousands of ways)."""
        table = self.outcome_table()
        shown = table.as_dicts(max_outcomes)
        return {
            "mode": self.mode,
            "attacker_wins": self.attacker_wins,
            "defender_wins": self.defender_wins,
            "expected_attacker_losses": self.expected_attacker_losses,
            "expected_defender_losses": self.expected_defender_losses,
            "expected_captures": self.expected_captures,
            "outcomes": shown,
            "outcomes_total": len(table.probability),
            "outcomes_left_out": float(table.probability[len(shown) :].sum()),
            "naval": self.naval,
        }


def battle_odds(
    attackers: int | None,
    defenders: int,
    *,
    mode: str = "normal",
    reserves: int = 0,
    flanks: Sequence[int] | None = None,
    stop_below: int = 0,
    naval: bool = False,
    defender_dice: str = "commitment",
) -> RiskOdds:
    """The exact distribution of how the battle ends (see the module docstring). Cached."""
    key_flanks = tuple(flanks) if isinstance(flanks, list | tuple) else flanks
    build(
        attackers,
        defenders,
        mode=mode,
        reserves=reserves,
        flanks=flanks,
        stop_below=stop_below,
        naval=naval,
        defender_dice=defender_dice,
    )  # validate before hashing
    return _battle_odds(
        attackers, defenders, mode, reserves, key_flanks, stop_below, naval, defender_dice
    )


@lru_cache(maxsize=256)
def _battle_odds(
    attackers, defenders, mode, reserves, flanks, stop_below, naval, defender_dice="commitment"
) -> RiskOdds:
    setup, start = build(
        attackers,
        defenders,
        mode=mode,
        reserves=reserves,
        flanks=flanks,
        stop_below=stop_below,
        naval=naval,
        defender_dice=defender_dice,
    )
    if setup.mode == "flanking":
        odds = _flanking_odds(setup, start)
        if odds is None:  # too large for the dense walk
            return _summarise(setup, start, solve(setup, start))
        return odds
    return _summarise_arrays(setup, start, _solve_line(setup, start))


def _flanking_odds(setup: BattleSetup, start: BattleState) -> RiskOdds | None:
    """The odds from one walk that sums the captures' chance without telling the states apart
    by captures (a third of the states for [20, 20, 20] v 40); the end states split by
    captures (``outcomes``) come from a second walk that does, run when first asked for."""
    walked = _solve_flanking(setup, start, split_captures=False)
    if walked is None:
        return None
    ends, captures = walked

    @cache  # the odds object is itself cached: walk once however often it is asked
    def outcomes() -> OutcomeTable:
        split = _solve_flanking(setup, start, split_captures=True)
        assert split is not None  # the same layers fitted a moment ago
        return _outcome_table(setup, split[0])

    return _summarise_arrays(setup, start, ends, captures=captures, outcomes=outcomes)


def estimated_states(
    attackers: int | None,
    defenders: int,
    *,
    mode: str = "normal",
    reserves: int = 0,
    flanks: Sequence[int] | None = None,
    stop_below: int = 0,
    naval: bool = False,
    defender_dice: str = "commitment",
) -> int:
    """The order of the work ``battle_odds`` charges to the budget (one unit per successor state
    a roll generates), from the request alone: validated like ``battle_odds``, computed in
    microseconds, growing with every size.

    Normal and committed: the (attackers left, defenders left) pairs that can still roll, times
    the outcomes of a roll (min(dice) + 1). Flanking: the flanks' sizes times the defenders left
    times whose turn it is, times half the outcomes of the largest roll (the capture counts
    spread the states reached over fewer of these than there are), a quarter more at sea (a
    flank sunk by the sink roll is remembered); plus the dense layers' memory, charged before
    the walk starts (``_CELL_UNITS`` a cell).
    """
    setup, start = build(
        attackers,
        defenders,
        mode=mode,
        reserves=reserves,
        flanks=flanks,
        stop_below=stop_below,
        naval=naval,
        defender_dice=defender_dice,
    )
    d = start.defenders
    if setup.mode == "normal":
        return max(1, (start.flanks[0] - setup.stop_below) * d * 3)
    blocks = setup.commitments
    most = max(setup.defender_floor, max(blocks) - 1)
    outcomes = min(max(blocks), most, d) + 1  # successors of one state
    if setup.mode == "committed":
        return (blocks[0] + start.reserves) * d * outcomes
    states = prod(f + 1 for f in blocks) * d * len(blocks) * outcomes // 2
    successors = states * 5 // 4 if naval else states
    cells = prod(f + 1 for f in blocks) * (d + 1) * len(blocks) * (2 if naval else 1)
    return successors + _CELL_UNITS * cells  # the walk's dense arrays are charged up front


# --- the fast exact solvers -----------------------------------------------------------------
#
# Both walk the battle's states in decreasing order of armies left (every roll destroys at
# least one army), hold a whole layer in numpy arrays, and charge the budget one unit per
# successor state a roll generates (a state's roll outcomes), once per layer (flanking: per chunk
# of at most ``_CHUNK`` states), before those successors are allocated: the memory held is
# bounded by the work charged.


@dataclass
class _Ends:
    """End states as arrays, one row each (rows may repeat a key; they are summed)."""

    flanks: np.ndarray  # (rows, number of flanks) armies standing
    reserves: np.ndarray
    defenders: np.ndarray
    captured: np.ndarray
    attacker_sunk: np.ndarray  # a flank went down with its ship on a sink roll
    defender_sunk: np.ndarray  # the defending ship went down on a sink roll
    probability: np.ndarray


def _solve_line(setup: BattleSetup, start: BattleState) -> _Ends:
    """Normal and committed battles, at sea or not, as a chain over (attackers, defenders).

    A committed attack's state is its total T (block and reserves): losses are replaced while
    reserves last, so the block is min(T, commitment) and the reserves the rest. Layers are the
    diagonals T + d; a roll with c comparisons moves mass from diagonal S to S - c, so a ring of
    max(c) + 1 diagonals (each a vector over d) is all the memory the walk needs.
    """
    total, d0 = start.flanks[0] + start.reserves, start.defenders
    if setup.mode == "normal":
        block, most_dice, stop = 3, 2, setup.stop_below
    else:
        block, stop = setup.commitments[0], 0
        most_dice = max(setup.defender_floor, setup.commitments[0] - 1)
    width = min(block, most_dice) + 1
    table = _tables()[0]
    ring = np.zeros((width, d0 + 1))
    flat = ring.reshape(-1)
    ring[(total + d0) % width, d0] = 1.0
    won = np.arange(width)
    attacker_won = np.zeros(total + 1)  # d = 0, by T
    defender_sunk = np.zeros(total + 1)  # naval: sunk by the sink roll, by T
    attacker_gone = np.zeros(d0 + 1)  # T = 0 (or a sunk block with no reserves), by d
    stopped: dict[int, np.ndarray] = {}  # normal: T <= stop_below with defenders left
    sunk_with_reserves: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    for s in range(total + d0, 0, -1):
        row = ring[s % width]
        lo, hi = max(0, s - total), min(d0, s)
        mass = row[lo : hi + 1].copy()
        row[:] = 0.0
        d = np.arange(lo, hi + 1)
        t = s - d
        if lo == 0:
            attacker_won[s] += mass[0]
        if hi == s:
            attacker_gone[s] += mass[-1]
        live = (d >= 1) & (t >= 1) & (mass > 0)
        if stop:
            halted = live & (t <= stop)
            for ti, di, pi in zip(t[halted], d[halted], mass[halted], strict=True):
                stopped.setdefault(int(ti), np.zeros(d0 + 1))[di] += pi
            live &= t > stop
        if not live.any():
            continue
        mass, d, t = mass[live], d[live], t[live]
        n = np.minimum(t, block)
        c = np.minimum(n, np.minimum(d, most_dice))
        charge(int(c.sum()) + len(c))  # the successors this diagonal generates
        moves = table[n, np.minimum(d, most_dice), :width] * mass[:, None]
        if setup.naval:
            aboard = block if setup.mode == "committed" else total  # the rest are reserves
            _line_sink_rolls(
                moves, t, d, c, aboard, attacker_gone, defender_sunk, sunk_with_reserves
            )
        target = ((s - c) % width) * (d0 + 1) + d
        ok = won[None, :] <= c[:, None]
        np.add.at(flat, (target[:, None] - won[None, :])[ok], moves[ok])
    return _line_ends(
        setup, total, d0, attacker_won, defender_sunk, attacker_gone, stopped, sunk_with_reserves
    )


def _line_sink_rolls(moves, t, d, c, block, attacker_gone, defender_sunk, sunk_with_reserves):
    """Naval: split the total defeats between sinking (15/36) and fighting on, in place."""
    rows = np.arange(len(t))
    routed = t - c > 0  # the attacker lost every comparison and still has armies aboard
    if routed.any():
        sinks = moves[routed, 0] * P_SINK
        moves[routed, 0] *= 1 - P_SINK
        reserves = np.maximum(t[routed] - c[routed] - block, 0)
        aboard = reserves == 0
        attacker_gone[d[routed][aboard]] += sinks[aboard]
        if (~aboard).any():
            sunk_with_reserves.append((reserves[~aboard], d[routed][~aboard], sinks[~aboard]))
    routed = d - c > 0  # the defender lost every comparison and still has armies aboard
    if routed.any():
        r, cr = rows[routed], c[routed]
        defender_sunk[t[routed]] += moves[r, cr] * P_SINK
        moves[r, cr] *= 1 - P_SINK


def _line_ends(setup, total, d0, attacker_won, defender_sunk, attacker_gone, stopped, sunk):
    block = setup.commitments[0] if setup.mode == "committed" else total
    parts = []  # (T standing, reserves, defenders, attacker sunk, defender sunk, probability)
    t = np.arange(total + 1)
    parts.append((t, np.zeros_like(t), np.zeros_like(t), False, False, attacker_won))
    parts.append((t, np.zeros_like(t), np.zeros_like(t), False, True, defender_sunk))
    d = np.arange(d0 + 1)
    parts.append((np.zeros_like(d), np.zeros_like(d), d, False, False, attacker_gone))
    for ti, by_d in stopped.items():
        parts.append((np.full_like(d, ti), np.zeros_like(d), d, False, False, by_d))
    for reserves, dd, p in sunk:
        parts.append((np.zeros_like(dd), reserves, dd, True, False, p))
    standing = np.concatenate([np.asarray(x[0]) for x in parts])
    reserves = np.concatenate([np.asarray(x[1]) for x in parts])
    fighting = np.minimum(standing, block)
    reserves = reserves + standing - fighting
    rows = [len(x[5]) for x in parts]
    return _Ends(
        flanks=fighting[:, None],
        reserves=reserves,
        defenders=np.concatenate([np.asarray(x[2]) for x in parts]),
        captured=np.zeros(sum(rows), dtype=np.int64),
        attacker_sunk=np.repeat([x[3] for x in parts], rows),
        defender_sunk=np.repeat([x[4] for x in parts], rows),
        probability=np.concatenate([x[5] for x in parts]),
    )


def _solve_flanking(
    setup: BattleSetup, start: BattleState, *, split_captures: bool
) -> tuple[_Ends, float] | None:
    """Flanking battles: the compiled walk of ``combat.risk_flanking`` over dense layers of
    states, charged to the budget for its memory (``_CELL_UNITS`` a cell) up front and for its
    successors between slices of at most ``_CHUNK``. None when the states cannot be packed into
    62 bits or the dense layers would pass ``risk_flanking.MAX_CELLS`` (then the generic
    ``solve`` walks them, charging as it goes)."""
    blocks, d0 = list(setup.commitments), start.defenders
    cells, strides, shifts = risk_flanking.layout(blocks, d0, setup.naval)
    if not 0 < cells <= risk_flanking.MAX_CELLS:
        return None
    charge(_CELL_UNITS * cells)
    mass, listed, codes, offset, fill = risk_flanking.new_layers(blocks, d0, setup.naval, cells)
    top = sum(blocks) + d0
    cell = int(np.dot([*blocks, d0, 0, 0], strides))
    first_code = risk_flanking.pack([*blocks, d0, 0, 0], shifts)
    risk_flanking.add(mass, listed, codes, offset, fill, 0, cell, first_code, 1.0, top)
    walk_state = np.array([0, top, 0, 0], dtype=np.int64)
    out = _grown_rows(None, 1 << 14)
    table, block_array = _tables(), np.array(blocks, dtype=np.int64)
    captures = np.zeros(1)
    while True:
        status, work = risk_flanking.walk(
            mass, listed, codes, offset, fill, walk_state, block_array, setup.defender_floor,
            strides, shifts, table, setup.naval, P_SINK, _CHUNK, split_captures, captures, *out,
        )  # fmt: skip
        charge(int(work))
        if status == risk_flanking.DONE:
            break
        if status == risk_flanking.NEEDS_ROOM:
            out = _grown_rows(out, 2 * len(out[0]) + int(walk_state[3]))
    risk_flanking.give_back(mass, listed, codes)
    rows = int(walk_state[2])
    code, captured, defender_sunk, p = (column[:rows] for column in out)
    fields = [
        (code >> shifts[i]) & ((1 << (shifts[i + 1] - shifts[i])) - 1)
        for i in range(len(shifts) - 1)
    ]
    k = len(blocks)
    ends = _Ends(
        flanks=np.column_stack(fields[:k]),
        reserves=np.zeros(rows, dtype=np.int64),
        defenders=fields[k],
        captured=captured,
        attacker_sunk=fields[k + 2] == 1,
        defender_sunk=defender_sunk,
        probability=p,
    )
    return ends, float(captures[0]) if not split_captures else float(p @ captured)


_CHUNK = 1 << 20  # flanking successors generated between two charges to the budget
_CELL_UNITS = 5  # budget units (8 bytes each) per dense cell: 40 bytes across the two layers


def _grown_rows(rows: tuple[np.ndarray, ...] | None, size: int) -> tuple[np.ndarray, ...]:
    """The end rows' arrays (code, captures, defender sunk, probability), ``size`` long, holding
    ``rows`` at their start."""
    grown = (np.zeros(size, np.int64), np.zeros(size, np.int64), np.zeros(size, np.bool_),
             np.zeros(size))  # fmt: skip
    for new, old in zip(grown, rows or (), strict=False):
        new[: len(old)] = old
    return grown


_SHIPS = (None, "sunk", "capturable", "afloat")


def _unique_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct rows of a non-negative integer matrix (sorted) and each row's index among
    them: one int64 number a row when the columns' ranges allow it (far faster than axis=0)."""
    radix = rows.max(axis=0, initial=0) + 1 if len(rows) else np.ones(rows.shape[1], np.int64)
    if prod(radix.tolist()) >= 2**62:
        keys, inverse = np.unique(rows, axis=0, return_inverse=True)
        return keys, inverse.reshape(-1)
    weights = np.array([prod(radix[i + 1 :].tolist()) for i in range(len(radix))], np.int64)
    _codes, first, inverse = np.unique(rows @ weights, return_index=True, return_inverse=True)
    return rows[first], inverse.reshape(-1)


def _ship_codes(setup: BattleSetup, ends: _Ends) -> np.ndarray:
    """Each end's defending ship as an index of ``_SHIPS`` (0 on land)."""
    if not setup.naval:
        return np.zeros(len(ends.probability), dtype=np.int64)
    return np.where(
        ends.defender_sunk,
        1,
        np.where(ends.defenders > 0, 3, np.where(ends.flanks.max(axis=1) >= 2, 2, 1)),
    )


def _outcome_table(setup: BattleSetup, ends: _Ends) -> OutcomeTable:
    """The end states merged by what an outcome shows, most likely first (ties in key order)."""
    ship = _ship_codes(setup, ends)
    key = np.column_stack([ends.flanks, ends.reserves, ends.defenders, ends.captured, ship])
    keys, inverse = _unique_rows(key)
    merged = np.bincount(inverse, weights=ends.probability, minlength=len(keys))
    present = merged > 0
    keys, merged = keys[present], merged[present]
    order = np.argsort(-merged, kind="stable")
    return OutcomeTable(ends.flanks.shape[1], keys[order], merged[order])


def _summarise_arrays(
    setup: BattleSetup,
    start: BattleState,
    ends: _Ends,
    *,
    captures: float | None = None,
    outcomes: Callable[[], OutcomeTable] | None = None,
) -> RiskOdds:
    """The odds from the end states; ``captures`` when the ends do not tell captures apart, and
    ``outcomes`` when the outcome table is to come from elsewhere (built when first asked)."""
    p = ends.probability
    standing = ends.flanks.sum(axis=1)
    attacker_left = standing + ends.reserves
    wins = float(p[(ends.defenders == 0) & (standing > 0)].sum())
    total_start = sum(start.flanks) + start.reserves
    ship = _ship_codes(setup, ends)
    if outcomes is None:
        table = _outcome_table(setup, ends)

        def outcomes() -> OutcomeTable:
            return table

    naval = None
    if setup.naval:
        naval = {
            "defender_ship_sunk": float(p[ship == 1].sum()),
            "defender_ship_capturable": float(p[ship == 2].sum()),
            "attacker_ship_sunk": float(p[ends.attacker_sunk | (standing == 0)].sum()),
        }
    return RiskOdds(
        mode=setup.mode,
        attacker_wins=wins,
        defender_wins=1.0 - wins,
        expected_attacker_losses=float(p @ (total_start - attacker_left)),
        expected_defender_losses=float(p @ (start.defenders - ends.defenders)),
        expected_captures=float(p @ ends.captured) if captures is None else captures,
        outcome_table=outcomes,
        naval=naval,
    )


def solve(setup: BattleSetup, start: BattleState) -> list[tuple[float, BattleState]]:
    """Every end state with its probability: states by decreasing armies left, each once.

    The generic walk through ``step`` (one state at a time); ``battle_odds`` uses it only for
    flanking attacks too large for ``_solve_flanking``'s dense layers."""
    chance = Chance()
    levels: dict[int, dict[BattleState, float]] = {}

    def armies(s: BattleState) -> int:
        return sum(s.flanks) + s.reserves + s.defenders

    levels[armies(start)] = {start: 1.0}
    ends: list[tuple[float, BattleState]] = []
    while levels:
        level = levels.pop(max(levels))
        for state, p in level.items():
            if is_over(setup, state):
                ends.append((p, state))
                continue
            successors = step(setup, state, chance)
            charge(len(successors))  # per state: a level of a huge battle is itself huge
            for q, nxt in successors:
                bucket = levels.setdefault(armies(nxt), {})
                bucket[nxt] = bucket.get(nxt, 0.0) + p * q
    return ends


def _summarise(setup: BattleSetup, start: BattleState, ends) -> RiskOdds:
    total_start = sum(start.flanks) + start.reserves
    wins = att_lost = def_lost = captures = 0.0
    naval = {"defender_ship_sunk": 0.0, "defender_ship_capturable": 0.0, "attacker_ship_sunk": 0.0}
    outcomes: dict[tuple, float] = {}
    for p, s in ends:
        if _winner(s) == "attacker":
            wins += p
        att_lost += p * (total_start - sum(s.flanks) - s.reserves)
        def_lost += p * (start.defenders - s.defenders)
        captures += p * s.captured
        ship = _defender_ship(setup, s)
        if setup.naval:
            naval["defender_ship_sunk"] += p if ship == "sunk" else 0.0
            naval["defender_ship_capturable"] += p if ship == "capturable" else 0.0
            naval["attacker_ship_sunk"] += p if any(s.attacker_sunk) or not any(s.flanks) else 0
        key = (s.flanks, s.reserves, s.defenders, s.captured, ship)
        outcomes[key] = outcomes.get(key, 0.0) + p
    ranked = sorted(outcomes.items(), key=lambda item: -item[1])
    return RiskOdds(
        mode=setup.mode,
        attacker_wins=wins,
        defender_wins=1.0 - wins,
        expected_attacker_losses=att_lost,
        expected_defender_losses=def_lost,
        expected_captures=captures,
        outcome_table=lambda: OutcomeTable(
            len(start.flanks),
            np.array(
                [[*f, r, d, cap, _SHIPS.index(ship)] for (f, r, d, cap, ship), _p in ranked],
                dtype=np.int64,
            ).reshape(len(ranked), len(start.flanks) + 4),
            np.array([p for _key, p in ranked]),
        ),
        naval=naval if setup.naval else None,
    )


if __name__ == "__main__":
    import sys

    if sys.argv[1:] != ["--write-tables"]:
        sys.exit("usage: python -m combat.risk_dice --write-tables")
    write_tables()
