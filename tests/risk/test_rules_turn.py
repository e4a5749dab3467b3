"""Rule-book scenarios: "Reënforcing at Start of Turn", "Card Turn-in" and "End of Player Turn".

Each test quotes the sentence of the rule text (or design.md section 5) it checks. A turn's
reinforcements are counted when the previous player's ``EndTurn`` starts it, so the bonus tests
end bob's turn and read alice's ``turn_started`` event.
"""

from __future__ import annotations

import pytest

from combat.dice import FixedDice
from risk.rules import IllegalAction, apply
from risk.rules.actions import (
    Attack,
    Discard,
    EndCampaign,
    EndTurn,
    Place,
    PlaceFactory,
    PlaceShip,
    Transfer,
    TurnIn,
)
from risk.rules.board import Event
from risk.rules.state import CAMPAIGN, END, REINFORCE, GameState, Holding
from tests.risk.builders import act, make_state, of_type

# Twelve territories completing no continent (North America and Asia stay incomplete).
TWELVE = (
    "Alaska",
    "Alberta",
    "Ontario",
    "Quebec",
    "Greenland",
    "Iceland",
    "Scandinavia",
    "Ural",
    "Siberia",
    "Yakutsk",
    "Irkutsk",
    "Mongolia",
)
AUSTRALIA = ("Indonesia", "New Guinea", "Western Australia", "Eastern Australia")
ASIA = (
    "Ural",
    "Siberia",
    "Yakutsk",
    "Kamchatka",
    "Irkutsk",
    "Mongolia",
    "Japan",
    "Afghanistan",
    "China",
    "India",
    "Siam",
    "Middle East",
)


def _refused(state: GameState, action, *rolls: int) -> str:
    with pytest.raises(IllegalAction) as error:
        apply(state, action, FixedDice(list(rolls)))
    return error.value.code


def _alice_starts(**kwargs) -> tuple[GameState, Event]:
    """Bob ends his turn; alice's turn starts: her state and its ``turn_started`` event."""
    state = make_state(turn="bob", phase=END, **kwargs)
    state, events = act(state, EndTurn("bob"))
    (started,) = of_type(events, "turn_started")
    assert started["seat"] == "alice"
    return state, started


def _mine(names, armies: int = 1) -> dict[str, tuple[str, int]]:
    return {name: ("alice", armies) for name in names}


# --- territory and continent bonuses --------------------------------------------------------------


def test_territory_bonus_eleven_territories_gives_the_minimum_three():
    """'Territory bonus (divide number of territories by three, minimum of three)': 11 // 3 = 3."""
    state, started = _alice_starts(territories=_mine(TWELVE[:11]))
    assert started["reinforcements"] == 3
    assert state.turn.to_place == 3
    assert state.turn.phase == REINFORCE


def test_territory_bonus_twelve_territories_gives_four():
    """'Territory bonus (divide number of territories by three, minimum of three)': 12 / 3 = 4."""
    state, started = _alice_starts(territories=_mine(TWELVE))
    assert started["reinforcements"] == 4
    assert state.turn.to_place == 4


def test_territory_bonus_minimum_three_for_two_territories():
    """'... minimum of three': 2 territories still give 3 armies."""
    _, started = _alice_starts(territories=_mine(("Alaska", "Peru")))
    assert started["reinforcements"] == 3


def test_pirate_gets_no_territory_bonus():
    """'If all of a player's land armies are destroyed, but they still have ships at sea ...
    They cannot reinforce however': no territory, no bonus (not even the minimum of three)."""
    state, started = _alice_starts(
        ships={"S1": ("alice", "Pacific:Japan", 3)},
        allies=("green",),
        territories={"Iceland": ("green", 2)},
        rest="bob",
    )
    assert started["reinforcements"] == 0
    assert state.turn.to_place == 0


def test_continent_bonus_australia_two():
    """'Continent bonuses': Australia (4 territories) gives 3 + 2 = 5."""
    _, started = _alice_starts(territories=_mine(AUSTRALIA))
    assert started["reinforcements"] == 5


def test_continent_bonus_asia_seven_on_top_of_twelve_territories():
    """'Continent bonuses': all of Asia, 12 territories: 12 / 3 = 4 plus 7 = 11."""
    _, started = _alice_starts(territories=_mine(ASIA))
    assert started["reinforcements"] == 11


