"""Risk battles: one roll, normal/committed/flanking/naval battles, their exact odds."""

from __future__ import annotations

import itertools
from fractions import Fraction as F
from functools import cache
from math import sqrt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combat.dice import FixedDice, RandomDice
from combat.errors import CombatInputError
from combat.risk_dice import battle_odds, resolve_battle, resolve_roll, roll_odds


def brute_force_roll(n: int, m: int, bonus: bool) -> dict[tuple[int, int], F]:
    """Every one of the 6^(n+m) rolls; with the bonus, +1 tried on every die, best kept."""
    c, counts = min(n, m), {}
    for faces in itertools.product(range(1, 7), repeat=n + m):
        att, dfn = sorted(faces[:n], reverse=True), sorted(faces[n:], reverse=True)
        options = [att] + (
            [sorted([*att[:i], att[i] + 1, *att[i + 1 :]], reverse=True) for i in range(n)]
            if bonus
            else []
        )
        won = max(sum(a[k] > dfn[k] for k in range(c)) for a in options)
        counts[(c - won, won)] = counts.get((c - won, won), 0) + 1
    return {k: F(v, 6 ** (n + m)) for k, v in counts.items()}


@pytest.mark.parametrize(("n", "m"), [(a, d) for a in (1, 2, 3) for d in (1, 2)])
def test_every_normal_dice_pairing_equals_the_enumeration(n, m):
    got = roll_odds(n, m)
    want = brute_force_roll(n, m, False)
    assert got == pytest.approx({k: float(v) for k, v in want.items()}, abs=1e-15)


def test_three_against_two_published_counts():
    """3 v 2: defender loses 2 with 2890/7776, each loses 1 with 2611/7776, attacker loses 2
    with 2275/7776."""
    assert roll_odds(3, 2) == pytest.approx(
        {(0, 2): 2890 / 7776, (1, 1): 2611 / 7776, (2, 0): 2275 / 7776}
    )


@pytest.mark.parametrize(("n", "m"), [(2, 1), (2, 2), (3, 2), (4, 3), (3, 4), (5, 2)])
def test_committed_and_flanking_rolls_equal_the_enumeration(n, m):
    for bonus in (False, True):
        want = brute_force_roll(n, m, bonus)
        got = roll_odds(n, m, attacker_bonus=int(bonus))
        assert got == pytest.approx({k: float(v) for k, v in want.items()}, abs=1e-13)


def test_bonus_goes_to_the_highest_die_whose_tie_it_turns():
    """Attacker 5 5 3 v defender 5 3: the top 5 ties the 5; +1 makes it 6: both pairs won."""
    report = resolve_roll(3, 2, attacker_bonus=1, dice=FixedDice([5, 5, 3, 5, 3]))
    assert (report.attacker, report.bonus_die) == ((6, 5, 3), 0)
    assert (report.attacker_losses, report.defender_losses) == (0, 2)


def test_bonus_turns_only_one_tie():
    """6 4 4 v 6 4: the 6 ties and is turned (7 v 6); the second tie (4 v 4) stays lost."""
    report = resolve_roll(3, 2, attacker_bonus=1, dice=FixedDice([6, 4, 4, 6, 4]))
    assert report.comparisons == ((7, 6, "attacker"), (4, 4, "defender"))


def test_bonus_cannot_turn_a_tie_below_an_equal_die():
    """5 5 v 6 5: the tie is on the second 5; a +1 on either 5 makes 6 5: 6 v 6, 5 v 5."""
    report = resolve_roll(2, 2, attacker_bonus=1, dice=FixedDice([5, 5, 6, 5]))
    assert report.bonus_die is None
    assert (report.attacker_losses, report.defender_losses) == (2, 0)


def test_rolls_carry_their_counters_with_seeded_dice():
    from combat.dice import SeededDice

    report = resolve_roll(3, 2, dice=SeededDice("s", "risk:1"))
    assert report.counters == (0, 1, 2, 3, 4)


