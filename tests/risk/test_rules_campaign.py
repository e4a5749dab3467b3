"""Rule-book scenarios: "Mobilization Bonus at Start of Campaign" and "How to Campaign".

Each test quotes the sentence of the rule text (or design.md section 5) it checks. Dice are
stated in the order the engine rolls them: the cut of the Risk deck (one roll of the draw pile's
size, when it holds 2+ cards) and its die, then for each battle roll the attacker's dice and the
defender's dice (each side sorted high to low before they are compared).

The board: alice holds Alaska and Japan (10 each), both bordering bob's Kamchatka; bob also holds
Peru; the allied army ally-1 holds everything else.
"""

from __future__ import annotations

from risk.rules import Options, pending_decisions
from risk.rules.actions import Attack, EndCampaign, Mobilize, MoveIn, Retreat, Roll
from risk.rules.engine import Decision
from risk.rules.state import MOBILIZE, ROLLING, WON, GameState
from tests.risk.builders import act, make_state, of_type, refused
from tests.risk.builders import kamchatka_front as _state


def _refused(state: GameState, action, *rolls: int) -> str:
    return refused(state, action, *rolls).code


def _normal(armies: int = 9, source: str = "Alaska") -> Attack:
    return Attack("alice", "Kamchatka", "normal", ((source, armies),))


def _committed(armies: int, source: str = "Alaska") -> Attack:
    return Attack("alice", "Kamchatka", "committed", ((source, armies),))


def _flanking(*flanks: tuple[str, int]) -> Attack:
    return Attack("alice", "Kamchatka", "flanking", tuple(flanks))


# --- the mobilization bonus ----------------------------------------------------------------------


def test_cut_showing_an_owned_territory_gives_a_die_there():
    """'... the first time any other player is attacked during a turn, that player may cut the
    Risk card deck and if they own the territory shown they may place a "mobilization bonus" of
    one rolled die worth of armies': the cut (2 of 3) shows Kamchatka, bob's; a die of 4."""
    state = _state(mobilized=False, risk_draw=["Egypt", "Kamchatka", "Peru"])
    state, events = act(state, _normal(), 2, 4)
    assert state.territories["Kamchatka"].armies == 6
    assert of_type(events, "cut") == [
        {"type": "cut", "seat": "bob", "card": "Kamchatka", "armies": 4}
    ]
    assert state.risk_deck.draw == ["Egypt", "Kamchatka", "Peru"]  # restacked unchanged
    assert state.turn.attacked == ["bob"]
    assert state.battle.stage == ROLLING


def test_cut_showing_anothers_territory_gives_nothing():
    """'... and if they own the territory shown': Egypt is ally-1's, so no die for bob."""
    state = _state(mobilized=False, risk_draw=["Egypt", "Kamchatka", "Peru"])
    state, events = act(state, _normal(), 1)
    assert state.territories["Kamchatka"].armies == 2
    assert of_type(events, "cut")[0]["armies"] is None
    assert state.battle.stage == ROLLING


def test_cut_of_a_one_card_pile_needs_no_roll():
    """'... that player may cut the Risk card deck': a single card is the cut (no die for the
    position); Peru is bob's, so one die of 3 goes there."""
    state = _state(mobilized=False, risk_draw=["Peru"])
    state, _ = act(state, _normal(), 3)
    assert state.territories["Peru"].armies == 4


def test_wild_cut_gives_a_die_placed_at_the_defenders_choice():
    """'If the cut shows a wild card ... the mobilization bonus may be placed at the attacked
    player's free choice': the die (5) is rolled, bob chooses Peru."""
    state = _state(mobilized=False, risk_draw=["Egypt", "wild"])
    state, events = act(state, _normal(), 2, 5)
    assert state.battle.stage == MOBILIZE
    # bob holds no card (a public count): he is asked only where the die goes (RULES.md M3)
    assert state.battle.mobilization == {"cut": "wild", "wild_rolls": [5], "may_reveal": False}
    assert pending_decisions(state) == [Decision("bob", "bob", "mobilize")]
    assert _refused(state, Roll("alice")) == "not-your-turn"
    assert _refused(state, Mobilize("bob", wild_territories=("Alaska",))) == "wild_territories"
    assert _refused(state, Mobilize("bob")) == "wild_territories"  # the die must be placed
    state, events = act(state, Mobilize("bob", wild_territories=("Peru",)))
    assert state.territories["Peru"].armies == 6
    assert of_type(events, "mobilized")[0]["placed"] == {"Peru": 5}
    assert state.battle.stage == ROLLING


