"""Hints: the hard AI's choice with its reasons in words and the exact odds it used."""

from __future__ import annotations

import random

from risk.ai.hints import attack_odds, hint
from risk.rules.actions import Attack, EndCampaign
from risk.rules.bots import bot_view
from risk.rules.engine import legal_actions
from risk.rules.state import FLANKING, GameState
from tests.risk.builders import make_state


def _lone_border(alaska: int, kamchatka: int) -> GameState:
    """Alice holds every territory but Kamchatka, bob's only one; only Alaska can attack it."""
    return make_state(
        territories={"Alaska": ("alice", alaska), "Kamchatka": ("bob", kamchatka)},
        rest="alice",
    )


def _hint_for(state: GameState, player: str = "alice"):
    view = bot_view(state, player)
    return hint(view, legal_actions(view.state, player), random.Random(1))


def test_an_attack_hint_gives_its_exact_odds():
    """9 to spare against 2 in two flanks of 2: the defender rolls one die against two with the
    +1 every roll, so both its armies go (2.0 lost on average) nearly every time."""
    advice = _hint_for(_lone_border(10, 2))
    action = Attack("alice", target="Kamchatka", mode=FLANKING,
                    flanks=(("Alaska", 2), ("Alaska", 2)))  # fmt: skip
    assert advice.action == action
    odds = attack_odds(_lone_border(10, 2), action)
    assert round(odds.defender_losses, 3) == 2.0 and odds.win > 0.999
    assert advice.reasons == (
        "Attack Kamchatka (bob, 2 armies) from Alaska, flanking: by the exact odds it wins more "
        f"than 99.9% of the time, losing {odds.attacker_losses:.1f} armies on average against "
        "2.0 of the defender's (the AI attacks from 65%).",
    )


def test_ending_the_campaign_names_the_best_attack_left_and_its_odds():
    """1 to spare against 5: a one-die attack must win four rolls against two dice (55/216
    each) and one against one die (15/36): (55/216)^4 * 15/36 = 0.175%."""
    advice = _hint_for(_lone_border(2, 5))
    assert advice.action == EndCampaign("alice")
    assert advice.reasons == (
        "End the campaign: the best normal attack left, Kamchatka from Alaska, wins 0.2% by "
        "the exact odds; the AI attacks from 65%.",
    )


def test_the_hint_is_the_json_of_the_action_and_its_reasons():
    advice = _hint_for(_lone_border(2, 5))
    assert advice.to_dict() == {
        "action": {"type": "end_campaign", "player": "alice"},
        "reasons": list(advice.reasons),
    }
