"""Rule-book scenarios: "Naval Battles" and "Sinking and Capturing Ships".

Each test quotes the sentence of the rule text (or design.md section 5) it checks. Every die is
stated with ``FixedDice``: a roll rolls the attacker's dice then the defender's; after a total
defeat the defeated ship's die is rolled, then the other side's. The defender (bob) is already in
``turn.attacked`` so no mobilization cut is rolled, except in the mobilization tests.
"""

from __future__ import annotations

from risk.rules import legal_actions, pending_decisions
from risk.rules.actions import (
    Cruise,
    Embark,
    JoinDefence,
    NavalAttack,
    Prize,
    Retreat,
    Roll,
    Sail,
)
from risk.rules.engine import ActionSpec, Decision
from risk.rules.state import JOIN, PRIZES, ROLLING, GameState
from tests.risk.builders import act, decision_specs, make_state, of_type, refused


def sea(*, cut: bool = False, **ships: tuple[str, str, int]) -> GameState:
    """Alice's campaign; her ships are cruising (6 boat lengths each). ``ships``: id -> (owner,
    station, armies). Alice holds Japan (3); bob holds the rest of the board."""
    state = make_state(territories={"Japan": ("alice", 3)}, ships=ships)
    if not cut:
        state.turn.attacked.append("bob")
    for ship in list(state.ships.values()):
        if ship.owner == "alice":
            state, _ = act(state, Cruise("alice", ship.id), 3, 3)
    return state


def duel(alice: int, bob: int) -> GameState:
    """Alice's A1 off Japan against bob's B1 off Kamchatka, both in the Pacific."""
    return sea(A1=("alice", "Pacific:Japan", alice), B1=("bob", "Pacific:Kamchatka", bob))


# --- who may fight whom ---------------------------------------------------------------------------


def test_naval_battle_only_between_ships_in_the_same_ocean():
    """'Any one or more ships may engage any one or more other ships in the same ocean in a naval
    battle': bob's ship off the Arctic coast of Kamchatka is in another ocean than Japan's."""
    state = sea(A1=("alice", "Pacific:Japan", 4), B1=("bob", "Arctic:Kamchatka", 3))
    error = refused(state, NavalAttack("alice", ("A1",), "B1", "normal"))
    assert (error.code, error.field) == ("other-ocean", "ships")


def test_naval_battle_anywhere_in_the_same_ocean():
    """'... any one or more other ships in the same ocean': New Guinea is far from Japan but in the
    Pacific too."""
    state = sea(A1=("alice", "Pacific:Japan", 4), B1=("bob", "Pacific:New Guinea", 3))
    state, events = act(state, NavalAttack("alice", ("A1",), "B1", "normal"))
    assert state.battle is not None and state.battle.stage == ROLLING
    assert of_type(events, "naval_attack")[0]["ships"] == [["A1", 4]]


def test_own_ship_is_no_target():
    """'... engage any one or more other ships': not the player's own."""
    state = sea(A1=("alice", "Pacific:Japan", 4), A2=("alice", "Pacific:Kamchatka", 3))
    assert refused(state, NavalAttack("alice", ("A1",), "A2", "normal")).code == "target"


def test_defender_may_send_in_unattacked_ships_of_the_same_ocean():
    """'The attacker decides which enemy ships to engage, but the defender is free to send in any
    other unattacked ships in the same ocean as desired.' Bob is asked; only B2 (Pacific) may
    join, not B3 (Arctic)."""
    state = sea(
        A1=("alice", "Pacific:Japan", 6),
        B1=("bob", "Pacific:Kamchatka", 3),
        B2=("bob", "Pacific:Alaska", 2),
        B3=("bob", "Arctic:Alaska", 5),
    )
    state, _ = act(state, NavalAttack("alice", ("A1",), "B1", "normal"))
    assert state.battle.stage == JOIN
    assert pending_decisions(state) == [Decision("bob", "bob", "join_defence")]
    assert decision_specs(state, "bob") == [
        ActionSpec("join_defence", {"ships": ["B2"], "behind": {"B2": ["B1"]}})
    ]
    assert refused(state, Roll("alice"), 6, 6, 6, 1, 1).code == "not-your-turn"
    error = refused(state, JoinDefence("bob", ("B3",)))
    assert (error.code, error.field) == ("ships", "ships")
    state, events = act(state, JoinDefence("bob", ("B2",)))
    assert (state.battle.defending_ships, state.battle.stage) == (["B1", "B2"], ROLLING)
    assert of_type(events, "defence_joined")[0]["ships"] == ["B2"]


def test_defender_may_keep_its_other_ships_out():
    """'... the defender is free to send in any other unattacked ships ... as desired': sending
    none is a choice too."""
    state = sea(
        A1=("alice", "Pacific:Japan", 6),
        B1=("bob", "Pacific:Kamchatka", 3),
        B2=("bob", "Pacific:Alaska", 2),
    )
    state, _ = act(state, NavalAttack("alice", ("A1",), "B1", "normal"))
    state, _ = act(state, JoinDefence("bob", ()))
    assert (state.battle.defending_ships, state.battle.stage) == (["B1"], ROLLING)