def test_revealed_hand_cards_of_owned_territories_give_a_die_each():
    """'... AND optionally reveal one or more cards from their hand showing owned territories and
    place a mobilization bonus on each': bob reveals Kamchatka (3) and Peru (6); the cards stay
    in his hand (design.md: 'cards stay in hand'). The cut missed (Egypt)."""
    hand = ["Kamchatka", "Peru", "Alaska"]
    state = _state(mobilized=False, risk_draw=["Egypt", "Iceland"], risk_hands={"bob": hand})
    state, events = act(state, _normal(), 1)
    assert state.battle.stage == MOBILIZE
    assert _refused(state, Mobilize("bob", reveal=("Alaska",))) == "reveal"  # alice's
    assert _refused(state, Mobilize("bob", reveal=("Peru", "Peru"))) == "reveal"
    state, events = act(state, Mobilize("bob", reveal=("Kamchatka", "Peru")), 3, 6)
    assert (state.territories["Kamchatka"].armies, state.territories["Peru"].armies) == (5, 7)
    assert state.seat("bob").risk_cards == hand
    assert of_type(events, "mobilized")[0]["placed"] == {"Kamchatka": 3, "Peru": 6}


def test_revealing_is_optional():
    """'... AND optionally reveal one or more cards from their hand': bob reveals none."""
    state = _state(mobilized=False, risk_draw=["Egypt", "Iceland"], risk_hands={"bob": ["Peru"]})
    state, _ = act(state, _normal(), 1)
    state, _ = act(state, Mobilize("bob"))
    assert state.territories["Peru"].armies == 1
    assert state.battle.stage == ROLLING


def test_revealed_wild_card_die_placed_at_free_choice():
    """'If ... the player holds wild cards, the mobilization bonus may be placed at the attacked
    player's free choice': a revealed wild gives a die (2) bob puts on Kamchatka."""
    state = _state(mobilized=False, risk_draw=["Egypt", "Iceland"], risk_hands={"bob": ["wild"]})
    state, _ = act(state, _normal(), 1)
    state, _ = act(state, Mobilize("bob", reveal=("wild",), wild_territories=("Kamchatka",)), 2)
    assert state.territories["Kamchatka"].armies == 4
    assert state.seat("bob").risk_cards == ["wild"]


def test_second_attack_on_the_same_player_gets_no_cut():
    """'Note that the first time any other player is attacked during a turn ...': bob's second
    defence in the turn is fought without a cut (no die rolled at the attack)."""
    state = _state(mobilized=False, risk_draw=["Egypt", "Kamchatka", "Peru"])
    state, _ = act(state, _normal(), 2, 4)
    state, _ = act(state, Retreat("alice"))
    state, events = act(state, _normal(3, "Japan"))
    assert of_type(events, "cut") == []
    assert state.territories["Kamchatka"].armies == 6
    assert state.battle.stage == ROLLING


def test_allied_army_gets_the_mobilization_bonus_too():
    """'The card-cutting bonus goes for allied armies as well ... (by the player rolling the
    defending dice in the case of an allied army)': ally-1's wild die is placed by bob, the next
    player after alice, the attacker (RULES.md M4), not by the ally's AI nor by alice."""
    state = _state(mobilized=False, risk_draw=["Peru", "wild"])
    state.territories["Kamchatka"].owner = "ally-1"
    state, events = act(state, _normal(3), 2, 4)
    assert of_type(events, "cut")[0] == {"type": "cut", "seat": "ally-1", "card": "wild",
                                         "armies": None}  # fmt: skip
    assert pending_decisions(state) == [Decision("bob", "ally-1", "mobilize")]
    assert _refused(state, Mobilize("ai:ally-1", wild_territories=("Kamchatka",))) == (
        "not-your-turn"
    )
    assert _refused(state, Mobilize("alice", wild_territories=("Kamchatka",))) == "not-your-turn"
    state, _ = act(state, Mobilize("bob", wild_territories=("Kamchatka",)))
    assert state.territories["Kamchatka"].armies == 6


