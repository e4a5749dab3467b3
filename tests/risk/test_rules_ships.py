"""Rule-book scenarios: "Ships" ("Movement", "Ferrying Armies"), "Patrol" and "Opposed Landings".

Each test quotes the sentence of the rule text (or design.md section 5) it checks. Distances are
worked by hand from the ``sea`` lanes of risk/data/classic-risk-map.json; every die is stated with
``FixedDice`` (a cruise rolls two dice; a land roll rolls the attacker's dice, then the
defender's). Landings start with the defender already in ``turn.attacked`` so no mobilization
cut is rolled, unless a test says otherwise.
"""

from __future__ import annotations

from risk.rules.actions import (
    Attack,
    Cruise,
    Disembark,
    Embark,
    EndCampaign,
    EndCruise,
    MoveIn,
    NavalAttack,
    Place,
    Prize,
    Roll,
    Sail,
)
from risk.rules.state import CAMPAIGN, REINFORCE, ROLLING, WON, GameState
from tests.risk.builders import act, make_state, of_type, refused


def cruising(state: GameState, ship: str, *rolls: int) -> GameState:
    """``ship`` starts a cruise with these two dice."""
    state, _ = act(state, Cruise("alice", ship), *rolls)
    return state


def fleet(*ships: tuple[str, str, int], **territories: tuple[str, int]) -> GameState:
    """Alice's turn, in her campaign, with ``ships`` = (id, station, armies) all hers. Alice
    holds landlocked Ural (1) as well, so bob does not hold every territory (which would end the
    game, RULES.md J5)."""
    return make_state(
        territories={
            "Ural": ("alice", 1),
            **{k.replace("_", " "): v for k, v in territories.items()},
        },
        ships={ship_id: ("alice", station, armies) for ship_id, station, armies in ships},
    )


# --- "Movement" -----------------------------------------------------------------------------------


def test_cruise_rolls_two_dice_of_boat_lengths():
    """'A ship moves two die rolls worth of boat lengths on a cruise.'"""
    state = fleet(("A1", "Pacific:Japan", 3))
    state, events = act(state, Cruise("alice", "A1"), 3, 4)
    ship = state.ships["A1"]
    assert (ship.cruising, ship.moves, ship.cruises) == (True, 7, 0)
    assert of_type(events, "cruise") == [
        {"type": "cruise", "ship": "A1", "rolls": [3, 4], "moves": 7}
    ]


def test_sail_the_full_cruise_over_the_station_graph():
    """'A ship moves two die rolls worth of boat lengths on a cruise' (design.md: 'each ocean is a
    graph of stations ... with distances in boat lengths'). Pacific:Japan -> Kamchatka 1 ->
    Alaska 1 -> Alberta 1 -> Western United States 1 -> Central America 1, then round Central
    America into the Atlantic 1: six boat lengths, and a roll of 2 + 4 reaches it."""
    state = cruising(fleet(("A1", "Pacific:Japan", 3)), "A1", 2, 4)
    state, events = act(state, Sail("alice", "A1", "Atlantic:Central America"))
    ship = state.ships["A1"]
    assert (ship.station, ship.moves, ship.cruising) == ("Atlantic:Central America", 0, True)
    assert of_type(events, "sailed")[0]["distance"] == 6


def test_sail_one_boat_length_too_far_is_refused():
    """'A ship moves two die rolls worth of boat lengths': Japan to the Atlantic side of Central
    America is six boat lengths, a roll of 2 + 3 is one short."""
    state = cruising(fleet(("A1", "Pacific:Japan", 3)), "A1", 2, 3)
    error = refused(state, Sail("alice", "A1", "Atlantic:Central America"))
    assert (error.code, error.field) == ("out-of-range", "station")
    assert state.ships["A1"].station == "Pacific:Japan"


