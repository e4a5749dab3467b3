"""Rolling on in one action: ``Roll(until_decided=True)`` and ``Roll(until_armies=N)``.

One action rolls as many times as it takes, each roll drawn from the action's dice in turn and
logged as its own ``roll`` event, exactly as that many single ``Roll`` actions would have rolled
with the same dice. It stops at the first point the rules hand a decision back: the battle won
(the move-in), lost, or, with ``until_armies`` N, the attacker down to N or fewer armies in it.
"""

from __future__ import annotations

from risk.rules.actions import Attack, Roll
from risk.rules.notation import format_action, parse_action
from risk.rules.vocabulary import Refusal
from tests.risk.builders import act, decision_specs, kamchatka_front, of_type, refused

#: One roll of a normal attack, 3 dice against 2: the attacker's dice, then the defender's.
LOSE_TWO = (1, 1, 1, 6, 6)  # the attacker loses two armies
WIN_TWO = (6, 6, 6, 1, 1)  # the defender loses two


def _battle(armies: int = 9, kamchatka: int = 10):
    state = kamchatka_front(kamchatka)
    state, _ = act(state, Attack("alice", "Kamchatka", "normal", (("Alaska", armies),)))
    return state


def test_until_armies_stops_once_the_attacker_has_that_many_or_fewer():
    """9 attack; each roll costs 2: 7 after the first (more than 6, roll on), 5 after the
    second: stop there, the battle still rolling and the decision back with alice."""
    state, events = act(_battle(), Roll("alice", until_armies=6), *LOSE_TWO, *LOSE_TWO)
    assert [e["attacker_losses"] for e in of_type(events, "roll")] == [2, 2]
    assert state.battle is not None and state.battle.flanks[0].standing == 5
    assert [s.type for s in decision_specs(state, "alice")] == ["roll", "retreat"]
    assert decision_specs(state, "alice")[0].options["armies"] == 5


def test_until_armies_rolls_once_when_already_at_or_below_the_mark():
    state, events = act(_battle(armies=4), Roll("alice", until_armies=6), *LOSE_TWO)
    assert len(of_type(events, "roll")) == 1
    assert state.battle.flanks[0].standing == 2


def test_until_armies_stops_at_a_win_and_the_move_in_waits():
    """Kamchatka's 4 fall in two rolls: the battle is won before alice is down to 2."""
    state, events = act(_battle(kamchatka=4), Roll("alice", until_armies=2), *WIN_TWO, *WIN_TWO)
    assert len(of_type(events, "roll")) == 2 and of_type(events, "battle_won")
    assert [s.type for s in decision_specs(state, "alice")] == ["move_in"]


def test_one_action_rolls_exactly_what_single_rolls_would():
    """Same dice, same battle: one roll-on action and three single rolls end alike, roll for
    roll (the log's rolls re-derive from the seed the same way in both)."""
    dice = (*LOSE_TWO, *WIN_TWO, *LOSE_TWO)
    once, events = act(_battle(), Roll("alice", until_armies=5), *dice)
    single = _battle()
    singles = []
    for i in range(3):
        single, ev = act(single, Roll("alice"), *dice[5 * i : 5 * i + 5])
        singles += ev
    # the same rolls; only the dice counters run on within the one action (0-14, not 0-4 thrice)
    assert [_uncounted(e) for e in of_type(events, "roll")] == [
        _uncounted(e) for e in of_type(singles, "roll")
    ]
    assert [e["counters"] for e in of_type(events, "roll")] == [
        [0, 1, 2, 3, 4],
        [5, 6, 7, 8, 9],
        [10, 11, 12, 13, 14],
    ]
    assert once.battle.flanks[0].standing == single.battle.flanks[0].standing == 5
    assert once.territories["Kamchatka"].armies == single.territories["Kamchatka"].armies == 8


def _uncounted(event) -> dict:
    return {k: v for k, v in event.to_dict().items() if k != "counters"}


def test_a_negative_mark_is_refused_naming_the_field():
    error = refused(_battle(), Roll("alice", until_armies=-1))
    assert (error.code, error.field) == (Refusal.UNTIL, "until_armies")


def test_the_notation_writes_and_reads_the_mark():
    state = _battle()
    action = Roll("alice", add=2, until_armies=3)
    assert format_action(state, action) == "roll add 2 until 3 left"
    assert parse_action(state, "alice", "roll until 3 left") == Roll("alice", until_armies=3)
    both = parse_action(state, "alice", "roll until decided until 2 left")
    assert both == Roll("alice", until_decided=True, until_armies=2)