def test_allied_army_defended_by_its_ai_with_the_option():
    """Option ``ally_defender="ai"`` (RULES.md M4, the earlier reading): the allied army's own
    AI, speaking as ``ai:ally-1``, places the wild die."""
    state = _state(mobilized=False, risk_draw=["Peru", "wild"])
    state.options = Options(ally_defender="ai")
    state.territories["Kamchatka"].owner = "ally-1"
    state, _ = act(state, _normal(3), 2, 4)
    assert pending_decisions(state) == [Decision("ai:ally-1", "ally-1", "mobilize")]
    state, _ = act(state, Mobilize("ai:ally-1", wild_territories=("Kamchatka",)))
    assert state.territories["Kamchatka"].armies == 6


def test_allied_army_reveals_every_eligible_card_in_public():
    """'optionally reveal one or more cards from their hand showing owned territories' — an
    allied army has no reason to hold back (the cards stay in its hand), so it reveals every
    eligible card at once, in public (RULES.md M3): nobody has to see its hand to decide. The
    cut misses (Peru, bob's); ally-1 holds Kamchatka (its own: a die of 3 there) and Japan
    (alice's: not eligible). No wild die: the battle opens at once."""
    state = _state(mobilized=False, risk_draw=["Peru", "Iceland"],
                   risk_hands={"ally-1": ["Kamchatka", "Japan"]})  # fmt: skip
    state.territories["Kamchatka"].owner = "ally-1"
    state, events = act(state, _normal(3), 1, 3)
    assert of_type(events, "revealed") == [
        {"type": "revealed", "seat": "ally-1", "cards": ["Kamchatka"], "placed": {"Kamchatka": 3},
         "wild_rolls": []}
    ]  # fmt: skip
    assert state.territories["Kamchatka"].armies == 5
    assert state.battle.stage == ROLLING


# --- normal attacks ------------------------------------------------------------------------------


def test_normal_attack_three_dice_against_two_ties_to_the_defender():
    """'Normal battles are conducted as in normal Risk, i.e., the attacker rolls up to three dice,
    and the defender rolls up to two dice, ties going to the defender': 6-5-4 against 6-3, the
    sixes tie (defender), 5 beats 3."""
    state = _state(5)
    state, _ = act(state, _normal())
    state, events = act(state, Roll("alice"), 4, 6, 5, 6, 3)
    (roll,) = of_type(events, "roll")
    assert (roll["attacker"], roll["defender"]) == ([6, 5, 4], [6, 3])
    assert (roll["attacker_losses"], roll["defender_losses"]) == (1, 1)
    assert state.territories["Kamchatka"].armies == 4
    assert state.battle.flanks[0].standing == 8
    assert state.territories["Alaska"].armies == 1  # 9 are in the battle


def test_normal_attack_defender_with_one_army_rolls_one_die():
    """'... the defender rolls up to two dice': with one army, one die; the attacker's two
    armies roll two."""
    state = _state(1)
    state, _ = act(state, _normal(2))
    state, events = act(state, Roll("alice"), 3, 2, 5)
    (roll,) = of_type(events, "roll")
    assert (roll["attacker"], roll["defender"]) == ([3, 2], [5])
    assert roll["attacker_losses"] == 1


def test_normal_attack_may_retreat():
    """'Normal battles are conducted as in normal Risk': the attacker may break off; the armies
    left go home."""
    state = _state(5)
    state, _ = act(state, _normal())
    state, _ = act(state, Roll("alice"), 1, 1, 1, 6, 6)
    state, events = act(state, Retreat("alice"))
    assert state.battle is None
    assert state.territories["Alaska"].armies == 8  # 1 stayed + 7 back
    assert state.territories["Kamchatka"].owner == "bob"
    assert of_type(events, "battle_over") == [{"type": "battle_over", "success": False}]