def test_a_cruise_may_be_sailed_in_legs():
    """'A ship moves two die rolls worth of boat lengths on a cruise': 1 + 3 = 4 boat lengths,
    spent as Japan -> Alaska (2) then Alaska -> Western United States (2); nothing is left."""
    state = cruising(fleet(("A1", "Pacific:Japan", 3)), "A1", 1, 3)
    state, _ = act(state, Sail("alice", "A1", "Pacific:Alaska"))
    assert state.ships["A1"].moves == 2
    state, _ = act(state, Sail("alice", "A1", "Pacific:Western United States"))
    assert (state.ships["A1"].station, state.ships["A1"].moves) == (
        "Pacific:Western United States",
        0,
    )
    assert refused(state, Sail("alice", "A1", "Pacific:Central America")).code == "out-of-range"


def test_two_ocean_coast_joins_its_oceans_in_one_boat_length():
    """'Central America and Argentina are connected to both the Pacific and Atlantic' (map lane
    Pacific:Central America <-> Atlantic:Central America, 1 boat length)."""
    state = cruising(fleet(("A1", "Pacific:Central America", 2)), "A1", 1, 1)
    state, events = act(state, Sail("alice", "A1", "Atlantic:Central America"))
    assert of_type(events, "sailed")[0]["distance"] == 1
    assert (state.ships["A1"].station, state.ships["A1"].moves) == ("Atlantic:Central America", 1)


def test_oceans_join_only_through_two_ocean_coasts():
    """'The separate oceans are ... the Pacific, the Atlantic ...': Western and Eastern United
    States border each other on land, but by sea the way is Pacific:Western United States ->
    Central America 1 -> round to the Atlantic 1 -> Eastern United States 1 = 3, so two boat
    lengths are not enough."""
    state = cruising(fleet(("A1", "Pacific:Western United States", 2)), "A1", 1, 1)
    assert refused(state, Sail("alice", "A1", "Atlantic:Eastern United States")).code == (
        "out-of-range"
    )
    state = cruising(fleet(("A1", "Pacific:Western United States", 2)), "A1", 1, 2)
    state, events = act(state, Sail("alice", "A1", "Atlantic:Eastern United States"))
    assert of_type(events, "sailed")[0]["distance"] == 3


def test_shortest_way_between_oceans_is_taken():
    """Routes pass between oceans at any two-ocean coast: Pacific:Peru -> Argentina 1 -> round to
    the Atlantic 1 -> Brazil 1 = 3 (through Central America it would be 2 + 1 + 1 + 1 = 5)."""
    state = cruising(fleet(("A1", "Pacific:Peru", 2)), "A1", 1, 2)
    state, _ = act(state, Sail("alice", "A1", "Atlantic:Brazil"))
    assert (state.ships["A1"].station, state.ships["A1"].moves) == ("Atlantic:Brazil", 0)


def test_a_ship_acts_only_on_a_cruise():
    """'A ship moves two die rolls worth of boat lengths on a cruise' (design.md: it acts only
    while cruising): sailing, loading, landing or engaging without a cruise is refused."""
    state = fleet(("A1", "Pacific:Japan", 3), Japan=("alice", 4))
    assert refused(state, Sail("alice", "A1", "Pacific:Kamchatka")).code == "not-cruising"
    assert refused(state, Embark("alice", "A1", "Japan", 1)).code == "not-cruising"
    landing = Attack("alice", "Kamchatka", "normal", (("A1", 2),))
    assert refused(state, landing).code == "not-cruising"
    state.ships["B1"] = type(state.ships["A1"])("B1", "bob", "Pacific:Kamchatka", 1)
    assert refused(state, NavalAttack("alice", ("A1",), "B1", "normal")).code == "not-cruising"


def test_each_ship_starts_one_cruise_per_turn():
    """'A player may take action with each of their ships at least once per turn' (design.md: one
    cruise a turn, and one more after each success): a second cruise is refused, and so is a
    cruise started while one is under way."""
    state = cruising(fleet(("A1", "Pacific:Japan", 3)), "A1", 2, 2)
    assert refused(state, Cruise("alice", "A1"), 3, 3).code == "cruising"
    state, _ = act(state, EndCruise("alice", "A1"))
    assert (state.ships["A1"].cruising, state.ships["A1"].cruises) == (False, 0)
    error = refused(state, Cruise("alice", "A1"), 3, 3)
    assert (error.code, error.field) == ("no-cruise", "ship")


