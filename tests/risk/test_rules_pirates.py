"""Rule-book scenarios: "Sea Roving" -- a player with ships but no land plays on as a pirate.

Each test quotes the sentence of the rule text (or design.md section 5) it checks. Alice is the
pirate: no territory, ships in the Pacific. Every die is stated with ``FixedDice``.
"""

from __future__ import annotations

from risk.rules import legal_actions, pending_decisions
from risk.rules.actions import (
    Attack,
    Cruise,
    EndCampaign,
    EndTurn,
    MoveIn,
    NavalAttack,
    Place,
    Prize,
    Roll,
    TurnIn,
)
from risk.rules.engine import ActionSpec, Decision
from risk.rules.state import CAMPAIGN, END, REINFORCE, GameState
from tests.risk.builders import act, make_state, of_type, refused

CARDS = ["Japan", "Siam", "Peru"]  # three alike or one of each: some set, all bob's territories


def pirate_sea(*, turn: str = "alice", phase: str = CAMPAIGN, **extra) -> GameState:
    """Players alice (pirate: A1 of 4 and A2 of 3 off Kamchatka and Mongolia), bob (the board but
    Iceland) and carol (Iceland). Bob's B1 (2) lies off Japan."""
    return make_state(
        players=("alice", "bob", "carol"),
        territories={"Iceland": ("carol", 2)},
        rest="bob",
        ships={
            "A1": ("alice", "Pacific:Kamchatka", 4),
            "A2": ("alice", "Pacific:Mongolia", 3),
            "B1": ("bob", "Pacific:Japan", 2),
        },
        turn=turn,
        phase=phase,
        **extra,
    )


def alices_turn(state: GameState) -> tuple[GameState, list[dict]]:
    """Bob ends his turn; carol's is skipped past by playing it to its end; alice's starts."""
    state, _ = act(state, EndTurn("bob"))
    assert state.turn.seat == "carol"
    state, _ = act(state, Place("carol", "Iceland", state.turn.to_place))
    state, _ = act(state, EndCampaign("carol"))
    return act(state, EndTurn("carol"))


# --- playing on -----------------------------------------------------------------------------------


def test_a_player_with_ships_but_no_land_plays_on():
    """'If all of a player's land armies are destroyed, but they still have ships at sea, they may
    continue to play, effectively as a pirate.'"""
    state, events = alices_turn(pirate_sea(turn="bob", phase=END))
    assert state.seat("alice").alive and state.owned("alice") == []
    assert (state.turn.seat, state.turn.phase, state.turn.to_place) == ("alice", REINFORCE, 0)
    assert of_type(events, "turn_started")[-1]["reinforcements"] == 0
    assert [(s.id, s.cruises) for s in state.ships_of("alice")] == [("A1", 1), ("A2", 1)]
    state, _ = act(state, Cruise("alice", "A1"), 2, 3)
    assert state.turn.phase == CAMPAIGN and state.ships["A1"].moves == 5


def test_a_pirate_cannot_turn_in_cards():
    """'They cannot reinforce however ... since ships may only embark troops from a friendly land
    territory': no card turn-in."""
    state = pirate_sea(phase=REINFORCE, risk_hands={"alice": CARDS})
    error = refused(state, TurnIn("alice", tuple(CARDS), "armies"), 3, 4)
    assert error.code == "pirate"
    assert refused(state, Place("alice", "Japan", 1)).code == "not-yours"


def test_a_pirate_is_not_forced_to_turn_in_five_cards():
    """'They cannot reinforce': holding five cards does not hold the pirate's campaign up."""
    hand = [*CARDS, "Brazil", "wild"]
    state = pirate_sea(phase=REINFORCE, risk_hands={"alice": hand})
    state, _ = act(state, Cruise("alice", "A1"), 1, 1)
    assert state.turn.phase == CAMPAIGN and state.seat("alice").risk_cards == hand


def test_a_pirate_cannot_reinforce_from_poker_winnings():
    """'They cannot reinforce however, even from the winnings from a poker hand': alice's pot of 6
    stays counted out for later; her turn brings no armies."""
    state = pirate_sea(turn="bob", phase=END)
    state.seat("alice").pot = 6
    state, events = alices_turn(state)
    started = of_type(events, "turn_started")[-1]
    assert (started["reinforcements"], started["from_pot"]) == (0, False)
    assert state.turn.to_place == 0 and state.seat("alice").pot == 6