def test_normal_attack_moves_in_at_least_the_dice_rolled_last():
    """'Normal battles are conducted as in normal Risk': the conqueror moves in at least as many
    armies as dice in the last roll (3 here), at most all attacking armies."""
    state = _state(1)
    state, _ = act(state, _normal())
    state, events = act(state, Roll("alice"), 6, 2, 1, 3)
    assert state.battle.stage == WON
    assert _refused(state, MoveIn("alice", 2)) == "armies"
    assert _refused(state, MoveIn("alice", 10)) == "armies"
    state, events = act(state, MoveIn("alice", 3))
    assert (state.territories["Kamchatka"].owner, state.territories["Kamchatka"].armies) == (
        "alice",
        3,
    )
    assert state.territories["Alaska"].armies == 7  # 1 stayed, 6 came back
    assert state.turn.took_territory is True
    (conquered,) = of_type(events, "conquered")
    assert conquered == {"type": "conquered", "territory": "Kamchatka", "by": "alice",
                         "from": "bob", "armies": 3}  # fmt: skip


def test_normal_attack_takes_no_more_armies():
    """'Normal battles are conducted as in normal Risk': only committed blocks are reinforced."""
    state, _ = act(_state(5), _normal(3))
    assert _refused(state, Roll("alice", add=2)) == "add"


# --- committed attacks ---------------------------------------------------------------------------


def test_committed_attack_defender_rolls_one_less_every_time():
    """'For instance, if the attacker commits eight armies, the defender must roll seven, every
    time ... If the attacker loses armies and does not replace them, they roll fewer dice, but
    the defender keeps rolling the maximum.' Then 'All the committed troops are destroyed and the
    attack ends' and 'the player may take no more action from the given territory'."""
    state = _state(10)
    state.territories["Alaska"].armies = 12
    state, _ = act(state, _committed(8))
    assert state.territories["Alaska"].armies == 4
    state, events = act(state, Roll("alice"), *[1] * 8, *[6] * 7)
    (roll,) = of_type(events, "roll")
    assert (len(roll["attacker"]), len(roll["defender"]), roll["attacker_losses"]) == (8, 7, 7)
    assert state.battle.flanks[0].standing == 1
    assert state.battle.flanks[0].commitment == 8
    state, events = act(state, Roll("alice"), 1, *[6] * 7)
    (roll,) = of_type(events, "roll")
    assert (len(roll["attacker"]), len(roll["defender"])) == (1, 7)
    assert of_type(events, "battle_lost")[0]["mode"] == "committed"
    assert state.battle is None
    assert state.turn.locked == ["Alaska"]
    assert state.territories["Alaska"].armies == 4
    assert _refused(state, _committed(2)) == "locked"
    assert _refused(state, _normal(3)) == "locked"


def test_committed_attack_defender_rolls_at_most_its_armies():
    """'Both sides must roll this number of dice or the maximum number of troops they have':
    8 committed against 3 armies, the defender rolls 3."""
    state = _state(3)
    state, _ = act(state, _committed(8))
    state, events = act(state, Roll("alice"), *[1] * 8, 6, 6, 6)
    (roll,) = of_type(events, "roll")
    assert (len(roll["attacker"]), len(roll["defender"])) == (8, 3)


def test_committed_attack_reinforced_and_raised_never_lowered():
    """'The attacker may reinforce this group from reserves (in case of casualties), or increase
    it, committing more, and declare the number increased, but they may not decrease it.'
    5 committed lose 4; 4 added bring it back to 5 (the defender still rolls 4); 2 more raise the
    commitment to 7 (the defender now rolls 6)."""
    state = _state(10)
    state, _ = act(state, _committed(5))
    state, _ = act(state, Roll("alice"), *[1] * 5, *[6] * 4)
    flank = state.battle.flanks[0]
    assert (flank.standing, flank.commitment) == (1, 5)
    assert _refused(state, Roll("alice", add=5)) == "add"  # Alaska has 4 to spare
    state, events = act(state, Roll("alice", add=4), *[6] * 5, *[1] * 4)
    (roll,) = of_type(events, "roll")
    assert (len(roll["attacker"]), len(roll["defender"]), roll["defender_losses"]) == (5, 4, 4)
    assert (state.battle.flanks[0].commitment, state.territories["Alaska"].armies) == (5, 1)
    state.territories["Alaska"].armies = 3  # reserves arrive (as if by a ship): 2 to spare
    state, events = act(state, Roll("alice", add=2), *[6] * 7, *[1] * 6)
    (roll,) = of_type(events, "roll")
    assert (len(roll["attacker"]), len(roll["defender"])) == (7, 6)
    assert state.battle.flanks[0].commitment == 7
    assert state.territories["Kamchatka"].armies == 0