def test_only_the_player_moves_their_own_ships():
    """'A player may take action with each of their ships': not with another player's."""
    state = make_state(ships={"B1": ("bob", "Pacific:Japan", 3)})
    assert refused(state, Cruise("alice", "B1"), 1, 1).code == "not-yours"


def test_pick_up_at_a_port_of_call_earns_another_cruise():
    """'If a cruise reaches a port of call (to pick up armies) ... and the pick-up ... succeeds,
    the ship may go on another cruise, proceeding to the next action with a two dice roll.'"""
    state = cruising(fleet(("A1", "Pacific:Kamchatka", 2), Japan=("alice", 5)), "A1", 1, 2)
    state, _ = act(state, Sail("alice", "A1", "Pacific:Japan"))
    state, events = act(state, Embark("alice", "A1", "Japan", 3))
    ship = state.ships["A1"]
    assert (ship.armies, state.territories["Japan"].armies) == (5, 2)
    assert (ship.cruising, ship.cruises, ship.ports) == (False, 1, ["Japan"])
    assert of_type(events, "embarked")[0]["new_cruise"] is True
    state, events = act(state, Cruise("alice", "A1"), 5, 6)
    assert (state.ships["A1"].moves, state.ships["A1"].cruises) == (11, 0)


def test_a_second_pick_up_at_the_same_port_earns_nothing():
    """'If a cruise reaches a port of call ... the ship may go on another cruise' (design.md: a
    pick-up at a port it has not used this turn): loading again where it loaded already goes on
    with the same cruise and earns no other."""
    state = cruising(fleet(("A1", "Pacific:Japan", 2), Japan=("alice", 6)), "A1", 1, 1)
    state, _ = act(state, Embark("alice", "A1", "Japan", 2))
    state = cruising(state, "A1", 1, 1)
    state, events = act(state, Embark("alice", "A1", "Japan", 1))
    ship = state.ships["A1"]
    assert (ship.armies, ship.cruising, ship.moves, ship.cruises) == (5, True, 2, 0)
    assert of_type(events, "embarked")[0]["new_cruise"] is False


def test_pick_up_at_another_port_earns_another_cruise_again():
    """'If a cruise reaches a port of call ... and the pick-up ... succeeds, the ship may go on
    another cruise': a new port of call each time."""
    state = fleet(("A1", "Pacific:Japan", 2), Japan=("alice", 4), Kamchatka=("alice", 4))
    state = cruising(state, "A1", 1, 1)
    state, _ = act(state, Embark("alice", "A1", "Japan", 1))
    state = cruising(state, "A1", 1, 1)
    state, _ = act(state, Sail("alice", "A1", "Pacific:Kamchatka"))
    state, _ = act(state, Embark("alice", "A1", "Kamchatka", 3))
    ship = state.ships["A1"]
    assert (ship.armies, ship.cruises, ship.ports) == (6, 1, ["Japan", "Kamchatka"])


# --- "Ferrying Armies" ----------------------------------------------------------------------------


def test_ferry_armies_from_one_coast_to_another_friendly_territory():
    """'A ship may pick up one or more armies from any one territory and drop them off at any
    other friendly territory, including any armies already embarked on the ship.'"""
    state = fleet(("A1", "Pacific:Japan", 2), Japan=("alice", 5), Alaska=("alice", 1))
    state = cruising(state, "A1", 1, 1)
    state, _ = act(state, Embark("alice", "A1", "Japan", 4))
    state = cruising(state, "A1", 1, 1)
    state, _ = act(state, Sail("alice", "A1", "Pacific:Alaska"))
    state, events = act(state, Disembark("alice", "A1", "Alaska", 5))
    assert state.territories["Japan"].armies == 1
    assert state.territories["Alaska"].armies == 6
    assert state.ships["A1"].armies == 1
    assert of_type(events, "disembarked") == [
        {"type": "disembarked", "ship": "A1", "territory": "Alaska", "armies": 5}
    ]