def test_two_continent_bonuses_add_up():
    """'Continent bonuses': South America (2) and Africa (3), 10 territories: 3 + 2 + 3 = 8."""
    south_america = ("Venezuela", "Peru", "Brazil", "Argentina")
    africa = ("North Africa", "Egypt", "East Africa", "Congo", "South Africa", "Madagascar")
    _, started = _alice_starts(territories=_mine(south_america + africa))
    assert started["reinforcements"] == 8


def test_incomplete_continent_gives_no_bonus():
    """'Continent bonuses': three of Australia's four territories give only the minimum 3."""
    _, started = _alice_starts(territories=_mine(AUSTRALIA[:3]))
    assert started["reinforcements"] == 3


def test_two_armies_per_factory_on_the_factory_territory():
    """'2 armies per factory (on the factory territory)': placed there at once, apart from the
    armies the player deploys."""
    state, started = _alice_starts(
        territories={"Alaska": ("alice", 3), "Peru": ("alice", 1), "Japan": ("alice", 4)},
        factories=("Alaska", "Peru", "Egypt"),  # Egypt is bob's: not alice's factory
    )
    assert [state.territories[t].armies for t in ("Alaska", "Peru", "Japan")] == [5, 3, 4]
    assert state.territories["Egypt"].armies == 1
    assert started["factory_armies"] == 4
    assert state.turn.to_place == 3


def test_pot_replaces_the_territory_and_continent_bonus():
    """'They count out all of the armies they stand to get at their next turns. This means they
    will not get these armies on their turn': a counted pot (9 after poker winnings) is used
    instead of the bonus of 3 + 2 (Australia); the factory armies still come."""
    state = make_state(turn="bob", phase=END, territories=_mine(AUSTRALIA, 2),
                       factories=("Indonesia",))  # fmt: skip
    state.seat("alice").pot = 9
    state, events = act(state, EndTurn("bob"))
    (started,) = of_type(events, "turn_started")
    assert (started["reinforcements"], started["from_pot"], started["factory_armies"]) == (
        9,
        True,
        2,
    )
    assert state.turn.to_place == 9
    assert state.seat("alice").pot is None
    assert state.territories["Indonesia"].armies == 4


def test_pot_lost_at_poker_leaves_only_factory_armies():
    """'Note that if a player loses everything at poker, they shall have no armies to play with
    at their next turn, except for factory bonuses, if any.'"""
    state = make_state(turn="bob", phase=END, territories=_mine(AUSTRALIA, 2),
                       factories=("Indonesia",))  # fmt: skip
    state.seat("alice").pot = 0
    state, events = act(state, EndTurn("bob"))
    (started,) = of_type(events, "turn_started")
    assert (started["reinforcements"], started["factory_armies"]) == (0, 2)
    assert state.turn.to_place == 0
    assert state.territories["Indonesia"].armies == 4


# --- card turn-in -------------------------------------------------------------------------------


def _turn_in_state(**kwargs) -> GameState:
    """Alice in her reinforcement phase holding three infantry: Alaska, Argentina, China."""
    options = {
        "territories": {"Alaska": ("alice", 3), "China": ("alice", 2), "Peru": ("alice", 1)},
        "risk_hands": {"alice": ["Alaska", "Argentina", "China"]},
        "phase": REINFORCE,
    }
    return make_state(**{**options, **kwargs})


def test_turn_in_armies_two_dice_plus_two_per_owned_card_territory():
    """'Armies equal to two dice rolls ... ALONG WITH two armies for each card territory owned by
    player, on that territory': 4 + 5 = 9 to place; Alaska and China (owned) get 2 each,
    Argentina (bob's) nothing."""
    state = _turn_in_state()
    state, events = act(state, TurnIn("alice", ("Alaska", "Argentina", "China"), "armies"), 4, 5)
    assert state.turn.to_place == 9
    assert (state.territories["Alaska"].armies, state.territories["China"].armies) == (5, 4)
    assert state.territories["Argentina"].armies == 1
    assert state.seat("alice").risk_cards == []
    assert state.risk_deck.discard == ["Alaska", "Argentina", "China"]
    (event,) = of_type(events, "turned_in")
    assert event["rolls"] == [4, 5]
    assert event["territory_bonus"] == {"Alaska": 2, "China": 2}


def test_turn_in_with_a_wild_card():
    """design.md: 'Card turn-in = a standard Risk set (three alike, one of each, or two + a
    wild)'. A wild shows no territory, so no 2 armies for it."""
    state = _turn_in_state(risk_hands={"alice": ["Alaska", "Brazil", "wild"]})
    state, events = act(state, TurnIn("alice", ("Alaska", "Brazil", "wild"), "armies"), 6, 6)
    assert state.turn.to_place == 12
    assert state.territories["Alaska"].armies == 5
    assert of_type(events, "turned_in")[0]["territory_bonus"] == {"Alaska": 2}