def test_committed_attack_cannot_be_broken_off():
    """'There are only two possible outcomes for the attacker: 1. They win ... 2. All the
    committed troops are destroyed and the attack ends.'"""
    state, _ = act(_state(5), _committed(4))
    assert _refused(state, Retreat("alice")) == "committed"


def test_committed_attack_win_moves_in_all_committed_and_possibly_more():
    """'They win and send in the committed troops and possibly more': 4 committed, 3 more from
    Alaska."""
    state = _state(2)
    state, _ = act(state, _committed(4))
    state, _ = act(state, Roll("alice"), 6, 6, 5, 5, 1, 1)
    assert state.battle.stage == WON
    assert _refused(state, MoveIn("alice", 3, "Japan")) == "source"
    assert _refused(state, MoveIn("alice", 6, "Alaska")) == "armies"  # 5 left behind, 1 stays
    state, _ = act(state, MoveIn("alice", 3, "Alaska"))
    assert (state.territories["Kamchatka"].owner, state.territories["Kamchatka"].armies) == (
        "alice",
        7,
    )
    assert state.territories["Alaska"].armies == 3


def test_committed_attack_needs_two_armies():
    """'... the attacker "selects" how many armies they will "commit" ... The defender rolls one
    less number of dice': a commitment of 1 would leave the defender no die."""
    assert _refused(_state(2), _committed(1)) == "armies"


def test_committed_attack_source_keeps_an_army():
    """'... the maximum number of troops they have': the source territory stays held."""
    assert _refused(_state(2), _committed(10)) == "armies"


# --- flanking attacks ----------------------------------------------------------------------------


def test_flanking_plus_one_turns_a_tie_and_total_defeat_captures():
    """'Ties still go to the defender, but the attacker may add one to any one die in a roll. If
    the defender suffers a total defeat on a dice roll then one of their defeated armies is
    captured by the attacking flank.' 5-3-2 against 5-1: the 5 becomes 6 and both comparisons
    go to the attacker; one of the two defeated armies is captured."""
    state = _state(6)
    state, _ = act(state, _flanking(("Alaska", 3), ("Japan", 3)))
    state, events = act(state, Roll("alice"), 5, 3, 2, 5, 1)
    (roll,) = of_type(events, "roll")
    assert (roll["attacker"], roll["defender"], roll["bonus_die"]) == ([6, 3, 2], [5, 1], 0)
    assert (roll["attacker_losses"], roll["defender_losses"], roll["captured"]) == (0, 2, 1)
    assert state.territories["Kamchatka"].armies == 4
    assert [(f.standing, f.captured) for f in state.battle.flanks] == [(3, 1), (3, 0)]
    assert state.battle.next_flank == 1  # the flanks take turns


def test_flanking_win_moves_all_flanks_in_captured_stay_and_convert_at_end():
    """'If the attacker wins, all committed armies from all flanks (but not captured
    armies--they remain behind) move into the captured territory' and at the end of the turn
    'Replace any and all captured army tokens with tokens of player's own color'."""
    state = _state(2)
    state, _ = act(state, _flanking(("Alaska", 3), ("Japan", 3)))
    state, _ = act(state, Roll("alice"), 5, 3, 2, 5, 1)
    assert state.battle.stage == WON
    state, _ = act(state, MoveIn("alice", 0))
    assert (state.territories["Kamchatka"].owner, state.territories["Kamchatka"].armies) == (
        "alice",
        6,
    )
    assert (state.territories["Alaska"].armies, state.territories["Alaska"].captured) == (
        7,
        {"bob": 1},
    )
    assert state.territories["Japan"].armies == 7
    state, events = act(state, EndCampaign("alice"))
    assert (state.territories["Alaska"].armies, state.territories["Alaska"].captured) == (8, {})
    assert of_type(events, "campaign_ended")[0]["converted"] == 1