def test_joined_ships_fight_behind_the_attacked_ship():
    """'... send in any other unattacked ships': their armies fight with the attacked ship's. A1
    (6) rolls 3 dice against 2 (B1 1 + B2 2 = 3 armies). 6 5 1 v 6 1 is one each: B1's last army
    falls first, and B1, emptied, is a prize at once ('Total defeat of a defending ship gives the
    attacker the option ...') while B2 fights on; alice lets her sink. Then 6 2 1 v 5 3, one
    each again, comes off B2."""
    state = sea(
        A1=("alice", "Pacific:Japan", 6),
        B1=("bob", "Pacific:Kamchatka", 1),
        B2=("bob", "Pacific:Alaska", 2),
    )
    state, _ = act(state, NavalAttack("alice", ("A1",), "B1", "normal"))
    state, _ = act(state, JoinDefence("bob", ("B2",)))
    state, _ = act(state, Roll("alice"), 6, 5, 1, 6, 1)
    assert (state.ships["B1"].armies, state.ships["B2"].armies) == (0, 2)
    assert (state.battle.stage, state.battle.prizes) == (PRIZES, ["B1"])
    state, _ = act(state, Prize("alice", "B1"))
    assert "B1" not in state.ships and state.battle.stage == ROLLING
    state, _ = act(state, Roll("alice"), 6, 2, 1, 5, 3)
    assert state.ships["B2"].armies == 1
    assert state.battle.flanks[0].standing == 4


# --- normal, committed and flanking engagements ---------------------------------------------------


def test_normal_naval_attack_rolls_three_against_two():
    """'This may be a normal attack, a committed attack, or a flanking attack': normal is 'as in
    normal Risk, i.e., the attacker rolls up to three dice, and the defender rolls up to two
    dice, ties going to the defender'. A1's whole crew of 5 fights; 6 2 1 v 4 3 is one each."""
    state = duel(5, 3)
    state, _ = act(state, NavalAttack("alice", ("A1",), "B1", "normal"))
    assert state.ships["A1"].armies == 0 and state.battle.flanks[0].standing == 5
    state, events = act(state, Roll("alice"), 6, 2, 1, 4, 3)
    roll = of_type(events, "roll")[0]
    assert (roll["attacker"], roll["defender"]) == ([6, 2, 1], [4, 3])
    assert (state.battle.flanks[0].standing, state.ships["B1"].armies) == (4, 2)
    assert "attacker_sink_roll" not in roll and "defender_sink_roll" not in roll


def test_normal_naval_attack_may_be_broken_off():
    """'Normal battles are conducted as in normal Risk': the attacker may stop; the crew goes back
    aboard and the cruise ends without another."""
    state = duel(5, 3)
    state, _ = act(state, NavalAttack("alice", ("A1",), "B1", "normal"))
    state, _ = act(state, Roll("alice"), 6, 2, 1, 4, 3)
    state, _ = act(state, Retreat("alice"))
    assert state.battle is None
    assert (state.ships["A1"].armies, state.ships["A1"].cruises) == (4, 0)


def test_committed_naval_attack_defender_rolls_one_fewer():
    """'In a committed attack ... The defender rolls one less number of dice.' A1 (6) commits 4
    against B1 (5): 4 dice v 3; 6 6 1 1 v 5 5 5 is two for one. A committed attack is won or
    lost, never broken off."""
    state = duel(6, 5)
    state, _ = act(state, NavalAttack("alice", ("A1",), "B1", "committed", armies=4))
    assert state.ships["A1"].armies == 2
    state, events = act(state, Roll("alice"), 6, 6, 1, 1, 5, 5, 5)
    roll = of_type(events, "roll")[0]
    assert (len(roll["attacker"]), len(roll["defender"])) == (4, 3)
    assert (state.battle.flanks[0].standing, state.ships["B1"].armies) == (3, 3)
    assert refused(state, Retreat("alice")).code == "committed"


def test_committed_naval_attack_commits_two_to_the_crew():
    """'In a committed attack, the attacker "selects" how many armies they will "commit"' (design
    .md: two or more; a ship commits only armies it has aboard)."""
    state = duel(4, 3)
    for armies in (1, 5):
        error = refused(state, NavalAttack("alice", ("A1",), "B1", "committed", armies=armies))
        assert (error.code, error.field) == ("armies", "armies")


def test_flanking_naval_attack_needs_two_ships():
    """'... or a flanking attack (if two or more ships are available).'"""
    state = duel(4, 3)
    error = refused(state, NavalAttack("alice", ("A1",), "B1", "flanking", armies=2))
    assert (error.code, error.field) == ("flanks", "ships")


def test_flanking_naval_attack_with_two_ships_of_equal_commitment():
    """'A ship may make a concentrated attack against one other ship, or a flanking attack with two
    or more'; flanks are 'initially of equal size'. A1 and A2 each commit 2 against B1 (4):
    the first roll, A1's 5 3 v 5, gets +1 on the 5 (6 v 5) and captures one of bob's armies.
    B1 still has armies after that total defeat, so both sides roll: 4 v 4, a tie, B1 survives."""
    state = sea(
        A1=("alice", "Pacific:Japan", 4),
        A2=("alice", "Pacific:Mongolia", 3),
        B1=("bob", "Pacific:Kamchatka", 4),
    )
    state, _ = act(state, NavalAttack("alice", ("A1", "A2"), "B1", "flanking", armies=2))
    assert [(f.source, f.standing) for f in state.battle.flanks] == [("A1", 2), ("A2", 2)]
    assert (state.ships["A1"].armies, state.ships["A2"].armies) == (2, 1)
    state, events = act(state, Roll("alice"), 5, 3, 5, 4, 4)
    roll = of_type(events, "roll")[0]
    assert (roll["attacker"], roll["captured"], roll["defender_sink_roll"]) == ([6, 3], 1, [4, 4])
    assert state.ships["B1"].armies == 3
    assert state.battle.flanks[0].captured == 1 and state.battle.next_flank == 1