def test_load_from_own_coast_within_one_boat_length():
    """'A ship may only pick up or drop off armies to a coastal territory within one boat length
    of the ship's location': Alberta is one boat length from Pacific:Alaska."""
    state = cruising(fleet(("A1", "Pacific:Alaska", 1), Alberta=("alice", 3)), "A1", 1, 1)
    state, _ = act(state, Embark("alice", "A1", "Alberta", 2))
    assert (state.ships["A1"].armies, state.territories["Alberta"].armies) == (3, 1)
    assert state.ships["A1"].station == "Pacific:Alaska"


def test_no_loading_from_a_coast_two_boat_lengths_away():
    """'... within one boat length of the ship's location': Western United States is two boat
    lengths from Pacific:Alaska (by Alberta)."""
    state = fleet(("A1", "Pacific:Alaska", 1), Western_United_States=("alice", 3))
    state = cruising(state, "A1", 1, 1)
    error = refused(state, Embark("alice", "A1", "Western United States", 2))
    assert (error.code, error.field) == ("out-of-reach", "territory")
    error = refused(state, Disembark("alice", "A1", "Western United States", 1))
    assert error.code == "out-of-reach"


def test_no_loading_across_an_ocean_boundary():
    """'A ship may only pick up or drop off armies to a coastal territory within one boat length':
    Venezuela is an Atlantic coast only; from Pacific:Central America it is round the coast
    and one more lane away, and in another ocean."""
    state = fleet(("A1", "Pacific:Central America", 1), Venezuela=("alice", 3))
    state = cruising(state, "A1", 1, 1)
    assert refused(state, Embark("alice", "A1", "Venezuela", 1)).code == "out-of-reach"


def test_pick_up_leaves_one_army_behind():
    """'A ship may pick up one or more armies from any one territory' (design.md: a territory is
    never emptied): at most all but one."""
    state = cruising(fleet(("A1", "Pacific:Japan", 1), Japan=("alice", 3)), "A1", 1, 1)
    error = refused(state, Embark("alice", "A1", "Japan", 3))
    assert (error.code, error.field) == ("armies", "armies")


def test_ferrying_only_from_and_to_friendly_territory():
    """'A ship may pick up one or more armies from any one territory and drop them off at any
    other friendly territory': an enemy coast is neither a port of call nor a drop-off (that
    is an opposed landing)."""
    state = cruising(fleet(("A1", "Pacific:Japan", 3), Japan=("bob", 3)), "A1", 1, 1)
    assert refused(state, Embark("alice", "A1", "Japan", 1)).code == "territory"
    assert refused(state, Disembark("alice", "A1", "Japan", 1)).code == "territory"


def test_the_ship_always_keeps_one_army_aboard():
    """design.md: 'A ship always keeps at least one army aboard': dropping off the whole crew is
    refused, all but one is allowed."""
    state = cruising(fleet(("A1", "Pacific:Japan", 4), Japan=("alice", 1)), "A1", 1, 1)
    error = refused(state, Disembark("alice", "A1", "Japan", 4))
    assert (error.code, error.field) == ("armies", "armies")
    state, _ = act(state, Disembark("alice", "A1", "Japan", 3))
    assert (state.ships["A1"].armies, state.territories["Japan"].armies) == (1, 4)


def test_armies_are_never_deployed_directly_onto_a_ship():
    """'Armies may be deployed to any territory held by the player, but may not be deployed
    directly to a ship--a ship may only pick up or drop off armies ... during the player's
    turn.' A ship is no place for reinforcements, and loading waits for the campaign."""
    state = make_state(
        territories={"Japan": ("alice", 3)},
        ships={"A1": ("alice", "Pacific:Japan", 2)},
        phase=REINFORCE,
    )
    state.turn.to_place = 3
    error = refused(state, Place("alice", "A1", 3))
    assert (error.code, error.field) == ("territory", "territory")
    assert refused(state, Cruise("alice", "A1"), 1, 1).code == "place-first"
    state, _ = act(state, Place("alice", "Japan", 3))
    assert (state.territories["Japan"].armies, state.ships["A1"].armies) == (6, 2)