def test_one_against_one():
    """One die each, the attacker must beat the defender: 15/36 = 5/12."""
    assert battle_odds(1, 1).attacker_wins == pytest.approx(5 / 12)


def test_two_against_one():
    """2 dice v 1: the defender loses with 125/216; else 1 v 1 (5/12).
    125/216 + 91/216 x 5/12 = 1955/2592."""
    assert battle_odds(2, 1).attacker_wins == pytest.approx(1955 / 2592)


def test_one_against_two():
    """1 die v 2: the attacker's die beats the higher of two with 55/216, then 1 v 1."""
    odds = battle_odds(1, 2)
    assert odds.attacker_wins == pytest.approx(55 / 216 * 5 / 12)
    assert odds.expected_defender_losses == pytest.approx(55 / 216 * (1 + 5 / 12))


def test_stop_below_leaves_the_last_armies_home():
    """3 v 1 stopping at 2 left: the first roll (3 dice v 1) wins with 95/144; otherwise the
    attacker is down to 2 and stops."""
    odds = battle_odds(3, 1, stop_below=2)
    assert odds.attacker_wins == pytest.approx(95 / 144)
    assert {o.attackers_left for o in odds.outcomes if o.defenders_left} == {2}


@cache
def chain(
    flanks: tuple[int, ...],
    commitments: tuple[int, ...],
    reserves: int,
    d: int,
    turn: int,
    floor: int = 1,
) -> F:
    """An independent recursion for P(attacker wins), from brute-force roll tables. ``floor``:
    the fewest dice the defender rolls while it has them (2: ``defender_dice="normal"``)."""
    if d == 0:
        return F(1)
    if not any(flanks):
        return F(0)
    live = sum(1 for f in flanks if f)
    n, m = flanks[turn], min(max(floor, commitments[turn] - 1), d)
    total = F(0)
    for (lost, won), p in brute_force_roll(n, m, live >= 2).items():
        refill = min(lost, reserves)
        after = list(flanks)
        after[turn] -= lost - refill
        nxt = next(
            (
                (turn + k) % len(after)
                for k in range(1, len(after) + 1)
                if after[(turn + k) % len(after)]
            ),
            turn,
        )
        total += p * chain(tuple(after), commitments, reserves - refill, d - won, nxt, floor)
    return total


def test_committed_attack_against_an_independent_recursion():
    """Committed 4 v 3: 4 dice against 3 every roll while 3 defenders stand."""
    odds = battle_odds(4, 3, mode="committed")
    assert odds.attacker_wins == pytest.approx(float(chain((4,), (4,), 0, 3, 0)), abs=1e-12)


def test_committed_reserves_replace_losses():
    """Committed 2 with 1 in reserve v 1: 2 dice v 1 (win 125/216); a loss is replaced once,
    so 2 v 1 again, then 1 v 1 (5/12)."""
    want = F(125, 216) + F(91, 216) * (F(125, 216) + F(91, 216) * F(5, 12))
    assert battle_odds(2, 1, mode="committed", reserves=1).attacker_wins == pytest.approx(
        float(want)
    )


def test_flanking_two_flanks_of_two_against_one():
    """[2, 2] v 1. With +1, 2 dice v 1 win when the higher die ties or beats the defender's:
    (1/6) x sum over d of (1 - ((d-1)/6)^2) = 161/216. 1 die +1 v 1 die: 21/36 = 7/12. With one
    flank left the battle is committed again: 1 v 1 = 5/12 and no capture.
    P(win) = 161/216 + 55/216 x (161/216 + 55/216 x (7/12 + 5/12 x 5/12)); every win while two
    flanks stand is a total defeat of the defender's one die: one capture."""
    odds = battle_odds(None, 1, mode="flanking", flanks=[2, 2])
    p1, q1 = F(161, 216), F(55, 216)
    win = p1 + q1 * (p1 + q1 * (F(7, 12) + F(5, 12) * F(5, 12)))
    captures = p1 + q1 * (p1 + q1 * F(7, 12))
    assert odds.attacker_wins == pytest.approx(float(win))
    assert odds.expected_captures == pytest.approx(float(captures))
    assert odds.attacker_wins == pytest.approx(float(chain((2, 2), (2, 2), 0, 1, 0)))