def test_flanking_naval_ships_commit_equal_numbers():
    """Flanks are 'initially of equal size': committing each ship's whole (unequal) crew is
    refused."""
    state = sea(
        A1=("alice", "Pacific:Japan", 4),
        A2=("alice", "Pacific:Mongolia", 3),
        B1=("bob", "Pacific:Kamchatka", 4),
    )
    error = refused(state, NavalAttack("alice", ("A1", "A2"), "B1", "flanking"))
    assert (error.code, error.field) == ("unequal-flanks", "armies")


# --- the total-defeat sink roll -------------------------------------------------------------------


def test_defending_ship_total_defeat_then_lower_roll_sinks():
    """'In any engagement, as attacker or defender, if a ship suffers a "total defeat" (loses all
    die rolls) ... both sides roll a die and if the defeated ship gets a lower roll, the ship
    immediately sinks.' B1 (3) loses both dice (6 6 1 v 2 2), then rolls 2 against A1's 5: it
    sinks with its last army; the battle is won and A1 may cruise again."""
    state = duel(4, 3)
    state, _ = act(state, NavalAttack("alice", ("A1",), "B1", "normal"))
    state, events = act(state, Roll("alice"), 6, 6, 1, 2, 2, 2, 5)
    assert of_type(events, "roll")[0]["defender_sink_roll"] == [2, 5]
    assert "B1" not in state.ships
    assert of_type(events, "ship_sunk") == [
        {"type": "ship_sunk", "ship": "B1", "owner": "bob", "armies": 1}
    ]
    assert state.battle is None
    assert (state.ships["A1"].armies, state.ships["A1"].cruises) == (4, 1)


def test_defending_ship_total_defeat_tie_or_higher_roll_survives():
    """'... if the defeated ship gets a lower roll, the ship immediately sinks' (design.md: 'ties:
    the ship survives'). 6 6 1 v 2 2, then 4 v 4; a higher die (6 v 1) survives too."""
    state = duel(4, 3)
    state, _ = act(state, NavalAttack("alice", ("A1",), "B1", "normal"))
    for sink_roll in ([4, 4], [6, 1]):
        after, events = act(state, Roll("alice"), 6, 6, 1, 2, 2, *sink_roll)
        assert of_type(events, "roll")[0]["defender_sink_roll"] == sink_roll
        assert after.ships["B1"].armies == 1 and after.battle.stage == ROLLING


def test_attacking_ship_total_defeat_then_lower_roll_sinks():
    """'In any engagement, as attacker or defender ...': A1 (4) loses both dice (2 2 1 v 5 5), then
    rolls 3 against B1's 4 and sinks with its whole crew; the attack is lost."""
    state = duel(4, 3)
    state, _ = act(state, NavalAttack("alice", ("A1",), "B1", "normal"))
    state, events = act(state, Roll("alice"), 2, 2, 1, 5, 5, 3, 4)
    assert of_type(events, "roll")[0]["attacker_sink_roll"] == [3, 4]
    assert "A1" not in state.ships
    assert state.battle is None and state.ships["B1"].armies == 3
    assert of_type(events, "battle_lost")[0]["target"] == "B1"


def test_attacking_ship_total_defeat_tie_survives():
    """'... if the defeated ship gets a lower roll, the ship immediately sinks': 2 2 1 v 5 5, then
    3 v 3 -- A1 fights on with 2."""
    state = duel(4, 3)
    state, _ = act(state, NavalAttack("alice", ("A1",), "B1", "normal"))
    state, events = act(state, Roll("alice"), 2, 2, 1, 5, 5, 3, 3)
    assert of_type(events, "roll")[0]["attacker_sink_roll"] == [3, 3]
    assert state.battle.flanks[0].standing == 2 and "A1" in state.ships


def test_attacking_ship_sunk_by_the_roll_takes_its_reserve_down():
    """'... the ship immediately sinks': a committed ship sinks with the armies it kept aboard. A1
    (5) commits 2 against B1 (3): 1 1 v 6 is a total defeat, then 1 v 2."""
    state = duel(5, 3)
    state, _ = act(state, NavalAttack("alice", ("A1",), "B1", "committed", armies=2))
    state, events = act(state, Roll("alice"), 1, 1, 6, 1, 2)
    assert "A1" not in state.ships
    assert of_type(events, "ship_sunk") == [
        {"type": "ship_sunk", "ship": "A1", "owner": "alice", "armies": 3}
    ]


# --- sinking and capturing ------------------------------------------------------------------------


def _emptied(alice: int = 4) -> GameState:
    """A1 empties B1 (1): 6 5 4 v 3; B1's last army fell, so no sink roll: B1 is a prize."""
    state = duel(alice, 1)
    state, _ = act(state, NavalAttack("alice", ("A1",), "B1", "normal"))
    state, _ = act(state, Roll("alice"), *[6, 5, 4][: min(alice, 3)], 3)
    return state


def test_emptied_enemy_ship_is_a_prize_to_board_or_sink():
    """'Total defeat of a defending ship gives the attacker the option of letting the ship sink OR
    boarding her with one or more armies and capturing her.'"""
    state = _emptied()
    assert (state.battle.stage, state.battle.prizes) == (PRIZES, ["B1"])
    assert pending_decisions(state) == [Decision("alice", "alice", "battle:prizes")]
    assert decision_specs(state, "alice") == [
        ActionSpec("prize", {"ships": ["B1"], "boarders": {"A1": 3}})
    ]