# --- "Patrol" -------------------------------------------------------------------------------------


def landing_state(**ships: tuple[str, str, int]) -> GameState:
    """Alice's ship A1 (5 armies) cruising off Kamchatka, bob's Japan (3) one boat length away."""
    state = make_state(
        territories={"Japan": ("bob", 3), "Kamchatka": ("alice", 5)},
        ships={"A1": ("alice", "Pacific:Kamchatka", 5), **ships},
    )
    state.turn.attacked.append("bob")
    return cruising(state, "A1", 3, 3)


def test_landing_refused_while_the_defender_patrols_the_ocean():
    """'If a player has ships in an ocean when another player tries to make an opposed landing on
    one of the player's territories, the attacking player must overcome those ships in a naval
    battle before being able to land.'"""
    state = landing_state(B1=("bob", "Pacific:New Guinea", 1))
    error = refused(state, Attack("alice", "Japan", "normal", (("A1", 2),)))
    assert (error.code, error.field) == ("patrol", "flanks")
    assert state.battle is None


def test_ships_in_another_ocean_do_not_patrol():
    """'If a player has ships in an ocean ...': bob's ship in the Arctic does not guard Japan
    against a landing from the Pacific."""
    state = landing_state(B1=("bob", "Arctic:Kamchatka", 4))
    state, events = act(state, Attack("alice", "Japan", "normal", (("A1", 2),)))
    assert state.battle is not None and state.battle.stage == ROLLING
    assert of_type(events, "attack")[0]["flanks"] == [["A1", 2]]


def test_a_third_players_ships_do_not_patrol_for_the_defender():
    """'If a player has ships in an ocean when another player tries to make an opposed landing on
    one of the player's territories': only the defender's own ships patrol."""
    state = make_state(
        players=("alice", "bob", "carol"),
        territories={"Japan": ("bob", 3), "Kamchatka": ("alice", 5)},
        ships={"A1": ("alice", "Pacific:Kamchatka", 5), "C1": ("carol", "Pacific:Japan", 6)},
    )
    state.turn.attacked.append("bob")
    state = cruising(state, "A1", 3, 3)
    state, _ = act(state, Attack("alice", "Japan", "normal", (("A1", 2),)))
    assert state.battle is not None


def test_a_land_attack_is_no_landing_and_ignores_the_patrol():
    """'... tries to make an opposed landing ...': an attack over land from Kamchatka is not a
    landing, so bob's ship off Japan does not stop it."""
    state = landing_state(B1=("bob", "Pacific:Japan", 4))
    state, _ = act(state, Attack("alice", "Japan", "normal", (("Kamchatka", 3),)))
    assert state.battle is not None and state.battle.flanks[0].ship is False


def test_patrol_beaten_in_a_naval_battle_then_landing_allowed():
    """'... the attacking player must overcome those ships in a naval battle before being able to
    land.' A1 (5) empties bob's B1 (1) with 6 5 4 v 3, sinks the prize, cruises again and
    lands."""
    state = landing_state(B1=("bob", "Pacific:Japan", 1))
    state, _ = act(state, NavalAttack("alice", ("A1",), "B1", "normal"))
    state, _ = act(state, Roll("alice"), 6, 5, 4, 3)
    state, _ = act(state, Prize("alice", "B1"))
    assert "B1" not in state.ships
    state = cruising(state, "A1", 1, 1)
    state, _ = act(state, Attack("alice", "Japan", "normal", (("A1", 2),)))
    assert state.battle is not None and state.battle.target == "Japan"


# --- "Opposed Landings" ---------------------------------------------------------------------------


def test_one_ship_per_landing_unless_flanking():
    """'Multiple ships may attack the same territory, but only if in a flanking attack, otherwise
    one ship must mount the attack.'"""
    state = landing_state(A2=("alice", "Pacific:Japan", 4))
    state = cruising(state, "A2", 1, 1)
    for mode in ("normal", "committed"):
        error = refused(state, Attack("alice", "Japan", mode, (("A1", 2), ("A2", 2))))
        assert (error.code, error.field) == ("flanks", "flanks")