def test_flanking_larger_against_the_independent_recursion():
    odds = battle_odds(None, 3, mode="flanking", flanks=[3, 2])
    assert odds.attacker_wins == pytest.approx(float(chain((3, 2), (3, 2), 0, 3, 0)), abs=1e-12)


def test_defender_dice_normal_committed_two_against_two():
    """Fast Risk option ``defender_dice="normal"`` (risk/RULES.md C11): a committed block of 2
    against 2 meets 2 dice, not 1. 2 v 2: both defenders fall 295/1296, one each 420/1296; the
    block, down to 1, then rolls 1 die v 1 (15/36)."""
    odds = battle_odds(2, 2, mode="committed", defender_dice="normal")
    assert odds.attacker_wins == pytest.approx(295 / 1296 + 420 / 1296 * 15 / 36, abs=1e-12)
    assert odds.attacker_wins == pytest.approx(float(chain((2,), (2,), 0, 2, 0, 2)), abs=1e-12)
    text = battle_odds(2, 2, mode="committed")
    assert text.attacker_wins == pytest.approx(float(chain((2,), (2,), 0, 2, 0)), abs=1e-12)


@pytest.mark.parametrize(("flanks", "defenders"), [((2, 2), 3), ((3, 2), 4), ((2, 2, 2), 5)])
def test_defender_dice_normal_flanking_against_the_independent_recursion(flanks, defenders):
    """The compiled flanking walk with the defender's floor of 2 dice, against the recursion."""
    odds = battle_odds(
        None, defenders, mode="flanking", flanks=list(flanks), defender_dice="normal"
    )
    want = chain(flanks, flanks, 0, defenders, 0, 2)
    assert odds.attacker_wins == pytest.approx(float(want), abs=1e-12)
    plain = battle_odds(None, defenders, mode="flanking", flanks=list(flanks))
    assert plain.attacker_wins > odds.attacker_wins


def test_defender_dice_normal_in_a_resolved_battle():
    """Committed 2 v 2 with the option: one roll of 6 5 v 4 3 takes both defenders."""
    report = resolve_battle(
        2, 2, mode="committed", defender_dice="normal", dice=FixedDice([6, 5, 4, 3])
    )
    assert [(r.attacker, r.defender) for r in report.rolls] == [((6, 5), (4, 3))]
    assert report.winner == "attacker"


def test_naval_sink_rolls_and_capture():
    """Ship with 2 armies v ship with 1. 2 dice v 1: with 125/216 the defender's only army
    falls; an emptied ship is not rolled for, and the victor, with 2 armies, may board it.
    Else the attacker loses its one comparison (91/216), a total defeat: it sinks with 15/36,
    or fights on 1 v 1 and wins with 5/12, but a single army cannot board: the ship sinks."""
    odds = battle_odds(2, 1, naval=True)
    capturable = F(125, 216)
    sunk = F(91, 216) * F(21, 36) * F(5, 12)
    assert odds.naval["defender_ship_capturable"] == pytest.approx(float(capturable))
    assert odds.naval["defender_ship_sunk"] == pytest.approx(float(sunk))
    assert odds.attacker_wins == pytest.approx(float(capturable + sunk))
    assert odds.naval["attacker_ship_sunk"] == pytest.approx(1 - float(capturable + sunk))


def test_naval_total_defeat_with_armies_left_rolls_to_sink():
    """Ship with 1 army v ship with 2: 1 die v 2. When the defender loses (55/216) it still has
    an army: a total defeat, so it sinks on the sink roll with 15/36 (the attacker wins).
    Otherwise 1 v 1 follows (5/12); the attacker's lost single army empties its own ship."""
    odds = battle_odds(1, 2, naval=True)
    win = F(55, 216) * (F(15, 36) + F(21, 36) * F(5, 12))
    assert odds.attacker_wins == pytest.approx(float(win))
    assert odds.naval["defender_ship_sunk"] == pytest.approx(float(win))