def test_a_pirate_without_a_pot_is_not_asked_to_contest():
    """'One or more other players may contest this, provided they hold at least one poker card'
    (design.md: 'ante 1'): alice holds a card but stands to get no armies, so bob's declaration
    passes unchallenged."""
    state = make_state(
        players=("alice", "bob"),
        allies=("green",),
        territories={"Iceland": ("bob", 2)},
        ships={"A1": ("alice", "Pacific:Kamchatka", 4)},
        poker_hands={"alice": ("Ah",)},
        turn="bob",
        phase=END,
    )
    state, _ = act(state, EndTurn("bob", ally="green"))
    assert state.contest is None and (state.turn.seat, state.turn.for_seat) == ("green", "bob")


# --- attacking ------------------------------------------------------------------------------------


def test_a_pirate_may_attack_other_ships():
    """'Pirates may attack other ships': A1 (4) engages B1 (2); bob's first attack this turn cuts
    the deck (2 cards: the first, Japan, is bob's: a die of 3 there)."""
    state = pirate_sea()
    state.risk_deck.draw = ["Japan", "Iceland"]
    state, _ = act(state, Cruise("alice", "A1"), 1, 1)
    state, events = act(state, NavalAttack("alice", ("A1",), "B1", "normal"), 1, 3)
    assert of_type(events, "cut")[0]["armies"] == 3
    state, _ = act(state, Roll("alice"), 6, 2, 1, 4, 3)
    assert (state.battle.flanks[0].standing, state.ships["B1"].armies) == (3, 1)


def test_a_pirate_may_land_and_take_a_territory():
    """'Pirates may ... attempt opposed landings.' B1 elsewhere (Arctic); A1 (4) lands 3 on Japan
    (1): 6 5 4 v 3. Alice holds land again and draws her cards at the end of the campaign."""
    state = pirate_sea()
    state.ships["B1"].station = "Arctic:Kamchatka"
    state.turn.attacked.append("bob")
    state.territories["Japan"].armies = 1
    state, _ = act(state, Cruise("alice", "A1"), 1, 1)
    state, _ = act(state, Attack("alice", "Japan", "normal", (("A1", 3),)))
    state, _ = act(state, Roll("alice"), 6, 5, 4, 3)
    state, _ = act(state, MoveIn("alice", 3))
    assert state.owned("alice") == ["Japan"] and state.territories["Japan"].armies == 3
    assert state.ships["A1"].armies == 1
    state, events = act(state, EndCampaign("alice"))
    drawn = of_type(events, "cards_drawn")[0]
    assert (drawn["seat"], drawn["risk"], drawn["poker"]) == ("alice", 1, 1)


def test_a_flanking_pirate_adds_captured_armies_to_its_crews():
    """'If successfully attacking enemy ships in a flanking attack, they may capture enemy troops
    to be added to their own crews.' A1 and A2 each commit 2 against B1 (2): 5 3 v 4 captures
    one (B1 then survives its sink roll, 6 v 1); 6 5 v 2 captures the other and empties B1,
    which is sunk; at the end of the turn each crew takes in its captive."""
    state = pirate_sea()
    state.turn.attacked.append("bob")
    state, _ = act(state, Cruise("alice", "A1"), 1, 1)
    state, _ = act(state, Cruise("alice", "A2"), 1, 1)
    state, _ = act(state, NavalAttack("alice", ("A1", "A2"), "B1", "flanking", armies=2))
    state, _ = act(state, Roll("alice"), 5, 3, 4, 6, 1)
    state, _ = act(state, Roll("alice"), 6, 5, 2)
    state, _ = act(state, Prize("alice", "B1"))
    assert [(s.armies, s.captured) for s in state.ships_of("alice")] == [
        (4, {"bob": 1}),
        (3, {"bob": 1}),
    ]
    state, events = act(state, EndCampaign("alice"))
    assert [(s.armies, s.captured) for s in state.ships_of("alice")] == [(5, {}), (4, {})]
    assert of_type(events, "campaign_ended")[0]["converted"] == 2


# --- out of the game ------------------------------------------------------------------------------