def test_several_ships_each_a_flank_in_a_flanking_landing():
    """'Flanks may include multiple separate bordering territories, and one or more ships can each
    be a flank.' Two ships commit 3 each."""
    state = landing_state(A2=("alice", "Pacific:Japan", 4))
    state = cruising(state, "A2", 1, 1)
    state, _ = act(state, Attack("alice", "Japan", "flanking", (("A1", 3), ("A2", 3))))
    battle = state.battle
    assert [(f.source, f.ship, f.standing) for f in battle.flanks] == [
        ("A1", True, 3),
        ("A2", True, 3),
    ]
    assert (state.ships["A1"].armies, state.ships["A2"].armies) == (2, 1)


def test_landing_only_within_one_boat_length():
    """'A ship may only pick up or drop off armies to a coastal territory within one boat length
    of the ship's location': New Guinea is four boat lengths from Pacific:Kamchatka (1 to Japan,
    3 on to New Guinea)."""
    state = landing_state()
    error = refused(state, Attack("alice", "New Guinea", "normal", (("A1", 2),)))
    assert (error.code, error.field) == ("out-of-reach", "flanks")


def test_normal_landing_keeps_one_army_aboard():
    """design.md: 'A ship always keeps at least one army aboard': a normal landing from a ship of 5
    sends at most 4."""
    state = landing_state()
    error = refused(state, Attack("alice", "Japan", "normal", (("A1", 5),)))
    assert (error.code, error.field) == ("armies", "flanks")
    state, _ = act(state, Attack("alice", "Japan", "normal", (("A1", 4),)))
    assert state.ships["A1"].armies == 1


def test_successful_landing_takes_the_territory_and_earns_another_cruise():
    """'If a cruise reaches ... a landing ... and the ... landing ... succeeds, the ship may go on
    another cruise.' A1 lands 4 on Japan (1): 6 5 4 v 3 wins; all 4 move in, 1 stays aboard."""
    state = landing_state()
    state.territories["Japan"].armies = 1
    state, _ = act(state, Attack("alice", "Japan", "normal", (("A1", 4),)))
    state, _ = act(state, Roll("alice"), 6, 5, 4, 3)
    assert state.battle.stage == WON
    state, events = act(state, MoveIn("alice", 4))
    assert (state.territories["Japan"].owner, state.territories["Japan"].armies) == ("alice", 4)
    ship = state.ships["A1"]
    assert (ship.armies, ship.cruising, ship.cruises) == (1, False, 1)
    assert state.turn.took_territory is True
    assert of_type(events, "conquered")[0]["from"] == "bob"
    state = cruising(state, "A1", 2, 2)
    assert state.ships["A1"].moves == 4


def test_repelled_normal_landing_earns_no_cruise_and_keeps_the_ship():
    """'... and the pick-up, landing, or battle succeeds, the ship may go on another cruise': a
    landing of 1 army beaten (1 v 6 6) ends the cruise with none earned; the ship keeps its
    crew of 4 still aboard."""
    state = landing_state()
    state, _ = act(state, Attack("alice", "Japan", "normal", (("A1", 1),)))
    state, _ = act(state, Roll("alice"), 1, 6, 6)
    assert state.battle is None
    ship = state.ships["A1"]
    assert (ship.armies, ship.cruising, ship.cruises) == (4, False, 0)
    assert refused(state, Cruise("alice", "A1"), 1, 1).code == "no-cruise"


def test_committed_landing_with_all_armies_aboard_defeated_sinks_the_ship():
    """'If the landing is a committed or flanking attack and all armies on board are defeated, the
    ship sinks.' A ship of 2 commits both against Japan (3); the defender rolls 1 die; two
    rolls, 1 1 v 6 and 1 v 6, destroy the block."""
    state = landing_state()
    state.ships["A1"].armies = 2
    state, _ = act(state, Attack("alice", "Japan", "committed", (("A1", 2),)))
    assert state.ships["A1"].armies == 0
    state, _ = act(state, Roll("alice"), 1, 1, 6)
    assert state.battle.flanks[0].standing == 1
    state, events = act(state, Roll("alice"), 1, 6)
    assert "A1" not in state.ships
    assert of_type(events, "ship_sunk") == [
        {"type": "ship_sunk", "ship": "A1", "owner": "alice", "armies": 0}
    ]
    assert state.battle is None and state.territories["Japan"].armies == 3