def test_resolved_battle_reports_every_roll():
    report = resolve_battle(3, 2, dice=FixedDice([6, 5, 1, 4, 4, 6, 1]))
    assert [(r.attacker_losses, r.defender_losses) for r in report.rolls] == [(0, 2)]
    assert (report.winner, report.attackers_left, report.defenders_left) == ("attacker", 3, 0)


@pytest.mark.parametrize(
    ("kwargs", "runs"),
    [
        ({"attackers": 5, "defenders": 4}, 20_000),
        ({"attackers": 6, "defenders": 5, "mode": "committed", "reserves": 2}, 10_000),
        ({"attackers": None, "defenders": 5, "mode": "flanking", "flanks": [3, 3]}, 10_000),
        ({"attackers": 4, "defenders": 3, "naval": True}, 10_000),
    ],
)
def test_seeded_simulations_land_within_three_standard_errors(kwargs, runs):
    attackers = kwargs.pop("attackers")
    defenders = kwargs.pop("defenders")
    exact = battle_odds(attackers, defenders, **kwargs)
    dice = RandomDice(1944)
    reports = [resolve_battle(attackers, defenders, dice=dice, **kwargs) for _ in range(runs)]
    p = exact.attacker_wins
    observed = sum(r.winner == "attacker" for r in reports) / runs
    assert abs(observed - p) <= 3 * sqrt(p * (1 - p) / runs)
    mean_captures = sum(r.captured for r in reports) / runs
    assert abs(mean_captures - exact.expected_captures) <= 0.05 + 3 * sqrt(1 / runs)


@settings(max_examples=60, deadline=None)
@given(a=st.integers(1, 25), d=st.integers(1, 25), mode=st.sampled_from(["normal", "committed"]))
def test_probabilities_sum_to_one_and_more_attackers_never_hurt(a, d, mode):
    if mode == "committed" and a < 2:
        a = 2
    odds = battle_odds(a, d, mode=mode)
    assert sum(o.probability for o in odds.outcomes) == pytest.approx(1.0, abs=1e-12)
    assert odds.attacker_wins + odds.defender_wins == pytest.approx(1.0)
    if mode == "normal":
        assert battle_odds(a + 1, d).attacker_wins >= odds.attacker_wins - 1e-12


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"attackers": 0, "defenders": 3}, "attackers"),
        ({"attackers": 3, "defenders": 0}, "defenders"),
        ({"attackers": 3, "defenders": 3, "mode": "blitz"}, "mode"),
        ({"attackers": 1, "defenders": 3, "mode": "committed"}, "attackers"),
        ({"attackers": 3, "defenders": 3, "mode": "flanking", "flanks": [3, 3]}, "attackers"),
        ({"attackers": None, "defenders": 3, "mode": "flanking", "flanks": [4]}, "flanks"),
        ({"attackers": 3, "defenders": 3, "reserves": 2}, "reserves"),
        ({"attackers": 3, "defenders": 3, "stop_below": 1, "mode": "committed"}, "stop_below"),
        ({"attackers": 2000, "defenders": 3}, "attackers"),
        ({"attackers": True, "defenders": 3}, "attackers"),
        ({"attackers": 3, "defenders": 3, "defender_dice": "three"}, "defender_dice"),
    ],
)
def test_bad_input_names_the_field(kwargs, field):
    with pytest.raises(CombatInputError) as caught:
        battle_odds(kwargs.pop("attackers"), kwargs.pop("defenders"), **kwargs)
    assert caught.value.field == field


def test_flanking_attackers_may_be_given_as_the_sum_of_the_flanks():
    by_sum = battle_odds(4, 1, mode="flanking", flanks=[2, 2])
    assert (
        by_sum.attacker_wins == battle_odds(None, 1, mode="flanking", flanks=[2, 2]).attacker_wins
    )