def test_flanks_may_come_from_one_territory():
    """'Flanks may include multiple separate bordering territories': or two blocks from one."""
    state, _ = act(_state(4), _flanking(("Alaska", 3), ("Alaska", 3)))
    assert state.territories["Alaska"].armies == 4
    assert [f.standing for f in state.battle.flanks] == [3, 3]
    assert _refused(_state(4), _flanking(("Alaska", 5), ("Alaska", 5))) == "armies"


def test_flanks_start_equal_in_size():
    """'... the attacker commits two separate blocks of troops (initially of equal size)'."""
    assert _refused(_state(4), _flanking(("Alaska", 3), ("Japan", 2))) == "unequal-flanks"


def test_flanking_needs_two_flanks():
    """'... the attacker commits two separate blocks of troops ... or "flanks"'."""
    assert _refused(_state(4), _flanking(("Alaska", 3))) == "flanks"


def test_flanks_only_from_bordering_territories():
    """'Flanks may include multiple separate bordering territories': Peru does not border."""
    state = _state(4)
    state.territories["Brazil"].owner = "alice"
    state.territories["Brazil"].armies = 5
    assert _refused(state, _flanking(("Alaska", 3), ("Brazil", 3))) == "not-adjacent"


def test_one_flank_left_reverts_to_committed_no_plus_one_no_capture():
    """'If only one flank remains, the battle reverts to a committed attack and the attacker
    loses the plus one advantage and the ability to capture enemy armies.' Alaska's flank is
    destroyed; Japan's, reinforced to 3, rolls the 5-3-2 against 5-1 that won both with the +1:
    now the tie goes to the defender and the total defeat of the next roll captures nothing."""
    state = _state(9)
    state, _ = act(state, _flanking(("Alaska", 3), ("Japan", 3)))
    state, _ = act(state, Roll("alice"), 1, 1, 1, 6, 6)  # Alaska's flank: 1 left
    state, _ = act(state, Roll("alice"), 1, 1, 1, 6, 6)  # Japan's flank: 1 left
    state, _ = act(state, Roll("alice"), 1, 6, 6)  # Alaska's flank destroyed
    assert [f.out for f in state.battle.flanks] == [True, False]
    state, events = act(state, Roll("alice", add=2), 5, 3, 2, 5, 1)
    (roll,) = of_type(events, "roll")
    assert (roll["attacker"], roll["bonus_die"]) == ([5, 3, 2], None)
    assert (roll["attacker_losses"], roll["defender_losses"], roll["captured"]) == (1, 1, 0)
    state, events = act(state, Roll("alice"), 6, 6, 5, 1)
    (roll,) = of_type(events, "roll")
    assert (roll["attacker_losses"], roll["defender_losses"], roll["captured"]) == (0, 2, 0)
    assert state.territories["Kamchatka"].armies == 6
    assert [f.captured for f in state.battle.flanks] == [0, 0]


def test_failed_flanking_attack_locks_every_flank_source():
    """'If a committed attack fails, the player may take no more action from the given
    territory' -- a flanking attack is 'similar to a committed attack': both sources lock."""
    state = _state(9)
    state, _ = act(state, _flanking(("Alaska", 2), ("Japan", 2)))
    state, _ = act(state, Roll("alice"), 1, 1, 6)
    state, _ = act(state, Roll("alice"), 1, 1, 6)
    state, _ = act(state, Roll("alice"), 1, 6)
    state, events = act(state, Roll("alice"), 1, 6)
    assert of_type(events, "battle_lost")
    assert sorted(state.turn.locked) == ["Alaska", "Japan"]
    assert (state.territories["Alaska"].armies, state.territories["Japan"].armies) == (8, 8)


def test_captured_armies_stay_behind_when_their_flank_falls():
    """'... one of their defeated armies is captured by the attacking flank' and captured armies
    'remain behind': Alaska's flank captures one, then is destroyed; the captive stays at
    Alaska."""
    state = _state(9)
    state, _ = act(state, _flanking(("Alaska", 2), ("Japan", 2)))
    state, _ = act(
        state, Roll("alice"), 4, 1, 3
    )  # Alaska's flank: 4 beats 3, a total defeat: captures 1
    assert state.battle.flanks[0].captured == 1
    state, _ = act(state, Roll("alice"), 1, 1, 6)  # Japan's flank loses 1
    state, _ = act(state, Roll("alice"), 1, 1, 6)  # Alaska's flank loses 1
    state, _ = act(state, Roll("alice"), 1, 6)  # Japan's flank is destroyed
    state, _ = act(state, Roll("alice"), 1, 6)  # Alaska's flank is destroyed
    assert state.battle is None
    assert state.territories["Alaska"].captured == {"bob": 1}
    assert state.territories["Kamchatka"].armies == 8