def test_boarding_captures_the_ship_and_both_are_out_of_action():
    """'... boarding her ... and capturing her. In this case, the capturing ship is out of action
    for the rest of the turn, unable to engage other ships ..., pick up troops, or engage in
    other action.' A1 (4) boards B1 with 2."""
    state = _emptied()
    state.ships["B2"] = type(state.ships["B1"])("B2", "bob", "Pacific:Mongolia", 2)
    state, events = act(state, Prize("alice", "B1", by="A1", armies=2))
    a1, b1 = state.ships["A1"], state.ships["B1"]
    assert (b1.owner, b1.armies, a1.armies) == ("alice", 2, 2)
    assert of_type(events, "ship_captured") == [
        {"type": "ship_captured", "ship": "B1", "by": "A1", "armies": 2}
    ]
    assert state.battle is None
    assert (a1.out_of_action, b1.out_of_action, a1.cruises, b1.cruises) == (True, True, 0, 0)
    for ship in ("A1", "B1"):
        assert refused(state, Cruise("alice", ship), 1, 1).code == "out-of-action"
        assert refused(state, Embark("alice", ship, "Japan", 1)).code == "out-of-action"
        assert refused(state, Sail("alice", ship, "Pacific:Kamchatka")).code == "out-of-action"
    error = refused(state, NavalAttack("alice", ("A1",), "B2", "normal"))
    assert (error.code, error.field) == ("out-of-action", "ships")


def test_boarding_leaves_an_army_on_the_capturing_ship():
    """'... boarding her with one or more armies': the capturer keeps at least one (A1 has 4, so 1
    to 3 may board)."""
    state = _emptied()
    for armies in (0, 4):
        error = refused(state, Prize("alice", "B1", by="A1", armies=armies))
        assert (error.code, error.field) == ("armies", "armies")


def test_letting_the_prize_sink_earns_another_cruise():
    """'... the option of letting the ship sink'; 'If a cruise reaches ... a naval battle, and the
    ... battle succeeds, the ship may go on another cruise.'"""
    state = _emptied()
    state, events = act(state, Prize("alice", "B1"))
    assert "B1" not in state.ships and state.battle is None
    assert of_type(events, "battle_over") == [{"type": "battle_over", "success": True}]
    a1 = state.ships["A1"]
    assert (a1.armies, a1.cruising, a1.cruises, a1.out_of_action) == (4, False, 1, False)
    state, _ = act(state, Cruise("alice", "A1"), 2, 5)
    assert state.ships["A1"].moves == 7


def test_prize_sinks_when_no_ship_can_board():
    """'If the victorious ship has insufficient armies (less than two), the defeated ship sinks.'
    A1 with 1 army empties B1 (6 v 3): B1 sinks at once, no choice is asked."""
    state = _emptied(alice=1)
    assert "B1" not in state.ships and state.battle is None
    assert (state.ships["A1"].armies, state.ships["A1"].cruises) == (1, 1)


def test_lost_naval_battle_earns_no_cruise():
    """'... and the pick-up, landing, or battle succeeds, the ship may go on another cruise': a
    battle broken off is no success."""
    state = duel(4, 3)
    state, _ = act(state, NavalAttack("alice", ("A1",), "B1", "normal"))
    state, _ = act(state, Retreat("alice"))
    assert state.ships["A1"].cruises == 0
    assert refused(state, Cruise("alice", "A1"), 1, 1).code == "no-cruise"


# --- mobilization -------------------------------------------------------------------------------


def test_first_naval_attack_on_a_seat_gives_it_the_mobilization_bonus():
    """'... the first time any other player is attacked during a turn, that player may cut the Risk
    card deck and if they own the territory shown they may place a "mobilization bonus" of one
    rolled die worth of armies': a naval attack is an attack too. The cut (1 of 2 cards) shows
    Kamchatka, bob's: a die of 4 goes there."""
    state = sea(cut=True, A1=("alice", "Pacific:Japan", 4), B1=("bob", "Pacific:Kamchatka", 3))
    state.risk_deck.draw = ["Kamchatka", "Japan"]
    state, events = act(state, NavalAttack("alice", ("A1",), "B1", "normal"), 1, 4)
    assert of_type(events, "cut") == [
        {"type": "cut", "seat": "bob", "card": "Kamchatka", "armies": 4}
    ]
    assert state.territories["Kamchatka"].armies == 5
    assert state.turn.attacked == ["bob"] and state.battle.stage == ROLLING


def test_mobilization_bonus_only_for_the_first_attack_on_a_seat():
    """'... the first time any other player is attacked during a turn': the second naval attack on
    bob this turn cuts no card."""
    state = sea(
        cut=True,
        A1=("alice", "Pacific:Japan", 4),
        A2=("alice", "Pacific:Mongolia", 4),
        B1=("bob", "Pacific:Kamchatka", 1),
        B2=("bob", "Pacific:Alaska", 3),
    )
    state.risk_deck.draw = ["Kamchatka", "Japan"]
    state, _ = act(state, NavalAttack("alice", ("A1",), "B1", "normal"), 2)
    state, _ = act(state, JoinDefence("bob", ()))
    state, _ = act(state, Roll("alice"), 6, 5, 4, 3)
    state, _ = act(state, Prize("alice", "B1"))
    state, events = act(state, NavalAttack("alice", ("A2",), "B2", "normal"))
    assert of_type(events, "cut") == [] and state.battle.stage == ROLLING


# --- several targets in one naval battle ----------------------------------------------------------