def test_turn_in_not_a_set_refused():
    """design.md: 'a standard Risk set (three alike, one of each, or two + a wild)': infantry,
    infantry, cavalry is none."""
    state = _turn_in_state(risk_hands={"alice": ["Alaska", "Argentina", "Alberta"]})
    assert _refused(state, TurnIn("alice", ("Alaska", "Argentina", "Alberta"), "armies")) == (
        "card-set"
    )


def test_turn_in_factory_placed_at_end_of_turn():
    """'A factory (to be placed at the end of turn)': won now, placed after the campaign, on an
    own territory without one (design.md: 'One factory per territory'); the turn cannot end
    before."""
    state = _turn_in_state(factories=("Alaska",))
    state, events = act(state, TurnIn("alice", ("Alaska", "Argentina", "China"), "factory"))
    assert (state.turn.factories_to_place, state.turn.to_place) == (1, 0)
    assert of_type(events, "turned_in")[0]["rolls"] == []
    assert _refused(state, PlaceFactory("alice", "China")) == "wrong-phase"
    state, _ = act(state, EndCampaign("alice"))
    assert _refused(state, EndTurn("alice")) == "place-factory"
    assert _refused(state, PlaceFactory("alice", "Alaska")) == "territory"  # has one already
    assert _refused(state, PlaceFactory("alice", "Argentina")) == "territory"  # bob's
    state, events = act(state, PlaceFactory("alice", "China"))
    assert state.territories["China"].factory and state.turn.factories_to_place == 0
    assert of_type(events, "factory_built") == [
        {"type": "factory_built", "seat": "alice", "territory": "China"}
    ]
    state, _ = act(state, EndTurn("alice"))
    assert state.turn.seat == "bob"


def test_turn_in_ship_with_one_die_at_an_own_coast():
    """'A ship with one die roll worth of armies on board to be placed in an ocean bordering one
    of the player's territories': a die of 4, launched off Alaska in the Arctic."""
    state = _turn_in_state()
    state, _ = act(state, TurnIn("alice", ("Alaska", "Argentina", "China"), "ship"), 4)
    assert state.turn.ships_to_place == [4]
    assert _refused(state, EndCampaign("alice")) == "place-first"
    assert _refused(state, PlaceShip("alice", "Atlantic:Brazil")) == "station"  # bob's coast
    state, events = act(state, PlaceShip("alice", "Arctic:Alaska"))
    (ship,) = state.ships_of("alice")
    assert (ship.station, ship.armies) == ("Arctic:Alaska", 4)
    assert of_type(events, "ship_launched")[0]["armies"] == 4
    assert state.turn.ships_to_place == []


def test_no_shipbuilding_without_a_coastline():
    """'(if no territories have a coastline, no shipbuilding is allowed)': Afghanistan and
    Irkutsk are both inland."""
    state = _turn_in_state(
        territories={"Afghanistan": ("alice", 3), "Irkutsk": ("alice", 3)},
    )
    assert _refused(state, TurnIn("alice", ("Alaska", "Argentina", "China"), "ship"), 4) == (
        "no-coast"
    )


def test_five_cards_force_a_turn_in_before_the_campaign():
    """design.md: 'mandatory when holding 5+ at the start of the turn': no attack, no end of
    the campaign until a set is turned in."""
    hand = ["Alaska", "Argentina", "China", "Peru", "Japan"]
    state = _turn_in_state(risk_hands={"alice": hand}, territories={"Alaska": ("alice", 5)})
    attack = Attack("alice", "Kamchatka", "normal", (("Alaska", 3),))
    assert _refused(state, attack) == "must-turn-in"
    assert _refused(state, EndCampaign("alice")) == "must-turn-in"
    state, _ = act(state, TurnIn("alice", ("Alaska", "Argentina", "China"), "armies"), 1, 1)
    state, _ = act(state, Place("alice", "Alaska", 2))
    state, _ = act(state, EndCampaign("alice"))
    assert state.turn.phase == END
    assert state.seat("alice").risk_cards == ["Peru", "Japan"]


def test_four_cards_do_not_force_a_turn_in():
    """design.md: 'mandatory when holding 5+': four cards may be kept."""
    hand = ["Alaska", "Argentina", "China", "Peru"]
    state = _turn_in_state(risk_hands={"alice": hand})
    state, _ = act(state, EndCampaign("alice"))
    assert state.turn.phase == END
    assert state.seat("alice").risk_cards == hand