def test_committed_landing_lost_with_armies_still_aboard_keeps_the_ship():
    """'If the landing is a committed ... attack and all armies on board are defeated, the ship
    sinks': a ship of 5 committing 2 still has 3 aboard when the block falls."""
    state = landing_state()
    state, _ = act(state, Attack("alice", "Japan", "committed", (("A1", 2),)))
    state, _ = act(state, Roll("alice", until_decided=True), 1, 1, 6, 1, 6)
    assert state.battle is None
    assert state.ships["A1"].armies == 3 and state.ships["A1"].cruises == 0


def test_committed_landing_of_the_whole_crew_keeps_one_army_as_crew():
    """design.md: 'A ship always keeps at least one army aboard': a ship of 2 commits both to a
    committed landing on Japan (1) and wins (6 6 v 1); one of the two stays aboard as crew."""
    state = landing_state()
    state.ships["A1"].armies = 2
    state.territories["Japan"].armies = 1
    state, _ = act(state, Attack("alice", "Japan", "committed", (("A1", 2),)))
    state, _ = act(state, Roll("alice"), 6, 6, 1)
    state, _ = act(state, MoveIn("alice", 0))
    assert (state.territories["Japan"].owner, state.territories["Japan"].armies) == ("alice", 1)
    assert state.ships["A1"].armies == 1


def _flanking_landing(japan: int) -> GameState:
    """A1 (2 aboard) and Kamchatka (5) each commit 2 to a flanking attack on Japan."""
    state = landing_state()
    state.ships["A1"].armies = 2
    state.territories["Japan"].armies = japan
    flanks = (("A1", 2), ("Kamchatka", 2))
    state, _ = act(state, Attack("alice", "Japan", "flanking", flanks))
    return state


def test_flanking_landing_puts_captured_armies_on_the_ship_until_the_end_of_turn():
    """'In flanking attacks, captured land armies go onto the attacking ship' and at the end of the
    turn 'Replace any and all captured army tokens with tokens of player's own color'. Japan
    (3) rolls one die each time; 5 3 v 4 (ship), 6 5 v 2 (Kamchatka), 6 1 v 2 (ship): three
    total defeats, three captures, Japan is empty."""
    state = _flanking_landing(3)
    state, events = act(state, Roll("alice"), 5, 3, 4)
    assert of_type(events, "roll")[0]["captured"] == 1
    state, _ = act(state, Roll("alice"), 6, 5, 2)
    state, _ = act(state, Roll("alice"), 6, 1, 2)
    assert state.battle.stage == WON
    assert [(f.standing, f.captured) for f in state.battle.flanks] == [(2, 2), (2, 1)]
    state, _ = act(state, MoveIn("alice", 0))
    japan = state.territories["Japan"]
    assert (japan.owner, japan.armies) == ("alice", 3)
    ship = state.ships["A1"]
    assert (ship.armies, ship.captured) == (1, {"bob": 2})
    assert state.territories["Kamchatka"].captured == {"bob": 1}
    state, events = act(state, EndCampaign("alice"))
    assert (state.ships["A1"].armies, state.ships["A1"].captured) == (3, {})
    assert state.territories["Kamchatka"].armies == 4
    assert of_type(events, "campaign_ended")[0]["converted"] == 3