def test_two_ships_on_two_targets_roll_each_against_its_own_pool():
    """'Each ship in an attacking fleet chooses an enemy ship to attack.' A1 and A2 (4 each) commit
    4 against B1 (1) and B2 (3). The defender rolls one fewer than the commitment, but only
    from the engagement's own pool: B1 rolls 1 die (6 5 4 3 v 2) and is emptied, a prize while
    A2 still fights; alice lets her sink. Then B2 rolls 3 dice (6 6 6 1 v 5 5 5), is emptied
    too and sunk: both engagements are won, both ships earn another cruise."""
    state = sea(
        A1=("alice", "Pacific:Japan", 4),
        A2=("alice", "Pacific:Mongolia", 4),
        B1=("bob", "Pacific:Kamchatka", 1),
        B2=("bob", "Pacific:Alaska", 3),
    )
    attack = NavalAttack("alice", ("A1", "A2"), "B1", "committed", 4, targets=("B1", "B2"))
    state, events = act(state, attack)
    assert of_type(events, "naval_attack")[0]["targets"] == ["B1", "B2"]
    assert [(f.source, f.target, f.standing) for f in state.battle.flanks] == [
        ("A1", "B1", 4),
        ("A2", "B2", 4),
    ]
    state, events = act(state, Roll("alice"), 6, 5, 4, 3, 2)
    roll = of_type(events, "roll")[0]
    assert (roll["target"], roll["attacker"], roll["defender"]) == ("B1", [6, 5, 4, 3], [2])
    assert of_type(events, "battle_won") == [
        {"type": "battle_won", "target": "B1", "prizes": ["B1"]}
    ]
    assert (state.battle.stage, state.battle.prizes, state.battle.decided) == (
        PRIZES,
        ["B1"],
        {"B1": "won"},
    )
    assert (state.ships["A1"].armies, state.battle.flanks[1].standing) == (4, 4)
    state, _ = act(state, Prize("alice", "B1"))
    assert "B1" not in state.ships and state.battle.stage == ROLLING
    assert state.battle.next_flank == 1
    state, events = act(state, Roll("alice"), 6, 6, 6, 1, 5, 5, 5)
    roll = of_type(events, "roll")[0]
    assert (roll["target"], roll["defender"], roll["defender_losses"]) == ("B2", [5, 5, 5], 3)
    state, events = act(state, Prize("alice", "B2"))
    assert state.battle is None and "B2" not in state.ships
    assert of_type(events, "battle_over") == [{"type": "battle_over", "success": True}]
    assert [(state.ships[s].armies, state.ships[s].cruises) for s in ("A1", "A2")] == [
        (4, 1),
        (4, 1),
    ]


def test_flanking_pair_on_one_target_and_a_third_ship_alone_on_another():
    """'This may be a normal attack, a committed attack, or a flanking attack (if two or more ships
    are available)'; 'If only one flank remains, the battle reverts to a committed attack and
    the attacker loses the plus one advantage'. A1 and A2 flank B1 (4), A3 attacks B2 (2) alone
    in the same flanking action: all commit 2. A1's 5 3 v 5 gets +1 (6 v 5) and captures one
    of B1's armies (B1 survives its sink roll, 4 v 4). A2's 2 1 v 6 is a total defeat: A2
    survives its sink roll (3 v 3). A3, alone on B2, rolls as a committed ship: 3 3 v 3 is
    a tie, no +1, so B2 wins; A3 sinks on 1 v 6 with its army aboard. B2's engagement is lost;
    B1's fights on, A1 next."""
    state = sea(
        A1=("alice", "Pacific:Japan", 3),
        A2=("alice", "Pacific:Mongolia", 3),
        A3=("alice", "Pacific:China", 3),
        B1=("bob", "Pacific:Kamchatka", 4),
        B2=("bob", "Pacific:Alaska", 2),
    )
    attack = NavalAttack(
        "alice", ("A1", "A2", "A3"), "B1", "flanking", 2, targets=("B1", "B1", "B2")
    )
    state, _ = act(state, attack)
    state, events = act(state, Roll("alice"), 5, 3, 5, 4, 4)
    roll = of_type(events, "roll")[0]
    assert (roll["attacker"], roll["captured"], roll["defender_sink_roll"]) == ([6, 3], 1, [4, 4])
    assert state.ships["B1"].armies == 3 and state.battle.flanks[0].captured == 1
    state, events = act(state, Roll("alice"), 2, 1, 6, 3, 3)
    roll = of_type(events, "roll")[0]
    assert (roll["flank"], roll["attacker_sink_roll"]) == (1, [3, 3])
    assert state.battle.flanks[1].standing == 1
    state, events = act(state, Roll("alice"), 3, 3, 3, 1, 6)
    roll = of_type(events, "roll")[0]
    assert (roll["flank"], roll["target"], roll["attacker"], roll["captured"]) == (
        2,
        "B2",
        [3, 3],
        0,
    )
    assert (roll["defender"], roll["attacker_sink_roll"]) == ([3], [1, 6])
    assert of_type(events, "ship_sunk") == [
        {"type": "ship_sunk", "ship": "A3", "owner": "alice", "armies": 1}
    ]
    assert of_type(events, "battle_lost") == [
        {"type": "battle_lost", "target": "B2", "mode": "flanking"}
    ]
    assert state.battle.decided == {"B2": "lost"} and state.ships["B2"].armies == 2
    assert (state.battle.stage, state.battle.next_flank) == (ROLLING, 0)