def test_turn_in_only_in_the_reinforcement_phase():
    """'Reënforcing at Start of Turn ... 4. Card turn-in': not in the middle of the campaign."""
    state = _turn_in_state(phase=CAMPAIGN)
    assert _refused(state, TurnIn("alice", ("Alaska", "Argentina", "China"), "armies")) == (
        "wrong-phase"
    )


# --- deploying reinforcements --------------------------------------------------------------------


def _to_place(armies: int) -> GameState:
    state = make_state(
        phase=REINFORCE,
        territories={"Alaska": ("alice", 1), "Japan": ("alice", 1)},
        ships={"S1": ("alice", "Pacific:Alaska", 2)},
    )
    state.turn.to_place = armies
    return state


def test_reinforcements_deployed_on_any_own_territory():
    """'Armies may be deployed to any territory held by the player.'"""
    state = _to_place(5)
    state, _ = act(state, Place("alice", "Alaska", 2))
    state, events = act(state, Place("alice", "Japan", 3))
    assert (state.territories["Alaska"].armies, state.territories["Japan"].armies) == (3, 4)
    assert state.turn.to_place == 0
    assert of_type(events, "placed") == [
        {"type": "placed", "seat": "alice", "territory": "Japan", "armies": 3}
    ]


def test_reinforcements_never_placed_on_a_ship():
    """'... but may not be deployed directly to a ship': Place takes a territory, not a ship."""
    state = _to_place(5)
    assert _refused(state, Place("alice", "S1", 2)) == "territory"
    assert state.ships["S1"].armies == 2


def test_reinforcements_not_on_anothers_territory():
    """'Armies may be deployed to any territory held by the player' -- only those."""
    assert _refused(_to_place(5), Place("alice", "Kamchatka", 2)) == "not-yours"


@pytest.mark.parametrize("armies", [0, 6, -1])
def test_place_between_one_and_the_armies_left(armies):
    """'At the start of every turn ... a player gets' so many armies: no more, and at least 1 a
    placement."""
    assert _refused(_to_place(5), Place("alice", "Alaska", armies)) == "armies"


def test_reinforcements_placed_before_the_campaign():
    """'Reënforcing at Start of Turn' comes before the campaign: an attack with armies left to
    place is refused."""
    state = _to_place(1)
    state.territories["Alaska"].armies = 4
    attack = Attack("alice", "Kamchatka", "normal", (("Alaska", 3),))
    assert _refused(state, attack) == "place-first"


# --- the end of the turn -------------------------------------------------------------------------


def _ending(took: bool, **kwargs) -> GameState:
    options = {
        "territories": {"Alaska": ("alice", 5), "Alberta": ("alice", 1), "Ontario": ("alice", 1),
                        "Peru": ("alice", 3)},
        "risk_draw": ["Japan", "Egypt"],
        "poker_draw": ["Ah", "Kd"],
        "poker_hands": {"alice": ["2c"]},
    }  # fmt: skip
    state = make_state(**{**options, **kwargs})
    state.turn.took_territory = took
    return state


def test_cards_drawn_at_end_of_turn_if_territory_taken():
    """'Draw a Risk card and a poker card (if territory taken)': the top card of each deck."""
    state, events = act(_ending(True), EndCampaign("alice"))
    assert state.seat("alice").risk_cards == ["Japan"]
    assert state.seat("alice").poker_cards == ["2c", "Ah"]
    assert (state.risk_deck.draw, state.poker_deck.draw) == (["Egypt"], ["Kd"])
    (drawn,) = of_type(events, "cards_drawn")
    assert (drawn["seat"], drawn["risk"], drawn["poker"]) == ("alice", 1, 1)


def test_no_cards_without_a_territory_taken():
    """'Draw a Risk card and a poker card (if territory taken)': none taken, none drawn."""
    state, events = act(_ending(False), EndCampaign("alice"))
    assert state.seat("alice").risk_cards == []
    assert state.seat("alice").poker_cards == ["2c"]
    assert of_type(events, "cards_drawn") == []
    assert state.turn.phase == END


def test_captured_armies_converted_at_end_of_turn():
    """'Replace any and all captured army tokens with tokens of player's own color': Alaska held
    2 of bob's captured armies; they become alice's."""
    state = _ending(False)
    state.territories["Alaska"] = Holding("alice", 5, captured={"bob": 2})
    state, events = act(state, EndCampaign("alice"))
    assert (state.territories["Alaska"].armies, state.territories["Alaska"].captured) == (7, {})
    assert of_type(events, "campaign_ended")[0]["converted"] == 2