def test_flanking_ship_whose_crew_falls_is_commandeered_by_the_defender():
    """'If a flanking ship captures enemy armies, and the player's armies on the ship are destroyed
    in the attack, the defender takes control of the ship with the captured armies as its
    crew.' The ship captures one (5 3 v 4), then loses 1 1 v 6 and 1 v 6 while Kamchatka wins
    6 5 v 1 twice."""
    state = _flanking_landing(6)
    state, _ = act(state, Roll("alice"), 5, 3, 4)
    state, _ = act(state, Roll("alice"), 6, 5, 1)
    state, _ = act(state, Roll("alice"), 1, 1, 6)
    state, _ = act(state, Roll("alice"), 6, 5, 1)
    state, events = act(state, Roll("alice"), 1, 6)
    ship = state.ships["A1"]
    assert (ship.owner, ship.armies, ship.station) == ("bob", 1, "Pacific:Kamchatka")
    assert (ship.cruising, ship.cruises) == (False, 0)
    assert of_type(events, "commandeered") == [
        {"type": "commandeered", "ship": "A1", "by": "bob", "armies": 1}
    ]
    assert state.battle.flanks[0].out is True and state.battle.stage == ROLLING
    assert state.territories["Japan"].armies == 3


def test_flanking_ship_destroyed_without_captures_sinks():
    """'If all armies on a ship are destroyed, the ship sinks.' The ship loses 1 1 v 6, Kamchatka
    loses 1 1 v 6, the ship's last army falls 1 v 6: no captured army aboard, so it sinks."""
    state = _flanking_landing(6)
    state, _ = act(state, Roll("alice"), 1, 1, 6)
    state, _ = act(state, Roll("alice"), 1, 1, 6)
    state, events = act(state, Roll("alice"), 1, 6)
    assert "A1" not in state.ships
    assert [e["ship"] for e in of_type(events, "ship_sunk")] == ["A1"]
    assert state.battle.flanks[0].out is True and state.turn.phase == CAMPAIGN


def test_ship_whose_last_army_went_ashore_keeps_the_armies_it_captured():
    """'In flanking attacks, captured land armies go onto the attacking ship' (RULES.md H8: an
    empty ship is abandoned when its only army landed -- but not while it holds captives). The
    ship (2, all committed) captures one (5 3 v 4); Kamchatka's flank falls (1 1 v 6, 1 v 6);
    the ship, down to 1 (1 1 v 6), takes Japan alone (6 v 2 three times). Its last army lands;
    the captive stays aboard, nothing is lost off the books, and becomes its crew at the end
    of the turn."""
    state = _flanking_landing(4)
    books = state.armies_on_board() - sum(state.created.values()) + sum(state.lost.values())
    for rolls in ((5, 3, 4), (1, 1, 6), (1, 1, 6), (1, 6), (6, 2), (6, 2), (6, 2)):
        state, _ = act(state, Roll("alice"), *rolls)
    assert state.battle.stage == WON
    state, events = act(state, MoveIn("alice", 0))
    assert of_type(events, "ship_sunk") == []
    assert (state.territories["Japan"].owner, state.territories["Japan"].armies) == ("alice", 1)
    ship = state.ships["A1"]
    assert (ship.armies, ship.captured, ship.cruises) == (0, {"bob": 1}, 1)
    assert state.armies_on_board() - sum(state.created.values()) + sum(state.lost.values()) == (
        books
    )
    state, _ = act(state, EndCampaign("alice"))
    assert (state.ships["A1"].armies, state.ships["A1"].captured) == (1, {})


def test_a_ship_with_only_captives_aboard_cannot_fight():
    """'Captured armies on a ship do not count as crew': a ship holding only captives cannot
    engage another ship (it may still pick up a crew)."""
    state = make_state(
        territories={"Kamchatka": ("alice", 3)},
        ships={"A1": ("alice", "Pacific:Kamchatka", 0), "B1": ("bob", "Pacific:Japan", 2)},
    )
    state.ships["A1"].captured = {"bob": 1}
    state.turn.attacked.append("bob")
    state = cruising(state, "A1", 1, 1)
    error = refused(state, NavalAttack("alice", ("A1",), "B1", "normal"))
    assert (error.code, error.field) == ("no-crew", "ships")
    state, _ = act(state, Embark("alice", "A1", "Kamchatka", 2))
    assert state.ships["A1"].armies == 2