def test_flanking_needs_two_ships_on_one_target():
    """'... or a flanking attack (if two or more ships are available)': two ships on two targets
    are no flank; and 'A ship may make a concentrated attack against one other ship': a normal
    or committed attack has one ship on each target."""
    state = sea(
        A1=("alice", "Pacific:Japan", 3),
        A2=("alice", "Pacific:Mongolia", 3),
        B1=("bob", "Pacific:Kamchatka", 4),
        B2=("bob", "Pacific:Alaska", 2),
    )
    apart = NavalAttack("alice", ("A1", "A2"), "B1", "flanking", 2, targets=("B1", "B2"))
    assert (refused(state, apart).code, refused(state, apart).field) == ("flanks", "ships")
    for mode in ("normal", "committed"):
        together = NavalAttack("alice", ("A1", "A2"), "B1", mode, 2, targets=("B1", "B1"))
        error = refused(state, together)
        assert (error.code, error.field) == ("flanks", "ships")


def test_defender_joins_only_unattacked_ships_and_backs_a_chosen_target():
    """'The attacker decides which enemy ships to engage, but the defender is free to send in any
    other unattacked ships in the same ocean as desired.' A1 (4) attacks B1 (2), A2 (4) attacks
    B2 (1); B3 (2) may join, B4 (Arctic) may not, attacked B2 may not 'join' again. B3 backs B2.
    A1's roll meets B1's 2 dice only (6 1 1 v 5 2, one each); A2's 6 6 6 v 1 1 takes B2's last
    army, then one of B3's: B2 is a prize at once while B3 and B1 fight on."""
    state = sea(
        A1=("alice", "Pacific:Japan", 4),
        A2=("alice", "Pacific:Mongolia", 4),
        B1=("bob", "Pacific:Kamchatka", 2),
        B2=("bob", "Pacific:Alaska", 1),
        B3=("bob", "Pacific:Peru", 2),
        B4=("bob", "Arctic:Alaska", 5),
    )
    state, _ = act(state, NavalAttack("alice", ("A1", "A2"), "B1", "normal", targets=("B1", "B2")))
    assert state.battle.stage == JOIN
    assert decision_specs(state, "bob") == [
        ActionSpec("join_defence", {"ships": ["B3"], "behind": {"B3": ["B1", "B2"]}})
    ]
    for ships, behind in ((("B2",), ()), (("B4",), ())):
        error = refused(state, JoinDefence("bob", ships, behind))
        assert (error.code, error.field) == ("ships", "ships")
    for behind in (("B1", "B2"), ("B3",), ("B4",)):
        error = refused(state, JoinDefence("bob", ("B3",), behind))
        assert (error.code, error.field) == ("behind", "behind")
    state, events = act(state, JoinDefence("bob", ("B3",), ("B2",)))
    assert of_type(events, "defence_joined")[0]["behind"] == ["B2"]
    assert (state.battle.defending_ships, state.battle.support) == (
        ["B1", "B2", "B3"],
        {"B3": "B2"},
    )
    state, events = act(state, Roll("alice"), 6, 1, 1, 5, 2)
    assert of_type(events, "roll")[0]["defender"] == [5, 2]
    assert (state.ships["B1"].armies, state.battle.flanks[0].standing) == (1, 3)
    state, events = act(state, Roll("alice"), 6, 6, 6, 1, 1)
    roll = of_type(events, "roll")[0]
    assert roll["target"] == "B2" and "defender_sink_roll" not in roll
    assert [state.ships[s].armies for s in ("B1", "B2", "B3")] == [1, 0, 1]
    assert (state.battle.stage, state.battle.prizes, state.battle.decided) == (PRIZES, ["B2"], {})
    assert of_type(events, "battle_won") == []


def test_boarding_from_a_ship_still_fighting_and_the_prize_spec_ranges():
    """'If multiple ships are attacking, one of them must decide to capture, the others are free
    to continue action'; 'the capturing ship is out of action for the rest of the turn'. A1 (4)
    empties B1 (1) with 6 5 4 v 3: B1 is a prize while A2 (5) still fights B2 (3). Each
    boarder may board with all but one of its armies: A1 3, A2 (5 in its flank) 4. A2 boards
    B1 with 2: its flank goes back aboard first, it leaves its fight, and the battle is over.
    A1 won its engagement and cruises again; A2 and B1 are out of action."""
    state = sea(
        A1=("alice", "Pacific:Japan", 4),
        A2=("alice", "Pacific:Mongolia", 5),
        B1=("bob", "Pacific:Kamchatka", 1),
        B2=("bob", "Pacific:Alaska", 3),
    )
    state, _ = act(state, NavalAttack("alice", ("A1", "A2"), "B1", "normal", targets=("B1", "B2")))
    state, events = act(state, Roll("alice"), 6, 5, 4, 3)
    assert of_type(events, "battle_won") == [
        {"type": "battle_won", "target": "B1", "prizes": ["B1"]}
    ]
    assert decision_specs(state, "alice") == [
        ActionSpec("prize", {"ships": ["B1"], "boarders": {"A1": 3, "A2": 4}})
    ]
    for by, armies in (("A2", 5), ("A1", 4), ("A2", 0)):
        error = refused(state, Prize("alice", "B1", by=by, armies=armies))
        assert (error.code, error.field) == ("armies", "armies")
    state, events = act(state, Prize("alice", "B1", by="A2", armies=2))
    assert of_type(events, "ship_captured") == [
        {"type": "ship_captured", "ship": "B1", "by": "A2", "armies": 2}
    ]
    assert of_type(events, "battle_over") == [{"type": "battle_over", "success": True}]
    assert state.battle is None
    a1, a2, b1, b2 = (state.ships[s] for s in ("A1", "A2", "B1", "B2"))
    assert (a1.armies, a1.cruises, a1.out_of_action) == (4, 1, False)
    assert (a2.armies, a2.cruises, a2.out_of_action) == (3, 0, True)
    assert (b1.owner, b1.armies, b1.out_of_action) == ("alice", 2, True)
    assert (b2.owner, b2.armies) == ("bob", 3)