def test_a_pirate_whose_last_ship_sinks_in_a_landing_is_out():
    """'If all of a pirate's ships are ... sunk or captured in an attempted landing, the player is
    out of the game and may choose to play a still-active allied army, if any.' Alice's only
    ship (2) commits both to land on Japan (3) and loses 1 1 v 6, 1 v 6. Nobody beat her at
    sea, so her cards go to the discards (RULES.md); bob, after her, plays."""
    state = make_state(
        players=("alice", "bob", "carol"),
        allies=("green",),
        territories={"Iceland": ("carol", 2), "Japan": ("bob", 3)},
        rest="green",
        ships={"A1": ("alice", "Pacific:Kamchatka", 2)},
        risk_hands={"alice": ["Peru"]},
    )
    state.turn.attacked.append("bob")
    state, _ = act(state, Cruise("alice", "A1"), 1, 1)
    state, _ = act(state, Attack("alice", "Japan", "committed", (("A1", 2),)))
    state, _ = act(state, Roll("alice"), 1, 1, 6)
    state, events = act(state, Roll("alice"), 1, 6)
    assert of_type(events, "eliminated") == [{"type": "eliminated", "seat": "alice", "by": None}]
    assert not state.seat("alice").alive and state.ships_of("alice") == []
    assert "Peru" in state.risk_deck.discard
    assert state.turn.seat == "bob"
    assert ActionSpec("join", {"allies": ["green"]}) in legal_actions(state, "alice")


def test_a_pirate_whose_last_ship_is_defeated_at_sea_is_out():
    """'If all of a pirate's ships are defeated at sea ... the player is out of the game'; design
    .md: 'Eliminating a player gives the victor its cards.' Bob's B1 (4) empties alice's A1 (1)
    with 6 5 4 v 3 and sinks it; a pirate has no land for a mobilization bonus: no cut."""
    state = make_state(
        players=("alice", "bob", "carol"),
        territories={"Iceland": ("carol", 2)},
        rest="bob",
        ships={"A1": ("alice", "Pacific:Kamchatka", 1), "B1": ("bob", "Pacific:Japan", 4)},
        risk_hands={"alice": ["Peru", "wild"]},
        poker_hands={"alice": ["Ah"]},
        turn="bob",
    )
    state, _ = act(state, Cruise("bob", "B1"), 1, 1)
    state, events = act(state, NavalAttack("bob", ("B1",), "A1", "normal"))
    assert of_type(events, "cut") == [] and state.turn.attacked == ["alice"]
    state, _ = act(state, Roll("bob"), 6, 5, 4, 3)
    state, events = act(state, Prize("bob", "A1"))
    assert of_type(events, "eliminated") == [
        {"type": "eliminated", "seat": "alice", "by": "bob", "risk_cards": 2, "poker_cards": 1,
         "poker_to": "bob"}
    ]  # fmt: skip
    assert state.seat("bob").risk_cards == ["Peru", "wild"]
    assert state.seat("bob").poker_cards == ["Ah"]
    assert pending_decisions(state) == [Decision("bob", "bob", CAMPAIGN)]


# --- back on land ---------------------------------------------------------------------------------


def test_a_pirate_that_landed_reinforces_next_turn_with_the_usual_bonuses():
    """'If a pirate makes a successful landing and captures one or more territories, on their next
    turn they may reinforce that territory with the usual bonuses': one territory, 3 armies."""
    state = pirate_sea(turn="bob", phase=END)
    state.territories["Japan"].owner = "alice"
    state, events = alices_turn(state)
    started = of_type(events, "turn_started")[-1]
    assert (started["seat"], started["reinforcements"], started["from_pot"]) == ("alice", 3, False)
    state, _ = act(state, Place("alice", "Japan", 3))
    assert state.territories["Japan"].armies == 4


def test_a_pirate_that_landed_plays_its_poker_winnings():
    """'... on their next turn they may reinforce that territory with the usual bonuses, including
    any poker winnings still held': the pot kept from before stands for the turn's bonus, as
    for any player ('they will not get these armies on their turn' when counted out)."""
    state = pirate_sea(turn="bob", phase=END)
    state.territories["Japan"].owner = "alice"
    state.seat("alice").pot = 6
    state, events = alices_turn(state)
    started = of_type(events, "turn_started")[-1]
    assert (started["reinforcements"], started["from_pot"]) == (6, True)
    assert state.seat("alice").pot is None