def test_single_transfer_through_contiguous_own_territory():
    """'Make a single troop transfer of one or more armies through contiguous territory': Alaska
    to Ontario through Alberta, then no second transfer."""
    state, _ = act(_ending(False), EndCampaign("alice"))
    state, events = act(state, Transfer("alice", "Alaska", "Ontario", 4))
    assert [state.territories[t].armies for t in ("Alaska", "Alberta", "Ontario")] == [1, 1, 5]
    assert of_type(events, "transferred")[0]["armies"] == 4
    assert _refused(state, Transfer("alice", "Ontario", "Alberta", 1)) == "transferred"


def test_transfer_not_through_enemy_territory():
    """'... through contiguous territory': Alaska and Peru are both alice's but not connected
    through her own territories."""
    state, _ = act(_ending(False), EndCampaign("alice"))
    assert _refused(state, Transfer("alice", "Alaska", "Peru", 2)) == "not-connected"


def test_transfer_leaves_an_army_behind():
    """'Make a single troop transfer of one or more armies': the source stays held (one stays)."""
    state, _ = act(_ending(False), EndCampaign("alice"))
    assert _refused(state, Transfer("alice", "Alaska", "Alberta", 5)) == "armies"
    assert _refused(state, Transfer("alice", "Alaska", "Alberta", 0)) == "armies"


def test_transfer_only_at_the_end_of_the_turn():
    """'End of Player Turn ... 4. Make a single troop transfer': not during the campaign."""
    assert _refused(_ending(False), Transfer("alice", "Alaska", "Alberta", 2)) == "wrong-phase"


def test_more_than_five_poker_cards_discarded_down_to_five():
    """'If a player has more than five poker cards at the end of their turn, they must discard
    some to get their stash down to five.' Five held, one drawn for a conquest: one to go."""
    hand = ["2c", "3c", "4c", "5c", "6c"]
    state, _ = act(_ending(True, poker_hands={"alice": hand}), EndCampaign("alice"))
    assert len(state.seat("alice").poker_cards) == 6
    assert _refused(state, EndTurn("alice")) == "discard"
    assert _refused(state, Discard("alice", ("2c", "3c"))) == "cards"  # two is one too many
    assert _refused(state, Discard("alice", ("Qh",))) == "cards"  # not hers
    state, events = act(state, Discard("alice", ("3c",)))
    assert state.seat("alice").poker_cards == ["2c", "4c", "5c", "6c", "Ah"]
    assert state.poker_deck.discard == ["3c"]
    assert of_type(events, "discarded") == [{"type": "discarded", "seat": "alice", "count": 1}]
    assert _refused(state, Discard("alice", ("2c",))) == "no-discard"
    state, _ = act(state, EndTurn("alice"))
    assert state.turn.seat == "bob"


def test_end_turn_only_after_the_campaign():
    """'End of Player Turn' follows the campaign: EndTurn in the campaign phase is refused."""
    assert _refused(_ending(False), EndTurn("alice")) == "wrong-phase"


def _three(turn: str) -> GameState:
    return make_state(
        players=("alice", "bob", "carol"),
        allies=("ally-1",),
        territories={"Alaska": ("alice", 2), "Peru": ("bob", 2), "Japan": ("carol", 2)},
        turn=turn,
        phase=END,
    )


def test_end_turn_passes_to_the_next_player():
    """'End of Player Turn': the next player in turn order starts; the allied armies (ally-1
    holds the rest of the board) take no turn of their own."""
    state, events = act(_three("alice"), EndTurn("alice"))
    assert (state.turn.seat, state.turn.phase, state.round) == ("bob", REINFORCE, 1)
    assert [e["type"] for e in events] == ["turn_ended", "turn_started"]


def test_end_turn_skips_an_eliminated_player():
    """'End of Player Turn': an eliminated player (bob) has no more turns."""
    state = _three("alice")
    state.territories["Peru"].owner = "ally-1"
    state.seat("bob").alive = False
    state, _ = act(state, EndTurn("alice"))
    assert state.turn.seat == "carol"


def test_new_round_after_the_last_player():
    """'At the start of every turn': after the last player, the first plays again in a new
    round."""
    state, _ = act(_three("carol"), EndTurn("carol"))
    assert (state.turn.seat, state.round) == ("alice", 2)