def test_won_engagement_earns_a_cruise_and_a_lost_one_does_not():
    """'If a cruise reaches ... a naval battle, and the ... battle succeeds, the ship may go on
    another cruise.' A1 and A2 (4 each) commit 2 against B1 (1) and B2 (3). A1 empties B1 (6 5
    v 3), which is sunk. A2 loses 1 1 v 6 (its sink roll 4 v 2 saves it), then 2 v 5: its
    block is gone, its engagement lost. A1 cruises again; A2 (2 still aboard) does not."""
    state = sea(
        A1=("alice", "Pacific:Japan", 4),
        A2=("alice", "Pacific:Mongolia", 4),
        B1=("bob", "Pacific:Kamchatka", 1),
        B2=("bob", "Pacific:Alaska", 3),
    )
    attack = NavalAttack("alice", ("A1", "A2"), "B1", "committed", 2, targets=("B1", "B2"))
    state, _ = act(state, attack)
    state, _ = act(state, Roll("alice"), 6, 5, 3)
    state, _ = act(state, Prize("alice", "B1"))
    state, events = act(state, Roll("alice"), 1, 1, 6, 4, 2)
    assert of_type(events, "roll")[0]["attacker_sink_roll"] == [4, 2]
    state, events = act(state, Roll("alice"), 2, 5)
    assert of_type(events, "battle_lost") == [
        {"type": "battle_lost", "target": "B2", "mode": "committed"}
    ]
    assert of_type(events, "battle_over") == [{"type": "battle_over", "success": True}]
    assert state.battle is None and state.ships["B2"].armies == 3
    a1, a2 = state.ships["A1"], state.ships["A2"]
    assert (a1.armies, a1.cruising, a1.cruises) == (4, False, 1)
    assert (a2.armies, a2.cruising, a2.cruises) == (2, False, 0)


def test_targets_of_two_seats_are_refused():
    """'... the defender is free to send in any other unattacked ships': a battle has one defender
    (and one mobilization cut), so A1 on bob's B1 and A2 on carol's C1 are two battles."""
    state = make_state(
        players=("alice", "bob", "carol"),
        territories={"Japan": ("alice", 3)},
        rest="bob",
        ships={
            "A1": ("alice", "Pacific:Japan", 4),
            "A2": ("alice", "Pacific:Mongolia", 4),
            "B1": ("bob", "Pacific:Kamchatka", 2),
            "C1": ("carol", "Pacific:Alaska", 2),
        },
    )
    state.turn.attacked += ["bob", "carol"]
    for ship in ("A1", "A2"):
        state, _ = act(state, Cruise("alice", ship), 3, 3)
    error = refused(state, NavalAttack("alice", ("A1", "A2"), "B1", "normal", targets=("B1", "C1")))
    assert (error.code, error.field) == ("targets", "targets")


def test_targets_must_match_the_ships_and_lead_with_target():
    """'Each ship in an attacking fleet chooses an enemy ship to attack': one target per ship, in
    order, the first being ``target``; and each ship must be in its own target's ocean ('in
    the same ocean')."""
    state = sea(
        A1=("alice", "Pacific:Japan", 4),
        A2=("alice", "Pacific:Mongolia", 4),
        B1=("bob", "Pacific:Kamchatka", 2),
        B2=("bob", "Pacific:Alaska", 2),
        B3=("bob", "Arctic:Alaska", 2),
    )
    for targets in (("B1",), ("B1", "B2", "B2"), ("B2", "B1")):
        error = refused(state, NavalAttack("alice", ("A1", "A2"), "B1", "normal", targets=targets))
        assert (error.code, error.field) == ("targets", "targets")
    error = refused(state, NavalAttack("alice", ("A1", "A2"), "B1", "normal", targets=("B1", "B3")))
    assert (error.code, error.field) == ("other-ocean", "ships")


# --- the naval_attack spec ------------------------------------------------------------------------


def _spec(state: GameState, kind: str) -> ActionSpec:
    return next(s for s in legal_actions(state, "alice") if s.type == kind)


def test_naval_attack_spec_never_offers_a_crewless_ship():
    """'Captured armies on a ship do not count as crew': A4 carries only 2 captives, so the spec
    leaves it out (apply refuses it with no-crew). The rest: every fighting ship with the enemy
    ships of its ocean (B3 is in the Arctic), its crew, and the modes some grouping allows."""
    state = sea(
        A1=("alice", "Pacific:Japan", 3),
        A2=("alice", "Pacific:Mongolia", 2),
        A3=("alice", "Pacific:China", 1),
        A4=("alice", "Pacific:Siam", 1),
        B1=("bob", "Pacific:Kamchatka", 2),
        B2=("bob", "Pacific:Alaska", 2),
        B3=("bob", "Arctic:Alaska", 2),
    )
    state.ships["A4"].armies, state.ships["A4"].captured = 0, {"bob": 2}
    assert _spec(state, "naval_attack") == ActionSpec(
        "naval_attack",
        {
            "defenders": {"bob": {s: ["B1", "B2"] for s in ("A1", "A2", "A3")}},
            "crew": {"A1": 3, "A2": 2, "A3": 1},
            "modes": {
                "normal": {"max_per_target": 1, "min_on_a_target": 1, "min_armies": 0},
                "committed": {"max_per_target": 1, "min_on_a_target": 1, "min_armies": 2},
                "flanking": {"max_per_target": None, "min_on_a_target": 2, "min_armies": 2},
            },
        },
    )
    error = refused(state, NavalAttack("alice", ("A4",), "B1", "normal"))
    assert (error.code, error.field) == ("no-crew", "ships")