# --- conquest and elimination --------------------------------------------------------------------


def _last_stand(**kwargs) -> GameState:
    """bob's last territory is Kamchatka (1 army); carol plays on; ally-1 holds the rest."""
    state = make_state(
        players=("alice", "bob", "carol"),
        allies=("ally-1",),
        territories={"Alaska": ("alice", 10), "Kamchatka": ("bob", 1), "Peru": ("carol", 3)},
        risk_hands={"alice": ["Egypt"], "bob": ["Peru", "wild"]},
        poker_hands={"alice": ["2c"], "bob": ["Ah", "Qh"]},
        **kwargs,
    )
    state.turn.attacked.append("bob")
    return state


def test_defender_with_no_territory_and_no_ship_is_eliminated_its_cards_to_the_conqueror():
    """design.md: 'Eliminating a player gives the victor its cards' ('if the new allied army is
    completely defeated by another player', its poker cards may be seized)."""
    state = _last_stand()
    state, _ = act(state, _normal(3))
    state, _ = act(state, Roll("alice"), 6, 5, 4, 1)
    state, events = act(state, MoveIn("alice", 3))
    (gone,) = of_type(events, "eliminated")
    assert (gone["seat"], gone["by"], gone["risk_cards"], gone["poker_cards"]) == (
        "bob",
        "alice",
        2,
        2,
    )
    assert state.seat("bob").alive is False
    assert state.seat("alice").risk_cards == ["Egypt", "Peru", "wild"]
    assert state.seat("alice").poker_cards == ["2c", "Ah", "Qh"]
    assert (state.seat("bob").risk_cards, state.seat("bob").poker_cards) == ([], [])
    assert not state.over and state.turn.seat == "alice"


def test_defender_with_a_ship_left_plays_on_as_a_pirate():
    """'If all of a player's land armies are destroyed, but they still have ships at sea, they
    may continue to play, effectively as a pirate.'"""
    state = _last_stand(ships={"S1": ("bob", "Atlantic:Iceland", 2)})
    state, _ = act(state, _normal(3))
    state, _ = act(state, Roll("alice"), 6, 5, 4, 1)
    state, events = act(state, MoveIn("alice", 3))
    assert of_type(events, "eliminated") == []
    assert state.seat("bob").alive is True
    assert state.seat("bob").risk_cards == ["Peru", "wild"]


def test_option_reveal_needs_cut_asks_nothing_when_the_cut_missed():
    """Option ``reveal_needs_cut`` (RULES.md M5), the other reading of "if they own the territory
    shown they may place a 'mobilization bonus' ... AND optionally reveal": the cut shows Egypt,
    which bob does not hold, so his Peru card earns nothing and the battle opens at once."""
    options = Options(reveal_needs_cut=True)
    state = _state(mobilized=False, risk_draw=["Egypt", "Iceland"], risk_hands={"bob": ["Peru"]},
                   options=options)  # fmt: skip
    state, _ = act(state, _normal(), 1)
    assert state.battle.stage == ROLLING
    assert pending_decisions(state) == [Decision("alice", "alice", "battle:rolling")]


def test_option_reveal_needs_cut_lets_a_hit_cut_open_the_hand():
    """With ``reveal_needs_cut`` a cut that hits (Peru, bob's: a die of 4) lets bob reveal his
    Kamchatka card too (a die of 2)."""
    options = Options(reveal_needs_cut=True)
    state = _state(mobilized=False, risk_draw=["Egypt", "Peru"], risk_hands={"bob": ["Kamchatka"]},
                   options=options)  # fmt: skip
    state, _ = act(state, _normal(), 2, 4)
    assert state.territories["Peru"].armies == 5
    assert state.battle.stage == MOBILIZE
    state, _ = act(state, Mobilize("bob", reveal=("Kamchatka",)), 2)
    assert state.territories["Kamchatka"].armies == 4