def test_naval_attack_spec_lists_no_mode_that_no_grouping_allows():
    """'... or a flanking attack (if two or more ships are available)': with one ship of 1 army
    only a normal attack is possible (a commitment is 2 or more)."""
    state = sea(A1=("alice", "Pacific:Japan", 1), B1=("bob", "Pacific:Kamchatka", 2))
    options = _spec(state, "naval_attack").options
    assert options["defenders"] == {"bob": {"A1": ["B1"]}} and list(options["modes"]) == ["normal"]


def test_every_action_built_from_the_naval_attack_spec_is_legal():
    """The spec carries every choice, 'Each ship in an attacking fleet chooses an enemy ship to
    attack': a generic builder tries every grouping of the listed ships on the listed targets,
    every listed mode and every armies the rule allows; apply accepts exactly those within the
    spec's limits and refuses the rest."""
    from itertools import combinations, product

    state = sea(
        A1=("alice", "Pacific:Japan", 3),
        A2=("alice", "Pacific:Mongolia", 2),
        A3=("alice", "Pacific:China", 1),
        B1=("bob", "Pacific:Kamchatka", 2),
        B2=("bob", "Pacific:Alaska", 2),
    )
    options = _spec(state, "naval_attack").options
    accepted = 0
    for fleet in options["defenders"].values():
        for size in range(1, len(fleet) + 1):
            for ships in combinations(sorted(fleet), size):
                for targets in product(*(fleet[s] for s in ships)):
                    counts = [targets.count(t) for t in set(targets)]
                    for mode, limits in options["modes"].items():
                        top, need = limits["max_per_target"], limits["min_on_a_target"]
                        fits = max(counts) >= need and (top is None or max(counts) <= top)
                        least = min(options["crew"][s] for s in ships)
                        sizes = [0] if not limits["min_armies"] else range(2, least + 1)
                        for armies in sizes:
                            action = NavalAttack("alice", ships, targets[0], mode, armies, targets)
                            if fits:
                                act(state, action)
                                accepted += 1
                            else:
                                assert refused(state, action).code == "flanks"
    # normal: 6 single ships + 6 pairs on distinct targets; committed: A1 on either target with
    # 2 or 3, A2 with 2, A1+A2 apart with 2 (A3 has 1: none); flanking: A1+A2 together, 2 each
    assert accepted == 12 + 8 + 2


def test_sampled_naval_battles_are_legal_and_keep_the_army_ledger():
    """The sampler builds naval attacks, joins and prizes from the specs only ('Each ship in an
    attacking fleet chooses an enemy ship to attack'); every sampled action is applied, and
    after each the armies on the board are those created less those lost."""
    import random

    from combat.dice import SeededDice
    from risk.rules import apply
    from risk.rules.sampler import _naval_attack, sample_action

    seen: set[str] = set()
    for seed in range(150):
        rng = random.Random(seed)
        state = sea(
            A1=("alice", "Pacific:Japan", rng.randint(1, 6)),
            A2=("alice", "Pacific:Mongolia", rng.randint(1, 6)),
            A3=("alice", "Pacific:China", rng.randint(1, 6)),
            B1=("bob", "Pacific:Kamchatka", rng.randint(1, 5)),
            B2=("bob", "Pacific:Alaska", rng.randint(1, 5)),
            B3=("bob", "Pacific:Peru", rng.randint(1, 5)),
        )
        action = _naval_attack(state, "alice", _spec(state, "naval_attack"), rng)
        seen.add(action.mode)
        if len(set(action.targets)) > 1:
            seen.add("several targets")
        for step in range(200):
            state, _ = apply(state, action, SeededDice(f"naval-{seed}", str(step)))
            assert state.armies_on_board() == sum(state.created.values()) - sum(state.lost.values())
            if state.battle is None:
                break
            (decision,) = pending_decisions(state)
            action = sample_action(state, decision.player, rng)
            if getattr(action, "behind", ()):
                seen.add("behind")
            if getattr(action, "by", None):
                seen.add("boarded")
        assert state.battle is None
    assert seen == {"normal", "committed", "flanking", "several targets", "behind", "boarded"}


def test_a_naval_battle_saved_before_targets_loads_with_its_one_target():
    """A state saved before battles named each ship's target (no ``support``, flanks without
    ``target``) loads as a one-target battle: the flanks attack the target, joiners back it."""
    from risk.rules.state import to_dict
    from risk.rules.upcast import load_state

    state = sea(
        A1=("alice", "Pacific:Japan", 6),
        B1=("bob", "Pacific:Kamchatka", 3),
        B2=("bob", "Pacific:Alaska", 2),
    )
    state, _ = act(state, NavalAttack("alice", ("A1",), "B1", "normal"))
    state, _ = act(state, JoinDefence("bob", ("B2",)))
    data = to_dict(state)
    data["version"] = 1  # schema 1: what such a save carried
    del data["battle"]["support"], data["battle"]["decided"]
    for flank in data["battle"]["flanks"]:
        del flank["target"]
    assert load_state(data) == state
